#pragma once

#include "gui/models/backgroundjob.h"
#include "gui/models/stackchartmodel.h"
#include "gui/models/viewstate.h"
#include "gui/timeaxis.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QScrollBar;
class QSplitter;
class QStackedWidget;
class QTimer;
class QTreeView;

namespace bpflens {

class SessionModel;
class StackChartView;
class StackFramesModel;
class ViewState;

// The chart itself: the visible range on the window's time axis (TimeAxisGroup, the timeline's
// x for every time), one band of call-depth rows per thread, named in the column left of the
// plot. Only the boxes in sight are drawn, and of the boxes that share a pixel one; wheel zooms
// as the timeline does, dragging pans, Shift+wheel or the scroll bar scroll the threads.
class StackChartPlot : public QWidget
{
    Q_OBJECT
public:
    StackChartPlot(StackChartView *view, ViewState *state, const SessionModel *session);

    // Geometry, public so tests can aim at things.
    QRect plotRect() const;
    TimeAxis axis() const;
    double xForTime(quint64 timeNs) const { return axis().xForTime(timeNs); }
    int rowHeight() const;
    // The threads drawn (model indices) and each band's top in content coordinates.
    struct Band
    {
        int thread = 0;
        int top = 0;
        int depths = 0;
    };
    const QList<Band> &bands() const;
    // Where box (thread, depth, index) is drawn, clipped to the plot; empty when out of sight.
    QRectF boxRect(int thread, int depth, qsizetype index) const;
    // The box under pos: false when there is none.
    bool boxAt(QPoint pos, int *thread, int *depth, qsizetype *index) const;
    QString boxToolTip(int thread, int depth, qsizetype index) const;
    QString threadLabel(int thread) const;
    int contentHeight() const;
    void setScrollY(int y);
    int scrollY() const { return m_scrollY; }

    static constexpr int AxisHeight = 24;
    static constexpr int RightNeed = 1;
    int leftNeed() const;

Q_SIGNALS:
    void boxClicked(int thread, int depth, qsizetype index);
    void scrollRequested(int deltaY);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;

private:
    friend class StackChartView;
    void layoutBands() const;
    QColor boxColor(quint32 frame) const;
    QString frameName(quint32 frame) const;
    void drawAxis(QPainter &p) const;
    void drawBand(QPainter &p, const Band &band, const TimeAxis &axis, const QRect &plot) const;

    StackChartView *m_view;
    ViewState *m_state;
    const SessionModel *m_session;
    TimeAxisGroup *m_axes;
    mutable QList<Band> m_bands;
    mutable quint64 m_bandsKey = 0;
    mutable quint64 m_bandsStart = 1;
    mutable quint64 m_bandsEnd = 0;
    int m_scrollY = 0;
    QPoint m_pressPos;
    quint64 m_pressStart = 0;
    quint64 m_pressEnd = 0;
    int m_pressScroll = 0;
    bool m_pressed = false;
    bool m_moved = false;
};

// The Stack Chart tab of the CPU group: each thread's call stacks over time, on the time axis
// the timeline, the heatmap and the counters share, for the window's process filters.
// Clicking a box selects its first sample (ViewState: the timeline marks it, the Events tab's
// details list its stack) and lists the box's call path below the chart, whole; a CPU sample or
// off-CPU wait selected elsewhere (the timeline, an event table) selects its own box here and
// scrolls the threads to it. The boxes are merged on a worker (BackgroundJob): the chart keeps
// what it shows until the newest merge arrives, and a merge superseded by another filter, the
// off-CPU box or new data is dropped.
class StackChartView : public QWidget
{
    Q_OBJECT
public:
    StackChartView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~StackChartView() override;

    // Merges the boxes now if the session or the filter changed and waits for them (tests,
    // benchmarks; a shown tab starts the merge on the worker and takes its result later).
    void refresh();
    // A merge is under way on the worker.
    bool isComputing() const { return m_job.isRunning(); }
    const StackChartModel &model() const { return m_model; }
    StackChartPlot *plot() const { return m_plot; }
    QScrollBar *scrollBar() const { return m_scroll; }
    QTreeView *framesView() const { return m_framesView; }
    StackFramesModel *frames() const { return m_frames; }
    QLabel *selectionLabel() const { return m_selectionLabel; }
    QCheckBox *offCpuCheck() const { return m_offCpu; }
    bool isShowingEmptyState() const;
    QString emptyText() const;
    int builds() const { return m_builds; }

    void selectBox(int thread, int depth, qsizetype index);
    // The box of a CPU sample or off-CPU wait at the depth of its own function, the chart
    // scrolled to it; false when the chart has no such box (another type, filtered out).
    bool selectEvent(const EventRef &ref);
    void clearSelection();
    bool hasSelection() const { return m_selThread >= 0; }
    int selectedThread() const { return m_selThread; }
    int selectedDepth() const { return m_selDepth; }
    qsizetype selectedIndex() const { return m_selIndex; }

Q_SIGNALS:
    // A merge's result is shown (superseded merges never get here).
    void built();

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    friend class StackChartPlot;
    StackChartQuery currentQuery() const;
    void startBuild();
    void present(StackChartModel model);
    void select(int thread, int depth, qsizetype index, bool announce);
    void scrollToSelection();
    void followSelectedEvent();
    void scheduleRefresh(int delayMs);
    void updateScrollBar();
    void updateState();
    int rowHeightHint() const;
    void fitSplit();
    static QString hintText();

    SessionModel *m_session;
    ViewState *m_state;
    StackChartModel m_model;
    bool m_dirty = true;
    int m_builds = 0;
    quint64 m_version = 0; // bumped per build: the plot's band layout compares it
    int m_selThread = -1;
    int m_selDepth = -1;
    qsizetype m_selIndex = -1;

    QLabel *m_status;
    QCheckBox *m_offCpu;
    QStackedWidget *m_stack;
    QLabel *m_empty;
    StackChartPlot *m_plot;
    QScrollBar *m_scroll;
    QLabel *m_selectionLabel;
    StackFramesModel *m_frames;
    QTreeView *m_framesView;
    QSplitter *m_splitter;
    QWidget *m_details;
    bool m_userSplit = false;  // the user moved the splitter's handle
    bool m_announcing = false; // selectBox() is setting the window's selected event
    QTimer *m_timer;
    // Last: its destructor waits for the merge, which reads the session.
    BackgroundJob m_job;
};

} // namespace bpflens
