#pragma once

#include "dbusapi/helperapi.h"
#include "helper/engine.h"
#include "helper/polkitauthority.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusServiceWatcher>
#include <QDBusVirtualObject>
#include <QHash>
#include <QSet>
#include <QTimer>

#include <map>
#include <memory>
#include <optional>

namespace bpflens {

class HelperSession;

// bpflens-helper's D-Bus service, io.github.bpflens.Helper1 (docs/dbus-api.md). Every call is
// answered from the event loop without blocking it: polkit checks and engine start-ups run
// asynchronously and reply later, recordings run in their own threads.
class HelperService : public QDBusVirtualObject
{
    Q_OBJECT
public:
    struct Limits
    {
        int idleTimeoutMs = 30000;  // exit after this long with no session and no call
        int maxSessionsPerUser = 4; // running or being authorised, per caller uid
        int maxSessions = 16;       // all users together
        int maxPendingChecks = 64;  // polkit checks in flight
    };

    explicit HelperService(const QDBusConnection &bus, const Limits &limits,
                           QObject *parent = nullptr);
    ~HelperService() override;

    // Registers the object tree and requests the bus name.
    bool registerOnBus(QString *error);
    // Stops every session (end reason HelperShutdown) and waits until all are detached.
    void shutdown();

    QString introspect(const QString &path) const override;
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override;

Q_SIGNALS:
    // Nothing happened for idleTimeoutMs and nothing is running: time to exit.
    void idle();

private:
    struct Pending
    {
        QDBusMessage call;
        uint uid = 0;
    };
    void listProbes(const QDBusMessage &msg);
    void listTracepoints(const QDBusMessage &msg);
    void startSession(const QDBusMessage &msg);
    void authorized(const QDBusMessage &msg, uint uid, const QList<ProbeConfig> &probes);
    void stopSession(const QDBusMessage &msg, quint64 id);
    void properties(const QDBusMessage &msg);
    void sessionFinished(quint64 id, const QString &reason);
    void callerLeft(const QString &name);
    bool validate(QList<ProbeConfig> &probes, QString *error) const;
    int sessionsOf(uint uid) const;
    void reply(const QDBusMessage &msg);
    void replyError(const QDBusMessage &call, const QString &name, const QString &message);
    void touch();

    QDBusConnection m_bus;
    Limits m_limits;
    Engine m_catalog;          // never started: the kernel's features and the probes' availability
    QStringList m_tracepoints; // "group:name", read once: the kernel's list does not change
    std::optional<QList<helperapi::WireAvailability>> m_probeList; // ListProbes, computed once
    PolkitAuthority m_polkit;
    QDBusServiceWatcher m_watcher;
    QTimer m_idleTimer;
    // A while after the last call: the catalog's parsed BTF released, the heap trimmed.
    QTimer m_settleTimer;
    std::map<quint64, std::unique_ptr<HelperSession>> m_sessions;
    QHash<quint64, QList<QDBusMessage>> m_stopCalls; // replied to once detached
    // Sessions whose probes are all detached and whose stream is being finished. They no longer
    // count against the limits: a caller whose Stop returned may start again at once.
    QSet<quint64> m_detached;
    QHash<uint, int> m_checking; // polkit checks in flight per uid
    int m_checks = 0;
    quint64 m_nextId = 1;
};

} // namespace bpflens
