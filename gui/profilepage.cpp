#include "gui/profilepage.h"

#include "gui/flamegraphview.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace bpflens {

namespace {

constexpr int RangeDelayMs = 40; // a pan or a wheel zoom sends many ranges: sum once they stop
constexpr int ExpandLevels = 12;

QString swatch(const QColor &c, const QString &text, bool hatched = false)
{
    // Rich text is the cheapest legend that wraps with the window and follows the font.
    return QStringLiteral("<span style=\"background-color:%1;%3\">&nbsp;&nbsp;&nbsp;&nbsp;</span>"
                          "&nbsp;%2")
        .arg(c.name(), text.toHtmlEscaped(),
             hatched ? QStringLiteral("border:1px dashed #555;") : QString());
}

} // namespace

ProfilePage::ProfilePage(SessionModel *session, ViewState *state, QWidget *parent, Mode mode)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
    , m_mode(mode)
{
    setAccessibleName(mode == Mode::Memory ? tr("Memory in use") : tr("CPU profile"));

    m_kind = new QComboBox(this);
    if (mode == Mode::Memory) {
        // One kind: the combo keeps the page's kind and stays hidden.
        m_kind->addItem(tr("Memory in use"), int(ProfileKind::MemoryInUse));
        m_kind->hide();
    } else {
        m_kind->addItem(tr("On-CPU"), int(ProfileKind::OnCpu));
        m_kind->addItem(tr("Off-CPU"), int(ProfileKind::OffCpu));
    }
    m_kind->setAccessibleName(tr("Profile kind"));
    m_kind->setToolTip(tr("On-CPU: where the CPUs were running, one sample per tick.\n"
                          "Off-CPU: where threads blocked, weighted by the time they waited.\n"
                          "Off-wake (offwake probe): each blocked stack with the stack of the "
                          "thread that woke it on top.\n"
                          "Page faults (pagefault probe): where processes faulted their memory "
                          "in, weighted by faults."));
    m_part = new QComboBox(this);
    m_part->addItem(tr("User + kernel"), int(StackPart::Both));
    m_part->addItem(tr("User only"), int(StackPart::UserOnly));
    m_part->addItem(tr("Kernel only"), int(StackPart::KernelOnly));
    m_part->setAccessibleName(tr("Stack frames shown"));
    m_icicle = new QCheckBox(tr("Root at top"), this);
    m_icicle->setToolTip(tr("Icicle graph: callers at the top, callees below"));
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search functions…"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search functions"));
    m_search->setMinimumWidth(100);
    m_searchLabel = new QLabel(this);
    m_searchLabel->setObjectName(QStringLiteral("profileSearchShare"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("profileStatus"));
    // Long texts (German, search shares) must not widen the main window: they get the room
    // the layout has, and say the rest in a tooltip.
    m_status->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_searchLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(m_kind);
    bar->addWidget(m_part);
    bar->addWidget(m_icicle);
    bar->addWidget(m_search, 2);
    bar->addWidget(m_searchLabel, 2);

    m_resetZoom = new QToolButton(this);
    m_resetZoom->setText(tr("Reset zoom"));
    m_resetZoom->setToolTip(tr("Show all call stacks again (Escape)"));
    m_breadcrumb = new QLabel(this);
    m_breadcrumb->setObjectName(QStringLiteral("profileBreadcrumb"));
    m_breadcrumb->setTextFormat(Qt::PlainText);
    m_breadcrumb->setMinimumWidth(50);
    m_breadcrumb->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *crumbs = new QHBoxLayout;
    crumbs->setContentsMargins(0, 0, 0, 0);
    crumbs->addWidget(m_resetZoom);
    crumbs->addWidget(m_breadcrumb, 1);
    crumbs->addWidget(m_status, 1);

    m_flame = new FlameGraphView(this);
    m_flameScroll = new QScrollArea(this);
    m_flameScroll->setWidget(m_flame);
    m_flameScroll->setWidgetResizable(true);
    m_flameScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_flameScroll->setFrameShape(QFrame::NoFrame);
    m_legend = new QLabel(this);
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setContentsMargins(4, 2, 4, 4);
    m_legend->setText(legendText());

    auto *flamePane = new QWidget(this);
    auto *flameLayout = new QVBoxLayout(flamePane);
    flameLayout->setContentsMargins(0, 0, 0, 0);
    flameLayout->addLayout(crumbs);
    flameLayout->addWidget(m_flameScroll, 1);
    flameLayout->addWidget(m_legend);

    m_topDown = new CallTreeModel(CallTree::Direction::TopDown, this);
    m_bottomUp = new CallTreeModel(CallTree::Direction::BottomUp, this);
    m_functions = new FunctionListModel(this);
    m_treeTabs = new QTabWidget(this);
    m_treeTabs->setDocumentMode(true);
    m_topDownView = createTree(m_topDown, &m_topDownProxy, tr("Top-down call tree"));
    m_bottomUpView = createTree(m_bottomUp, &m_bottomUpProxy, tr("Bottom-up call tree"));
    m_functionView = createTree(m_functions, &m_functionProxy, tr("Functions"));
    m_functionView->setRootIsDecorated(false);
    // Functions first: the bottom-up tree is the largest to build (leaves rarely share
    // callers), so it is summed only while its tab is shown.
    m_treeTabs->addTab(m_functionView, tr("Functions"));
    m_treeTabs->addTab(m_bottomUpView, tr("Bottom-Up"));
    m_treeTabs->addTab(m_topDownView, tr("Top-Down"));
    m_treeTabs->setTabToolTip(0, tr("Every function once: self and total cost"));
    m_treeTabs->setTabToolTip(1, tr("The functions samples were taken in, their callers below"));
    m_treeTabs->setTabToolTip(2, tr("From the threads' first frames down to the callees"));
    connect(m_treeTabs, &QTabWidget::currentChanged, this, [this] {
        if (m_treeTabs->currentWidget() == m_bottomUpView && m_profile && !m_profile->hasBottomUp)
            scheduleRefresh(0);
    });

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("profileSplitter"));
    splitter->addWidget(flamePane);
    splitter->addWidget(m_treeTabs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    m_splitter = splitter;
    m_flameScroll->setMinimumWidth(160);
    m_treeTabs->setMinimumWidth(160);

    m_empty = new QLabel(this);
    m_empty->setObjectName(QStringLiteral("profileEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(splitter);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &ProfilePage::refresh);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { scheduleRefresh(0); });
    connect(m_part, &QComboBox::currentIndexChanged, this, [this] { scheduleRefresh(0); });
    connect(m_icicle, &QCheckBox::toggled, this, [this](bool on) {
        m_flame->setIcicle(on);
        if (!on)
            m_flameScroll->verticalScrollBar()->setValue(
                m_flameScroll->verticalScrollBar()->maximum());
    });
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        updateSearch();
        revealSearchMatch();
    });
    connect(m_resetZoom, &QToolButton::clicked, m_flame, &FlameGraphView::resetZoom);
    connect(m_flame, &FlameGraphView::zoomChanged, this, &ProfilePage::updateBreadcrumb);
    connect(m_flame, &FlameGraphView::frameClicked, this, &ProfilePage::selectFrame);

    connect(m_state, &ViewState::rangeChanged, this, [this] {
        // Live data widens the full range with every batch; when the whole session is shown
        // that changes nothing here, and the live throttle stays in charge.
        if (m_profile && m_profile->query == currentQuery())
            return;
        scheduleRefresh(RangeDelayMs);
    });
    connect(m_state, &ViewState::filterChanged, this, [this] { scheduleRefresh(0); });
    connect(m_session, &SessionModel::reset, this, [this] {
        m_selectedFrame = 0;
        m_flame->setSelectedFrame(0);
        // The old trees name frames of the old table: drop them before anything repaints.
        m_profile.reset();
        m_builder.clear();
        m_topDown->setProfile(nullptr, nullptr);
        m_bottomUp->setProfile(nullptr, nullptr);
        m_functions->setProfile(nullptr, nullptr);
        m_flame->setProfile(nullptr, nullptr);
        scheduleRefresh(0);
    });
    connect(m_session, &SessionModel::reset, this, [this] {
        updateKinds();
        // A session without CPU samples opens on the kind it has: an offwake recording shows
        // its off-wake flame graph, not "No CPU samples".
        const EventStore &events = m_session->events();
        if (kind() == ProfileKind::OnCpu && !events.count(EventType::CpuSample)) {
            if (events.count(EventType::OffCpu))
                setKind(ProfileKind::OffCpu);
            else if (events.count(EventType::OffWake))
                setKind(ProfileKind::OffWake);
            else if (events.count(EventType::PageFault))
                setKind(ProfileKind::PageFaults);
        }
    });
    connect(m_session, &SessionModel::appended, this, [this] {
        updateKinds();
        scheduleRefresh(LiveIntervalMs);
    });
    updateKinds();
    updateBreadcrumb();
    updateEmptyState();
}

