#pragma once

#include "gui/models/viewstate.h"
#include "gui/timeaxis.h"

#include <QCache>
#include <QImage>
#include <QWidget>

class QLabel;
class QPushButton;
class QScrollBar;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace bpflens {

class CriticalPathModel;
class CriticalPathSharesModel;
class SessionModel;
class ThreadStateModel;
class ThreadStateView;

// The lanes of the Threads view: one per thread, under its process's header, each span of the
// thread's scheduling state drawn in the state's colour on the window's time axis
// (TimeAxisGroup: a time has the timeline's x). Spans narrower than a pixel are merged per
// column (ThreadStateModel::laneStates) and the lanes are drawn once per zoom level, size and
// scroll position, so a 10M-span session redraws from a cached image. Wheel zooms as the
// timeline does, dragging pans, Shift+wheel, the wheel over the names or the scroll bar scroll
// the threads; a click selects the span under the cursor (ViewState) and chooses its thread for
// the critical path, a click on a process's name folds its threads.
class ThreadStatePlot : public QWidget
{
    Q_OBJECT
public:
    ThreadStatePlot(ThreadStateView *view, ThreadStateModel *model, ViewState *state,
                    const SessionModel *session);

    // Geometry, public so tests can aim at things.
    QRect plotRect() const;
    TimeAxis axis() const;
    double xForTime(quint64 timeNs) const { return axis().xForTime(timeNs); }
    int rowHeight() const;
    // A row's rectangle across the widget (label column and plot), in widget coordinates.
    QRect rowRect(int row) const;
    // The lane of a thread in the plot; empty when it has no lane or it is scrolled away.
    QRect laneRect(quint32 tid) const;
    int rowAt(int y) const;
    // The thread-state span under pos, -1 for none; *tid gets the lane's thread.
    qsizetype spanAt(QPoint pos, quint32 *tid = nullptr) const;
    QString spanToolTip(qsizetype span) const;
    int contentHeight() const;
    void setScrollY(int y);
    int scrollY() const { return m_scrollY; }
    // Scrolls the least so that row is in sight.
    void ensureRowVisible(int row);
    int leftNeed() const;

    static QColor stateColor(quint8 state, const QPalette &palette);
    static constexpr int AxisHeight = 24;

Q_SIGNALS:
    void scrollRequested(int deltaY);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;
    bool event(QEvent *event) override;

private:
    QImage renderLanes();
    void drawLane(QPainter &p, quint32 tid, const QRect &lane) const;
    void drawAxis(QPainter &p) const;
    void drawCriticalPath(QPainter &p) const;
    void drawSelection(QPainter &p) const;
    quint64 cacheKey() const;

    ThreadStateView *m_view;
    ThreadStateModel *m_model;
    ViewState *m_state;
    const SessionModel *m_session;
    TimeAxisGroup *m_axes;
    QCache<quint64, QImage> m_images;
    quint64 m_paletteVersion = 0;
    int m_scrollY = 0;
    QPoint m_pressPos;
    quint64 m_pressStart = 0;
    quint64 m_pressEnd = 0;
    bool m_pressed = false;
    bool m_moved = false;
};

// The Threads tab (issue #33): the recorded threads' states over time (ThreadStatePlot), and a
// thread's critical path over the visible range: with a thread chosen (a click on its lane),
// Critical Path walks its wakeups back (criticalPath()) and shows the steps on the lanes (the
// others dimmed, an arrow at each wakeup) and below them as a table, beside the time per thread
// and state. A row of the table selects its span and scrolls the lanes to it.
class ThreadStateView : public QWidget
{
    Q_OBJECT
public:
    ThreadStateView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~ThreadStateView() override;

    ThreadStateModel *model() const { return m_model; }
    ThreadStatePlot *plot() const { return m_plot; }
    QScrollBar *scrollBar() const { return m_scroll; }
    CriticalPathModel *pathModel() const { return m_path; }
    CriticalPathSharesModel *sharesModel() const { return m_shares; }
    QTableView *pathTable() const { return m_pathTable; }
    QTableView *sharesTable() const { return m_sharesTable; }
    QPushButton *criticalPathButton() const { return m_pathButton; }
    QPushButton *clearPathButton() const { return m_clearButton; }
    QLabel *threadLabel() const { return m_threadLabel; }
    QLabel *pathLabel() const { return m_pathLabel; }
    bool isShowingEmptyState() const;

    // The thread the critical path is asked for (0: none).
    void chooseThread(quint32 tid);
    quint32 chosenThread() const { return m_tid; }
    // The chosen thread's critical path over the visible range, shown on the lanes and below.
    void computeCriticalPath();
    void clearCriticalPath();
    bool hasCriticalPath() const;
    // Selects the span of a step of the path (the table's row) and scrolls the lanes to it.
    void showStep(int row);

protected:
    void changeEvent(QEvent *event) override;

private:
    friend class ThreadStatePlot;
    void updateState();
    void updateScrollBar();
    void updateThreadLabel();
    void followSelectedEvent(const EventRef &ref);
    void retranslate();

    SessionModel *m_session;
    ViewState *m_state;
    ThreadStateModel *m_model;
    CriticalPathModel *m_path;
    CriticalPathSharesModel *m_shares;
    quint32 m_tid = 0;
    quint64 m_pathVersion = 0; // bumped when the path changes: the plot's overlay

    QStackedWidget *m_stack;
    QLabel *m_empty;
    QLabel *m_threadLabel;
    QLabel *m_legend;
    QPushButton *m_pathButton;
    QPushButton *m_clearButton;
    QSplitter *m_splitter;
    ThreadStatePlot *m_plot;
    QScrollBar *m_scroll;
    QWidget *m_pathPane;
    QLabel *m_pathLabel;
    QTableView *m_pathTable;
    QTableView *m_sharesTable;
    bool m_selecting = false; // the view itself sets ViewState's selected event
};

} // namespace bpflens
