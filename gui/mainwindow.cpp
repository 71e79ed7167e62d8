#include "mainwindow.h"

#include "countersview.h"
#include "csvexport.h"
#include "detailspane.h"
#include "eventmodels.h"
#include "histogramview.h"
#include "sessionmodel.h"
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
#include <QVBoxLayout>

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

    m_tabs = new QTabWidget(this);
    m_tabs->setAccessibleName(tr("Views"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_summary, tr("&Summary"));
    m_tabs->addTab(m_histograms, tr("&Histograms"));
    m_tabs->addTab(m_counters, tr("&Counters"));
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
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(m_timeline);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    setCentralWidget(splitter);

    auto *dock = new QDockWidget(tr("Event details"), this);
    dock->setObjectName(QStringLiteral("detailsDock"));
    dock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, dock);

    m_rangeLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_rangeLabel);

    createMenus();
    menuBar()->addMenu(tr("&View"))->addAction(dock->toggleViewAction());

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
    if (m_loading) {
        message = tr("another session is still loading");
        if (error)
            *error = message;
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
    setWindowTitle(m_session->path().isEmpty()
                       ? tr("BPF Lens")
                       : tr("%1 — BPF Lens").arg(QFileInfo(m_session->path()).fileName()));
    updateRangeLabel();
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
    if (auto *splitter = qobject_cast<QSplitter *>(centralWidget()))
        settings.setValue(QStringLiteral("mainWindow/splitter"), splitter->saveState());
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

} // namespace bpflens
