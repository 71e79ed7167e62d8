#pragma once

#include "gui/models/backgroundjob.h"
#include "gui/models/timelinebins.h"
#include "gui/models/viewstate.h"
#include "gui/ticksprites.h"
#include "gui/timeaxis.h"

#include <QCache>
#include <QImage>
#include <QWidget>

class QAction;
class QMenu;

namespace bpflens {

class EventFilterModel;
class SessionModel;

// All event lanes on one shared time axis, painted by hand: each lane is binned per pixel
// column (TimelineBinner) and the binned image is cached per zoom level, so redraws cost the
// pixels, not the events. Wheel zooms around the cursor, Shift+drag or right-drag zooms to a
// rubber band, dragging pans, +/- zoom, Home or 0 resets; hovering shows the event under the
// cursor and clicking selects it in ViewState.
class TimelineWidget : public QWidget
{
    Q_OBJECT
public:
    TimelineWidget(SessionModel *session, ViewState *state, QList<EventFilterModel *> lanes,
                   QWidget *parent = nullptr);

    // Geometry, public so tests can aim at things.
    QRect plotRect() const;
    QRect laneRect(EventType type) const;
    // The CPU lanes below the CPU samples lane: one per busy process of the visible range, then
    // "other" (TimelineBinner::binCpuByProcess).
    const ProcessCpuBins &cpuBins() const;
    QRect processLaneRect(int lane) const;
    // A process lane's name ("dd 1234", "other (3)") and where it is drawn, at the widget's
    // font: process lanes are as tall as that line needs (processLaneHeight()).
    QString processLaneLabel(int lane) const;
    QRect processLabelRect(int lane) const;
    int processLaneHeight() const;
    // The memory lanes below the Allocations lane (memleak): the bytes each process held in
    // recorded blocks over time, a step line scaled to the visible range's peak, labelled with
    // it. One lane per process the filter's PID and command let through, the largest peaks
    // first (TimelineBinner::MaxMemoryLanes at most).
    struct MemoryLane
    {
        ProcessMemory memory;
        MemoryColumns columns;
    };
    // Every process's held bytes are summed in a worker at each session change (reset, a live
    // batch): the lanes of the session before stay drawn until the result arrives, none after a
    // reset.
    const QList<MemoryLane> &memoryLanes() const;
    bool isComputingMemory() const { return m_memoryJob.isRunning() || m_memoryJob.isScheduled(); }
    // A live batch's memory lanes are summed again at most this often.
    static constexpr int MemoryLiveIntervalMs = 500;
    QRect memoryLaneRect(int lane) const;
    QString memoryLaneLabel(int lane) const; // "leaker 1234"
    QString memoryPeakLabel(int lane) const; // "peak 78.1 KiB", as drawn at the peak
    // Where the peak's label is drawn (widget coordinates; null when the lane has no room).
    QRect memoryPeakLabelRect(int lane) const;
    double xForTime(quint64 timeNs) const; // widget x
    quint64 timeAt(double x) const;
    // The visible range on plotRect()'s columns, shared with the heatmap and the counters
    // (TimeAxisGroup).
    TimeAxis axis() const;
    QList<EventType> laneTypes() const;
    int labelWidth() const;
    // The bins behind the current picture (computed on demand for the current range/size).
    const LaneBins &laneBins(EventType type);
    EventRef eventAt(const QPoint &pos);
    QString hoverText() const { return m_hoverText; }
    // What the plot says while the session holds no data (no time axis is drawn then).
    void setEmptyText(const QString &text);

    // A collapsed lane is half as tall and, for CPU samples, hides its per-process lanes: the
    // lanes that matter get the space. A click on a lane's name toggles it; remembered.
    void setLaneCollapsed(EventType type, bool collapsed);
    bool isLaneCollapsed(EventType type) const { return m_collapsed & laneBit(type); }
    QString emptyText() const { return m_emptyText; }
    // What the timeline says on a card instead of lanes: the empty text without a session, or
    // that a session has no events; empty when lanes are drawn.
    QString cardText() const;
    static QString eventSummary(const SessionModel &session, const EventRef &ref);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The right-click menu: Explain This Range (ViewState::requestExplain), Reset Zoom.
    QMenu *contextMenu();

protected:
    void paintEvent(QPaintEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    // One row of the plot: an event type's lane, or (process >= 0) a process's CPU lane, or
    // (memory >= 0) a process's memory lane.
    struct Row
    {
        EventType type;
        int process = -1;
        int memory = -1;
    };
    QList<Row> rows() const;
    QRect rowRect(int row) const;
    EventFilterModel *laneModel(EventType type) const;
    void drawProcessLane(QPainter &p, const ProcessCpuBins::Lane &lane, const QRect &rect) const;
    QString processLaneText(int lane) const;
    void drawMemoryLane(QPainter &p, int lane, const QRect &rect) const;
    QString memoryLaneText(int lane, const QPoint &pos) const;
    struct Lane
    {
        EventFilterModel *model = nullptr;
        LaneBins bins;
        quint64 binsKey = 0;
        LaneSummary summary;
    };
    quint64 cacheKey() const;
    void ensureBins();
    QImage renderLanes();
    void drawLane(QPainter &p, const Lane &lane, const QRect &rect) const;
    void drawAxis(QPainter &p) const;
    void drawSelection(QPainter &p) const;
    QColor laneColor(EventType type) const;
    QColor categoryColor(LaneBins::Category category) const;
    void invalidate();
    void forgetSummaries();

    void updateAxisNeeds();

    SessionModel *m_session;
    ViewState *m_state;
    TimeAxisGroup *m_axes = nullptr;
    QMenu *m_menu = nullptr;
    QAction *m_explainAction = nullptr;
    QAction *m_resetAction = nullptr;
    QList<Lane> m_lanes;
    mutable ProcessCpuBins m_cpuBins;
    mutable quint64 m_cpuBinsKey = 0;
    mutable int m_processLaneHeight = 0; // for m_cpuBins' labels
    QList<ProcessMemory> m_memory;       // every process's, from the worker
    void scheduleMemory(int delayMs);
    void startMemory();
    mutable QList<MemoryLane> m_memoryLanes; // those shown, binned for the current picture
    mutable quint64 m_memoryLanesKey = 0;
    QCache<quint64, QImage> m_images; // per zoom level, size, data and filter version
    quint64 m_paletteVersion = 0;
    static quint64 laneBit(EventType type) { return quint64(1) << (int(type) & 63); }
    quint64 m_collapsed = 0;     // laneBit of each collapsed lane
    mutable TickSprites m_ticks; // sparse lanes' ticks, cached per colour and lane height
    bool m_appending = false;    // between SessionModel::aboutToAppend and appended

    enum class Drag
    {
        None,
        Pan,
        RubberBand
    };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_dragPos;
    quint64 m_pressStart = 0;
    quint64 m_pressEnd = 0;
    bool m_moved = false;
    QString m_emptyText;
    QString m_hoverText;
    // Last: its destructor waits for the work, which reads the session.
    BackgroundJob m_memoryJob;
};

} // namespace bpflens
