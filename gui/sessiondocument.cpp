#include "sessiondocument.h"

#include "errorbox.h"
#include "recordingcontroller.h"
#include "sessionmodel.h"
#include "sessionsave.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QScopedValueRollback>
#include <QSettings>
#include <QStatusBar>
#include <QThread>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <atomic>

namespace bpflens {

namespace {

constexpr int MaxRecentFiles = 8;
// How long closing waits for a stopped recording's end: the helper ends its stream within a
// batch interval (500 ms), the bpflens-cli fallback as soon as its probes are detached.
constexpr int StopTimeoutMs = 15000;
const QString SessionSuffix = QStringLiteral("bpflens");

} // namespace

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
        openFile(path);
}

bool SessionDocument::openFile(const QString &path, QString *error)
{
    QString message;
    if (m_loading || recording()) {
        message = m_loading ? tr("another session is still loading")
                            : tr("a recording is running: stop it first");
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
    m_loading = true;
    SessionData data;
    bool ok = false;
    std::atomic<bool> cancel{false};
    std::atomic<qint64> done{0}, total{0};

    // The reader runs on a worker thread so the window keeps painting and Cancel works; the
    // data only crosses back once the thread has finished.
    QProgressDialog progress(tr("Opening %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0,
                             1000, m_window);
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
            showErrorBox(m_window, tr("Cannot open session"), message);
        return false;
    }
    m_session->setSession(std::move(data), QFileInfo(path).absoluteFilePath());
    addRecentFile(QFileInfo(path).absoluteFilePath());
    m_window->statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
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
                            nullptr, StopTimeoutMs / 1000));
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
    return m_recording->stopAndWait(StopTimeoutMs);
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
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] { openFile(f); });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

} // namespace bpflens
