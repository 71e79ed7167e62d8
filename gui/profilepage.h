#pragma once

#include "gui/models/profilemodels.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;
class QSplitter;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolButton;
class QTreeView;

namespace bpflens {

class FlameGraphView;
class SessionModel;
class ViewState;

// The "CPU profile" tab: where CPU time went (on-CPU samples) or where threads waited
// (off-CPU, weighted by the time blocked; off-wake, each wait topped by its waker's stack, in a
// session recorded with offwake), as a flame graph next to top-down, bottom-up and
// function trees. All of them show the same aggregation of the timeline's visible range and
// the process filters (ViewState), redone when those change and, throttled, while a recording
// appends; picking a function in one view picks it in the others. Aggregation waits until the
// page is shown.
class ProfilePage : public QWidget
{
    Q_OBJECT
public:
    // Live data re-aggregates at most this often.
    static constexpr int LiveIntervalMs = 500;

    // The CPU group's page (on-CPU, off-CPU, off-wake, page faults) or the Memory group's
    // flame graph (memory in use, memleak): one kind, no kind list.
    enum class Mode
    {
        Cpu,
        Memory,
    };
    ProfilePage(SessionModel *session, ViewState *state, QWidget *parent = nullptr,
                Mode mode = Mode::Cpu);
    Mode mode() const { return m_mode; }

    void setKind(ProfileKind kind);
    ProfileKind kind() const;
    void setStackPart(StackPart part);
    StackPart stackPart() const;
    // Aggregates now if anything changed since the last time (tests; showEvent does it too).
    void refresh();
    // Selects the function in the trees and outlines it in the flame graph.
    void selectFrame(quint32 frame);
    quint32 selectedFrame() const { return m_selectedFrame; }

    std::shared_ptr<const Profile> profile() const { return m_profile; }
    int aggregations() const { return m_aggregations; }
    FlameGraphView *flameGraph() const { return m_flame; }
    QTreeView *topDownView() const { return m_topDownView; }
    QTreeView *bottomUpView() const { return m_bottomUpView; }
    QTabWidget *treeTabs() const { return m_treeTabs; }
    QTreeView *functionView() const { return m_functionView; }
    CallTreeModel *topDownModel() const { return m_topDown; }
    CallTreeModel *bottomUpModel() const { return m_bottomUp; }
    FunctionListModel *functionModel() const { return m_functions; }
    QComboBox *kindCombo() const { return m_kind; }
    QComboBox *partCombo() const { return m_part; }
    QCheckBox *icicleCheck() const { return m_icicle; }
    QLineEdit *searchEdit() const { return m_search; }
    QLabel *searchLabel() const { return m_searchLabel; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *breadcrumbLabel() const { return m_breadcrumb; }
    QToolButton *resetZoomButton() const { return m_resetZoom; }
    bool isShowingEmptyState() const;
    QString emptyText() const;

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override; // the breadcrumb elides to its width

private:
    ProfileQuery currentQuery() const;
    void scheduleRefresh(int delayMs);
    void aggregate();
    void updateEmptyState();
    void updateBreadcrumb();
    void updateSearch();
    void revealSearchMatch();
    void syncTrees(QTreeView *except);
    QTreeView *createTree(QAbstractItemModel *model, QSortFilterProxyModel **proxy,
                          const QString &name);
    QString legendText() const;
    void updateKinds();
    // Memory in use: the bytes and blocks (and the sampling) in the status line, the range's
    // meaning and what it allocated in all in its tool tip.
    QString memoryStatus() const;
    QString memoryStatusToolTip() const;

    SessionModel *m_session;
    ViewState *m_state;
    Mode m_mode;
    std::shared_ptr<const Profile> m_profile;
    ProfileBuilder m_builder;
    bool m_dirty = true;
    int m_aggregations = 0;
    quint32 m_selectedFrame = 0;
    bool m_syncing = false;

    QComboBox *m_kind;
    QComboBox *m_part;
    QCheckBox *m_icicle;
    QLineEdit *m_search;
    QLabel *m_searchLabel;
    QLabel *m_status;
    QLabel *m_breadcrumb;
    QToolButton *m_resetZoom;
    QStackedWidget *m_stack;
    QLabel *m_empty;
    QScrollArea *m_flameScroll;
    FlameGraphView *m_flame;
    QLabel *m_legend;
    QTabWidget *m_treeTabs;
    CallTreeModel *m_topDown;
    CallTreeModel *m_bottomUp;
    FunctionListModel *m_functions;
    QSortFilterProxyModel *m_topDownProxy = nullptr;
    QSortFilterProxyModel *m_bottomUpProxy = nullptr;
    QSortFilterProxyModel *m_functionProxy = nullptr;
    QTreeView *m_topDownView;
    QTreeView *m_bottomUpView;
    QTreeView *m_functionView;
    QTimer *m_timer;
    QSplitter *m_splitter;
    bool m_splitSet = false;
};

} // namespace bpflens
