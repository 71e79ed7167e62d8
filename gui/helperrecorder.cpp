#include "gui/helperrecorder.h"

#include "client/helperclient.h"
#include "client/probetargets.h"
#include "dbusapi/helperapi.h"

#include <QCoreApplication>
#include <QDBusPendingCallWatcher>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace bpflens {

namespace api = helperapi;

namespace {

// The End frame is written before the helper closes the stream and signals SessionEnded; a
// stream still open this long after the signal is not going to finish.
constexpr int EndGraceMs = 2000;

bool isNotInstalled(const QString &errorName)
{
    return errorName == QLatin1String("org.freedesktop.DBus.Error.ServiceUnknown") ||
           errorName == QLatin1String("org.freedesktop.DBus.Error.NameHasNoOwner") ||
           errorName == QLatin1String("org.freedesktop.DBus.Error.Spawn.ServiceNotFound");
}

// What a NotAuthorized reply adds to "polkit refused the action": the helper says "not
// authorised: polkit denied <action>" and at most a detail in parentheses ("authentication was
// not completed"). Quoting the whole of it read "not allowed ... (not authorised: polkit denied
// ...)". Another message (Stop from another caller) is kept whole.
QString polkitDetail(const QString &message)
{
    const QString prefix = QStringLiteral("not authorised: polkit denied ") + api::PolkitAction;
    if (!message.startsWith(prefix))
        return message.trimmed();
    QString detail = message.mid(prefix.size()).trimmed();
    if (detail.startsWith(QLatin1Char('(')) && detail.endsWith(QLatin1Char(')')))
        detail = detail.mid(1, detail.size() - 2).trimmed();
    return detail;
}

} // namespace

HelperRecorder::HelperRecorder(const QDBusConnection &bus, QObject *parent)
    : StreamRecorder(parent)
    , m_bus(bus)
    , m_localProgram(QCoreApplication::applicationDirPath() + QStringLiteral("/bpflens-cli"))
    , m_localAllowed(::geteuid() == 0)
{
    api::registerTypes();
    // StreamRecorder::stop() asks through this and then waits for the End frame.
    setBackend({}, [this] { requestStop(); });
}

HelperRecorder::~HelperRecorder()
{
    unsubscribe();
    if (m_lister) {
        m_lister->disconnect(this);
        m_lister->kill();
        m_lister->waitForFinished(1000);
    }
    if (m_child && m_child->state() != QProcess::NotRunning) {
        // Its probes are detached before it exits: wait for that, briefly.
        ::kill(pid_t(m_child->processId()), SIGTERM);
        if (!m_child->waitForFinished(5000))
            m_child->kill();
        m_child->waitForFinished(1000);
    }
}

QString HelperRecorder::unavailableReason() const
{
    return m_backend == Backend::None ? m_reason : QString();
}

void HelperRecorder::refresh()
{
    if (!m_bus.isConnected()) {
        helperMissing(tr("There is no system D-Bus (%1), so the BPF Lens helper cannot be "
                         "reached. Start the system bus (as root: <code>systemctl start "
                         "dbus</code>), or run BPF Lens as root to record without the helper.")
                          .arg(m_bus.lastError().message().toHtmlEscaped()));
        return;
    }
    HelperClient client(m_bus);
    auto *watcher = new QDBusPendingCallWatcher(client.listProbesAsync(), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        QString kernel;
        QList<HelperClient::ProbeEntry> probes;
        HelperClient::Error error;
        if (!HelperClient::takeProbes(w->reply(), &kernel, &probes, &error)) {
            helperMissing(errorText(error.name, error.message).toHtmlEscaped());
            return;
        }
        m_backend = Backend::Helper;
        m_helperAnswered = true;
        QHash<QString, ProbeAvailability> availability;
        for (const HelperClient::ProbeEntry &e : std::as_const(probes))
            availability.insert(e.info.id, e.availability);
        Q_EMIT availabilityChanged();
        Q_EMIT probesListed(kernel, availability);
        auto *tracepoints =
            new QDBusPendingCallWatcher(HelperClient(m_bus).listTracepointsAsync(), this);
        connect(tracepoints, &QDBusPendingCallWatcher::finished, this,
                [this](QDBusPendingCallWatcher *t) {
                    t->deleteLater();
                    QStringList names;
                    // A version 1 helper has no list: tppair's fields then just do not complete.
                    if (HelperClient::takeTracepoints(t->reply(), &names, nullptr))
                        Q_EMIT tracepointsListed(names);
                });
    });
}

