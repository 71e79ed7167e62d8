#include "mainwindow.h"

#include "colors.h"
#include "comparecontroller.h"
#include "countersview.h"
#include "detailspane.h"
#include "eventmodels.h"
#include "explainpage.h"
#include "flamegraphview.h"
#include "heatmapview.h"
#include "helpcontroller.h"
#include "histogramview.h"
#include "iostackview.h"
#include "latencyspinbox.h"
#include "openflags.h"
#include "overviewpage.h"
#include "probepanel.h"
#include "profilepage.h"
#include "querypage.h"
#include "recorder.h"
#include "recordingcontroller.h"
#include "remotehosts.h"
#include "sessiondocument.h"
#include "sessionmodel.h"
#include "startpage.h"
#include "theme.h"
#include "timelinewidget.h"
#include "toppage.h"

#include <QAction>
#include <QChartView>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace bpflens {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_session(new SessionModel(this))
    , m_state(new ViewState(this))
{
    setWindowTitle(tr("BPF Lens"));
    setAcceptDrops(true);

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
    m_query = new QueryPage(m_session, this);
    m_top = new TopPage(m_session, m_state, this);
    m_explain = new ExplainPage(m_session, m_state, this);
    m_probes = new ProbePanel(this);
    m_document = new SessionDocument(m_session, this);
    m_recording = new RecordingController(m_session, m_probes, m_document, this);
    m_document->setRecordingController(m_recording);
    m_exports =
        new ExportController(m_session, m_state, this, [this] { return currentChartWidget(); });
    m_compare = new CompareController(m_session, this);

    m_tabs = new QTabWidget(this);
    m_tabs->setAccessibleName(tr("Views"));
    m_tabs->setDocumentMode(true);
    m_tabs->setIconSize(QSize(10, 10));
    m_tabs->addTab(m_summary, tr("&Overview"));
    m_tabs->addTab(m_histograms, tr("&Histograms"));
    m_tabs->addTab(m_heatmap, tr("Heat&map"));
    m_tabs->addTab(m_counters, tr("&Counters"));
    m_tabs->addTab(m_ioStack, tr("&I/O Stack"));
    m_tabs->addTab(m_profile, tr("CPU &Profile"));
    m_tabs->addTab(m_query, tr("Query"));
    m_tabs->addTab(m_top, tr("&Top"));
    m_tabs->addTab(m_explain, tr("E&xplain"));
    connect(m_state, &ViewState::explainRequested, this,
            [this] { m_tabs->setCurrentWidget(m_explain); });
    connect(m_summary->overview(), &OverviewPage::viewRequested, this,
            [this](OverviewPage::View view, EventType type) {
                using V = OverviewPage::View;
                if (view == V::CpuProfile || view == V::OffCpuProfile)
                    m_profile->setKind(view == V::CpuProfile ? ProfileKind::OnCpu
                                                             : ProfileKind::OffCpu);
                QWidget *to = m_profile;
                if (view == V::Explain || view == V::Histograms)
                    to = view == V::Explain ? static_cast<QWidget *>(m_explain) : m_histograms;
                else if (view == V::Events)
                    to = m_tables.value(int(type));
                m_tabs->setCurrentWidget(to);
            });
    for (EventType t : SessionModel::eventTypes()) {
        auto *view = new QTableView(this);
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
        // The lane's colour on its tab: the eye finds the table of what it saw in the timeline.
        m_tabs->addTab(view, colors::swatch(colors::eventType(t, palette())),
                       SessionModel::typeName(t));
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this, t](const QModelIndex &current) {
                    if (m_syncingSelection || !current.isValid())
                        return;
                    const QModelIndex source = m_filterModels.value(int(t))->mapToSource(current);
                    m_state->setSelectedEvent({t, source.row()});
                });
    }

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(createFilterBar());
    bottomLayout->addWidget(m_tabs, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_splitter = splitter;
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(m_timeline);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);

    // A message strip above everything (like KMessageWidget): in the window, not a dialog,
    // because viewing saved sessions still works.
    m_banner = new QFrame(this);
    m_banner->setObjectName(QStringLiteral("recorderBanner"));
    m_banner->setFrameShape(QFrame::StyledPanel);
    m_banner->setAutoFillBackground(true);
    auto *bannerLayout = new QHBoxLayout(m_banner);
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextFormat(Qt::RichText);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_bannerText->setAccessibleName(tr("Recording unavailable"));
    bannerLayout->addWidget(m_bannerText, 1);
    // The same kind of strip for a session salvaged from a damaged file: the views show what
    // could be read, the strip what was lost (SessionDamage, as bpflens-cli show prints it).
    m_damageBanner = new QFrame(this);
    m_damageBanner->setObjectName(QStringLiteral("damageBanner"));
    m_damageBanner->setFrameShape(QFrame::StyledPanel);
    m_damageBanner->setAutoFillBackground(true);
    auto *damageLayout = new QHBoxLayout(m_damageBanner);
    m_damageText = new QLabel(m_damageBanner);
    m_damageText->setWordWrap(true);
    m_damageText->setTextFormat(Qt::RichText);
    m_damageText->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_damageText->setAccessibleName(tr("Damaged session"));
    damageLayout->addWidget(m_damageText, 1);
    auto *dismiss = new QToolButton(m_damageBanner);
    dismiss->setObjectName(QStringLiteral("damageBannerClose"));
    dismiss->setAutoRaise(true);
    dismiss->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    dismiss->setToolTip(tr("Hide this message"));
    dismiss->setAccessibleName(tr("Hide this message"));
    connect(dismiss, &QToolButton::clicked, m_damageBanner, &QWidget::hide);
    damageLayout->addWidget(dismiss, 0, Qt::AlignTop);
    m_damageBanner->hide();
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_damageBanner);
    // The start page until there is something to show: the views of an empty session would be
    // a wall of empty charts.
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(splitter);
    centralLayout->addWidget(m_pages, 1);
    setCentralWidget(central);

    auto *dock = new QDockWidget(tr("Event details"), this);
    dock->setObjectName(QStringLiteral("detailsDock"));
    dock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    auto *probeDock = new QDockWidget(tr("Probes"), this);
    probeDock->setObjectName(QStringLiteral("probeDock"));
    probeDock->setWidget(m_probes);
    m_probes->setMinimumWidth(340);
    addDockWidget(Qt::LeftDockWidgetArea, probeDock);

    m_rangeLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_rangeLabel);

    createMenus();
    createRecordingControls();
    m_help = new HelpController(this);
    m_start = new StartPage(m_recording->recordAction(), m_document->openAction(),
                            m_help->documentationAction(), this);
    m_pages->addWidget(m_start);
    connect(m_start, &StartPage::openRequested, this, [this](const QString &path) {
        QString error;
        if (!openFile(path, &error) && !error.isEmpty())
            statusBar()->showMessage(error, 10000);
    });
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addAction(probeDock->toggleViewAction());
    viewMenu->addSeparator();
    // Window-wide, as in browsers and Qt Creator: Ctrl+Tab only reaches the tab widget when the
    // focused field lets it through, and the tab bar itself takes no focus from a click.
    auto stepTab = [this](int step) {
        const int n = m_tabs->count();
        for (int i = 1; i < n; ++i) {
            const int t = ((m_tabs->currentIndex() + step * i) % n + n) % n;
            if (m_tabs->isTabVisible(t) && m_tabs->isTabEnabled(t)) {
                m_tabs->setCurrentIndex(t);
                return;
            }
        }
    };
    QAction *nextTab = viewMenu->addAction(tr("&Next Tab"), this, [stepTab] { stepTab(1); });
    nextTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    QAction *previousTab =
        viewMenu->addAction(tr("&Previous Tab"), this, [stepTab] { stepTab(-1); });
    previousTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    viewMenu->addSeparator();
    // execsnoop -T: the tables' Time column as the local time of day; the timeline keeps
    // seconds since the start.
    m_timeOfDayAction = viewMenu->addAction(tr("Time of &Day in Tables"));
    m_timeOfDayAction->setCheckable(true);
    m_timeOfDayAction->setChecked(QSettings().value(QStringLiteral("view/timeOfDay")).toBool());
    auto applyTimeOfDay = [this](bool on) {
        for (EventTableModel *m : std::as_const(m_tableModels))
            m->setTimeOfDay(on);
        for (QTableView *t : std::as_const(m_tables))
            t->resizeColumnToContents(0);
    };
    applyTimeOfDay(m_timeOfDayAction->isChecked());
    connect(m_timeOfDayAction, &QAction::toggled, this, [applyTimeOfDay](bool on) {
        QSettings().setValue(QStringLiteral("view/timeOfDay"), on);
        applyTimeOfDay(on);
    });
    viewMenu->addMenu(Theme::instance()->createMenu(viewMenu));
    menuBar()->addMenu(m_help->menu());

    connect(m_session, &SessionModel::reset, this, &MainWindow::sessionReset);
    connect(m_session, &SessionModel::appended, this, [this] {
        // Live data widens the full range; keep the zoom unless the user sees everything.
        const bool zoomed = m_state->isZoomed();
        const quint64 s = m_state->startNs(), e = m_state->endNs();
        m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
        if (zoomed)
            m_state->setRange(s, e);
        updateEventTabs(false);
    });
    connect(m_state, &ViewState::rangeChanged, this, &MainWindow::updateRangeLabel);
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
    // Large tables filter in a worker; the status bar says so while any of them is busy.
    auto *filtering = new QLabel(tr("Filtering…"), this);
    filtering->setObjectName(QStringLiteral("filteringLabel"));
    filtering->hide();
    statusBar()->addPermanentWidget(filtering);
    for (EventFilterModel *filter : std::as_const(m_filterModels)) {
        connect(filter, &EventFilterModel::filterPendingChanged, filtering, [this, filtering] {
            const auto &models = m_filterModels;
            filtering->setVisible(std::any_of(models.cbegin(), models.cend(),
                                              [](auto *m) { return m->filterPending(); }));
        });
    }
    for (EventFilterModel *filter : std::as_const(m_filterModels)) {
        // Zooming and filtering reset the table; the selected event stays selected if shown.
        connect(filter, &QAbstractItemModel::modelReset, this, [this, filter] {
            if (m_state->selectedEvent().type == filter->type())
                selectInTable(m_state->selectedEvent(), false);
        });
    }

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    splitter->restoreState(settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
    if (settings.value(QStringLiteral("mainWindow/geometry")).isNull())
        resize(1280, 860);
    sessionReset();
}