QTreeView *ProfilePage::createTree(QAbstractItemModel *model, QSortFilterProxyModel **proxy,
                                   const QString &name)
{
    *proxy = new QSortFilterProxyModel(this);
    (*proxy)->setSourceModel(model);
    (*proxy)->setSortRole(CallTreeModel::SortRole);
    auto *view = new QTreeView(this);
    view->setModel(*proxy);
    view->setAccessibleName(name);
    view->setSortingEnabled(true);
    view->sortByColumn(CallTreeModel::TotalPercentColumn, Qt::DescendingOrder);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setIndentation(12);
    QHeaderView *header = view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(CallTreeModel::FunctionColumn, QHeaderView::Stretch);
    for (int c = CallTreeModel::ModuleColumn; c < CallTreeModel::ColumnCount; ++c)
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    // The module is in the tooltip and the flame graph's colours; the percentages carry more,
    // and the costs behind them are in their tooltips: beside the flame graph the tree has
    // about 350 px, and German column titles alone took 300 of them from the function names.
    view->setColumnHidden(CallTreeModel::ModuleColumn, true);
    view->setColumnHidden(CallTreeModel::SelfColumn, true);
    view->setColumnHidden(CallTreeModel::TotalColumn, true);
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, view](const QModelIndex &current) {
                if (m_syncing || !current.isValid())
                    return;
                const quint32 frame = current.data(CallTreeModel::FrameIdRole).toUInt();
                if (frame == CallTree::TruncatedFrame)
                    return;
                m_selectedFrame = frame;
                m_flame->setSelectedFrame(frame);
                syncTrees(view);
            });
    return view;
}

