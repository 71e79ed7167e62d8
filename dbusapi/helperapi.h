#pragma once

#include "core/records.h"

#include <QDBusArgument>
#include <QList>
#include <QString>

namespace bpflens::helperapi {

// Names of the helper's D-Bus API, version 1 (resources/io.github.bpflens.Helper1.xml,
// docs/dbus-api.md). Shared by the helper and its clients so they cannot drift apart.
inline constexpr quint32 Version = 3;
inline const QString ServiceName = QStringLiteral("io.github.bpflens.Helper1");
inline const QString ObjectPath = QStringLiteral("/io/github/bpflens/Helper1");
inline const QString Interface = QStringLiteral("io.github.bpflens.Helper1");
inline const QString SessionInterface = QStringLiteral("io.github.bpflens.Helper1.Session");
inline const QString SessionPathPrefix = QStringLiteral("/io/github/bpflens/Helper1/session/");
inline const QString PolkitAction = QStringLiteral("io.github.bpflens.trace");

inline const QString ErrorNotAuthorized = QStringLiteral("io.github.bpflens.Error.NotAuthorized");
inline const QString ErrorInvalidArgs = QStringLiteral("io.github.bpflens.Error.InvalidArgs");
inline const QString ErrorBusy = QStringLiteral("io.github.bpflens.Error.Busy");
inline const QString ErrorFailed = QStringLiteral("io.github.bpflens.Error.Failed");
inline const QString ErrorNoSuchSession = QStringLiteral("io.github.bpflens.Error.NoSuchSession");

// Limits the helper enforces on StartSession arguments, before anything else looks at them.
inline constexpr int MaxProbesPerSession = 32;
inline constexpr int MaxOptionsPerProbe = 32;

// A probe that attaches into a user-space file (uprobe, since version 3) carries it in its
// options under these two names, which no catalog option has: the file as a Unix fd (h) the
// caller opened, and the function's offset in it (t). readProbes moves them into
// ProbeConfig::file and fileOffset.
inline const QString FileOption = QStringLiteral("file");
inline const QString FileOffsetOption = QStringLiteral("fileOffset");
// A second file (h, since version 3 too): tppair's end when its sides are in two binaries
// (ProbeConfig::file2).
inline const QString File2Option = QStringLiteral("file2");

// StartSession's argument a(sa{sv}), ready to append to a QDBusMessage.
QVariant probesArgument(const QList<ProbeConfig> &probes);
// Decodes a(sa{sv}) from a message argument. Variants holding anything but bool, integers and
// strings are refused (but FileOption's fd): no caller can smuggle nested containers into the
// option values.
bool readProbes(const QVariant &argument, QList<ProbeConfig> *probes, QString *error);

// One element of StartSession's argument.
struct WireProbe
{
    QString id;
    QVariantMap options;
};
// One element of ListProbes' a(sbss).
struct WireAvailability
{
    QString id;
    bool available = false;
    QString attachPath;
    QString reason;
};
// Registers the types above with QtDBus; idempotent.
void registerTypes();

QDBusArgument &operator<<(QDBusArgument &arg, const WireProbe &p);
const QDBusArgument &operator>>(const QDBusArgument &arg, WireProbe &p);
QDBusArgument &operator<<(QDBusArgument &arg, const WireAvailability &a);
const QDBusArgument &operator>>(const QDBusArgument &arg, WireAvailability &a);

} // namespace bpflens::helperapi

Q_DECLARE_METATYPE(bpflens::helperapi::WireProbe)
Q_DECLARE_METATYPE(bpflens::helperapi::WireAvailability)
