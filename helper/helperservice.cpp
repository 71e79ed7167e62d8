#include "helper/helperservice.h"

#include "helper/uprobefile.h"

#include "dbusapi/helperapi.h"
#include "helper/helpersession.h"
#include "helper/tracepoints.h"

#include <QDBusConnectionInterface>
#include <QDBusObjectPath>
#include <QDBusUnixFileDescriptor>
#include <QDBusVariant>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include <sys/socket.h>
#include <unistd.h>

namespace bpflens {

namespace api = helperapi;

namespace {

const QString PropertiesInterface = QStringLiteral("org.freedesktop.DBus.Properties");

QString interfaceXml(const QString &name)
{
    QFile f(QStringLiteral(":/bpflens/io.github.bpflens.Helper1.xml"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QString xml = QString::fromUtf8(f.readAll());
    const qsizetype start = xml.indexOf(QStringLiteral("<interface name=\"%1\">").arg(name));
    const qsizetype end = xml.indexOf(QStringLiteral("</interface>"), start);
    if (start < 0 || end < 0)
        return {};
    return xml.mid(start, end - start + 12) + QLatin1Char('\n');
}

void log(const QString &line)
{
    QTextStream(stderr) << "bpflens-helper: " << line << '\n';
}

} // namespace

HelperService::HelperService(const QDBusConnection &bus, const Limits &limits, QObject *parent)
    : QDBusVirtualObject(parent)
    , m_bus(bus)
    , m_limits(limits)
    , m_polkit(bus)
    , m_watcher(QString(), bus, QDBusServiceWatcher::WatchForUnregistration)
{
    api::registerTypes();
    connect(&m_watcher, &QDBusServiceWatcher::serviceUnregistered, this,
            &HelperService::callerLeft);
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setInterval(m_limits.idleTimeoutMs);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        if (m_sessions.empty() && m_checks == 0)
            Q_EMIT idle();
        else
            m_idleTimer.start();
    });
    m_idleTimer.start();
    // Not after every call: a burst of calls (a client listing probes, then starting) would
    // parse the kernel's BTF for each. Two seconds after the last one, the helper's memory goes
    // back to what it was idle: the parsed BTF (5.5 MB) the checks needed and the heap that the
    // calls and ended sessions' threads freed but glibc kept (#35: 12.3 -> 28.4 MB after 50
    // refused calls and large payloads).
    m_settleTimer.setSingleShot(true);
    m_settleTimer.setInterval(2000);
    connect(&m_settleTimer, &QTimer::timeout, this, [this] {
        m_catalog.releaseKernelMemory();
        Engine::returnFreeMemory();
    });
}

HelperService::~HelperService()
{
    shutdown();
}

bool HelperService::registerOnBus(QString *error)
{
    if (!m_bus.isConnected()) {
        *error =
            QStringLiteral("not connected to the system bus: %1").arg(m_bus.lastError().message());
        return false;
    }
    if (!m_bus.registerVirtualObject(api::ObjectPath, this, QDBusConnection::SubPath)) {
        *error = QStringLiteral("cannot register %1").arg(api::ObjectPath);
        return false;
    }
    if (!m_bus.registerService(api::ServiceName)) {
        *error =
            QStringLiteral("cannot own %1: %2").arg(api::ServiceName, m_bus.lastError().message());
        return false;
    }
    return true;
}

void HelperService::shutdown()
{
    for (auto &[id, session] : m_sessions)
        session->requestStop(StreamEndReason::HelperShutdown, QStringLiteral("helper-shutdown"));
    // Destructors wait for each thread: every probe is detached when this returns.
    m_sessions.clear();
}

QString HelperService::introspect(const QString &path) const
{
    if (path == api::ObjectPath)
        return interfaceXml(api::Interface) + QStringLiteral("  <node name=\"session\"/>\n");
    if (path == api::ObjectPath + QStringLiteral("/session")) {
        QString nodes;
        for (const auto &[id, session] : m_sessions)
            nodes += QStringLiteral("  <node name=\"%1\"/>\n").arg(id);
        return nodes;
    }
    if (path.startsWith(api::SessionPathPrefix)) {
        bool ok = false;
        const quint64 id = path.mid(api::SessionPathPrefix.size()).toULongLong(&ok);
        if (ok && m_sessions.count(id))
            return interfaceXml(api::SessionInterface);
    }
    return {};
}

void HelperService::touch()
{
    m_idleTimer.start();
    m_settleTimer.start();
}

void HelperService::reply(const QDBusMessage &msg)
{
    m_bus.send(msg);
}

void HelperService::replyError(const QDBusMessage &call, const QString &name,
                               const QString &message)
{
    m_bus.send(call.createErrorReply(name, message));
}

bool HelperService::handleMessage(const QDBusMessage &message, const QDBusConnection &)
{
    touch();
    const QString iface = message.interface();
    const QString member = message.member();
    if (iface == QLatin1String("org.freedesktop.DBus.Introspectable"))
        return false; // QtDBus answers with introspect()
    if (message.path() == api::ObjectPath) {
        if (iface == PropertiesInterface) {
            properties(message);
            return true;
        }
        if (iface == api::Interface || iface.isEmpty()) {
            if (member == QLatin1String("ListProbes")) {
                listProbes(message);
                return true;
            }
            if (member == QLatin1String("ListTracepoints")) {
                listTracepoints(message);
                return true;
            }
            if (member == QLatin1String("StartSession")) {
                startSession(message);
                return true;
            }
        }
        replyError(message, QStringLiteral("org.freedesktop.DBus.Error.UnknownMethod"),
                   QStringLiteral("no method %1.%2 on %3")
                       .arg(iface.left(128), member.left(128), api::ObjectPath));
        return true;
    }
    if (message.path().startsWith(api::SessionPathPrefix)) {
        bool ok = false;
        const quint64 id = message.path().mid(api::SessionPathPrefix.size()).toULongLong(&ok);
        if (!ok || !m_sessions.count(id)) {
            replyError(message, api::ErrorNoSuchSession,
                       QStringLiteral("no session %1").arg(message.path().left(128)));
            return true;
        }
        if ((iface == api::SessionInterface || iface.isEmpty()) &&
            member == QLatin1String("Stop")) {
            stopSession(message, id);
            return true;
        }
        replyError(
            message, QStringLiteral("org.freedesktop.DBus.Error.UnknownMethod"),
            QStringLiteral("no method %1.%2 on a session").arg(iface.left(128), member.left(128)));
        return true;
    }
    replyError(message, QStringLiteral("org.freedesktop.DBus.Error.UnknownObject"),
               QStringLiteral("no object %1").arg(message.path().left(128)));
    return true;
}

void HelperService::properties(const QDBusMessage &msg)
{
    const QList<QVariant> args = msg.arguments();
    const QString sig = msg.signature();
    if (msg.member() == QLatin1String("Get") && sig == QLatin1String("ss")) {
        if (args[0].toString() == api::Interface &&
            args[1].toString() == QLatin1String("Version")) {
            reply(msg.createReply(QVariant::fromValue(QDBusVariant(api::Version))));
            return;
        }
        replyError(msg, QStringLiteral("org.freedesktop.DBus.Error.UnknownProperty"),
                   QStringLiteral("no property %1.%2")
                       .arg(args[0].toString().left(128), args[1].toString().left(128)));
        return;
    }
    if (msg.member() == QLatin1String("GetAll") && sig == QLatin1String("s")) {
        QVariantMap all;
        if (args[0].toString() == api::Interface)
            all.insert(QStringLiteral("Version"), api::Version);
        reply(msg.createReply(all));
        return;
    }
    if (msg.member() == QLatin1String("Set")) {
        replyError(msg, QStringLiteral("org.freedesktop.DBus.Error.PropertyReadOnly"),
                   QStringLiteral("the helper has no writable property"));
        return;
    }
    replyError(msg, api::ErrorInvalidArgs,
               QStringLiteral("Properties.%1 with signature \"%2\" is not supported")
                   .arg(msg.member().left(64), sig.left(64)));
}

void HelperService::listProbes(const QDBusMessage &msg)
{
    if (!msg.signature().isEmpty()) {
        replyError(msg, api::ErrorInvalidArgs,
                   QStringLiteral("ListProbes takes no arguments, got \"%1\"")
                       .arg(msg.signature().left(64)));
        return;
    }
    // Computed once: it takes milliseconds (tppair's availability resolves its default
    // tracepoints in the kernel's BTF), and ListProbes needs no authorisation, so any local user
    // could otherwise keep the helper's event loop busy with it. The kernel does not change
    // under a running helper, which exits when idle.
    if (!m_probeList) {
        QList<api::WireAvailability> list;
        for (const ProbeStatus &s : m_catalog.probes())
            list.append({s.info.id, s.availability.available, s.availability.attachPath,
                         s.availability.reason});
        m_probeList = list;
    }
    reply(msg.createReply({m_catalog.kernel().release(), QVariant::fromValue(*m_probeList)}));
}

void HelperService::listTracepoints(const QDBusMessage &msg)
{
    if (!msg.signature().isEmpty()) {
        replyError(msg, api::ErrorInvalidArgs,
                   QStringLiteral("ListTracepoints takes no arguments, got \"%1\"")
                       .arg(msg.signature().left(64)));
        return;
    }
    if (m_tracepoints.isEmpty()) {
        // BTF says which tracepoints tppair can attach to (tp_btf) but not their groups; tracefs
        // does (root only, and maybe not mounted): names it does not know stay without a group,
        // which tppair accepts as well.
        QHash<QString, QString> groups;
        for (const char *root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
            QFile events(QString::fromLatin1(root) + QStringLiteral("/available_events"));
            if (!events.open(QIODevice::ReadOnly))
                continue;
            for (const QByteArray &line : events.readAll().split('\n')) {
                const qsizetype colon = line.indexOf(':');
                if (colon > 0)
                    groups.insert(QString::fromLatin1(line.mid(colon + 1).trimmed()),
                                  QString::fromLatin1(line.left(colon)));
            }
            break;
        }
        for (const TracepointInfo &t : Tracepoints::list(m_catalog.kernel())) {
            const QString group = groups.value(t.name);
            m_tracepoints.append(group.isEmpty() ? t.name : group + QLatin1Char(':') + t.name);
        }
        m_tracepoints.sort();
    }
    reply(msg.createReply(QVariant(m_tracepoints)));
}

int HelperService::sessionsOf(uint uid) const
{
    int n = m_checking.value(uid);
    for (const auto &[id, session] : m_sessions)
        n += session->uid() == uid && !m_detached.contains(id) ? 1 : 0;
    return n;
}

bool HelperService::validate(QList<ProbeConfig> &probes, QString *error) const
{
    if (probes.isEmpty()) {
        *error = QStringLiteral("no probe selected");
        return false;
    }
    for (int i = 0; i < probes.size(); ++i) {
        ProbeConfig &p = probes[i];
        for (int j = 0; j < i; ++j) {
            if (probes[j].id == p.id) {
                *error = QStringLiteral("probe %1 is selected twice").arg(p.id.left(64));
                return false;
            }
        }
        QVariantMap normalized;
        if (!ProbeCatalog::validate(p.id, p.options, &normalized, error))
            return false;
        const auto probe = createProbe(p.id);
        if (!probe) {
            *error = QStringLiteral("probe %1 is not built into this helper").arg(p.id);
            return false;
        }
        // A uprobe's file: the caller opened it, so may read it; the helper only checks that
        // the offset is in its code (uprobefile.h), and attaches to this descriptor.
        if (p.file.isValid() != probe->takesUserFile(normalized)) {
            *error = p.file.isValid() ? QStringLiteral("probe %1 takes no file").arg(p.id)
                                      : QStringLiteral("probe %1 needs the file of its target as "
                                                       "a descriptor the caller opened (option "
                                                       "%2)")
                                            .arg(p.id, api::FileOption);
            return false;
        }
        // The second file's offsets are the probe's to check (tppair: every site of its end).
        if (p.file2.isValid() && !probe->takesSecondUserFile(normalized)) {
            *error = QStringLiteral("probe %1 takes no second file").arg(p.id);
            return false;
        }
        QString why;
        if (p.file.isValid() && !checkUprobeFile(p.file.get(), p.fileOffset, &why)) {
            *error = QStringLiteral("probe %1, target %2: %3")
                         .arg(p.id, normalized.value(QStringLiteral("target")).toString().left(256),
                              why);
            return false;
        }
        const ProbeAvailability a = probe->availability(m_catalog.kernel(), normalized);
        if (!a.available) {
            *error = QStringLiteral("probe %1 cannot run on this kernel: %2").arg(p.id, a.reason);
            return false;
        }
        // The helper opens the cgroup as root: only a real cgroup directory, no way out of it.
        const QString cgroup = normalized.value(QStringLiteral("cgroup")).toString();
        if (!cgroup.isEmpty()) {
            const QString full = cgroup.startsWith(QStringLiteral("/sys/fs/cgroup"))
                                     ? cgroup
                                     : QStringLiteral("/sys/fs/cgroup/") + cgroup;
            const QFileInfo fi(full);
            const QString canonical = fi.canonicalFilePath();
            if (!fi.isDir() || !(canonical == QLatin1String("/sys/fs/cgroup") ||
                                 canonical.startsWith(QLatin1String("/sys/fs/cgroup/")))) {
                *error = QStringLiteral("probe %1, option cgroup: %2 is not a cgroup directory")
                             .arg(p.id, full.left(256));
                return false;
            }
        }
        p.options = normalized;
    }
    return true;
}

void HelperService::startSession(const QDBusMessage &msg)
{
    if (msg.signature() != QLatin1String("a(sa{sv})")) {
        replyError(msg, api::ErrorInvalidArgs,
                   QStringLiteral("StartSession takes a(sa{sv}), got \"%1\"")
                       .arg(msg.signature().left(64)));
        return;
    }
    QList<ProbeConfig> probes;
    QString error;
    if (!api::readProbes(msg.arguments().value(0), &probes, &error) || !validate(probes, &error)) {
        replyError(msg, api::ErrorInvalidArgs, error);
        return;
    }
    const QDBusReply<uint> uidReply = m_bus.interface()->serviceUid(msg.service());
    if (!uidReply.isValid()) {
        replyError(
            msg, api::ErrorFailed,
            QStringLiteral("cannot tell who is calling: %1").arg(uidReply.error().message()));
        return;
    }
    const uint uid = uidReply.value();
    if (sessionsOf(uid) >= m_limits.maxSessionsPerUser) {
        replyError(msg, api::ErrorBusy,
                   QStringLiteral("user %1 already has %2 sessions (at most %2 at a time)")
                       .arg(uid)
                       .arg(m_limits.maxSessionsPerUser));
        return;
    }
    const int total = m_checks + int(m_sessions.size()) - int(m_detached.size());
    if (total >= m_limits.maxSessions || m_checks >= m_limits.maxPendingChecks) {
        replyError(msg, api::ErrorBusy,
                   QStringLiteral("the helper already runs %1 sessions (at most %2 at a time)")
                       .arg(total)
                       .arg(m_limits.maxSessions));
        return;
    }
    ++m_checks;
    ++m_checking[uid];
    msg.setDelayedReply(true);
    m_polkit.checkAuthorization(
        msg.service(), api::PolkitAction,
        [this, msg, uid, probes](PolkitAuthority::Result result, const QString &detail) {
            --m_checks;
            if (--m_checking[uid] <= 0)
                m_checking.remove(uid);
            touch();
            if (result != PolkitAuthority::Result::Authorized) {
                log(QStringLiteral("denied %1 (uid %2) %3 %4")
                        .arg(msg.service())
                        .arg(uid)
                        .arg(api::PolkitAction, detail));
                replyError(msg, api::ErrorNotAuthorized,
                           QStringLiteral("not authorised: polkit denied %1%2")
                               .arg(api::PolkitAction,
                                    detail.isEmpty()
                                        ? QString()
                                        : QStringLiteral(" (") + detail + QLatin1Char(')')));
                return;
            }
            authorized(msg, uid, probes);
        });
}

void HelperService::authorized(const QDBusMessage &msg, uint uid, const QList<ProbeConfig> &probes)
{
    // Watch before checking that the caller is still there, so no departure goes unseen.
    const QString owner = msg.service();
    m_watcher.addWatchedService(owner);
    if (!m_bus.interface()->isServiceRegistered(owner).value()) {
        bool watched = false;
        for (const auto &[id, session] : m_sessions)
            watched = watched || session->owner() == owner;
        if (!watched)
            m_watcher.removeWatchedService(owner);
        return; // nobody to record for, nor to reply to
    }
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        replyError(msg, api::ErrorFailed, QStringLiteral("cannot create the stream socket"));
        return;
    }
    // The client only reads: its end is shut for writing, ours for reading.
    ::shutdown(fds[0], SHUT_WR);
    ::shutdown(fds[1], SHUT_RD);
    const quint64 id = m_nextId++;
    auto session = std::make_unique<HelperSession>(id, owner, uid, probes, fds[1]);
    HelperSession *s = session.get();
    const int clientFd = fds[0];
    connect(
        s, &HelperSession::started, this, [this, msg, s, clientFd](bool ok, const QString &error) {
            if (ok) {
                log(QStringLiteral("session %1 started for %2 (uid %3)")
                        .arg(s->id())
                        .arg(s->owner())
                        .arg(s->uid()));
                reply(msg.createReply({QVariant::fromValue(QDBusObjectPath(s->path())),
                                       QVariant::fromValue(QDBusUnixFileDescriptor(clientFd))}));
            } else {
                replyError(msg, api::ErrorFailed, error);
            }
            ::close(clientFd);
        });
    connect(s, &HelperSession::detached, this, [this, id] {
        m_detached.insert(id);
        for (const QDBusMessage &call : m_stopCalls.take(id))
            reply(call.createReply());
    });
    connect(s, &HelperSession::finished, this,
            [this, id](const QString &reason) { sessionFinished(id, reason); });
    m_sessions.emplace(id, std::move(session));
    s->start();
}