MainWindow::~MainWindow() = default;

QWidget *MainWindow::createFilterBar()
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
    layout->addWidget(m_latencyFilter);

    // Filtering scans every event: wait until typing pauses.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(debounce, &QTimer::timeout, this, &MainWindow::applyFilter);
    for (QLineEdit *edit : {m_textFilter, m_pidFilter, m_commFilter}) {
        connect(edit, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
        connect(edit, &QLineEdit::returnPressed, this, &MainWindow::applyFilter);
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

void MainWindow::applyFilter()
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
    m_state->setFilter(f);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_document->openAction());
    file->addMenu(m_document->recentMenu());
    file->addAction(m_document->saveAction());
    file->addAction(m_document->saveAsAction());
    file->addSeparator();
    file->addAction(m_compare->action());
    file->addSeparator();
    file->addMenu(m_exports->csvMenu());
    file->addAction(m_exports->traceAction());
    file->addAction(m_exports->imageAction());
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *zoom = menuBar()->addMenu(tr("&Zoom"));
    QAction *in = zoom->addAction(tr("Zoom &In"), this, [this] {
        m_state->zoom(0.5, m_state->startNs() + (m_state->endNs() - m_state->startNs()) / 2);
    });
    in->setShortcut(QKeySequence::ZoomIn);
    QAction *out = zoom->addAction(tr("Zoom &Out"), this, [this] {
        m_state->zoom(2.0, m_state->startNs() + (m_state->endNs() - m_state->startNs()) / 2);
    });
    out->setShortcut(QKeySequence::ZoomOut);
    QAction *reset = zoom->addAction(tr("&Reset Zoom"), m_state, &ViewState::resetRange);
    reset->setShortcut(Qt::CTRL | Qt::Key_0);
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    return m_document->openFile(path, error);
}

