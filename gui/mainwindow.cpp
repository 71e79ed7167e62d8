#include "gui/mainwindow.h"

#include "gui/comparecontroller.h"
#include "gui/helpcontroller.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/querypage.h"
#include "gui/recorder.h"
#include "gui/recordingcontroller.h"
#include "gui/recordpage.h"
#include "gui/remotehosts.h"
#include "gui/resultspage.h"
#include "gui/sessiondocument.h"
#include "gui/startpage.h"
#include "gui/theme.h"
#include "gui/timelinewidget.h"

#include <QAction>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace bpflens {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_session(new SessionModel(this))
    , m_state(new ViewState(this))
{
    setWindowTitle(tr("BPF Lens"));
    setAcceptDrops(true);

    m_results = new ResultsPage(m_session, m_state, this);
    m_probes = new ProbePanel(this);
    m_document = new SessionDocument(m_session, this);
    m_recording = new RecordingController(m_session, m_probes, m_document, this);
    m_document->setRecordingController(m_recording);
    m_exports =
        new ExportController(m_session, m_state, this, [this] { return currentChartWidget(); });
    m_compare = new CompareController(m_session, this);

    createBanners();
    auto *central = new QWidget(this);
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_banner);
    centralLayout->addWidget(m_damageBanner);
    // The start page until there is something to show (the views of an empty session would be
    // a wall of empty charts), the recording page while probes are chosen, else the results.
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_results);
    centralLayout->addWidget(m_pages, 1);
    setCentralWidget(central);

    statusBar()->addPermanentWidget(m_results->filteringLabel());
    statusBar()->addPermanentWidget(m_results->rangeLabel());

    createMenus();
    createRecordingControls();
    m_recordPage = new RecordPage(m_probes, m_recording->recordAction(), this);
    m_pages->addWidget(m_recordPage);
    connect(m_recordPage, &RecordPage::backRequested, this, [this] { showRecordPage(false); });
    m_help = new HelpController(this);
    m_start = new StartPage(m_newRecording, m_document->openAction(), m_help->documentationAction(),
                            this);
    m_pages->addWidget(m_start);
    connect(m_start, &StartPage::openRequested, this, &MainWindow::open);
    QMenu *viewMenu = menuBar()->addMenu(tr("&View"));
    m_results->addTabActions(viewMenu);
    // execsnoop -T: the tables' Time column as the local time of day; the timeline keeps
    // seconds since the start.
    m_timeOfDayAction = viewMenu->addAction(tr("Time of &Day in Tables"));
    m_timeOfDayAction->setCheckable(true);
    m_timeOfDayAction->setChecked(QSettings().value(QStringLiteral("view/timeOfDay")).toBool());
    m_results->setTimeOfDay(m_timeOfDayAction->isChecked());
    connect(m_timeOfDayAction, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("view/timeOfDay"), on);
        m_results->setTimeOfDay(on);
    });
    viewMenu->addMenu(Theme::instance()->createMenu(viewMenu));
    menuBar()->addMenu(m_help->menu());

    connect(m_session, &SessionModel::reset, this, &MainWindow::sessionReset);
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("mainWindow/geometry")).toByteArray()))
        fitToScreen();
    restoreState(settings.value(QStringLiteral("mainWindow/state")).toByteArray());
    m_results->splitter()->restoreState(
        settings.value(QStringLiteral("mainWindow/splitter")).toByteArray());
    sessionReset();
}

MainWindow::~MainWindow() = default;

void MainWindow::fitToScreen()
{
    const QScreen *s = screen();
    const QRect available = s ? s->availableGeometry() : QRect(0, 0, 1280, 860);
    // Room for a window manager's title bar and borders, which are not known before the
    // window is shown.
    const QSize size = QSize(1280, 860).boundedTo(available.size() - QSize(16, 48));
    resize(size);
    move(available.x() + (available.width() - size.width()) / 2,
         available.y() + (available.height() - size.height() - 32) / 2);
}