void HelperService::stopSession(const QDBusMessage &msg, quint64 id)
{
    HelperSession *s = m_sessions.at(id).get();
    if (msg.service() != s->owner()) {
        replyError(msg, api::ErrorNotAuthorized,
                   QStringLiteral("only the caller that started session %1 can stop it").arg(id));
        return;
    }
    if (!msg.signature().isEmpty()) {
        replyError(msg, api::ErrorInvalidArgs, QStringLiteral("Stop takes no arguments"));
        return;
    }
    msg.setDelayedReply(true);
    m_stopCalls[id].append(msg);
    s->requestStop(StreamEndReason::Stopped, QStringLiteral("stopped"));
}

void HelperService::callerLeft(const QString &name)
{
    for (auto &[id, session] : m_sessions) {
        if (session->owner() == name)
            session->requestStop(StreamEndReason::Stopped, QStringLiteral("caller-left"));
    }
}

void HelperService::sessionFinished(quint64 id, const QString &reason)
{
    auto it = m_sessions.find(id);
    if (it == m_sessions.end())
        return;
    const QString path = it->second->path();
    const QString owner = it->second->owner();
    log(QStringLiteral("session %1 ended: %2").arg(id).arg(reason));
    for (const QDBusMessage &call : m_stopCalls.take(id))
        reply(call.createReply());
    m_sessions.erase(it); // joins the (finished) thread
    m_detached.remove(id);
    bool ownerHasMore = false;
    for (const auto &[other, session] : m_sessions)
        ownerHasMore = ownerHasMore || session->owner() == owner;
    if (!ownerHasMore)
        m_watcher.removeWatchedService(owner);
    QDBusMessage signal =
        QDBusMessage::createSignal(path, api::SessionInterface, QStringLiteral("SessionEnded"));
    signal << reason;
    m_bus.send(signal);
    touch();
}

} // namespace bpflens
