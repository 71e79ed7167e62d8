#include "gui/resultspage.h"

#include "core/cgroupfilter.h"

#include "core/eventschema.h"
#include "core/openflags.h"
#include "gui/colors.h"
#include "gui/countersview.h"
#include "gui/detailspane.h"
#include "gui/explainpage.h"
#include "gui/flamegraphview.h"
#include "gui/heatmapview.h"
#include "gui/histogramview.h"
#include "gui/iostackview.h"
#include "gui/latencyspinbox.h"
#include "gui/memorypage.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/overviewpage.h"
#include "gui/profilepage.h"
#include "gui/querypage.h"
#include "gui/stackchartview.h"
#include "gui/threadstateview.h"
#include "gui/timelinewidget.h"
#include "gui/toppage.h"

#include <QAction>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bpflens {

ResultsPage::ResultsPage(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    QList<EventFilterModel *> lanes;
    for (EventType t : SessionModel::eventTypes()) {
        auto *model = new EventTableModel(m_session, t, this);
        auto *filter = new EventFilterModel(model, m_state, this);
        m_tableModels.insert(int(t), model);
        m_filterModels.insert(int(t), filter);
        lanes << filter;
    }

    m_timeline = new TimelineWidget(m_session, m_state, lanes, this);
    m_histograms = new HistogramView(m_session, m_state, this);
    m_heatmap = new HeatmapView(m_session, m_state, this);
    m_counters = new CountersView(m_session, m_state, this);
    m_summary = new SummaryPanel(m_session, m_state, this);
    m_details = new DetailsPane(m_session, m_state, this);
    m_ioStack = new IoStackView(m_session, m_state, this);
    m_profile = new ProfilePage(m_session, m_state, this);
    m_memoryProfile = new ProfilePage(m_session, m_state, this, ProfilePage::Mode::Memory);
    m_memory = new MemoryPage(m_session, m_state, this);
    m_stackChart = new StackChartView(m_session, m_state, this);
    m_query = new QueryPage(m_session, this);
    m_top = new TopPage(m_session, m_state, this);
    m_explain = new ExplainPage(m_session, m_state, this);
    m_threads = new ThreadStateView(m_session, m_state, this);

    // Six groups instead of twenty tabs: one tab per view and per event type overflowed a
    // 1366 px screen (in German by far), and Summary scrolled out of sight.
    m_tabs = new QTabWidget(this);
    m_tabs->setAccessibleName(tr("Views"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(createGroup({{m_summary, QString()}}), tr("&Overview"));
    m_tabs->addTab(createGroup({{m_histograms, tr("&Histograms")}, {m_heatmap, tr("Heat&map")}}),
                   tr("&Latency"));
    // The flame graph sums the visible range; the stack chart shows it in time order.
    m_tabs->addTab(
        createGroup({{m_profile, tr("Flame &Graph")}, {m_stackChart, tr("Stac&k Chart")}}),
        tr("&CPU"));
    // Memory in use where a user looks for memory, not under the CPU's profile: its flame graph
    // and the stacks holding it, with their blocks and ages.
    m_memoryGroup =
        createGroup({{m_memoryProfile, tr("Flame &Graph")}, {m_memory, tr("Top &Stacks")}});
    m_tabs->addTab(m_memoryGroup, tr("&Memory"));
    // Scheduling per thread and the critical path: its own group, as it has its own tables.
    m_tabs->addTab(createGroup({{m_threads, QString()}}), tr("T&hreads"));
    m_tabs->addTab(createGroup({{m_ioStack, tr("I/O &Stack")}, {m_counters, tr("Co&unters")}}),
                   tr("&I/O"));
    m_tabs->addTab(
        createGroup({{m_top, tr("&Top")}, {m_explain, tr("E&xplain")}, {m_query, tr("Query")}}),
        tr("&Analysis"));
    m_tabs->addTab(createEventsPage(), tr("&Events"));
    connect(m_state, &ViewState::explainRequested, this, [this] { showView(m_explain); });
    connect(m_summary->overview(), &OverviewPage::viewRequested, this,
            [this](OverviewPage::View view, EventType type) {
                using V = OverviewPage::View;
                if (view == V::CpuProfile || view == V::OffCpuProfile)
                    m_profile->setKind(view == V::CpuProfile ? ProfileKind::OnCpu
                                                             : ProfileKind::OffCpu);
                QWidget *to = m_profile;
                if (view == V::Memory)
                    to = m_memory;
                else if (view == V::Explain || view == V::Histograms)
                    to = view == V::Explain ? static_cast<QWidget *>(m_explain) : m_histograms;
                else if (view == V::Events)
                    to = m_tables.value(int(type));
                showView(to);
            });

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(createFilterBar());
    bottomLayout->addWidget(m_tabs, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->addWidget(m_timeline);
    m_splitter->addWidget(bottom);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    m_rangeLabel = new QLabel(this);
    // Large tables filter in a worker; the status bar says so while any of them is busy.
    m_filtering = new QLabel(tr("Filtering…"), this);
    m_filtering->setObjectName(QStringLiteral("filteringLabel"));
    m_filtering->hide();
    for (EventFilterModel *filter : std::as_const(m_filterModels)) {
        connect(filter, &EventFilterModel::filterPendingChanged, m_filtering, [this] {
            const auto &models = m_filterModels;
            m_filtering->setVisible(std::any_of(models.cbegin(), models.cend(),
                                                [](auto *m) { return m->filterPending(); }));
        });
        // Zooming and filtering reset the table; the selected event stays selected if shown.
        connect(filter, &QAbstractItemModel::modelReset, this, [this, filter] {
            if (m_state->selectedEvent().type == filter->type())
                selectInTable(m_state->selectedEvent(), false);
        });
    }

    connect(m_session, &SessionModel::reset, this, &ResultsPage::sessionReset);
    connect(m_session, &SessionModel::appended, this, [this] {
        // Live data widens the full range; keep the zoom unless the user sees everything.
        const bool zoomed = m_state->isZoomed();
        const quint64 s = m_state->startNs(), e = m_state->endNs();
        m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
        if (zoomed)
            m_state->setRange(s, e);
        updateEventTypes(false);
        updateWorkloads();
        updateThreadsTab();
    });
    connect(m_state, &ViewState::rangeChanged, this, &ResultsPage::updateRangeLabel);
    // Another view (a heatmap cell) may set the latency window: the box shows its lower bound.
    connect(m_state, &ViewState::filterChanged, this, [this] {
        const double us = double(m_state->filter().minLatencyNs) / 1000.0;
        if (m_latencyFilter->value() != us) {
            const QSignalBlocker block(m_latencyFilter);
            m_latencyFilter->setValue(us);
        }
    });
    connect(m_state, &ViewState::selectedEventChanged, this,
            [this](const EventRef &ref) { selectInTable(ref); });
    sessionReset();
}

ResultsPage::~ResultsPage() = default;

QWidget *ResultsPage::createGroup(const QList<QPair<QWidget *, QString>> &views)
{
    // A group of one view is that view: a tab bar with a single tab would only take height.
    if (views.size() == 1)
        return views.first().first;
    auto *group = new QTabWidget(this);
    group->setDocumentMode(true);
    for (const auto &[view, title] : views)
        group->addTab(view, title);
    m_groups << group;
    return group;
}

QWidget *ResultsPage::createEventsPage()
{
    m_eventsPage = new QWidget(this);
    auto *layout = new QVBoxLayout(m_eventsPage);
    layout->setContentsMargins(0, 4, 0, 0);
    auto *row = new QHBoxLayout;
    row->setContentsMargins(6, 0, 6, 0);
    m_eventType = new QComboBox(m_eventsPage);
    m_eventType->setObjectName(QStringLiteral("eventTypeBox"));
    m_eventType->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_eventType->setIconSize(QSize(10, 10));
    m_eventType->setAccessibleName(tr("Event type"));
    auto *label = new QLabel(tr("Event t&ype:"), m_eventsPage);
    label->setBuddy(m_eventType);
    row->addWidget(label);
    row->addWidget(m_eventType);
    row->addStretch(1);
    layout->addLayout(row);

    m_eventTables = new QStackedWidget(m_eventsPage);
    for (EventType t : SessionModel::eventTypes()) {
        auto *view = new QTableView(m_eventTables);
        view->setModel(m_filterModels.value(int(t)));
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setSelectionMode(QAbstractItemView::SingleSelection);
        view->setAlternatingRowColors(true);
        view->setWordWrap(false);
        // A cut path keeps its file name: "/usr/lib/locale/…/LC_MESSAGES".
        view->setTextElideMode(Qt::ElideMiddle);
        view->verticalHeader()->hide();
        // Fixed row heights: the view never asks millions of rows for their size.
        view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
        view->horizontalHeader()->setStretchLastSection(true);
        view->setAccessibleName(tr("%1 events").arg(SessionModel::typeName(t)));
        m_tables.insert(int(t), view);
        m_eventTables->addWidget(view);
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this, t](const QModelIndex &current) {
                    if (m_syncingSelection || !current.isValid())
                        return;
                    const QModelIndex source = m_filterModels.value(int(t))->mapToSource(current);
                    m_state->setSelectedEvent({t, source.row()});
                });
    }
    connect(m_eventType, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            m_eventTables->setCurrentWidget(m_tables.value(m_eventType->itemData(index).toInt()));
    });

    // The details below the table, as wide as it: in a dock beside the views they took a
    // third of a laptop's width and still cut times and addresses ("2026-…067Z"). A value
    // longer than the row wraps at its spaces; its tool tip holds it whole.
    m_details->tree()->setWordWrap(true);
    auto *split = new QSplitter(Qt::Vertical, m_eventsPage);
    split->setObjectName(QStringLiteral("eventsSplitter"));
    split->addWidget(m_eventTables);
    split->addWidget(m_details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);
    return m_eventsPage;
}

