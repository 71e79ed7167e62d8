#include "gui/comparecontroller.h"

#include "core/sessiondiff.h"
#include "gui/comparepage.h"
#include "gui/errorbox.h"
#include "gui/models/sessionmodel.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QScreen>
#include <QStatusBar>
#include <QVBoxLayout>

namespace bpflens {

struct CompareController::Compared
{
    bool ok = false;
    SessionData data;
    QString message;
    std::shared_ptr<const SessionDiff> diff;
};

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
    connect(m_session, &SessionModel::aboutToReset, this, &CompareController::baselineChanging);
    connect(m_session, &SessionModel::aboutToAppend, this, &CompareController::baselineChanging);
    connect(m_session, &SessionModel::aboutToBeDestroyed, this,
            &CompareController::baselineChanging);
}

CompareController::~CompareController()
{
    // The worker reads the session, which may go away right after this.
    m_job.stopAndWait();
    if (m_loading)
        QApplication::restoreOverrideCursor();
}

ComparePage *CompareController::page() const
{
    return m_page;
}

void CompareController::setAvailable(bool available)
{
    m_available = available;
    m_action->setEnabled(available && !m_loading);
}

void CompareController::setLoading(bool loading)
{
    if (loading == m_loading)
        return;
    m_loading = loading;
    m_action->setEnabled(m_available && !loading);
    // The window takes input meanwhile: a busy cursor, not a wait cursor.
    if (loading)
        QApplication::setOverrideCursor(Qt::BusyCursor);
    else
        QApplication::restoreOverrideCursor();
}

void CompareController::baselineChanging()
{
    if (!m_loading)
        return;
    m_job.stopAndWait();
    setLoading(false);
    m_window->statusBar()->showMessage(
        tr("Comparison cancelled: the open session changed while the other was read"), 10000);
}

void CompareController::choose()
{
    const QString dir =
        m_session->path().isEmpty() ? QString() : QFileInfo(m_session->path()).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Compare With Session"), dir,
                                     tr("BPF Lens sessions (*.bpflens);;All files (*)"));
    if (!path.isEmpty())
        start(path);
}

bool CompareController::fail(const QString &path, const QString &message, QString *error)
{
    if (error)
        *error = message;
    showErrorBox(m_window, tr("Cannot compare"),
                 tr("Cannot compare with %1: %2")
                     .arg(QDir::toNativeSeparators(QFileInfo(path).fileName()), message));
    return false;
}

bool CompareController::start(const QString &path, QString *error)
{
    if (!m_action->isEnabled()) {
        return fail(path,
                    m_loading ? tr("another session is still being read")
                              : tr("open a session, and stop a running recording, first"),
                    error);
    }
    setLoading(true);
    m_window->statusBar()->showMessage(
        tr("Reading %1 to compare…").arg(QDir::toNativeSeparators(QFileInfo(path).fileName())));
    // The diff too: counting every event per command takes seconds at a million events. The
    // baseline does not change meanwhile: a new session or live data waits for the worker
    // (baselineChanging), and the open session is never written.
    const SessionData *baseline = &m_session->data();
    m_job.run(
        [path, baseline](const JobToken &token) {
            Compared r;
            r.ok = SessionReader::open(path, &r.data, &r.message,
                                       [&token](qint64, qint64) { return !token.isCancelled(); });
            if (r.ok)
                r.diff = std::make_shared<const SessionDiff>(diffSessions(*baseline, r.data));
            return r;
        },
        [this, path](Compared r) { compared(path, std::move(r)); });
    return true;
}

bool CompareController::compareWith(const QString &path, QString *error)
{
    if (!start(path, error))
        return false;
    if (!m_job.finish())
        return false;
    if (!m_lastOk && error)
        *error = m_lastError;
    return m_lastOk;
}

void CompareController::compared(const QString &path, Compared result)
{
    setLoading(false);
    m_window->statusBar()->clearMessage();
    m_lastOk = result.ok;
    m_lastError = result.message;
    if (!result.ok) {
        fail(path, result.message, nullptr);
        return;
    }
    SessionData &data = result.data;
    std::shared_ptr<const SessionDiff> &diff = result.diff;
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
}

} // namespace bpflens
