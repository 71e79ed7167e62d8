#pragma once

#include <QDBusConnection>
#include <QObject>
#include <QString>

#include <functional>

namespace bpflens {

// Asks polkit (org.freedesktop.PolicyKit1.Authority.CheckAuthorization) whether a bus name may
// perform an action, without blocking: the answer can take as long as a password prompt.
// polkit-qt is not packaged for Qt 6, so this speaks polkit's D-Bus API directly.
class PolkitAuthority : public QObject
{
    Q_OBJECT
public:
    enum class Result
    {
        Authorized,
        NotAuthorized,
        Error // polkit is not running or failed; treated as a denial by callers
    };
    using Callback = std::function<void(Result, const QString &detail)>;

    explicit PolkitAuthority(const QDBusConnection &bus, QObject *parent = nullptr);
    // Call before connecting to the bus: QtDBus's thread may look the types up at any time.
    static void registerTypes();

    // Calls done(result, detail) from the event loop once polkit answers. The subject is the
    // caller's unique bus name ("system-bus-name"), which polkit maps to its process and user:
    // a pid could be reused, a bus name cannot. Interaction is allowed so an agent may prompt.
    void checkAuthorization(const QString &busName, const QString &actionId, Callback done);

private:
    QDBusConnection m_bus;
};

} // namespace bpflens
