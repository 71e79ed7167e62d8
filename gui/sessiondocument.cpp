#include "gui/sessiondocument.h"

#include "gui/errorbox.h"
#include "gui/models/sessionmodel.h"
#include "gui/recordingcontroller.h"
#include "gui/sessionsave.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QScopedValueRollback>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QUrl>

#include <algorithm>

namespace bpflens {

namespace {

constexpr int MaxRecentFiles = 8;
// How long closing waits for a stopped recording's end: the helper ends its stream within a
// batch interval (500 ms), the bpflens-cli fallback as soon as its probes are detached.
constexpr int CloseTimeoutMs = 15000;
const QString SessionSuffix = QStringLiteral("bpflens");
// A read shorter than this shows no progress bar: it would only flash.
constexpr int ProgressDelayMs = 500;

} // namespace

struct SessionDocument::Loaded
{
    bool ok = false;
    SessionData data;
    QString message;
};

SessionDocument::SessionDocument(SessionModel *session, QMainWindow *window)
    : QObject(window)
    , m_session(session)
    , m_window(window)
{
    m_openAction = new QAction(tr("&Open…"), window);
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, &SessionDocument::chooseOpen);
    m_recentMenu = new QMenu(tr("Open &Recent"), window);
    updateRecentMenu();
    m_saveAction = new QAction(tr("&Save"), window);
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, &SessionDocument::save);
    m_saveAsAction = new QAction(tr("Save &As…"), window);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, this, &SessionDocument::chooseSaveAs);

    m_loadBox = new QWidget(window);
    m_loadBox->setObjectName(QStringLiteral("openProgress"));
    auto *loadLayout = new QHBoxLayout(m_loadBox);
    loadLayout->setContentsMargins(0, 0, 0, 0);
    m_loadBar = new QProgressBar(m_loadBox);
    m_loadBar->setRange(0, 1000);
    m_loadBar->setMaximumWidth(160);
    m_loadBar->setTextVisible(false);
    m_cancelOpen = new QToolButton(m_loadBox);
    m_cancelOpen->setObjectName(QStringLiteral("cancelOpenButton"));
    m_cancelOpen->setText(tr("Cancel"));
    loadLayout->addWidget(m_loadBar);
    loadLayout->addWidget(m_cancelOpen);
    m_loadBox->hide();
    window->statusBar()->addPermanentWidget(m_loadBox);
    connect(m_cancelOpen, &QToolButton::clicked, this, &SessionDocument::cancelOpen);
    m_showProgress = new QTimer(this);
    m_showProgress->setSingleShot(true);
    m_showProgress->setInterval(ProgressDelayMs);
    connect(m_showProgress, &QTimer::timeout, m_loadBox, &QWidget::show);
    connect(&m_loader, &BackgroundJob::progressChanged, this, [this](qint64 done, qint64 total) {
        if (total > 0)
            m_loadBar->setValue(int(std::min<qint64>(1000, done * 1000 / total)));
    });
}

bool SessionDocument::recording() const
{
    return m_recording && m_recording->isRecording();
}

bool SessionDocument::isSessionFile(const QUrl &url)
{
    return url.isLocalFile() && QFileInfo(url.toLocalFile()).suffix() == SessionSuffix;
}

void SessionDocument::updateActions()
{
    m_saveAction->setEnabled(m_unsaved && !recording());
    m_saveAsAction->setEnabled(!recording() && !m_session->isEmpty());
}