void HelperRecorder::helperMissing(const QString &reason)
{
    if (m_localAllowed && QFileInfo(m_localProgram).isExecutable()) {
        const bool wasLocal = m_backend == Backend::Local;
        m_backend = Backend::Local;
        m_reason.clear();
        if (!wasLocal)
            listLocalProbes();
    } else {
        m_backend = Backend::None;
        m_reason = reason;
    }
    Q_EMIT availabilityChanged();
}

void HelperRecorder::listLocalProbes()
{
    if (m_lister)
        return;
    m_lister = new QProcess(this);
    m_lister->setStandardErrorFile(QProcess::nullDevice());
    connect(m_lister, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        QProcess *lister = std::exchange(m_lister, nullptr);
        lister->deleteLater();
        const QJsonObject json = QJsonDocument::fromJson(lister->readAllStandardOutput()).object();
        // Without a list the panel stays at "unknown": recording still tries every probe.
        if (status != QProcess::NormalExit || code != 0 || !json.contains(QLatin1String("probes")))
            return;
        QHash<QString, ProbeAvailability> availability;
        const QJsonArray probes = json.value(QLatin1String("probes")).toArray();
        for (const QJsonValue &v : probes) {
            const QJsonObject p = v.toObject();
            ProbeAvailability a;
            a.available = p.value(QLatin1String("available")).toBool();
            a.attachPath = p.value(QLatin1String("attachPath")).toString();
            a.reason = p.value(QLatin1String("reason")).toString();
            availability.insert(p.value(QLatin1String("id")).toString(), a);
        }
        // A helper that answered meanwhile is what records: its list stands.
        if (m_backend == Backend::Local)
            Q_EMIT probesListed(json.value(QLatin1String("kernel")).toString(), availability);
    });
    connect(m_lister, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            std::exchange(m_lister, nullptr)->deleteLater();
    });
    m_lister->start(m_localProgram, {QStringLiteral("probes"), QStringLiteral("--json")});
}

void HelperRecorder::start(const QList<ProbeConfig> &probes)
{
    if (isRecording() || m_starting) {
        Q_EMIT failed(tr("A recording is already running."));
        return;
    }
    switch (m_backend) {
    case Backend::None:
        Q_EMIT failed(unavailableReason());
        return;
    case Backend::Local:
        startLocal(probes);
        return;
    case Backend::Unknown:
    case Backend::Helper:
        startHelper(probes);
        return;
    }
}

bool HelperRecorder::isGone(const QString &errorName) const
{
    // A name without an owner is "not installed" only for a helper that never answered: one
    // that did has exited or crashed and was not started again (a helper run by hand has no
    // activation file). One that died while answering leaves no reply.
    return m_helperAnswered && (isNotInstalled(errorName) ||
                                errorName == QLatin1String("org.freedesktop.DBus.Error.NoReply"));
}