void ProfilePage::updateKinds()
{
    if (m_mode == Mode::Memory)
        return; // memory in use only: the Memory group says when the session has none
    // Off-wake and page faults are offered where there is something to show: a session
    // recorded with offwake, with pagefault. Memory in use has the Memory group.
    const auto offer = [this](ProfileKind kind, EventType type, const QString &text) {
        const bool has = m_session->events().count(type) > 0;
        const int at = m_kind->findData(int(kind));
        if (has && at < 0)
            m_kind->addItem(text, int(kind));
        else if (!has && at >= 0)
            m_kind->removeItem(at); // the current item falls back to another kind, and refreshes
    };
    offer(ProfileKind::OffWake, EventType::OffWake, tr("Off-wake"));
    offer(ProfileKind::PageFaults, EventType::PageFault, tr("Page faults"));
}

QString ProfilePage::legendText() const
{
    const QString user = swatch(FlameGraphView::frameColor(FrameKind::User, QStringLiteral("main")),
                                tr("user code"));
    const QString kernel = swatch(
        FlameGraphView::frameColor(FrameKind::Kernel, QStringLiteral("vfs_write")), tr("kernel"));
    const QString truncated = swatch(QColor(0xa0, 0xa0, 0xa8),
                                     tr("[truncated]: the unwinder did not reach the "
                                        "thread's first frame"),
                                     true);
    const QString match = swatch(QColor(0xd4, 0x3c, 0xc8), tr("search match"));
    if (kind() == ProfileKind::OffWake) {
        // No truncated markers here (the tree is the folded export's), but the waker's part.
        const QString separator =
            swatch(FlameGraphView::SeparatorColor, tr("woken by: the blocked stack ends below"));
        const QString waker = swatch(
            FlameGraphView::wakerColor(FrameKind::User, QStringLiteral("main")), tr("waker"));
        return QStringLiteral("%1 &nbsp; %2 &nbsp; %3 &nbsp; %4 &nbsp; %5")
            .arg(user, kernel, separator, waker, match);
    }
    return QStringLiteral("%1 &nbsp; %2 &nbsp; %3 &nbsp; %4").arg(user, kernel, match, truncated);
}

