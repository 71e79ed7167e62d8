#pragma once

#include "gui/models/comparemodels.h"
#include "gui/models/profilemodels.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTreeView;

QT_BEGIN_NAMESPACE
class QBarSet;
class QChartView;
class QValueAxis;
QT_END_NAMESPACE

namespace bpflens {

class FlameGraphView;
class SessionModel;

// File > Compare With… (docs/diff.md): what changed from the open session (the baseline) to
// another session file (the comparison), with core/sessiondiff's numbers. Three tabs: every
// histogram both hold as one chart with both distributions and the percentile deltas; events
// per type and their busiest keys of a top-list dimension side by side; and for CPU profiles a
// differential flame graph, the comparison's flame graph coloured by how each call path's share
// changed, of the on-CPU samples or of the off-CPU time (weighted by time blocked), switched in
// the tab.
// The page keeps the comparison's data (its flame graph reads its stacks) and reads the
// baseline only while it is built, so the main window may open another session meanwhile.
class ComparePage : public QWidget
{
    Q_OBJECT
public:
    // diff: diffSessions(baseline, comparison) when the caller has it (CompareController computes
    // it on its worker thread: at a million events it takes seconds); null: computed here.
    ComparePage(const SessionModel &baseline, const QString &baselineName, SessionData comparison,
                const QString &comparisonName, std::shared_ptr<const SessionDiff> diff = {},
                QWidget *parent = nullptr);
    ~ComparePage() override;

    const SessionDiff &diff() const { return *m_diff; }
    QString baselineName() const { return m_nameA; }
    QString comparisonName() const { return m_nameB; }

    // The value of each of the first slots buckets of h as one chart shows it: its count, or its
    // fraction of h's samples in percent (0 … 100) when percent, so sessions of different
    // length share one axis.
    static QList<qreal> overlayValues(const Log2Histogram &h, int slots, bool percent);
    // Whether a chart shows fractions: the totals differ and Raw counts is off.
    bool showsFractions(int histogram) const;
    void setRawCounts(bool raw);

    QTabWidget *tabs() const { return m_tabs; }
    QCheckBox *rawCountsBox() const { return m_rawCounts; }
    QTableView *percentileView() const { return m_percentileView; }
    QTreeView *eventView() const { return m_eventView; }
    PercentileDiffModel *percentileModel() const { return m_percentiles; }
    EventDiffModel *eventModel() const { return m_events; }
    // The dimension whose keys the Events tab shows below each type.
    void setEventDimension(Dimension dimension);
    QComboBox *eventDimensionBox() const { return m_dimensionBox; }
    // Index into diff().histograms; null where the units cannot share buckets.
    QChartView *chartView(int histogram) const;
    QBarSet *baselineSet(int histogram) const;
    QBarSet *comparisonSet(int histogram) const;

    // Null when neither session has a profile of either kind.
    FlameGraphView *flameGraph() const { return m_flame; }
    QScrollArea *flameScroll() const { return m_flameScroll; }
    // The differential profile of the kind shown (empty when a side has no such profile).
    const DifferentialProfile &differential() const { return m_differentials[int(m_kind)]; }
    // On-CPU samples or off-CPU time; shows the empty state when a side has no such profile.
    void setProfileKind(ProfileKind kind);
    ProfileKind profileKind() const { return m_kind; }
    QComboBox *profileKindBox() const { return m_kindBox; }
    // What the tab says instead of a flame graph (empty while the flame graph shows).
    QString profileEmptyText() const;
    void setMeasure(DifferentialProfile::Measure measure);
    DifferentialProfile::Measure measure() const { return m_measure; }
    QComboBox *measureBox() const { return m_measureBox; }
    // Red where a share grew, blue where it shrank, the more saturated the larger the change
    // against the largest one; a light grey where it did not change (Brendan Gregg's
    // differential flame graphs, hotspot's diff mode).
    static QColor changeColor(double delta, double maxDelta);
    // The lines the differential flame graph adds to a node's tool tip.
    QString shareText(qint32 node) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Chart
    {
        QChartView *view = nullptr;
        QBarSet *a = nullptr;
        QBarSet *b = nullptr;
        QValueAxis *values = nullptr;
    };
    QWidget *createHistogramTab();
    QWidget *createEventTab();
    QWidget *createProfileTab(const SessionModel &baseline);
    Chart createChart(const SessionDiff::Histogram &h);
    void fillCharts();
    void applyColoring();

    QString m_nameA;
    QString m_nameB;
    std::unique_ptr<SessionModel> m_comparison;
    std::shared_ptr<const SessionDiff> m_diff;
    PercentileDiffModel *m_percentiles;
    EventDiffModel *m_events;
    QTabWidget *m_tabs = nullptr;
    QCheckBox *m_rawCounts = nullptr;
    QTableView *m_percentileView = nullptr;
    QTreeView *m_eventView = nullptr;
    QComboBox *m_dimensionBox = nullptr;
    QList<Chart> m_charts; // per diff().histograms
    FlameGraphView *m_flame = nullptr;
    QComboBox *m_measureBox = nullptr;
    QLabel *m_profileNote = nullptr;
    QComboBox *m_kindBox = nullptr;
    QStackedWidget *m_profileStack = nullptr;
    QScrollArea *m_flameScroll = nullptr;
    QLabel *m_profileEmpty = nullptr;
    ProfileKind m_kind = ProfileKind::OnCpu;
    DifferentialProfile m_differentials[2]; // by ProfileKind
    // Per ProfileKind whether the baseline and the comparison have samples of it.
    bool m_hasA[2] = {false, false};
    bool m_hasB[2] = {false, false};
    DifferentialProfile::Measure m_measure = DifferentialProfile::Measure::Total;
};

} // namespace bpflens