void HelperRecorder::startHelper(const QList<ProbeConfig> &requested)
{
    // A uprobe's binary is opened here, as the user: the helper attaches to that file only.
    QList<ProbeConfig> probes = requested;
    QString unresolved;
    if (!resolveProbeTargets(probes, &unresolved)) {
        const QString id = rejectedProbe(unresolved, probes);
        if (!id.isEmpty())
            Q_EMIT probeRejected(id, unresolved);
        Q_EMIT failed(unresolved);
        return;
    }
    m_starting = true;
    const quint64 generation = ++m_startGeneration;
    auto *watcher =
        new QDBusPendingCallWatcher(HelperClient(m_bus).startSessionAsync(probes), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, generation, probes, requested](QDBusPendingCallWatcher *w) {
                w->deleteLater();
                HelperClient::Session session;
                HelperClient::Error error;
                const bool ok = HelperClient::takeSession(w->reply(), &session, &error);
                if (generation != m_startGeneration) {
                    // Cancelled while polkit asked: a session granted anyway ends right away.
                    if (ok) {
                        HelperClient(m_bus).stopSessionAsync(session.path);
                        ::close(session.fd);
                    }
                    return;
                }
                m_starting = false;
                if (!ok && isGone(error.name)) {
                    // Root records without it, as when there was none at start-up.
                    if (m_localAllowed && QFileInfo(m_localProgram).isExecutable()) {
                        helperMissing(QString());
                        startLocal(requested);
                        return;
                    }
                    // Recording stays possible: the next Record asks the bus again, which
                    // starts the helper if it can. No banner: this one message says it.
                    Q_EMIT failed(tr("The BPF Lens helper is no longer running, and the system "
                                     "bus did not start it again. Press Record to try again."));
                    return;
                }
                if (!ok) {
                    if (error.name == api::ErrorNotAuthorized) {
                        m_notice = notAuthorizedText(error.message, true);
                        Q_EMIT availabilityChanged();
                    } else if (error.name == api::ErrorInvalidArgs) {
                        const QString id = rejectedProbe(error.message, probes);
                        if (!id.isEmpty())
                            Q_EMIT probeRejected(id, error.message);
                    } else if (isNotInstalled(error.name)) {
                        helperMissing(errorText(error.name, error.message).toHtmlEscaped());
                    }
                    Q_EMIT failed(errorText(error.name, error.message));
                    return;
                }
                if (!m_notice.isEmpty()) {
                    m_notice.clear(); // allowed now (a rule was added, or the password typed)
                    Q_EMIT availabilityChanged();
                }
                m_helperAnswered = true;
                m_sessionPath = session.path;
                m_bus.connect(api::ServiceName, m_sessionPath, api::SessionInterface,
                              QStringLiteral("SessionEnded"), this, SLOT(sessionEnded(QString)));
                attach(session.fd);
            });
    Q_EMIT waiting(tr("Waiting for authorisation…"));
}

void HelperRecorder::startLocal(const QList<ProbeConfig> &probes)
{
    // The previous child wrote its End frame and is exiting: give it a moment.
    if (m_child && m_child->state() != QProcess::NotRunning && !m_child->waitForFinished(5000)) {
        Q_EMIT failed(tr("The previous recording is still finishing."));
        return;
    }
    delete m_child;
    m_child = new QProcess(this);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        Q_EMIT failed(tr("Cannot create the recording pipe: %1")
                          .arg(QString::fromLocal8Bit(std::strerror(errno))));
        return;
    }
    QStringList args{QStringLiteral("record"), QStringLiteral("--quiet"),
                     QStringLiteral("--stream-fd"), QStringLiteral("3")};
    // JSON keeps every option value intact (a --probe spec cannot hold a comma).
    for (const ProbeConfig &p : probes) {
        const QJsonObject o{{QStringLiteral("id"), p.id},
                            {QStringLiteral("options"), QJsonObject::fromVariantMap(p.options)}};
        args << QStringLiteral("--probe-json")
             << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }
    const int writeFd = fds[1];
    m_child->setChildProcessModifier([writeFd] {
        // Only async-signal-safe calls here. dup2 clears close-on-exec on the copy.
        if (writeFd == 3)
            ::fcntl(3, F_SETFD, 0);
        else
            ::dup2(writeFd, 3);
    });
    m_child->setStandardOutputFile(QProcess::nullDevice());
    m_child->start(m_localProgram, args);
    const bool running = m_child->waitForStarted(10000);
    ::close(writeFd);
    if (!running) {
        ::close(fds[0]);
        Q_EMIT failed(tr("Cannot run %1: %2").arg(m_localProgram, m_child->errorString()));
        return;
    }
    attach(fds[0]);
}

void HelperRecorder::stop()
{
    if (m_starting) {
        m_starting = false;
        ++m_startGeneration;
        Q_EMIT failed(tr("Recording cancelled before it started."));
        return;
    }
    StreamRecorder::stop();
}

void HelperRecorder::requestStop()
{
    if (m_child && m_child->state() != QProcess::NotRunning) {
        ::kill(pid_t(m_child->processId()), SIGTERM);
        return;
    }
    if (m_sessionPath.isEmpty())
        return;
    // The reply comes once every probe is detached; the End frame follows on the stream and
    // ends the recording (StreamRecorder waits for it).
    auto *watcher =
        new QDBusPendingCallWatcher(HelperClient(m_bus).stopSessionAsync(m_sessionPath), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, watcher,
            &QDBusPendingCallWatcher::deleteLater);
}

