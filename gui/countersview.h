#pragma once

#include <QWidget>

class QLabel;

QT_BEGIN_NAMESPACE
class QChartView;
class QLineSeries;
QT_END_NAMESPACE

namespace bpflens {

class SessionModel;
class ViewState;

// cachestat-style counters over time: one line per counter (hits, misses, dirtied, ...) and
// the hit ratio on its own chart, limited to the visible range.
class CountersView : public QWidget
{
    Q_OBJECT
public:
    CountersView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);

    QChartView *countsChart() const { return m_counts; }
    QChartView *ratioChart() const { return m_ratio; }
    // The series for one counter name ("hits"), or null.
    QLineSeries *series(const QString &name) const;

public Q_SLOTS:
    void refresh();

private:
    SessionModel *m_session;
    ViewState *m_state;
    QLabel *m_placeholder;
    QChartView *m_counts;
    QChartView *m_ratio;
};

} // namespace bpflens
