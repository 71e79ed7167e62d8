#pragma once

#include "core/records.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;

QT_BEGIN_NAMESPACE
class QBarCategoryAxis;
class QBarSeries;
class QBarSet;
class QChart;
class QChartView;
class QLogValueAxis;
class QValueAxis;
QT_END_NAMESPACE

namespace bpflens {

class SessionModel;
class ViewState;

// One histogram (a probe and a key) as shown for the visible time range.
struct HistogramEntry
{
    QString probeId;
    QString key;
    Log2Histogram histogram;
    int snapshots = 0; // how many interval snapshots were merged
};

enum class HistogramMode
{
    Cumulative, // all interval snapshots inside the range merged
    Interval,   // the last snapshot inside the range
};

// Log2 latency bars per histogram probe and key (biolatency layout), following ViewState's
// time range: snapshots whose end time lies in [start, end) are merged. Every (probe, key) of the
// session has its entry, empty where the range holds none of its snapshots; the machine-wide
// charts (no key) first, by probe, then the per-key charts by their samples in the session.
class HistogramView : public QWidget
{
    Q_OBJECT
public:
    HistogramView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);

    static QList<HistogramEntry> compute(const QList<HistogramSnapshot> &snapshots, quint64 startNs,
                                         quint64 endNs, HistogramMode mode);
    // "2 -> 3 usecs: 12 (4.5 %)", what hovering a bar shows.
    static QString bucketText(const Log2Histogram &histogram, int slot);
    // "p50 in 128–255 µs · p99 in 2048–4095 µs (darker bars) · 1,234 samples"
    static QString summaryText(const Log2Histogram &histogram);

    void setMode(HistogramMode mode);
    // Counts on a log10 axis, so a slow tail of a few requests shows beside the thousands of
    // the common case.
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    HistogramMode mode() const { return m_mode; }
    const QList<HistogramEntry> &entries() const { return m_entries; }
    // The chart showing probeId/key, or null; tests and "export chart" use it.
    QChartView *chartView(const QString &probeId, const QString &key) const;
    QList<QChartView *> chartViews() const;
    QString lastHoverText() const { return m_hoverText; }

public Q_SLOTS:
    void refresh();

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Chart
    {
        QChartView *view = nullptr;
        QBarSet *set = nullptr;
        QBarCategoryAxis *categories = nullptr;
        QValueAxis *values = nullptr;
        QLogValueAxis *logValues = nullptr; // owned by the chart while the other one is shown
    };
    Chart createChart(const HistogramEntry &entry);
    void fillChart(Chart &chart, const HistogramEntry &entry);
    void applyPalette(QChart *chart) const;

    SessionModel *m_session;
    ViewState *m_state;
    HistogramMode m_mode = HistogramMode::Cumulative;
    bool m_log = false;
    QCheckBox *m_logBox;
    QComboBox *m_modeBox;
    QLabel *m_placeholder;
    QGridLayout *m_grid;
    QList<HistogramEntry> m_entries;
    QHash<QString, Chart> m_charts; // "probe\nkey"
    QString m_hoverText;
};

} // namespace bpflens