void ProfilePage::setKind(ProfileKind kind)
{
    m_kind->setCurrentIndex(m_kind->findData(int(kind)));
}

ProfileKind ProfilePage::kind() const
{
    return ProfileKind(m_kind->currentData().toInt());
}

void ProfilePage::setStackPart(StackPart part)
{
    m_part->setCurrentIndex(m_part->findData(int(part)));
}

StackPart ProfilePage::stackPart() const
{
    return StackPart(m_part->currentData().toInt());
}

void ProfilePage::scheduleRefresh(int delayMs)
{
    m_dirty = true;
    // A hidden page sums nothing; showEvent catches up.
    if (!isVisible())
        return;
    if (!m_timer->isActive() || m_timer->remainingTime() > delayMs)
        m_timer->start(delayMs);
}

void ProfilePage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateBreadcrumb();
}

void ProfilePage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_splitSet && m_splitter->width() > 0) {
        // The flame graph's size hint would take nearly everything; the trees need room for
        // a name and four numbers.
        m_splitSet = true;
        const int w = m_splitter->width();
        m_splitter->setSizes({w * 55 / 100, w - w * 55 / 100});
    }
    if (m_dirty)
        m_timer->start(0);
}

void ProfilePage::refresh()
{
    m_timer->stop();
    if (!m_dirty)
        return;
    m_dirty = false;
    aggregate();
}

ProfileQuery ProfilePage::currentQuery() const
{
    ProfileQuery q;
    q.kind = kind();
    q.part = stackPart();
    q.startNs = m_state->startNs();
    q.endNs = m_state->endNs();
    // The range reaching the session's end stays open, so live samples after it are included.
    if (q.endNs >= m_session->endTimeNs())
        q.endNs = ~quint64(0);
    q.pid = m_state->filter().pid;
    q.comm = m_state->filter().comm;
    return q;
}

void ProfilePage::aggregate()
{
    const ProfileQuery q = currentQuery();
    m_profile = m_builder.build(*m_session, q, m_treeTabs->currentWidget() == m_bottomUpView);
    ++m_aggregations;

    const StackTable *stacks = &m_profile->stacks(m_session->stacks());
    m_syncing = true;
    m_topDown->setProfile(m_profile, stacks);
    m_bottomUp->setProfile(m_profile, stacks);
    m_functions->setProfile(m_profile, stacks);
    m_flame->setProfile(m_profile, stacks);
    // The hottest path, opened as hotspot does: where a reader would click first.
    QModelIndex at = m_topDownProxy->index(0, 0);
    for (int level = 0; at.isValid() && level < ExpandLevels; ++level) {
        m_topDownView->expand(at);
        at = m_topDownProxy->index(0, 0, at);
    }
    m_syncing = false;
    if (m_selectedFrame)
        selectFrame(m_selectedFrame);
    if (!m_flame->isIcicle())
        QTimer::singleShot(0, this, [this] {
            m_flameScroll->verticalScrollBar()->setValue(
                m_flameScroll->verticalScrollBar()->maximum());
        });

    const QLocale locale;
    const int waits = int(std::min<qint64>(m_profile->events, INT_MAX));
    m_flame->setAccessibleName(q.kind == ProfileKind::OffWake ? tr("Off-wake flame graph")
                                                              : tr("Flame graph"));
    m_legend->setText(legendText());
    if (q.kind == ProfileKind::OnCpu)
        m_status->setText(tr("Samples in range: %1").arg(locale.toString(m_profile->events)));
    else if (q.kind == ProfileKind::PageFaults)
        m_status->setText(tr("Page faults in range: %1").arg(locale.toString(m_profile->total)));
    else if (q.kind == ProfileKind::MemoryInUse)
        m_status->setText(memoryStatus());
    else if (q.kind == ProfileKind::OffWake)
        m_status->setText(tr("Off-wake time in range: %1 (%Ln wait(s))", nullptr, waits)
                              .arg(ProfileText::cost(m_profile->total, true)));
    else
        m_status->setText(tr("Off-CPU time in range: %1 (%Ln wait(s))", nullptr,
                             int(std::min<qint64>(m_profile->events, INT_MAX)))
                              .arg(ProfileText::cost(m_profile->total, true)));
    m_status->setToolTip(q.kind == ProfileKind::MemoryInUse ? memoryStatusToolTip() : QString());
    updateSearch();
    updateEmptyState();
}

