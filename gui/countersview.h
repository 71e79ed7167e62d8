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
// hits, misses, dirtied, ...; the hit ratio on its own chart) and tcpretrans' retransmits per
// connection (the connections with the most in the range, the others summed).
class CountersView : public QWidget
{
    Q_OBJECT
public:
    CountersView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);

    QChartView *countsChart() const { return m_counts; }
    QChartView *ratioChart() const { return m_ratio; }
    QChartView *retransmitsChart() const { return m_retransmits; }
    static constexpr int MaxConnectionLines = 8;
    static QString otherConnectionsName();
    // The series for one counter name ("hits"), or null.
    QLineSeries *series(const QString &name) const;

public Q_SLOTS:
    void refresh();

private:
    void fill(QChartView *view, const QMap<QString, QList<QPointF>> &lines, const QString &title,
              const QString &yTitle, bool percent);

    SessionModel *m_session;
    ViewState *m_state;
    QLabel *m_placeholder;
    QChartView *m_counts;
    QChartView *m_ratio;
    QChartView *m_retransmits;
};

} // namespace bpflens
