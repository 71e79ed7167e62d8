#include "mainwindow.h"

#include "countersview.h"
#include "csvexport.h"
#include "detailspane.h"
#include "eventmodels.h"
#include "histogramview.h"
#include "iostackview.h"
#include "probepanel.h"
#include "recorder.h"
#include "sessionmodel.h"
#include "sessionsave.h"
#include "timelinewidget.h"

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressDialog>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <atomic>

namespace bpflens {

namespace {

constexpr int MaxRecentFiles = 8;
const QString SessionSuffix = QStringLiteral("bpflens");

} // namespace

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
    m_counters = new CountersView(m_session, m_state, this);
    m_summary = new SummaryPanel(m_session, this);
    m_details = new DetailsPane(m_session, m_state, this);
    m_ioStack = new IoStackView(m_session, m_state, this);
    m_probes = new ProbePanel(this);

    m_tabs = new QTabWidget(this);
    m_tabs->setAccessibleName(tr("Views"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_summary, tr("&Summary"));
    m_tabs->addTab(m_histograms, tr("&Histograms"));
    m_tabs->addTab(m_counters, tr("&Counters"));
    m_tabs->addTab(m_ioStack, tr("&I/O Stack"));
    for (EventType t : SessionModel::eventTypes()) {
        auto *view = new QTableView(this);
        view->setModel(m_filterModels.value(int(t)));
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setSelectionMode(QAbstractItemView::SingleSelection);
        view->setAlternatingRowColors(true);
        view->setWordWrap(false);
        view->verticalHeader()->hide();
        // Fixed row heights: the view never asks millions of rows for their size.
        view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
        view->horizontalHeader()->setStretchLastSection(true);
        view->setAccessibleName(tr("%1 events").arg(SessionModel::typeName(t)));
        m_tables.insert(int(t), view);
        m_tabs->addTab(view, SessionModel::typeName(t));
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
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(splitter, 1);
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
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    viewMenu->addAction(dock->toggleViewAction());
    viewMenu->addAction(probeDock->toggleViewAction());

    connect(m_session, &SessionModel::reset, this, &MainWindow::sessionReset);
    connect(m_session, &SessionModel::appended, this, [this] {
        // Live data widens the full range; keep the zoom unless the user sees everything.
        const bool zoomed = m_state->isZoomed();
        const quint64 s = m_state->startNs(), e = m_state->endNs();
        m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
        if (zoomed)
            m_state->setRange(s, e);
    });
    connect(m_state, &ViewState::rangeChanged, this, &MainWindow::updateRangeLabel);
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
    m_latencyFilter = new QDoubleSpinBox(bar);
    m_latencyFilter->setRange(0, 1e9);
    m_latencyFilter->setDecimals(1);
    m_latencyFilter->setSuffix(tr(" µs"));
    m_latencyFilter->setSpecialValueText(tr("any latency"));
    m_latencyFilter->setAccessibleName(tr("Minimum latency filter"));
    m_latencyFilter->setToolTip(tr("Block requests and slow file operations at least this slow"));
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
    return bar;
}

void MainWindow::applyFilter()
{
    EventFilter f;
    f.text = m_textFilter->text().toUtf8();
    f.pid = m_pidFilter->text().isEmpty() ? -1 : m_pidFilter->text().toLongLong();
    f.comm = m_commFilter->text().toUtf8();
    f.minLatencyNs = quint64(m_latencyFilter->value() * 1000.0);
    m_state->setFilter(f);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open…"), this, &MainWindow::chooseOpen);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    m_saveAction = file->addAction(tr("&Save"), this, &MainWindow::save);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAsAction = file->addAction(tr("Save &As…"), this, &MainWindow::chooseSaveAs);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    QMenu *csv = file->addMenu(tr("&Export CSV"));
    m_sessionActions << csv->menuAction();
    csv->addAction(tr("&Whole Session…"), this,
                   [this] { chooseExportCsv(ExportScope::WholeSession); });
    csv->addAction(tr("&Visible Time Range…"), this,
                   [this] { chooseExportCsv(ExportScope::VisibleRange); });
    csv->addAction(tr("One &Probe…"), this, [this] { chooseExportCsv(ExportScope::Probe); });
    QAction *image =
        file->addAction(tr("Export &Chart as Image…"), this, &MainWindow::chooseExportImage);
    m_sessionActions << image;
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

void MainWindow::chooseOpen()
{
    const QString dir = QFileInfo(recentFiles().value(0)).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Session"), dir, tr("BPF Lens sessions (*.bpflens);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    QString message;
    if (m_loading || m_recording) {
        message = m_loading ? tr("another session is still loading")
                            : tr("a recording is running: stop it first");
        if (error)
            *error = message;
        return false;
    }
    if (!maybeKeepRecording()) {
        if (error)
            *error = tr("cancelled");
        return false;
    }
    m_loading = true;
    SessionData data;
    bool ok = false;
    std::atomic<bool> cancel{false};
    std::atomic<qint64> done{0}, total{0};

    // The reader runs on a worker thread so the window keeps painting and Cancel works; the
    // data only crosses back once the thread has finished.
    QProgressDialog progress(tr("Opening %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0,
                             1000, this);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    progress.setValue(0);
    QThread *thread = QThread::create([&] {
        ok = SessionReader::open(path, &data, &message, [&](qint64 d, qint64 t) {
            done = d;
            total = t;
            return !cancel.load();
        });
    });
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(50);
    connect(&poll, &QTimer::timeout, &progress, [&] {
        const qint64 t = total.load();
        if (t > 0)
            progress.setValue(int(std::min<qint64>(1000, done.load() * 1000 / t)));
    });
    connect(&progress, &QProgressDialog::canceled, &progress, [&] { cancel = true; });
    connect(thread, &QThread::finished, &loop, &QEventLoop::quit);
    thread->start();
    poll.start();
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    thread->wait();
    delete thread;
    poll.stop();
    progress.close();
    m_loading = false;

    if (!ok) {
        if (error)
            *error = message;
        if (message != QLatin1String("cancelled"))
            showError(tr("Cannot open session"), message);
        return false;
    }
    m_session->setSession(std::move(data), QFileInfo(path).absoluteFilePath());
    addRecentFile(QFileInfo(path).absoluteFilePath());
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::showError(const QString &title, const QString &message)
{
    // Window-modal and not exec(): the caller (a drop, the command line, a test) goes on.
    auto *box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("errorBox"));
    box->open();
}

void MainWindow::sessionReset()
{
    m_state->setSelectedEvent({});
    m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
    const bool has = !m_session->isEmpty();
    for (QAction *a : std::as_const(m_sessionActions))
        a->setEnabled(has);
    for (EventType t : SessionModel::eventTypes()) {
        const int tab = m_tabs->indexOf(m_tables.value(int(t)));
        const qsizetype n = m_session->events().count(t);
        m_tabs->setTabText(tab,
                           n ? tr("%1 (%2)").arg(SessionModel::typeName(t), QLocale().toString(n))
                             : SessionModel::typeName(t));
        m_tables.value(int(t))->resizeColumnsToContents();
    }
    updateTitle();
    updateRangeLabel();
    updateRecordingStatus();
    updateActions();
}

void MainWindow::updateRangeLabel()
{
    const quint64 origin = m_session->info().startMonotonicNs;
    auto rel = [origin](quint64 t) { return double(qint64(t - origin)) / 1e9; };
    m_rangeLabel->setText(
        tr("Visible: %1 s – %2 s (%3)")
            .arg(rel(m_state->startNs()), 0, 'f', 6)
            .arg(rel(m_state->endNs()), 0, 'f', 6)
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
    CsvExportOptions options;
    if (scope == ExportScope::VisibleRange) {
        options.startNs = m_state->startNs();
        options.endNs = m_state->endNs();
    } else if (scope == ExportScope::Probe) {
        options.probeId = probeId;
    }
    return CsvExport::exportSession(m_session->data(), directory, options, error);
}

void MainWindow::chooseExportCsv(ExportScope scope)
{
    QString probeId;
    if (scope == ExportScope::Probe) {
        QStringList ids;
        for (const ProbeConfig &p : m_session->info().probes)
            ids << p.id;
        for (const HistogramSnapshot &h : m_session->data().histograms) {
            if (!ids.contains(h.probeId))
                ids << h.probeId;
        }
        for (EventType t : SessionModel::eventTypes()) {
            if (m_session->events().count(t) && !ids.contains(CsvExport::probeIdFor(t)))
                ids << CsvExport::probeIdFor(t);
        }
        bool ok = false;
        probeId =
            QInputDialog::getItem(this, tr("Export One Probe"), tr("Probe:"), ids, 0, false, &ok);
        if (!ok || probeId.isEmpty())
            return;
    }
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export CSV Into"));
    if (dir.isEmpty())
        return;
    QString error;
    const QStringList files = exportCsv(dir, scope, probeId, &error);
    if (files.isEmpty()) {
        showError(tr("Export failed"), error);
        return;
    }
    statusBar()->showMessage(tr("Exported %n file(s) to %1", nullptr, int(files.size()))
                                 .arg(QDir::toNativeSeparators(dir)),
                             8000);
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
    if (m_tabs->currentWidget() == m_counters && m_counters->countsChart()->isVisible())
        return m_counters;
    return m_timeline;
}

bool MainWindow::exportImage(QWidget *widget, const QString &path, QString *error)
{
    if (!widget) {
        if (error)
            *error = tr("there is no chart to export");
        return false;
    }
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(widget->size());
        svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
        svg.setTitle(widget->accessibleName());
        svg.setDescription(tr("Exported by BPF Lens"));
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error)
                *error = tr("cannot write %1").arg(QDir::toNativeSeparators(path));
            return false;
        }
        widget->render(&painter);
        painter.end();
        if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0) {
            if (error)
                *error = tr("cannot write %1").arg(QDir::toNativeSeparators(path));
            return false;
        }
        return true;
    }
    if (!widget->grab().save(path)) {
        if (error)
            *error = tr("cannot write %1 (unknown image format or the directory is not writable)")
                         .arg(QDir::toNativeSeparators(path));
        return false;
    }
    return true;
}

void MainWindow::chooseExportImage()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), QString(),
                                                      tr("PNG image (*.png);;SVG image (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportImage(currentChartWidget(), path, &error))
        showError(tr("Export failed"), error);
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > MaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString &f : files) {
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] { openFile(f); });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
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
    if (!maybeKeepRecording()) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile() && QFileInfo(url.toLocalFile()).suffix() == SessionSuffix) {
            event->acceptProposedAction();
            return;
        }
    }
    event->ignore();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile() && QFileInfo(url.toLocalFile()).suffix() == SessionSuffix) {
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
    m_noBackend = new StreamRecorder(this);
    static_cast<StreamRecorder *>(m_noBackend)
        ->setUnavailableReason(
            tr("The BPF Lens helper (bpflens-helper) is not installed or not reachable on the "
               "system D-Bus. To record, install it as root with <code>cmake --install "
               "build/release</code>: it installs bpflens-helper, its D-Bus service and the "
               "polkit policy that lets you record without being root. Then start BPF Lens "
               "again."));

    m_recordAction = new QAction(tr("&Record"), this);
    m_recordAction->setShortcut(Qt::CTRL | Qt::Key_R);
    m_recordAction->setToolTip(tr("Record the selected probes (Ctrl+R)"));
    m_recordAction->setIcon(QIcon::fromTheme(QStringLiteral("media-record")));
    connect(m_recordAction, &QAction::triggered, this, &MainWindow::startRecording);
    m_stopAction = new QAction(tr("S&top"), this);
    m_stopAction->setShortcut(Qt::CTRL | Qt::Key_Period);
    m_stopAction->setToolTip(tr("Stop the recording (Ctrl+.)"));
    m_stopAction->setIcon(QIcon::fromTheme(QStringLiteral("media-playback-stop")));
    connect(m_stopAction, &QAction::triggered, this, [this] {
        if (!m_recorder)
            return;
        if (m_starting && !m_recording) {
            // Still waiting for polkit (or the helper): give up on this start.
            m_starting = false;
            m_recorder->stop();
            statusBar()->showMessage(tr("Recording cancelled"), 5000);
            updateActions();
        } else if (m_recording) {
            m_recorder->stop();
        }
    });
    QToolBar *bar = addToolBar(tr("Recording"));
    bar->setObjectName(QStringLiteral("recordingToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_recordAction);
    bar->addAction(m_stopAction);
    QMenu *menu = menuBar()->addMenu(tr("&Recording"));
    menu->addAction(m_recordAction);
    menu->addAction(m_stopAction);

    m_elapsedLabel = new QLabel(this);
    m_rateLabel = new QLabel(this);
    m_lostLabel = new QLabel(this);
    m_lostLabel->setMargin(2);
    m_cpuLabel = new QLabel(this);
    m_cpuLabel->setToolTip(tr("CPU time the probes' BPF programs took, per second of recording "
                              "(100 % = one CPU)"));
    for (QLabel *l : {m_elapsedLabel, m_rateLabel, m_lostLabel, m_cpuLabel})
        statusBar()->addPermanentWidget(l);
    m_statusTimer = new QTimer(this);
    m_statusTimer->setInterval(1000);
    connect(m_statusTimer, &QTimer::timeout, this, &MainWindow::updateRecordingStatus);
    connect(m_probes, &ProbePanel::changed, this, &MainWindow::updateActions);
    setRecorder(nullptr);
}

void MainWindow::setRecorder(Recorder *recorder)
{
    if (m_recording)
        return; // the running recording's signals stay connected to the old one
    if (m_recorder)
        disconnect(m_recorder, nullptr, this, nullptr);
    m_recorder = recorder ? recorder : m_noBackend;
    connect(m_recorder, &Recorder::started, this, &MainWindow::recordingStarted);
    connect(m_recorder, &Recorder::batch, m_session, &SessionModel::append);
    connect(m_recorder, &Recorder::ended, this, &MainWindow::recordingEnded);
    connect(m_recorder, &Recorder::failed, this, &MainWindow::recordingFailed);
    connect(m_recorder, &Recorder::availabilityChanged, this, [this] {
        updateBanner();
        updateActions();
    });
    connect(m_recorder, &Recorder::waiting, this, [this](const QString &message) {
        if (m_starting)
            statusBar()->showMessage(message);
    });
    connect(m_recorder, &Recorder::probeRejected, m_probes, &ProbePanel::showProbeError);
    connect(m_recorder, &Recorder::probesListed, this,
            [this](const QString &kernel, const QHash<QString, ProbeAvailability> &availability) {
                m_probes->setKernelRelease(kernel);
                m_probes->setAvailability(availability);
            });
    connect(m_recorder, &Recorder::tracepointsListed, m_probes, &ProbePanel::setTracepointNames);
    updateBanner();
    updateActions();
}

void MainWindow::updateBanner()
{
    const bool available = m_recorder && m_recorder->isAvailable();
    const QString notice = m_recorder ? m_recorder->notice() : QString();
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
                                  .arg(m_recorder ? m_recorder->unavailableReason() : QString()));
    else
        m_bannerText->setText(notice);
    m_bannerText->setAccessibleName(available ? tr("Recording problem")
                                              : tr("Recording unavailable"));
}

void MainWindow::updateActions()
{
    const bool available = m_recorder && m_recorder->isAvailable();
    m_recordAction->setEnabled(available && !m_recording && !m_starting && !m_loading);
    // While waiting for authorisation Stop cancels the start.
    m_stopAction->setEnabled(m_recording || m_starting);
    m_probes->setEnabled(!m_recording && !m_starting);
    m_saveAction->setEnabled(m_unsaved && !m_recording);
    m_saveAsAction->setEnabled(!m_recording && !m_session->isEmpty());
}

void MainWindow::updateTitle()
{
    QString name;
    if (m_recording)
        name = tr("Recording");
    else if (!m_session->path().isEmpty())
        name = QFileInfo(m_session->path()).fileName();
    else if (m_unsaved)
        name = tr("Unsaved recording");
    // [*] is where Qt puts the modified mark.
    setWindowTitle(name.isEmpty() ? tr("BPF Lens") : tr("%1[*] — BPF Lens").arg(name));
    setWindowModified(m_unsaved);
}

void MainWindow::startRecording()
{
    if (m_recording || !m_recorder)
        return;
    QString error;
    const QList<ProbeConfig> probes = m_probes->configs(&error);
    if (probes.isEmpty()) {
        showError(tr("Cannot record"), error);
        return;
    }
    if (!maybeKeepRecording())
        return;
    statusBar()->showMessage(tr("Starting the recording…"));
    m_starting = true;
    updateActions();
    m_recorder->start(probes);
}

void MainWindow::recordingStarted(const SessionInfo &info)
{
    m_starting = false;
    m_recording = true;
    m_unsaved = false;
    SessionData data;
    data.info = info;
    m_session->setSession(std::move(data));
    m_recordClock.start();
    m_rateEvents = 0;
    m_rateAtMs = 0;
    m_eventsPerSecond = 0;
    m_statusTimer->start();
    statusBar()->showMessage(tr("Recording"), 3000);
    updateTitle();
    updateActions();
    updateRecordingStatus();
}

void MainWindow::recordingEnded(const QString &reason, quint64 endNs)
{
    if (!m_recording)
        return;
    m_recording = false;
    m_statusTimer->stop();
    m_session->setEndTime(endNs);
    // Even an empty recording is kept: its probes and lost counts are worth saving.
    m_unsaved = true;
    updateRecordingStatus();
    updateTitle();
    updateActions();
    statusBar()->showMessage(reason, 8000);
}

void MainWindow::recordingFailed(const QString &error)
{
    if (m_recording) {
        // What arrived before the failure is kept and can be saved.
        recordingEnded(tr("Recording failed"), 0);
        showError(tr("Recording failed"),
                  tr("%1\n\nThe data recorded until then is kept.").arg(error));
        return;
    }
    if (!m_starting)
        return; // the end of a recording the user discarded
    m_starting = false;
    statusBar()->clearMessage();
    updateActions();
    showError(tr("Cannot record"), error);
}

void MainWindow::updateRecordingStatus()
{
    const SessionData &data = m_session->data();
    // Stats are cumulative per probe: the last sample of each is the total.
    QHash<QString, ProbeStats> last;
    for (const ProbeStats &s : data.stats) {
        ProbeStats &l = last[s.probeId];
        if (s.timeNs >= l.timeNs)
            l = s;
    }
    quint64 lost = 0, runNs = 0, lastStatsNs = 0;
    for (const ProbeStats &s : std::as_const(last)) {
        lost += s.eventsLost;
        runNs += s.runTimeNs;
        lastStatsNs = std::max(lastStatsNs, s.timeNs);
    }
    const quint64 origin = data.info.startMonotonicNs;
    const qint64 events = data.events.totalCount();
    double elapsedS = 0;
    if (m_recording) {
        const qint64 nowMs = m_recordClock.elapsed();
        elapsedS = double(nowMs) / 1000.0;
        if (nowMs - m_rateAtMs >= 900) {
            m_eventsPerSecond = double(events - m_rateEvents) * 1000.0 /
                                double(std::max<qint64>(1, nowMs - m_rateAtMs));
            m_rateEvents = events;
            m_rateAtMs = nowMs;
        }
    } else {
        const quint64 end =
            data.info.endMonotonicNs ? data.info.endMonotonicNs : m_session->endTimeNs();
        elapsedS = end > origin ? double(end - origin) / 1e9 : 0.0;
        m_eventsPerSecond = elapsedS > 0 ? double(events) / elapsedS : 0.0;
    }
    const qint64 secs = qint64(elapsedS);
    m_elapsedLabel->setText((m_recording ? tr("● Recording %1") : tr("Duration %1"))
                                .arg(QStringLiteral("%1:%2:%3")
                                         .arg(secs / 3600)
                                         .arg(secs / 60 % 60, 2, 10, QLatin1Char('0'))
                                         .arg(secs % 60, 2, 10, QLatin1Char('0'))));
    m_rateLabel->setText(tr("%1 events/s").arg(QLocale().toString(m_eventsPerSecond, 'f', 0)));
    // Lost events are always shown, and stand out when there are any: the data is incomplete.
    m_lostLabel->setText(tr("%1 lost").arg(QLocale().toString(lost)));
    m_lostLabel->setStyleSheet(lost ? QStringLiteral("background: #d0312d; color: white; "
                                                     "font-weight: bold; border-radius: 3px;")
                                    : QString());
    m_lostLabel->setToolTip(lost ? tr("%1 events could not be delivered by the kernel (buffers "
                                      "full): the recording is incomplete.")
                                       .arg(QLocale().toString(lost))
                                 : tr("No events were lost."));
    // runTimeNs is the kernel's BPF run time; per second of (stats) time it is a CPU share.
    const double statsS = lastStatsNs > origin ? double(lastStatsNs - origin) / 1e9 : elapsedS;
    const double cpu = statsS > 0 ? 100.0 * double(runNs) / 1e9 / statsS : 0.0;
    m_cpuLabel->setText(tr("probes %1 % CPU").arg(QLocale().toString(cpu, 'f', 2)));
}

bool MainWindow::saveTo(const QString &path, QString *error)
{
    QString why;
    if (m_recording) {
        why = tr("a recording is running: stop it first");
    } else if (saveSession(m_session->data(), m_session->endTimeNs(), path, &why)) {
        m_session->setPath(QFileInfo(path).absoluteFilePath());
        m_unsaved = false;
        addRecentFile(QFileInfo(path).absoluteFilePath());
        updateTitle();
        updateActions();
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
        return true;
    }
    if (error)
        *error = why;
    return false;
}

void MainWindow::save()
{
    if (m_session->path().isEmpty()) {
        chooseSaveAs();
        return;
    }
    QString error;
    if (!saveTo(m_session->path(), &error))
        showError(tr("Save failed"), error);
}

void MainWindow::chooseSaveAs()
{
    QFileDialog dialog(this, tr("Save Session"), QFileInfo(recentFiles().value(0)).absolutePath(),
                       tr("BPF Lens sessions (*.bpflens)"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(SessionSuffix);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    QString error;
    if (!saveTo(dialog.selectedFiles().first(), &error))
        showError(tr("Save failed"), error);
}

bool MainWindow::maybeKeepRecording()
{
    if (!m_unsaved && !m_recording)
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved recording"),
                    m_recording ? tr("A recording is running. Stop it and discard what it "
                                     "recorded?")
                                : tr("The recording has not been saved. Save it first?"),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("unsavedRecordingBox"));
    if (m_recording) {
        box.setStandardButtons(QMessageBox::Discard | QMessageBox::Cancel);
    } else {
        box.setStandardButtons(QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Save);
    }
    switch (box.exec()) {
    case QMessageBox::Save:
        save();
        return !m_unsaved; // a cancelled or failed save keeps the window
    case QMessageBox::Discard:
        if (m_recording) {
            m_recorder->stop();
            m_recording = false;
            m_statusTimer->stop();
        }
        m_unsaved = false;
        setWindowModified(false);
        return true;
    default:
        return false;
    }
}

} // namespace bpflens
