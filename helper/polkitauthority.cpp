#include "helper/polkitauthority.h"

#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusVariant>

namespace bpflens {

namespace {

// polkit's (sa{sv}) subject.
struct PolkitSubject
{
    QString kind;
    QVariantMap details;
};

QDBusArgument &operator<<(QDBusArgument &arg, const PolkitSubject &s)
{
    arg.beginStructure();
    arg << s.kind << s.details;
    arg.endStructure();
    return arg;
}

const QDBusArgument &operator>>(const QDBusArgument &arg, PolkitSubject &s)
{
    arg.beginStructure();
    arg >> s.kind >> s.details;
    arg.endStructure();
    return arg;
}

using PolkitDetails = QMap<QString, QString>;

constexpr quint32 AllowUserInteraction = 1;
// A password prompt waits for a human; polkit itself gives up after a few minutes.
constexpr int CheckTimeoutMs = 10 * 60 * 1000;

} // namespace

} // namespace bpflens

Q_DECLARE_METATYPE(bpflens::PolkitSubject)

namespace bpflens {

PolkitAuthority::PolkitAuthority(const QDBusConnection &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
{
    registerTypes();
}

void PolkitAuthority::registerTypes()
{
    static const bool once = [] {
        qDBusRegisterMetaType<PolkitSubject>();
        qDBusRegisterMetaType<PolkitDetails>();
        return true;
    }();
    Q_UNUSED(once);
}

void PolkitAuthority::checkAuthorization(const QString &busName, const QString &actionId,
                                         Callback done)
{
    QDBusMessage call =
        QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.PolicyKit1"),
                                       QStringLiteral("/org/freedesktop/PolicyKit1/Authority"),
                                       QStringLiteral("org.freedesktop.PolicyKit1.Authority"),
                                       QStringLiteral("CheckAuthorization"));
    const PolkitSubject subject{QStringLiteral("system-bus-name"),
                                {{QStringLiteral("name"), busName}}};
    call << QVariant::fromValue(subject) << actionId << QVariant::fromValue(PolkitDetails())
         << AllowUserInteraction << QString();
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call, CheckTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [watcher, done = std::move(done)] {
        watcher->deleteLater();
        const QDBusMessage reply = watcher->reply();
        if (reply.type() != QDBusMessage::ReplyMessage) {
            done(Result::Error, QStringLiteral("polkit: %1").arg(reply.errorMessage()));
            return;
        }
        // (bba{ss}): is_authorized, is_challenge, details.
        const QList<QVariant> args = reply.arguments();
        if (args.size() != 1 || args[0].userType() != qMetaTypeId<QDBusArgument>() ||
            args[0].value<QDBusArgument>().currentSignature() != QLatin1String("(bba{ss})")) {
            done(Result::Error, QStringLiteral("polkit sent an unexpected reply"));
            return;
        }
        const QDBusArgument arg = args[0].value<QDBusArgument>();
        bool authorized = false;
        bool challenge = false;
        PolkitDetails details;
        arg.beginStructure();
        arg >> authorized >> challenge >> details;
        arg.endStructure();
        if (authorized)
            done(Result::Authorized, QString());
        else
            done(Result::NotAuthorized,
                 challenge ? QStringLiteral("authentication was not completed") : QString());
    });
}

} // namespace bpflens