void MainWindow::createBanners()
{
    // Message strips above everything (like KMessageWidget): in the window, not a dialog,
    // because viewing saved sessions still works.
    auto strip = [this](const QString &name, const QString &accessibleName, QLabel **text) {
        auto *frame = new QFrame(this);
        frame->setObjectName(name);
        frame->setFrameShape(QFrame::StyledPanel);
        frame->setAutoFillBackground(true);
        auto *layout = new QHBoxLayout(frame);
        *text = new QLabel(frame);
        (*text)->setWordWrap(true);
        (*text)->setTextFormat(Qt::RichText);
        (*text)->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        (*text)->setAccessibleName(accessibleName);
        layout->addWidget(*text, 1);
        return frame;
    };
    m_banner = strip(QStringLiteral("recorderBanner"), tr("Recording unavailable"), &m_bannerText);
    // The same kind of strip for a session salvaged from a damaged file: the views show what
    // could be read, the strip what was lost (SessionDamage, as bpflens-cli show prints it).
    m_damageBanner = strip(QStringLiteral("damageBanner"), tr("Damaged session"), &m_damageText);
    auto *dismiss = new QToolButton(m_damageBanner);
    dismiss->setObjectName(QStringLiteral("damageBannerClose"));
    dismiss->setAutoRaise(true);
    dismiss->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    dismiss->setToolTip(tr("Hide this message"));
    dismiss->setAccessibleName(tr("Hide this message"));
    connect(dismiss, &QToolButton::clicked, m_damageBanner, &QWidget::hide);
    m_damageBanner->layout()->addWidget(dismiss);
    m_damageBanner->layout()->setAlignment(dismiss, Qt::AlignTop);
    m_damageBanner->hide();
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
    file->addMenu(m_exports->pprofMenu());
    file->addAction(m_exports->offWakeAction());
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

void MainWindow::open(const QString &path)
{
    m_document->open(path);
}

bool MainWindow::openFile(const QString &path, QString *error)
{
    return m_document->openFile(path, error);
}

void MainWindow::sessionReset()
{
    updateDamageBanner();
    // A session opened from the recording page is what the user wants to see.
    if (!m_recording->isRecording())
        m_wantsRecordPage = false;
    updateTitle();
    m_recording->updateRecordingStatus();
    updateActions();
}

QStringList MainWindow::exportCsv(const QString &directory, ExportScope scope,
                                  const QString &probeId, QString *error)
{
    return m_exports->exportCsv(directory, scope, probeId, error);
}

QWidget *MainWindow::currentChartWidget() const
{
    return m_results->currentChartWidget();
}

bool MainWindow::exportImage(QWidget *widget, const QString &path, QString *error)
{
    return ExportController::exportImage(widget, path, error);
}

QStringList MainWindow::recentFiles() const
{
    return m_document->recentFiles();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("mainWindow/state"), saveState());
    settings.setValue(QStringLiteral("mainWindow/splitter"), m_results->splitter()->saveState());
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
            QTimer::singleShot(0, this, [this, path] { open(path); });
            return;
        }
    }
}

void MainWindow::createRecordingControls()
{
    QToolBar *bar = addToolBar(tr("Recording"));
    bar->setObjectName(QStringLiteral("recordingToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    // The recording page: probes and their options, out of the way while a session is explored.
    m_newRecording = new QAction(tr("&New Recording…"), this);
    m_newRecording->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));
    m_newRecording->setToolTip(tr("Choose the probes to record and their options"));
    m_newRecording->setShortcut(QKeySequence::New);
    connect(m_newRecording, &QAction::triggered, this, [this] { showRecordPage(true); });
    bar->addAction(m_newRecording);
    bar->addAction(m_recording->recordAction());
    bar->addAction(m_recording->stopAction());
    QMenu *menu = menuBar()->addMenu(tr("&Recording"));
    menu->addAction(m_newRecording);
    menu->addAction(m_recording->recordAction());
    menu->addAction(m_recording->stopAction());
    menu->addSeparator();
    m_remoteHosts = new RemoteHostController(m_recording, this);
    connect(m_remoteHosts, &RemoteHostController::choosingHost, this,
            [this] { showRecordPage(true); });
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
        m_results->setRecording(m_recording->isRecording());
        // A recording fills the views live: they are what to watch now.
        if (m_recording->isRecording())
            m_wantsRecordPage = false;
        updateTitle();
        updateActions();
    });
    connect(m_document, &SessionDocument::stateChanged, this, [this] {
        updateTitle();
        updateActions();
    });
    // Recording and comparing wait while a session is read.
    connect(m_document, &SessionDocument::loadingChanged, this, &MainWindow::updateActions);
    // Saving a recording gives the Query tab a file to read.
    connect(m_document, &SessionDocument::stateChanged, m_results->queryPage(),
            &QueryPage::sessionChanged);
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
    m_newRecording->setEnabled(!m_recording->isRecording());
    // The empty states say what to do, or that data is on its way.
    updatePage();
    m_results->timeline()->setEmptyText(
        m_recording->isRecording()
            ? tr("Recording: waiting for the first data from the probes…")
            : tr("No data yet. Choose probes with New Recording and press Record, or open a "
                 "session with File > Open."));
    m_results->setRecording(m_recording->isRecording()); // and the range label
}

void MainWindow::showRecordPage(bool show)
{
    m_wantsRecordPage = show;
    updatePage();
}

void MainWindow::updatePage()
{
    if (!m_start || !m_recordPage)
        return; // still being built
    const bool nothing = m_session->isEmpty() && m_session->path().isEmpty() &&
                         !m_recording->isRecording() && !m_document->hasUnsavedRecording();
    if (nothing)
        m_start->setRecentFiles(m_document->recentFiles());
    m_recordPage->setCanGoBack(!nothing);
    QWidget *page = m_results;
    if (m_wantsRecordPage && !m_recording->isRecording())
        page = m_recordPage;
    else if (nothing)
        page = m_start;
    m_pages->setCurrentWidget(page);
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