void HelperRecorder::sessionEnded(const QString &reason)
{
    unsubscribe();
    if (!isRecording())
        return; // the End frame came first, as it should
    QTimer::singleShot(EndGraceMs, this, [this, reason] {
        // Still this recording (a new helper session would have a path again)?
        if (!isRecording() || !m_sessionPath.isEmpty())
            return;
        finish();
        Q_EMIT failed(tr("The helper ended the recording (%1) without finishing its stream.")
                          .arg(endReasonText(reason)));
    });
}

void HelperRecorder::unsubscribe()
{
    if (m_sessionPath.isEmpty())
        return;
    m_bus.disconnect(api::ServiceName, m_sessionPath, api::SessionInterface,
                     QStringLiteral("SessionEnded"), this, SLOT(sessionEnded(QString)));
    m_sessionPath.clear();
}

QString HelperRecorder::brokenStreamMessage(const QString &why) const
{
    if (m_child) {
        m_child->waitForFinished(2000);
        const QString err = QString::fromLocal8Bit(m_child->readAllStandardError()).trimmed();
        return tr("The recorder (%1) ended without finishing the recording: %2")
            .arg(QFileInfo(m_localProgram).fileName(), err.isEmpty() ? why : err);
    }
    return tr("The helper stopped sending the recording without ending it (did it crash?): %1")
        .arg(why);
}

QString HelperRecorder::notAuthorizedText(const QString &message, bool rich)
{
    const QString detail = polkitDetail(message);
    const QString action = detail.isEmpty()
                               ? api::PolkitAction
                               : QStringLiteral("%1 (%2)").arg(api::PolkitAction, detail);
    // The documentation is not installed: the rule's place is said here instead.
    if (rich)
        return tr("<b>You are not allowed to record:</b> polkit refused the action %1. Ask an "
                  "administrator to allow it, for example with a rule for your group in "
                  "<code>/etc/polkit-1/rules.d</code>.")
            .arg(action.toHtmlEscaped());
    return tr("You are not allowed to record: polkit refused the action %1. Ask an administrator "
              "to allow it, for example with a rule for your group in /etc/polkit-1/rules.d.")
        .arg(action);
}

QString HelperRecorder::errorText(const QString &name, const QString &message)
{
    if (name == api::ErrorNotAuthorized)
        return notAuthorizedText(message, false);
    if (name == api::ErrorInvalidArgs)
        return tr("The helper refused the probe settings: %1").arg(message);
    if (name == api::ErrorBusy)
        return tr("The helper is busy: %1. Stop one of your other recordings and try again.")
            .arg(message);
    if (name == api::ErrorFailed)
        return tr("The kernel refused a probe: %1").arg(message);
    if (isNotInstalled(name))
        return tr("bpflens-helper is not installed: install BPF Lens as root with cmake "
                  "--install (configured with -DCMAKE_INSTALL_PREFIX=/usr), which installs the "
                  "helper, its D-Bus service and the polkit policy.");
    if (name.startsWith(QLatin1String("org.freedesktop.DBus.Error.Spawn")))
        return tr("bpflens-helper is installed but could not be started: %1").arg(message);
    if (name == QLatin1String("org.freedesktop.DBus.Error.NoReply") ||
        name == QLatin1String("org.freedesktop.DBus.Error.Timeout"))
        return tr("The helper did not answer: %1").arg(message);
    if (name == QLatin1String("org.freedesktop.DBus.Error.Disconnected"))
        return tr("The connection to the system D-Bus is gone: %1").arg(message);
    return tr("The helper reported an error (%1): %2").arg(name, message);
}

QString HelperRecorder::rejectedProbe(const QString &message, const QList<ProbeConfig> &probes)
{
    // The helper names the probe: "probe exec, option pid: ...", "unknown probe \"x\"", "probe
    // block cannot run on this kernel: ...".
    for (const ProbeConfig &p : probes) {
        for (const QString &form :
             {QStringLiteral("probe %1,").arg(p.id), QStringLiteral("probe %1 ").arg(p.id),
              QStringLiteral("probe \"%1\"").arg(p.id)}) {
            if (message.contains(form))
                return p.id;
        }
    }
    return {};
}

} // namespace bpflens