void MainWindow::updateEventTabs(bool resizeAll)
{
    if (resizeAll)
        m_sizedTables.clear();
    // A table comes back after the previous type's table, or before the first one present of
    // a later type, so that they keep the order of the event types.
    const QList<EventType> types = SessionModel::eventTypes();
    int previous = -1;
    auto insertionPoint = [&](qsizetype from) {
        if (previous >= 0)
            return previous + 1;
        for (qsizetype i = from + 1; i < types.size(); ++i) {
            const int at = m_tabs->indexOf(m_tables.value(int(types[i])));
            if (at >= 0)
                return at;
        }
        return m_tabs->count();
    };
    for (qsizetype i = 0; i < types.size(); ++i) {
        const EventType t = types[i];
        QTableView *table = m_tables.value(int(t));
        const qsizetype n = m_session->events().count(t);
        const QString text = n ? tr("%1 (%2)").arg(SessionModel::typeName(t), QLocale().toString(n))
                               : SessionModel::typeName(t);
        // Like the timeline's lanes: the tables of probes this session did not record would be
        // a row of empty tabs pushing the others out of sight. They are taken out rather than
        // hidden: Qt 6.4's tab bar, scrolled to a tab, counts hidden tabs at its end and leaves
        // a gap at its start.
        int tab = m_tabs->indexOf(table);
        if (!m_session->showsType(t)) {
            if (tab >= 0)
                m_tabs->removeTab(tab);
            continue;
        }
        if (tab < 0)
            tab = m_tabs->insertTab(insertionPoint(i), table,
                                    colors::swatch(colors::eventType(t, palette())), text);
        previous = tab;
        if (m_tabs->tabText(tab) != text)
            m_tabs->setTabText(tab, text);
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

void MainWindow::sessionReset()
{
    updateDamageBanner();
    m_state->setSelectedEvent({});
    m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
    updateEventTabs(true);
    updateTitle();
    updateRangeLabel();
    m_recording->updateRecordingStatus();
    updateActions();
}

void MainWindow::updateRangeLabel()
{
    if (m_session->isEmpty()) {
        m_rangeLabel->setText(m_recording->isRecording() ? tr("Waiting for the first data")
                                                         : tr("No session"));
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

void MainWindow::selectInTable(const EventRef &ref, bool followTab)
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
    // Follow to the matching table only when a table is what the user is looking at.
    if (followTab && qobject_cast<QTableView *>(m_tabs->currentWidget()))
        m_tabs->setCurrentWidget(view);
}

QStringList MainWindow::exportCsv(const QString &directory, ExportScope scope,
                                  const QString &probeId, QString *error)
{
    return m_exports->exportCsv(directory, scope, probeId, error);
}

QWidget *MainWindow::currentChartWidget() const
{
    if (m_tabs->currentWidget() == m_histograms) {
        const QList<QChartView *> views = m_histograms->chartViews();
        if (views.size() == 1)
            return views.first();
        if (!views.isEmpty())
            return views.first()->parentWidget(); // the grid of all charts
    }
    if (m_tabs->currentWidget() == m_heatmap)
        return m_heatmap;
    if (m_tabs->currentWidget() == m_counters && m_counters->countsChart()->isVisible())
        return m_counters;
    if (m_tabs->currentWidget() == m_profile && !m_profile->isShowingEmptyState())
        return m_profile->flameGraph();
    return m_timeline;
}

bool MainWindow::exportImage(QWidget *widget, const QString &path, QString *error)
{
    return ExportController::exportImage(widget, path, error);
}

QStringList MainWindow::recentFiles() const
{
    return m_document->recentFiles();
}

EventTableModel *MainWindow::tableModel(EventType type) const
{
    return m_tableModels.value(int(type));
}

EventFilterModel *MainWindow::filterModel(EventType type) const
{
    return m_filterModels.value(int(type));
}

QTableView *MainWindow::tableView(EventType type) const
{
    return m_tables.value(int(type));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_splitter->saveState());
    if (!m_document->maybeKeepRecording()) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        if (SessionDocument::isSessionFile(url)) {
            event->acceptProposedAction();
            return;
        }
    }
    event->ignore();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        if (SessionDocument::isSessionFile(url)) {
            event->acceptProposedAction();
            // After the drop returns: the drag source must not wait for a whole load.
            const QString path = url.toLocalFile();
            QTimer::singleShot(0, this, [this, path] { openFile(path); });
            return;
        }
    }
}