QWidget *ResultsPage::createFilterBar()
{
    auto *bar = new QWidget(this);
    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(6, 4, 6, 4);
    m_textFilter = new QLineEdit(bar);
    m_textFilter->setPlaceholderText(tr("Filter: command, path, file, disk…"));
    m_textFilter->setClearButtonEnabled(true);
    m_textFilter->setAccessibleName(tr("Text filter"));
    m_pidFilter = new QLineEdit(bar);
    m_pidFilter->setPlaceholderText(tr("PID"));
    m_pidFilter->setValidator(new QIntValidator(0, std::numeric_limits<int>::max(), m_pidFilter));
    m_pidFilter->setMaximumWidth(90);
    m_pidFilter->setAccessibleName(tr("PID filter"));
    m_commFilter = new QLineEdit(bar);
    m_commFilter->setPlaceholderText(tr("Command"));
    m_commFilter->setMaximumWidth(140);
    m_commFilter->setAccessibleName(tr("Command filter"));
    m_latencyFilter = new LatencySpinBox(bar);
    m_latencyFilter->setSpecialValueText(tr("any latency"));
    m_latencyFilter->setAccessibleName(tr("Minimum latency filter"));
    m_latencyFilter->setToolTip(tr("Block requests and slow file operations at least this slow "
                                   "(type a unit: 10 ms, 1.5 s, 250 µs, 800 ns)"));
    // Rows of files, disks, operations, destinations and errors filter by exact keys no box
    // can hold: shown here, a click removes them.
    m_keyFilter = new QToolButton(bar);
    m_keyFilter->setObjectName(QStringLiteral("keyFilterButton"));
    m_keyFilter->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_keyFilter->setIcon(style()->standardIcon(QStyle::SP_DialogCloseButton));
    m_keyFilter->setToolTip(tr("Remove this filter"));
    m_keyFilter->hide();
    connect(m_keyFilter, &QToolButton::clicked, this, [this] {
        EventFilter f = m_state->filter();
        f.destination.reset();
        f.error = 0;
        f.file.clear();
        f.disk.clear();
        f.operation.clear();
        m_state->setFilter(f);
    });
    layout->addWidget(m_keyFilter);
    layout->addWidget(m_textFilter, 3);
    layout->addWidget(m_pidFilter);
    layout->addWidget(m_commFilter, 1);
    m_workloadFilter = new QComboBox(bar);
    m_workloadFilter->setObjectName(QStringLiteral("workloadFilter"));
    m_workloadFilter->setAccessibleName(tr("Container or unit filter"));
    m_workloadFilter->setToolTip(tr("Only the events of one container or systemd unit"));
    m_workloadFilter->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_workloadFilter->setMinimumContentsLength(14);
    m_workloadFilter->hide();
    connect(m_workloadFilter, &QComboBox::currentIndexChanged, this, &ResultsPage::applyFilter);
    layout->addWidget(m_workloadFilter, 1);
    layout->addWidget(m_latencyFilter);

    // Filtering scans every event: wait until typing pauses.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(debounce, &QTimer::timeout, this, &ResultsPage::applyFilter);
    for (QLineEdit *edit : {m_textFilter, m_pidFilter, m_commFilter}) {
        connect(edit, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
        connect(edit, &QLineEdit::returnPressed, this, &ResultsPage::applyFilter);
    }
    connect(m_latencyFilter, &QDoubleSpinBox::valueChanged, debounce, qOverload<>(&QTimer::start));
    // A view that sets the filter (the Top tab) shows it here, so the next edit refines it.
    connect(m_state, &ViewState::filterChanged, bar, [this, debounce] {
        const EventFilter &f = m_state->filter();
        const QSignalBlocker b1(m_textFilter), b2(m_pidFilter), b3(m_commFilter);
        if (m_textFilter->text().toUtf8() != f.text)
            m_textFilter->setText(QString::fromUtf8(f.text));
        const QString pid = f.pid < 0 ? QString() : QString::number(f.pid);
        if (m_pidFilter->text() != pid)
            m_pidFilter->setText(pid);
        if (m_commFilter->text().toUtf8() != f.comm)
            m_commFilter->setText(QString::fromUtf8(f.comm));
        if (f.cgroups.isEmpty() && m_workloadFilter->currentIndex() > 0) {
            const QSignalBlocker b4(m_workloadFilter);
            m_workloadFilter->setCurrentIndex(0);
        }
        // The tool tip says every key whole; the button elides a long path in the middle, so
        // that it does not squeeze the text box.
        QStringList keys, shown;
        auto add = [&](const QString &text, const QString &elided = {}) {
            keys << text;
            shown << (elided.isEmpty() ? text : elided);
        };
        auto bytes = [](const QByteArray &b) { return QString::fromUtf8(escapeKernelBytes(b)); };
        if (!f.file.isEmpty()) {
            const QString path = bytes(f.file);
            add(tr("File %1").arg(path), tr("File %1").arg(m_keyFilter->fontMetrics().elidedText(
                                             path, Qt::ElideMiddle, 140)));
        }
        if (!f.disk.isEmpty())
            add(tr("Disk %1").arg(bytes(f.disk)));
        if (!f.operation.isEmpty())
            add(tr("Operation %1").arg(bytes(f.operation)));
        if (f.destination)
            add(tr("To %1").arg(formatEndpoint(f.destination->family, f.destination->address,
                                               f.destination->port)));
        if (f.error)
            add(tr("Failed with %1").arg(errnoName(-f.error)));
        const QString separator = QStringLiteral(", ");
        m_keyFilter->setText(shown.join(separator));
        m_keyFilter->setToolTip(keys.isEmpty() ? tr("Remove this filter")
                                               : tr("Remove this filter") + QLatin1Char('\n') +
                                                     keys.join(separator));
        m_keyFilter->setVisible(!keys.isEmpty());
        debounce->stop();
    });
    return bar;
}

void ResultsPage::applyFilter()
{
    EventFilter f;
    f.text = m_textFilter->text().toUtf8();
    f.pid = m_pidFilter->text().isEmpty() ? -1 : m_pidFilter->text().toLongLong();
    f.comm = m_commFilter->text().toUtf8();
    f.minLatencyNs = quint64(m_latencyFilter->value() * 1000.0);
    // The box shows 0.1 µs steps: a heatmap bucket's bound (1024 ns) stays exact while shown.
    const quint64 shown = m_state->filter().minLatencyNs;
    if (std::llround(m_latencyFilter->value() * 10.0) == std::llround(double(shown) / 100.0))
        f.minLatencyNs = shown;
    // A heatmap cell's upper bound stays while its lower bound does: typing another latency
    // into the box replaces the window.
    if (f.minLatencyNs == shown)
        f.maxLatencyNs = m_state->filter().maxLatencyNs;
    // What no box shows stays until its button removes it.
    f.destination = m_state->filter().destination;
    f.error = m_state->filter().error;
    f.file = m_state->filter().file;
    f.disk = m_state->filter().disk;
    f.operation = m_state->filter().operation;
    const QStringList workload = m_workloadFilter->currentData().toStringList();
    if (workload.size() == 2) {
        CgroupFilter w;
        (workload[0] == QLatin1String("container") ? w.container : w.unit) = workload[1];
        f.cgroups = matchingCgroups(m_session->data().cgroups, w);
    }
    m_state->setFilter(f);
}

void ResultsPage::updateWorkloads()
{
    const CgroupTable &cgroups = m_session->data().cgroups;
    if (cgroups.size() == m_workloadCgroups)
        return;
    m_workloadCgroups = cgroups.size();
    QMap<QString, QString> containers; // label -> id
    QSet<QString> units;
    for (const CgroupPath &c : cgroups.all()) {
        const CgroupNames n = cgroups.names(c.id);
        if (!n.container.isEmpty())
            containers.insert(tr("Container %1")
                                  .arg(QStringList{n.runtime, shortContainerId(n.container)}
                                           .join(QLatin1Char(' '))
                                           .trimmed()),
                              n.container);
        if (!n.unit.isEmpty())
            units.insert(n.unit);
    }
    QStringList sortedUnits(units.cbegin(), units.cend());
    std::sort(sortedUnits.begin(), sortedUnits.end());
    const QVariant chosen = m_workloadFilter->currentData();
    {
        const QSignalBlocker block(m_workloadFilter);
        m_workloadFilter->clear();
        m_workloadFilter->addItem(tr("Every container and unit"));
        for (auto it = containers.cbegin(); it != containers.cend(); ++it)
            m_workloadFilter->addItem(it.key(),
                                      QStringList{QStringLiteral("container"), it.value()});
        if (!containers.isEmpty() && !sortedUnits.isEmpty())
            m_workloadFilter->insertSeparator(m_workloadFilter->count());
        for (const QString &u : std::as_const(sortedUnits))
            m_workloadFilter->addItem(tr("Unit %1").arg(u), QStringList{QStringLiteral("unit"), u});
        const int again = chosen.isValid() ? m_workloadFilter->findData(chosen) : 0;
        m_workloadFilter->setCurrentIndex(qMax(0, again));
    }
    // As the event tables' Container and Unit columns: only when cgroups tell events apart.
    m_workloadFilter->setVisible(cgroups.size() > 1);
    // A new cgroup of the chosen container or unit (a live recording) joins the filter.
    if (m_workloadFilter->currentIndex() > 0 || !m_state->filter().cgroups.isEmpty())
        applyFilter();
}

void ResultsPage::showView(QWidget *view)
{
    for (auto it = m_tables.cbegin(); it != m_tables.cend(); ++it) {
        if (it.value() == view) {
            showEventType(EventType(it.key()));
            m_tabs->setCurrentWidget(m_eventsPage);
            return;
        }
    }
    if (m_tabs->indexOf(view) >= 0) {
        m_tabs->setCurrentWidget(view);
        return;
    }
    for (QTabWidget *group : std::as_const(m_groups)) {
        if (group->indexOf(view) >= 0) {
            group->setCurrentWidget(view);
            m_tabs->setCurrentWidget(group);
            return;
        }
    }
}

QWidget *ResultsPage::currentView() const
{
    QWidget *current = m_tabs->currentWidget();
    if (current == m_eventsPage)
        return m_eventType->count() ? m_eventTables->currentWidget() : m_eventsPage;
    for (QTabWidget *group : m_groups) {
        if (group == current)
            return group->currentWidget();
    }
    return current;
}

QString ResultsPage::viewTitle(QWidget *view) const
{
    for (auto it = m_tables.cbegin(); it != m_tables.cend(); ++it) {
        if (it.value() == view) {
            const int index = eventTypeIndex(EventType(it.key()));
            return index < 0 ? QString() : m_eventType->itemText(index);
        }
    }
    if (m_tabs->indexOf(view) >= 0)
        return m_tabs->tabText(m_tabs->indexOf(view));
    for (QTabWidget *group : m_groups) {
        if (group->indexOf(view) >= 0)
            return group->tabText(group->indexOf(view));
    }
    return {};
}

void ResultsPage::stepGroup(int step)
{
    // Every view in the order of the tab rows, a group's own tabs included (Latency: Histograms,
    // Heatmap; CPU: Flame Graph, Stack Chart, ...), so that one shortcut reaches each of them.
    struct Place
    {
        int group;
        int view; // -1: a group of one view
    };
    QList<Place> places;
    int current = -1;
    for (int t = 0; t < m_tabs->count(); ++t) {
        if (!m_tabs->isTabVisible(t) || !m_tabs->isTabEnabled(t))
            continue;
        auto *group = qobject_cast<QTabWidget *>(m_tabs->widget(t));
        if (!group || !m_groups.contains(group)) {
            if (t == m_tabs->currentIndex())
                current = int(places.size());
            places.append({t, -1});
            continue;
        }
        for (int v = 0; v < group->count(); ++v) {
            if (!group->isTabVisible(v) || !group->isTabEnabled(v))
                continue;
            if (t == m_tabs->currentIndex() && v == group->currentIndex())
                current = int(places.size());
            places.append({t, v});
        }
    }
    if (places.isEmpty())
        return;
    const int n = int(places.size());
    const Place to = places[((current < 0 ? 0 : current + step) % n + n) % n];
    if (to.view >= 0)
        static_cast<QTabWidget *>(m_tabs->widget(to.group))->setCurrentIndex(to.view);
    m_tabs->setCurrentIndex(to.group);
}

void ResultsPage::addTabActions(QMenu *menu)
{
    // Window-wide, as in browsers and Qt Creator: Ctrl+Tab only reaches the tab widget when the
    // focused field lets it through, and the tab bar itself takes no focus from a click.
    QAction *next = menu->addAction(tr("&Next Tab"), this, [this] { stepGroup(1); });
    next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    QAction *previous = menu->addAction(tr("&Previous Tab"), this, [this] { stepGroup(-1); });
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    menu->addSeparator();
}

int ResultsPage::eventTypeIndex(EventType type) const
{
    return m_eventType->findData(int(type));
}

void ResultsPage::showEventType(EventType type)
{
    const int index = eventTypeIndex(type);
    if (index >= 0)
        m_eventType->setCurrentIndex(index);
}

void ResultsPage::updateEventTypes(bool resizeAll)
{
    if (resizeAll)
        m_sizedTables.clear();
    // Like the timeline's lanes: the types of probes this session did not record are not
    // offered; the others keep the order of the event types.
    const QList<EventType> types = SessionModel::eventTypes();
    int next = 0; // where the next offered type goes
    for (EventType t : types) {
        QTableView *table = m_tables.value(int(t));
        const qsizetype n = m_session->events().count(t);
        const QString text = n ? tr("%1 (%2)").arg(SessionModel::typeName(t), QLocale().toString(n))
                               : SessionModel::typeName(t);
        int index = eventTypeIndex(t);
        if (!m_session->showsType(t)) {
            if (index >= 0)
                m_eventType->removeItem(index);
            continue;
        }
        if (index < 0) {
            index = next;
            m_eventType->insertItem(index, colors::swatch(colors::eventType(t, palette())), text,
                                    int(t));
        }
        next = index + 1;
        if (m_eventType->itemText(index) != text)
            m_eventType->setItemText(index, text);
        // Live, a table is sized once, with its first rows: sized while empty, its columns
        // cut times, pids and addresses to "1…". Whole again when the recording stops.
        if (resizeAll || (n > 0 && !m_sizedTables.contains(int(t)))) {
            table->resizeColumnsToContents();
            // One long cell (open flags "O_RDONLY|O_NONBLOCK|O_DIRECTORY|O_CLOEXEC") must not
            // push the last column, the path or the command line, out of sight: the others are
            // cut (their tooltip has the whole text) where they are wider than 26 characters.
            const int cap = table->fontMetrics().horizontalAdvance(QString(26, QLatin1Char('x')));
            for (int c = 0; c + 1 < table->model()->columnCount(); ++c) {
                if (table->columnWidth(c) > cap)
                    table->setColumnWidth(c, cap);
            }
            if (n > 0)
                m_sizedTables.insert(int(t));
        }
    }
}

void ResultsPage::sessionReset()
{
    updateWorkloads();
    m_state->setSelectedEvent({});
    m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
    updateEventTypes(true);
    updateRangeLabel();
    updateThreadsTab();
}

void ResultsPage::updateThreadsTab()
{
    const auto offer = [this](QWidget *group, EventType type) {
        const int index = m_tabs->indexOf(group);
        const bool shown = m_session->events().count(type) > 0;
        if (index >= 0 && m_tabs->isTabVisible(index) != shown)
            m_tabs->setTabVisible(index, shown);
    };
    offer(m_threads, EventType::ThreadState);
    offer(m_memoryGroup, EventType::Allocation);
}

void ResultsPage::setRecording(bool recording)
{
    if (recording == m_recording) {
        updateRangeLabel();
        return;
    }
    m_recording = recording;
    m_summary->setRecording(recording);
    if (!recording)
        updateEventTypes(true); // the columns fit everything recorded
    updateRangeLabel();
}

void ResultsPage::setTimeOfDay(bool on)
{
    for (EventTableModel *m : std::as_const(m_tableModels))
        m->setTimeOfDay(on);
    for (QTableView *t : std::as_const(m_tables))
        t->resizeColumnToContents(0);
}

void ResultsPage::updateRangeLabel()
{
    if (m_session->isEmpty()) {
        m_rangeLabel->setText(m_recording ? tr("Waiting for the first data") : tr("No session"));
        return;
    }
    const quint64 origin = m_session->info().startMonotonicNs;
    auto rel = [origin](quint64 t) { return double(qint64(t - origin)) / 1e9; };
    m_rangeLabel->setText(
        tr("Visible: %1 s – %2 s (%3)")
            .arg(QLocale().toString(rel(m_state->startNs()), 'f', 6),
                 QLocale().toString(rel(m_state->endNs()), 'f', 6))
            .arg(EventTableModel::formatDuration(m_state->endNs() - m_state->startNs())));
}

void ResultsPage::selectInTable(const EventRef &ref, bool followTab)
{
    if (!ref.isValid())
        return;
    QTableView *view = m_tables.value(int(ref.type));
    EventFilterModel *model = m_filterModels.value(int(ref.type));
    if (!view || !model)
        return;
    const int row = model->rowForEvent(ref.index);
    if (row < 0)
        return;
    m_syncingSelection = true;
    const QModelIndex index = model->index(row, 0);
    view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                       QItemSelectionModel::Rows);
    view->scrollTo(index);
    m_syncingSelection = false;
    // Follow to the matching table only when the tables are what the user is looking at.
    if (followTab && m_tabs->currentWidget() == m_eventsPage)
        showEventType(ref.type);
}

QWidget *ResultsPage::currentChartWidget() const
{
    QWidget *view = currentView();
    if (view == m_histograms) {
        const QList<QChartView *> views = m_histograms->chartViews();
        if (views.size() == 1)
            return views.first();
        if (!views.isEmpty())
            return views.first()->parentWidget(); // the grid of all charts
    }
    if (view == m_heatmap)
        return m_heatmap;
    if (view == m_counters && m_counters->countsChart()->isVisible())
        return m_counters;
    if (view == m_profile && !m_profile->isShowingEmptyState())
        return m_profile->flameGraph();
    if (view == m_memoryProfile && !m_memoryProfile->isShowingEmptyState())
        return m_memoryProfile->flameGraph();
    if (view == m_stackChart && !m_stackChart->isShowingEmptyState())
        return m_stackChart->plot();
    return m_timeline;
}

EventTableModel *ResultsPage::tableModel(EventType type) const
{
    return m_tableModels.value(int(type));
}

EventFilterModel *ResultsPage::filterModel(EventType type) const
{
    return m_filterModels.value(int(type));
}

QTableView *ResultsPage::tableView(EventType type) const
{
    return m_tables.value(int(type));
}

} // namespace bpflens