QString ProfilePage::emptyText() const
{
    const QString hint = m_state->filter().pid >= 0 || !m_state->filter().comm.isEmpty()
                             ? tr("Zoom out on the timeline or clear the PID and command filters.")
                             : tr("Zoom out on the timeline (Ctrl+0 shows the whole session).");
    if (kind() == ProfileKind::OffWake) {
        if (m_session->events().count(EventType::OffWake) == 0)
            return tr("No off-wake waits in this session.\n\nRecord with the offwake probe to "
                      "see who woke the waiting threads.");
        return tr("No off-wake waits in this range.") + QStringLiteral("\n\n") + hint;
    }
    if (kind() == ProfileKind::PageFaults) {
        if (m_session->events().count(EventType::PageFault) == 0)
            return tr("No page faults in this session.\n\nRecord with the pagefault probe to "
                      "see where processes fault their memory in.");
        return tr("No page faults in this range.") + QStringLiteral("\n\n") + hint;
    }
    if (kind() == ProfileKind::MemoryInUse) {
        if (m_session->events().count(EventType::Allocation) == 0)
            return tr("No allocations in this session.\n\nRecord a running process with the "
                      "memleak probe to see which call stacks hold its memory.");
        if (m_profile && m_profile->isBytes() && m_profile->allocatedBlocks > 0) {
            // Something was allocated, and all of it given back: worth saying, not "nothing".
            const int blocks = int(std::min<quint64>(m_profile->allocatedBlocks, INT_MAX));
            return tr("Every block allocated in this range was freed by its end (%Ln block(s), "
                      "%1).",
                      nullptr, blocks)
                       .arg(ProfileText::cost(m_profile->allocatedBytes, *m_profile)) +
                   QStringLiteral("\n\n") +
                   tr("Only the blocks still allocated at the range's end count: move its end "
                      "later, or zoom out (Ctrl+0 shows the whole session).");
        }
        return tr("No allocations in this range.") + QStringLiteral("\n\n") + hint;
    }
    const bool on = kind() == ProfileKind::OnCpu;
    const EventType type = on ? EventType::CpuSample : EventType::OffCpu;
    if (m_session->events().count(type) == 0) {
        return on ? tr("No CPU samples in this session.\n\nRecord with the profile probe to see "
                       "where CPU time goes.")
                  : tr("No off-CPU events in this session.\n\nRecord with the offcpu probe to see "
                       "where threads wait and for how long.");
    }
    return (on ? tr("No CPU samples in this range.") : tr("No off-CPU time in this range.")) +
           QStringLiteral("\n\n") + hint;
}

QString ProfilePage::memoryStatus() const
{
    const Profile &p = *m_profile;
    const int blocks = int(std::min<quint64>(p.inUseBlocks, INT_MAX));
    const QString bytes = ProfileText::cost(p.total, p);
    if (p.sampleEvery > 1)
        return tr("In use: %1 in %Ln block(s), each event standing for %2 allocations", nullptr,
                  blocks)
            .arg(bytes, QLocale().toString(p.sampleEvery));
    return tr("In use: %1 in %Ln block(s)", nullptr, blocks).arg(bytes);
}

QString ProfilePage::memoryStatusToolTip() const
{
    const Profile &p = *m_profile;
    QStringList lines;
    lines << tr("The blocks allocated in the visible range and not freed by its end. Over the "
                "whole recording: every block never freed while it was recorded. Zoom the "
                "range to two moments to see what grew between them.");
    lines << tr("Allocated in the range: %1 in %Ln block(s)", nullptr,
                int(std::min<quint64>(p.allocatedBlocks, INT_MAX)))
                 .arg(ProfileText::cost(p.allocatedBytes, p));
    if (p.sampleEvery > 1)
        lines << tr("Sampled (sampleEvery=%1): each recorded allocation stands for %1, so the "
                    "bytes and blocks are estimates.")
                     .arg(QLocale().toString(p.sampleEvery));
    return lines.join(QLatin1Char('\n'));
}