void SessionDocument::chooseOpen()
{
    const QString dir = QFileInfo(recentFiles().value(0)).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open Session"), dir, tr("BPF Lens sessions (*.bpflens);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

void SessionDocument::open(const QString &path)
{
    if (m_loading && QFileInfo(path).absoluteFilePath() == m_loadingPath)
        return; // asked again (a double click on a recent file): it is on its way
    startOpen(path, nullptr);
}

bool SessionDocument::openFile(const QString &path, QString *error)
{
    if (!m_loading || QFileInfo(path).absoluteFilePath() != m_loadingPath) {
        if (!startOpen(path, error))
            return false;
    }
    if (!m_loader.finish()) {
        if (error)
            *error = tr("cancelled");
        return false;
    }
    if (!m_loadedOk && error)
        *error = m_loadedError;
    return m_loadedOk;
}

bool SessionDocument::startOpen(const QString &path, QString *error)
{
    if (recording()) {
        const QString message = tr("a recording is running: stop it first");
        if (error)
            *error = message;
        // Said where the user asked (File > Open, Open Recent, a dropped file), not dropped.
        showErrorBox(m_window, tr("Cannot open session"),
                     tr("Cannot open %1: %2")
                         .arg(QDir::toNativeSeparators(QFileInfo(path).fileName()), message));
        return false;
    }
    if (!maybeKeepRecording()) {
        if (error)
            *error = tr("cancelled");
        return false;
    }
    // A read still running is of a file the user no longer wants: run() drops it.
    m_loadingPath = QFileInfo(path).absoluteFilePath();
    const QString opening = tr("Opening %1…").arg(QFileInfo(path).fileName());
    m_loadBar->setValue(0);
    m_loadBar->setAccessibleName(opening);
    m_showProgress->start();
    m_window->statusBar()->showMessage(opening);
    setLoading(true);
    m_loader.run(
        [path](const JobToken &token) {
            Loaded r;
            r.ok = SessionReader::open(path, &r.data, &r.message, [&token](qint64 d, qint64 t) {
                token.setProgress(d, t);
                return !token.isCancelled();
            });
            return r;
        },
        [this, path](Loaded r) { loaded(path, std::move(r)); });
    return true;
}

void SessionDocument::cancelOpen()
{
    if (!m_loading)
        return;
    m_loader.cancel();
    setLoading(false);
    m_window->statusBar()->clearMessage();
}

void SessionDocument::setLoading(bool loading)
{
    if (!loading) {
        m_loadingPath.clear();
        m_showProgress->stop();
        m_loadBox->hide();
    }
    if (loading == m_loading)
        return;
    m_loading = loading;
    Q_EMIT loadingChanged(loading);
}

void SessionDocument::loaded(const QString &path, Loaded result)
{
    m_window->statusBar()->clearMessage();
    setLoading(false);
    m_loadedOk = result.ok;
    m_loadedError = result.message;
    if (!result.ok) {
        if (result.message != QLatin1String("cancelled"))
            showErrorBox(m_window, tr("Cannot open session"), result.message);
        return;
    }
    m_session->setSession(std::move(result.data), QFileInfo(path).absoluteFilePath());
    addRecentFile(QFileInfo(path).absoluteFilePath());
    m_window->statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
}

bool SessionDocument::saveTo(const QString &path, QString *error)
{
    QString why;
    if (recording()) {
        why = tr("a recording is running: stop it first");
    } else if (saveSession(m_session->data(), m_session->endTimeNs(), path, &why)) {
        m_session->setPath(QFileInfo(path).absoluteFilePath());
        m_unsaved = false;
        addRecentFile(QFileInfo(path).absoluteFilePath());
        Q_EMIT stateChanged();
        m_window->statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)),
                                           5000);
        return true;
    }
    if (error)
        *error = why;
    return false;
}

void SessionDocument::save()
{
    if (m_session->path().isEmpty()) {
        chooseSaveAs();
        return;
    }
    QString error;
    if (!saveTo(m_session->path(), &error))
        showErrorBox(m_window, tr("Save failed"), error);
}

void SessionDocument::chooseSaveAs()
{
    QFileDialog dialog(m_window, tr("Save Session"),
                       QFileInfo(recentFiles().value(0)).absolutePath(),
                       tr("BPF Lens sessions (*.bpflens)"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(SessionSuffix);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return;
    QString error;
    if (!saveTo(dialog.selectedFiles().first(), &error))
        showErrorBox(m_window, tr("Save failed"), error);
}

bool SessionDocument::maybeKeepRecording()
{
    if (m_stopping)
        return false; // asked again (a second close) while Stop and Save waits: that one goes on
    const bool running = recording();
    if (!m_unsaved && !running)
        return true;
    QMessageBox box(QMessageBox::Warning, tr("Unsaved recording"),
                    running ? tr("A recording is running. Stop it and save what it recorded, or "
                                 "discard it?")
                            : tr("The recording has not been saved. Save it first?"),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_window);
    box.setObjectName(QStringLiteral("unsavedRecordingBox"));
    box.setDefaultButton(QMessageBox::Save);
    if (running) {
        QAbstractButton *stopAndSave = box.button(QMessageBox::Save);
        stopAndSave->setText(tr("Stop and Save…"));
        stopAndSave->setObjectName(QStringLiteral("stopAndSaveButton"));
    }
    switch (box.exec()) {
    case QMessageBox::Save:
        // (The recording may have ended on its own while the box was up.)
        if (recording() && !stopAndWait()) {
            // Nothing is lost by waiting longer: the recorder still delivers until it ends.
            showErrorBox(m_window, tr("Recording not saved"),
                         tr("The recording did not stop within %n second(s). It is still "
                            "stopping and keeps what it recorded; close the window again once "
                            "it has stopped.",
                            nullptr, CloseTimeoutMs / 1000));
            return false;
        }
        save();
        return !m_unsaved; // a cancelled or failed save keeps the window
    case QMessageBox::Discard:
        if (recording())
            m_recording->discard();
        m_unsaved = false;
        m_window->setWindowModified(false);
        return true;
    default:
        return false;
    }
}

bool SessionDocument::stopAndWait()
{
    const QScopedValueRollback stopping(m_stopping, true);
    return m_recording->stopAndWait(CloseTimeoutMs);
}

QStringList SessionDocument::recentFiles() const
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void SessionDocument::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > MaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void SessionDocument::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString &f : files) {
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] { open(f); });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

} // namespace bpflens
