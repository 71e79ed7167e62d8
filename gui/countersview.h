#pragma once

#include <QList>
#include <QMap>
#include <QPointF>
#include <QWidget>

class QLabel;

QT_BEGIN_NAMESPACE
class QChartView;
class QLineSeries;
QT_END_NAMESPACE

namespace bpflens {

class SessionModel;
class ViewState;

// Counters over time, limited to the visible range: the page cache's (one line per counter:
// hits, misses, dirtied, ...; the hit ratio on its own chart), tcpretrans' retransmits per
// connection, tcpconnect's connects per destination and uprobe's calls per key (the
// connections, destinations or keys with the most in the range, the others summed).
class CountersView : public QWidget
{
    Q_OBJECT
public:
    CountersView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);

    QChartView *countsChart() const { return m_counts; }
    QChartView *ratioChart() const { return m_ratio; }
    QChartView *retransmitsChart() const { return m_retransmits; }
    QChartView *connectsChart() const { return m_connects; }
    QChartView *callsChart() const { return m_calls; }
    QChartView *hitsChart() const { return m_hits; }
    static constexpr int MaxConnectionLines = 8;
    static QString otherConnectionsName();
    static QString otherDestinationsName();
    static QString otherKeysName();
    // The series for one counter name ("hits"), or null.
    QLineSeries *series(const QString &name) const;

public Q_SLOTS:
    void refresh();

private:
    // Keeps the MaxConnectionLines lines with the largest totals, the others summed per time
    // into one named other.
    static void keepBusiest(QMap<QString, QList<QPointF>> &lines,
                            const QHash<QString, double> &totals, const QString &other);
    void fill(QChartView *view, const QMap<QString, QList<QPointF>> &lines, const QString &title,
              const QString &yTitle, bool percent);

    SessionModel *m_session;
    ViewState *m_state;
    QLabel *m_placeholder;
    QChartView *m_counts;
    QChartView *m_ratio;
    QChartView *m_retransmits;
    QChartView *m_connects;
    QChartView *m_calls;
    QChartView *m_hits;
};

} // namespace bpflens