bool ProfilePage::isShowingEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

void ProfilePage::updateEmptyState()
{
    // Memory in use is empty when everything the range allocated was freed in it.
    const bool empty =
        !m_profile || m_profile->events == 0 || (m_profile->isBytes() && m_profile->total == 0);
    if (empty)
        m_empty->setText(emptyText());
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_empty) : m_stack->widget(1));
    m_status->setVisible(!empty);
}

void ProfilePage::updateBreadcrumb()
{
    const qint32 zoom = m_flame->zoomNode();
    m_resetZoom->setEnabled(zoom > 0);
    if (!m_profile || zoom <= 0) {
        // Beside the status on a narrow page (1366 px with both docks): elided, never cut.
        const QString hint = tr("Click a frame to zoom into it");
        m_breadcrumb->setText(m_breadcrumb->fontMetrics().elidedText(
            hint, Qt::ElideRight, std::max(50, m_breadcrumb->width())));
        m_breadcrumb->setToolTip(hint);
        return;
    }
    QStringList names;
    for (qint32 n : m_profile->topDown.pathTo(zoom))
        names << m_flame->frameName(n);
    // The innermost frames matter most: elide from the left.
    const QString path = names.join(QStringLiteral(" › "));
    m_breadcrumb->setText(m_breadcrumb->fontMetrics().elidedText(
        path, Qt::ElideLeft, std::max(50, m_breadcrumb->width())));
    m_breadcrumb->setToolTip(names.join(QLatin1Char('\n')));
}

void ProfilePage::updateSearch()
{
    const QString text = m_search->text().trimmed();
    m_flame->setSearch(text);
    m_searchLabel->setText(m_flame->searchSummary());
    m_searchLabel->setToolTip(m_searchLabel->text());
    // The list shows the functions the share is of, not every function with them lost in it.
    m_functionProxy->setFilterKeyColumn(CallTreeModel::FunctionColumn);
    m_functionProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_functionProxy->setFilterFixedString(text);
}

void ProfilePage::revealSearchMatch()
{
    // "ext4: 6.5 % of samples" with no magenta box in sight says nothing: bring the heaviest
    // match into view, zooming to it when it is too narrow to be drawn or outside the zoom.
    const qint32 match = m_flame->heaviestMatch();
    if (!match || !m_flame->isVisible())
        return;
    if (m_flame->nodeRect(match).isEmpty())
        m_flame->zoomTo(match);
    const QRectF r = m_flame->nodeRect(match);
    if (!r.isEmpty())
        m_flameScroll->ensureVisible(int(r.center().x()), int(r.center().y()), 0,
                                     int(r.height()) + 8);
}

void ProfilePage::selectFrame(quint32 frame)
{
    m_selectedFrame = frame;
    m_flame->setSelectedFrame(frame);
    syncTrees(nullptr);
}

void ProfilePage::syncTrees(QTreeView *except)
{
    m_syncing = true;
    auto select = [](QTreeView *view, const QModelIndex &index) {
        if (!index.isValid()) {
            view->selectionModel()->clearSelection();
            return;
        }
        for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
            view->expand(p);
        view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                           QItemSelectionModel::Rows);
        view->scrollTo(index);
    };
    if (except != m_topDownView)
        select(m_topDownView,
               m_topDownProxy->mapFromSource(m_topDown->indexForFrame(m_selectedFrame)));
    if (except != m_bottomUpView)
        select(m_bottomUpView,
               m_bottomUpProxy->mapFromSource(m_bottomUp->indexForFrame(m_selectedFrame)));
    if (except != m_functionView) {
        const int row = m_functions->rowForFrame(m_selectedFrame);
        select(m_functionView, row < 0
                                   ? QModelIndex()
                                   : m_functionProxy->mapFromSource(m_functions->index(row, 0)));
    }
    m_syncing = false;
}

} // namespace bpflens
