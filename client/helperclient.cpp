#include "client/helperclient.h"

#include "dbusapi/helperapi.h"

#include <QDBusConnectionInterface>
#include <QDBusObjectPath>
#include <QDBusReply>
#include <QDBusUnixFileDescriptor>

#include <fcntl.h>
#include <unistd.h>

namespace bpflens {

namespace api = helperapi;

namespace {

bool failed(const QDBusMessage &reply, HelperClient::Error *error)
{
    if (reply.type() == QDBusMessage::ReplyMessage)
        return false;
    if (error)
        *error = {reply.errorName(), reply.errorMessage()};
    return true;
}

QDBusMessage call(const QString &path, const QString &iface, const QString &member)
{
    return QDBusMessage::createMethodCall(api::ServiceName, path, iface, member);
}

} // namespace

HelperClient::HelperClient(const QDBusConnection &bus)
    : m_bus(bus)
{
    api::registerTypes();
}

bool HelperClient::isReachable(QString *why) const
{
    if (!m_bus.isConnected()) {
        if (why)
            *why = QStringLiteral("no system bus (%1)").arg(m_bus.lastError().message());
        return false;
    }
    QDBusConnectionInterface *bus = m_bus.interface();
    if (bus->isServiceRegistered(api::ServiceName).value())
        return true;
    const QDBusReply<QStringList> activatable = bus->activatableServiceNames();
    if (activatable.isValid() && activatable.value().contains(api::ServiceName))
        return true;
    if (why)
        *why = QStringLiteral("%1 is not installed on the system bus").arg(api::ServiceName);
    return false;
}

bool HelperClient::listProbes(QString *kernelRelease, QList<ProbeEntry> *probes, Error *error) const
{
    return takeProbes(
        m_bus.call(call(api::ObjectPath, api::Interface, QStringLiteral("ListProbes"))),
        kernelRelease, probes, error);
}

QDBusPendingCall HelperClient::listProbesAsync() const
{
    return m_bus.asyncCall(call(api::ObjectPath, api::Interface, QStringLiteral("ListProbes")));
}

bool HelperClient::takeProbes(const QDBusMessage &reply, QString *kernelRelease,
                              QList<ProbeEntry> *probes, Error *error)
{
    if (failed(reply, error))
        return false;
    const QList<QVariant> args = reply.arguments();
    if (reply.signature() != QLatin1String("sa(sbss)")) {
        if (error)
            *error = {api::ErrorFailed,
                      QStringLiteral("the helper sent ListProbes a reply of type %1")
                          .arg(reply.signature())};
        return false;
    }
    *kernelRelease = args[0].toString();
    const auto list = qdbus_cast<QList<api::WireAvailability>>(args[1]);
    probes->clear();
    for (const api::WireAvailability &w : list) {
        ProbeEntry e;
        if (const ProbeInfo *info = ProbeCatalog::find(w.id))
            e.info = *info;
        else
            e.info.id = w.id;
        e.availability = {w.available, w.attachPath, w.reason};
        probes->append(e);
    }
    return true;
}

bool HelperClient::listTracepoints(QStringList *tracepoints, Error *error) const
{
    return takeTracepoints(
        m_bus.call(call(api::ObjectPath, api::Interface, QStringLiteral("ListTracepoints"))),
        tracepoints, error);
}

QDBusPendingCall HelperClient::listTracepointsAsync() const
{
    // Nobody waits on this list (it feeds a completer), and reading every tracepoint from BTF
    // takes seconds on a slow or emulated CPU: D-Bus's default 25 s would drop it there.
    constexpr int TimeoutMs = 120000;
    return m_bus.asyncCall(call(api::ObjectPath, api::Interface, QStringLiteral("ListTracepoints")),
                           TimeoutMs);
}

bool HelperClient::takeTracepoints(const QDBusMessage &reply, QStringList *tracepoints,
                                   Error *error)
{
    if (failed(reply, error))
        return false;
    if (reply.signature() != QLatin1String("as")) {
        if (error)
            *error = {api::ErrorFailed,
                      QStringLiteral("the helper sent ListTracepoints a reply of type %1")
                          .arg(reply.signature())};
        return false;
    }
    *tracepoints = reply.arguments().value(0).toStringList();
    return true;
}

QDBusPendingCall HelperClient::startSessionAsync(const QList<ProbeConfig> &probes) const
{
    QDBusMessage msg = call(api::ObjectPath, api::Interface, QStringLiteral("StartSession"));
    msg << api::probesArgument(probes);
    // The polkit agent may need the user to type a password.
    msg.setInteractiveAuthorizationAllowed(true);
    return m_bus.asyncCall(msg, StartTimeoutMs);
}

bool HelperClient::takeSession(const QDBusMessage &reply, Session *session, Error *error)
{
    if (failed(reply, error))
        return false;
    const QList<QVariant> args = reply.arguments();
    if (reply.signature() != QLatin1String("oh")) {
        *error = {api::ErrorFailed,
                  QStringLiteral("the helper sent StartSession a reply of type %1")
                      .arg(reply.signature())};
        return false;
    }
    const auto fd = args[1].value<QDBusUnixFileDescriptor>();
    session->path = args[0].value<QDBusObjectPath>().path();
    // QDBusUnixFileDescriptor closes its copy: keep one of our own.
    session->fd = fd.isValid() ? ::fcntl(fd.fileDescriptor(), F_DUPFD_CLOEXEC, 0) : -1;
    if (session->fd < 0) {
        *error = {api::ErrorFailed, QStringLiteral("the helper sent no stream")};
        return false;
    }
    return true;
}

bool HelperClient::startSession(const QList<ProbeConfig> &probes, Session *session,
                                Error *error) const
{
    QDBusPendingCall pending = startSessionAsync(probes);
    pending.waitForFinished();
    return takeSession(pending.reply(), session, error);
}

bool HelperClient::stopSession(const QString &path, Error *error) const
{
    const QDBusMessage reply =
        m_bus.call(call(path, api::SessionInterface, QStringLiteral("Stop")));
    return !failed(reply, error);
}

QDBusPendingCall HelperClient::stopSessionAsync(const QString &path) const
{
    return m_bus.asyncCall(call(path, api::SessionInterface, QStringLiteral("Stop")));
}

} // namespace bpflens
