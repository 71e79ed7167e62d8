#pragma once

#include <QList>
#include <QMap>
#include <QPointF>
#include <QWidget>

class QGridLayout;
class QLabel;
class QTimer;

QT_BEGIN_NAMESPACE
class QChartView;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace bpflens {

struct ProbeInfo;
class SessionModel;
class TimeAxisGroup;
class ViewState;

// Counters over time, limited to the visible range, as the probes declare them
// (core/probes/<id>.h): the page cache's (one line per counter: hits, misses, dirtied, ...; the
// hit ratio on its own chart: ProbeCounterCharts), and a chart per probe that counts per key
// (ProbeKeyedCounts): tcpretrans' retransmits per connection, tcpconnect's connects per
// destination, uprobe's calls, usdt's and tpcount's hits per key (the connections,
// destinations or keys with the most in the range, the others summed).
class CountersView : public QWidget
{
    Q_OBJECT
public:
    CountersView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);

    QChartView *countsChart() const { return m_counts; }
    QChartView *ratioChart() const { return m_ratio; }
    // The chart of a probe that counts per key (ProbeKeyedCounts), or null.
    QChartView *keyedChart(const QString &probeId) const;
    static constexpr int MaxConnectionLines = 8;
    static QString otherConnectionsName();
    static QString otherDestinationsName();
    static QString otherKeysName();
    // The page cache's counter ("hits") as its legend names it, translated.
    static QString cacheCounterTitle(const QString &name);
    // The series for one counter name ("hits"), or null.
    QLineSeries *series(const QString &name) const;
    // Where a chart's plot spans, in the chart view's coordinates: the timeline's plot
    // (TimeAxisGroup), once aligned.
    QPair<double, double> plotSpan(QChartView *view) const;

public Q_SLOTS:
    void refresh();

private:
    // A probe whose counters are counts per key (a connection, a destination, an argument),
    // drawn as one line per key; its loss counters (keysFull, ...) are not keys.
    struct KeyedChart
    {
        const ProbeInfo *info;
        QString title;
        QString yTitle;
        QString otherName;
        QChartView *view;
    };

    QList<QChartView *> allCharts() const;
    // Keeps the MaxConnectionLines lines with the largest totals, the others summed per time
    // into one named other.
    static void keepBusiest(QMap<QString, QList<QPointF>> &lines,
                            const QHash<QString, double> &totals, const QString &other);
    void fill(QChartView *view, const QMap<QString, QList<QPointF>> &lines, const QString &title,
              const QString &yTitle, bool percent);
    // Puts every shown chart's plot on the span the time axis group gives it.
    void alignPlots();
    void setTimeTicks(QValueAxis *x, double plotWidth) const;

    SessionModel *m_session;
    ViewState *m_state;
    QLabel *m_placeholder;
    // The probe whose counters the first two charts draw (ProbeCounterCharts).
    const ProbeInfo *m_amounts = nullptr;
    QChartView *m_counts;
    QChartView *m_ratio;
    QList<KeyedChart> m_keyed;
    // The keyed charts that have lines, one a row on the shared time axis.
    QGridLayout *m_keyedGrid;
    TimeAxisGroup *m_axes;
    QTimer *m_alignTimer;
    bool m_aligning = false;
};

} // namespace bpflens
