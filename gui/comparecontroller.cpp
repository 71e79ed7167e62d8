#include "comparecontroller.h"

#include "comparepage.h"
#include "errorbox.h"
#include "sessiondiff.h"
#include "sessionmodel.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QScreen>
#include <QThread>
#include <QVBoxLayout>

namespace bpflens {

CompareController::CompareController(SessionModel *session, QMainWindow *window)
    : QObject(window)
    , m_session(session)
    , m_window(window)
    , m_action(new QAction(tr("Compare &With…"), this))
{
    m_action->setObjectName(QStringLiteral("compareAction"));
    m_action->setToolTip(tr("Compare the open session with another session file: histograms, "
                            "event counts and the CPU profile"));
    m_action->setEnabled(false);
    connect(m_action, &QAction::triggered, this, &CompareController::choose);
}

ComparePage *CompareController::page() const
{
    return m_page;
}

void CompareController::setAvailable(bool available)
{
    m_action->setEnabled(available && !m_loading);
}

void CompareController::choose()
{
    const QString dir =
        m_session->path().isEmpty() ? QString() : QFileInfo(m_session->path()).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Compare With Session"), dir,
                                     tr("BPF Lens sessions (*.bpflens);;All files (*)"));
    if (!path.isEmpty())
        compareWith(path);
}

bool CompareController::compareWith(const QString &path, QString *error)
{
    const QString shownName = QDir::toNativeSeparators(QFileInfo(path).fileName());
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        showErrorBox(m_window, tr("Cannot compare"),
                     tr("Cannot compare with %1: %2").arg(shownName, message));
        return false;
    };
    if (!m_action->isEnabled())
        return fail(m_loading ? tr("another session is still being read")
                              : tr("open a session, and stop a running recording, first"));
    m_loading = true;
    m_action->setEnabled(false);
    // Read on a worker thread so the window keeps painting; the data crosses back once the
    // thread has finished. The open session is not touched whatever the file holds.
    SessionData data;
    QString message;
    bool ok = false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    // The diff too: counting every event per command takes seconds at a million events. The
    // baseline does not change meanwhile: the loop below takes no user input and the action is
    // off while recording.
    std::shared_ptr<const SessionDiff> diff;
    QThread *thread = QThread::create([&] {
        ok = SessionReader::open(path, &data, &message);
        if (ok)
            diff = std::make_shared<const SessionDiff>(diffSessions(m_session->data(), data));
    });
    QEventLoop loop;
    connect(thread, &QThread::finished, &loop, &QEventLoop::quit);
    thread->start();
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    thread->wait();
    delete thread;
    QApplication::restoreOverrideCursor();
    m_loading = false;
    m_action->setEnabled(true);
    if (!ok)
        return fail(message);

    const QString baselineName = m_session->path().isEmpty()
                                     ? tr("Unsaved recording")
                                     : QFileInfo(m_session->path()).fileName();
    const QString comparisonName = QFileInfo(path).fileName();
    auto *w = new QWidget(m_window, Qt::Window);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->setObjectName(QStringLiteral("compareWindow"));
    w->setWindowTitle(tr("Compare %1 → %2 — BPF Lens").arg(baselineName, comparisonName));
    auto *layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    m_page = new ComparePage(*m_session, baselineName, std::move(data), comparisonName,
                             std::move(diff), w);
    layout->addWidget(m_page);
    const QRect screen = m_window->screen() ? m_window->screen()->availableGeometry() : QRect();
    const QSize size(1200, 800);
    w->resize(screen.isValid() ? size.boundedTo(screen.size() - QSize(40, 60)) : size);
    w->show();
    m_compareWindow = w;
    return true;
}

} // namespace bpflens
