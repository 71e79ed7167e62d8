#include "dbusapi/helperapi.h"

#include <QDBusMetaType>
#include <QDBusUnixFileDescriptor>
#include <QDBusVariant>

#include <fcntl.h>

namespace bpflens::helperapi {

QDBusArgument &operator<<(QDBusArgument &arg, const WireProbe &p)
{
    arg.beginStructure();
    arg << p.id << p.options;
    arg.endStructure();
    return arg;
}

const QDBusArgument &operator>>(const QDBusArgument &arg, WireProbe &p)
{
    arg.beginStructure();
    arg >> p.id >> p.options;
    arg.endStructure();
    return arg;
}

QDBusArgument &operator<<(QDBusArgument &arg, const WireAvailability &a)
{
    arg.beginStructure();
    arg << a.id << a.available << a.attachPath << a.reason;
    arg.endStructure();
    return arg;
}

const QDBusArgument &operator>>(const QDBusArgument &arg, WireAvailability &a)
{
    arg.beginStructure();
    arg >> a.id >> a.available >> a.attachPath >> a.reason;
    arg.endStructure();
    return arg;
}

void registerTypes()
{
    static const bool once = [] {
        qDBusRegisterMetaType<WireProbe>();
        qDBusRegisterMetaType<QList<WireProbe>>();
        qDBusRegisterMetaType<WireAvailability>();
        qDBusRegisterMetaType<QList<WireAvailability>>();
        return true;
    }();
    Q_UNUSED(once);
}

QVariant probesArgument(const QList<ProbeConfig> &probes)
{
    registerTypes();
    QList<WireProbe> list;
    for (const ProbeConfig &p : probes) {
        QVariantMap options = p.options;
        if (p.file.isValid()) {
            options.insert(FileOption, QVariant::fromValue(QDBusUnixFileDescriptor(p.file.get())));
            options.insert(FileOffsetOption, QVariant::fromValue(qulonglong(p.fileOffset)));
        }
        if (p.file2.isValid())
            options.insert(File2Option,
                           QVariant::fromValue(QDBusUnixFileDescriptor(p.file2.get())));
        list.append({p.id, options});
    }
    return QVariant::fromValue(list);
}

namespace {

bool isPlainValue(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::Bool:
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Short:
    case QMetaType::UShort:
    case QMetaType::UChar:
    case QMetaType::Double:
    case QMetaType::QString:
        return true;
    default:
        return false;
    }
}

} // namespace

bool readProbes(const QVariant &argument, QList<ProbeConfig> *probes, QString *error)
{
    if (argument.userType() != qMetaTypeId<QDBusArgument>()) {
        *error = QStringLiteral("probes must be an array of (id, options)");
        return false;
    }
    const QDBusArgument arg = argument.value<QDBusArgument>();
    if (arg.currentSignature() != QLatin1String("a(sa{sv})")) {
        *error = QStringLiteral("probes must have the signature a(sa{sv}), not %1")
                     .arg(arg.currentSignature().left(64));
        return false;
    }
    // Every begin has its end, on errors too: a QDBusArgument left inside a container frees only
    // the innermost level when destroyed, and the outer ones keep the whole D-Bus message (its
    // memory and any fds it carried) alive for ever.
    QList<ProbeConfig> out;
    QString failure;
    arg.beginArray();
    while (failure.isEmpty() && !arg.atEnd()) {
        if (out.size() >= MaxProbesPerSession) {
            failure = QStringLiteral("more than %1 probes").arg(MaxProbesPerSession);
            break;
        }
        ProbeConfig p;
        arg.beginStructure();
        arg >> p.id;
        arg.beginMap();
        while (failure.isEmpty() && !arg.atEnd()) {
            QString key;
            QDBusVariant value;
            arg.beginMapEntry();
            arg >> key >> value;
            arg.endMapEntry();
            if (p.options.size() >= MaxOptionsPerProbe) {
                failure = QStringLiteral("probe %1: more than %2 options")
                              .arg(p.id.left(64))
                              .arg(MaxOptionsPerProbe);
            } else if (key == FileOption || key == File2Option) {
                const QVariant v = value.variant();
                const auto fd = v.value<QDBusUnixFileDescriptor>();
                SharedFd &file = key == FileOption ? p.file : p.file2;
                if (v.userType() != qMetaTypeId<QDBusUnixFileDescriptor>() || !fd.isValid() ||
                    file.isValid()) {
                    failure = QStringLiteral("probe %1, %2: expects one Unix file descriptor")
                                  .arg(p.id.left(64), key);
                } else {
                    // QDBusUnixFileDescriptor closes its copy with the message: keep our own.
                    file = SharedFd::adopt(::fcntl(fd.fileDescriptor(), F_DUPFD_CLOEXEC, 0));
                }
            } else if (key == FileOffsetOption) {
                bool ok = false;
                const QVariant v = value.variant();
                p.fileOffset = v.typeId() == QMetaType::ULongLong ? v.toULongLong(&ok) : 0;
                if (!ok)
                    failure = QStringLiteral("probe %1, %2: expects an unsigned 64-bit offset")
                                  .arg(p.id.left(64), key);
            } else if (!isPlainValue(value.variant())) {
                failure =
                    QStringLiteral("probe %1, option %2: expects a boolean, number or string, "
                                   "not D-Bus type %3")
                        .arg(p.id.left(64), key.left(64),
                             QString::fromLatin1(value.variant().typeName()));
            } else {
                p.options.insert(key, value.variant());
            }
        }
        arg.endMap();
        arg.endStructure();
        out.append(p);
    }
    arg.endArray();
    if (!failure.isEmpty()) {
        *error = failure;
        return false;
    }
    *probes = out;
    return true;
}

} // namespace bpflens::helperapi
