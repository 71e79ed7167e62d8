#pragma once

#include "core/probecatalog.h"
#include "core/records.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCall>
#include <QList>
#include <QString>

namespace bpflens {

// Client of bpflens-helper (io.github.bpflens.Helper1 on the system bus), for the CLI and the
// GUI alike: Qt Core + DBus, no libbpf. Blocking calls for the CLI, an asynchronous StartSession
// for the GUI (polkit may show a password prompt for as long as the user takes).
class HelperClient
{
public:
    struct Error
    {
        QString name; // the D-Bus error name, e.g. io.github.bpflens.Error.NotAuthorized
        QString message;
    };
    struct ProbeEntry
    {
        ProbeInfo info; // from this build's catalog; id only if the helper knows more probes
        ProbeAvailability availability;
    };
    struct Session
    {
        QString path; // the session object, for stopSession()
        int fd = -1;  // read end of the stream (docs/protocol.md); the caller owns and closes it
    };

    // Call helperapi::registerTypes() before the connection is made: QtDBus's thread may need the
    // types as soon as it exists.
    explicit HelperClient(const QDBusConnection &bus = QDBusConnection::systemBus());

    // The bus is there and the helper runs or can be activated. *why says what is missing.
    bool isReachable(QString *why = nullptr) const;

    bool listProbes(QString *kernelRelease, QList<ProbeEntry> *probes, Error *error) const;
    QDBusPendingCall listProbesAsync() const;
    static bool takeProbes(const QDBusMessage &reply, QString *kernelRelease,
                           QList<ProbeEntry> *probes, Error *error);

    // The tracepoints tppair can use, "group:name" (API version 2; no authorisation).
    bool listTracepoints(QStringList *tracepoints, Error *error) const;
    QDBusPendingCall listTracepointsAsync() const;
    static bool takeTracepoints(const QDBusMessage &reply, QStringList *tracepoints, Error *error);

    bool startSession(const QList<ProbeConfig> &probes, Session *session, Error *error) const;
    QDBusPendingCall startSessionAsync(const QList<ProbeConfig> &probes) const;
    // Decodes StartSession's reply (for the asynchronous call's result).
    static bool takeSession(const QDBusMessage &reply, Session *session, Error *error);

    // Returns once the helper has detached every probe of the session.
    bool stopSession(const QString &path, Error *error) const;
    QDBusPendingCall stopSessionAsync(const QString &path) const;

    QDBusConnection connection() const { return m_bus; }

    // How long a StartSession call may take: a polkit agent waits for a human.
    static constexpr int StartTimeoutMs = 10 * 60 * 1000;

private:
    QDBusConnection m_bus;
};

} // namespace bpflens