void MainWindow::createRecordingControls()
{
    QToolBar *bar = addToolBar(tr("Recording"));
    bar->setObjectName(QStringLiteral("recordingToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_recording->recordAction());
    bar->addAction(m_recording->stopAction());
    QMenu *menu = menuBar()->addMenu(tr("&Recording"));
    menu->addAction(m_recording->recordAction());
    menu->addAction(m_recording->stopAction());
    menu->addSeparator();
    m_remoteHosts = new RemoteHostController(m_recording, this);
    menu->addAction(m_remoteHosts->recordOnHostAction());
    menu->addMenu(m_remoteHosts->recentMenu());
    menu->addAction(m_remoteHosts->recordLocallyAction());

    for (QLabel *l : {m_recording->elapsedLabel(), m_recording->rateLabel(),
                      m_recording->lostLabel(), m_recording->cpuLabel()})
        statusBar()->addPermanentWidget(l);
    connect(m_recording, &RecordingController::availabilityChanged, this, [this] {
        updateBanner();
        updateActions();
    });
    connect(m_recording, &RecordingController::actionsChanged, this, &MainWindow::updateActions);
    connect(m_recording, &RecordingController::recordingChanged, this, [this] {
        m_summary->setRecording(m_recording->isRecording());
        if (!m_recording->isRecording())
            updateEventTabs(true); // the columns fit everything recorded
        updateTitle();
        updateActions();
    });
    connect(m_document, &SessionDocument::stateChanged, this, [this] {
        updateTitle();
        updateActions();
    });
    // Saving a recording gives the Query tab a file to read.
    connect(m_document, &SessionDocument::stateChanged, m_query, &QueryPage::sessionChanged);
    setRecorder(nullptr);
}

void MainWindow::setRecorder(Recorder *recorder)
{
    m_recording->setRecorder(recorder);
}

Recorder *MainWindow::recorder() const
{
    return m_recording->recorder();
}

bool MainWindow::isRecording() const
{
    return m_recording->isRecording();
}

bool MainWindow::hasUnsavedRecording() const
{
    return m_document->hasUnsavedRecording();
}

QAction *MainWindow::recordAction() const
{
    return m_recording->recordAction();
}

QAction *MainWindow::stopAction() const
{
    return m_recording->stopAction();
}

QAction *MainWindow::saveAction() const
{
    return m_document->saveAction();
}

QAction *MainWindow::saveAsAction() const
{
    return m_document->saveAsAction();
}

QLabel *MainWindow::elapsedLabel() const
{
    return m_recording->elapsedLabel();
}

QLabel *MainWindow::rateLabel() const
{
    return m_recording->rateLabel();
}

QLabel *MainWindow::lostLabel() const
{
    return m_recording->lostLabel();
}

QLabel *MainWindow::cpuLabel() const
{
    return m_recording->cpuLabel();
}

void MainWindow::updateBanner()
{
    const Recorder *recorder = m_recording->recorder();
    const bool available = recorder && recorder->isAvailable();
    const QString notice = recorder ? recorder->notice() : QString();
    const bool show = !available || !notice.isEmpty();
    m_banner->setVisible(show);
    if (!show)
        return;
    QPalette p = m_banner->palette();
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    p.setColor(QPalette::Window, dark ? QColor(0x5c, 0x4a, 0x12) : QColor(0xfd, 0xf1, 0xc7));
    p.setColor(QPalette::WindowText, dark ? QColor(0xf5, 0xf0, 0xe0) : QColor(0x3a, 0x2e, 0x05));
    m_banner->setPalette(p);
    // Reasons and notices are rich text from the recorder: they name the fix.
    if (!available)
        m_bannerText->setText(tr("<b>Recording is not available.</b> %1<br>Saved sessions can "
                                 "still be opened.")
                                  .arg(recorder ? recorder->unavailableReason() : QString()));
    else
        m_bannerText->setText(notice);
    m_bannerText->setAccessibleName(available ? tr("Recording problem")
                                              : tr("Recording unavailable"));
}

void MainWindow::updateDamageBanner()
{
    const SessionDamage &damage = m_session->data().damage;
    m_damageBanner->setVisible(damage.isDamaged());
    if (!damage.isDamaged()) {
        m_damageText->clear();
        return;
    }
    QPalette p = m_damageBanner->palette();
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    p.setColor(QPalette::Window, dark ? QColor(0x5c, 0x1f, 0x1a) : QColor(0xfb, 0xe3, 0xe0));
    p.setColor(QPalette::WindowText, dark ? QColor(0xf5, 0xe6, 0xe4) : QColor(0x4a, 0x10, 0x0b));
    m_damageBanner->setPalette(p);
    QString lost;
    for (const QString &line : damage.lost)
        lost += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
    m_damageText->setText(
        tr("<b>This file is damaged</b> (%1). Everything that could be read is shown; this was "
           "lost:<ul>%2</ul>Save As writes what was read into a new, intact file.")
            .arg(damage.reason.toHtmlEscaped(), lost));
}

void MainWindow::updateActions()
{
    m_recording->updateActions();
    m_document->updateActions();
    m_compare->setAvailable(!m_session->isEmpty() && !m_recording->isRecording() &&
                            !m_document->isLoading());
    if (!m_timeline || !m_rangeLabel)
        return; // still being built
    // The empty states say what to do, or that data is on its way.
    updatePage();
    m_timeline->setEmptyText(
        m_recording->isRecording()
            ? tr("Recording: waiting for the first data from the probes…")
            : tr("No data yet. Tick probes on the left and press Record, or open a session "
                 "with File > Open."));
    updateRangeLabel();
}

void MainWindow::updatePage()
{
    if (!m_start)
        return;
    const bool nothing = m_session->isEmpty() && m_session->path().isEmpty() &&
                         !m_recording->isRecording() && !m_document->hasUnsavedRecording() &&
                         !m_document->isLoading();
    if (nothing)
        m_start->setRecentFiles(m_document->recentFiles());
    m_pages->setCurrentWidget(nothing ? static_cast<QWidget *>(m_start) : m_splitter);
}

void MainWindow::updateTitle()
{
    QString name;
    // A recording made on another host says so in the title (and in the taskbar).
    const QString host = m_recording->recordedOn();
    if (m_recording->isRecording())
        name = host.isEmpty() ? tr("Recording") : tr("Recording on %1").arg(host);
    else if (!m_session->path().isEmpty())
        name = host.isEmpty()
                   ? QFileInfo(m_session->path()).fileName()
                   : tr("%1 (recorded on %2)").arg(QFileInfo(m_session->path()).fileName(), host);
    else if (m_document->hasUnsavedRecording())
        name = host.isEmpty() ? tr("Unsaved recording") : tr("Unsaved recording on %1").arg(host);
    // [*] is where Qt puts the modified mark.
    setWindowTitle(name.isEmpty() ? tr("BPF Lens") : tr("%1[*] — BPF Lens").arg(name));
    setWindowModified(m_document->hasUnsavedRecording());
}

void MainWindow::updateRecordingStatus()
{
    m_recording->updateRecordingStatus();
}

bool MainWindow::saveTo(const QString &path, QString *error)
{
    return m_document->saveTo(path, error);
}

} // namespace bpflens
