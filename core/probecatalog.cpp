#include "core/probecatalog.h"

#include "core/probes.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <limits>

namespace bpflens {

namespace {

using Type = ProbeOption::Type;

bool convert(const ProbeOption &o, const QVariant &in, QVariant *out, QString *why)
{
    const bool isText = in.typeId() == QMetaType::QString || in.typeId() == QMetaType::QByteArray;
    switch (o.type) {
    case Type::Bool:
        if (in.typeId() == QMetaType::Bool) {
            *out = in.toBool();
            return true;
        }
        if (isText) {
            const QString s = in.toString().toLower();
            if (s == QLatin1String("true") || s == QLatin1String("1") ||
                s == QLatin1String("yes") || s == QLatin1String("on")) {
                *out = true;
                return true;
            }
            if (s == QLatin1String("false") || s == QLatin1String("0") ||
                s == QLatin1String("no") || s == QLatin1String("off")) {
                *out = false;
                return true;
            }
        }
        *why = QStringLiteral("expects true or false");
        return false;
    case Type::Int: {
        bool ok = false;
        qint64 v = 0;
        switch (in.typeId()) {
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::Short:
        case QMetaType::Char:
        case QMetaType::SChar:
            v = in.toLongLong(&ok);
            break;
        case QMetaType::UInt:
        case QMetaType::ULongLong:
        case QMetaType::UShort:
        case QMetaType::UChar: {
            const quint64 u = in.toULongLong(&ok);
            ok = ok && u <= quint64(std::numeric_limits<qint64>::max());
            v = qint64(u);
            break;
        }
        case QMetaType::QString:
        case QMetaType::QByteArray:
            v = in.toString().trimmed().toLongLong(&ok);
            break;
        default:
            break;
        }
        if (!ok) {
            *why = QStringLiteral("expects a whole number");
            return false;
        }
        if (v < o.minimum || v > o.maximum) {
            *why = QStringLiteral("%1 is out of range (%2 to %3)")
                       .arg(v)
                       .arg(o.minimum)
                       .arg(o.maximum);
            return false;
        }
        *out = v;
        return true;
    }
    case Type::String:
    case Type::Choice: {
        if (!isText) {
            *why = QStringLiteral("expects text");
            return false;
        }
        const QString s = in.toString();
        if (o.type == Type::Choice && !o.choices.contains(s)) {
            *why = QStringLiteral("\"%1\" is not one of %2")
                       .arg(s.left(64), o.choices.join(QStringLiteral(", ")));
            return false;
        }
        if (o.type == Type::String && s.toUtf8().size() > o.maximum) {
            *why = QStringLiteral("is longer than %1 bytes").arg(o.maximum);
            return false;
        }
        if (s.contains(QChar(0))) {
            *why = QStringLiteral("contains a NUL character");
            return false;
        }
        *out = s;
        return true;
    }
    }
    return false;
}

} // namespace

const ProbeOption *ProbeInfo::option(const QString &name) const
{
    for (const ProbeOption &o : options) {
        if (o.name == name)
            return &o;
    }
    return nullptr;
}

const ProbeCounter *ProbeInfo::counter(const QString &name) const
{
    for (const ProbeCounter &c : counters) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

QStringList ProbeInfo::lossCounters() const
{
    QStringList names;
    for (const ProbeCounter &c : counters) {
        if (c.role == ProbeCounter::Role::Loss)
            names << c.name;
    }
    return names;
}

bool ProbeInfo::isKeyCounter(const QString &name) const
{
    if (!isKeyed() || counter(name))
        return false;
    return !keyed.isKey || keyed.isKey(name);
}

const QList<ProbeInfo> &ProbeCatalog::probes()
{
    static const QList<ProbeInfo> catalog = declaredProbes();
    return catalog;
}

QString ProbeCatalog::translated(const QString &text)
{
    return QCoreApplication::translate("ProbeCatalog", text.toUtf8().constData());
}

const ProbeInfo *ProbeCatalog::find(const QString &id)
{
    for (const ProbeInfo &p : probes()) {
        if (p.id == id)
            return &p;
    }
    return nullptr;
}

bool ProbeCatalog::parseUprobeKey(const QString &text, UprobeKey *key, QString *why, int maxArgs)
{
    static const QRegularExpression form(QStringLiteral("^(str\\()?arg([0-9]{1,2})(\\))?$"));
    const QString t = text.trimmed();
    *key = {};
    if (t.isEmpty())
        return true;
    const QRegularExpressionMatch m = form.match(t);
    if (!m.hasMatch() || m.hasCaptured(1) != m.hasCaptured(3)) {
        *why = QStringLiteral("\"%1\" is not argN or str(argN)").arg(t.left(64));
        return false;
    }
    key->arg = m.captured(2).toInt();
    if (key->arg >= maxArgs) {
        *why = maxArgs == MaxUprobeArgs
                   ? QStringLiteral("arg%1: only arguments 0 to %2 are passed in registers")
                         .arg(key->arg)
                         .arg(maxArgs - 1)
                   : QStringLiteral("arg%1: a USDT probe has at most %2 arguments (arg0 to arg%3)")
                         .arg(key->arg)
                         .arg(maxArgs)
                         .arg(maxArgs - 1);
        return false;
    }
    key->kind = m.hasCaptured(1) ? UprobeKey::Kind::String : UprobeKey::Kind::Integer;
    return true;
}

bool ProbeCatalog::validate(const QString &id, const QVariantMap &options, QVariantMap *normalized,
                            QString *error)
{
    const ProbeInfo *info = find(id);
    if (!info) {
        *error = QStringLiteral("unknown probe \"%1\"").arg(id.left(64));
        return false;
    }
    QVariantMap result;
    for (auto it = options.cbegin(); it != options.cend(); ++it) {
        const ProbeOption *o = info->option(it.key());
        if (!o) {
            *error = QStringLiteral("probe %1 has no option \"%2\"").arg(id, it.key().left(64));
            return false;
        }
        QVariant value;
        QString why;
        if (!convert(*o, it.value(), &value, &why)) {
            *error = QStringLiteral("probe %1, option %2: %3").arg(id, o->name, why);
            return false;
        }
        result.insert(o->name, value);
    }
    for (const ProbeOption &o : info->options) {
        if (!result.contains(o.name))
            result.insert(o.name, o.defaultValue);
    }
    // tcpconnect's port lists
    for (const QString &name : {QStringLiteral("ports"), QStringLiteral("sourcePorts")}) {
        QList<quint16> ports;
        QString why;
        if (result.contains(name) && !parsePortList(result.value(name).toString(), &ports, &why)) {
            *error = QStringLiteral("probe %1, option %2: %3").arg(id, name, why);
            return false;
        }
    }
    // What only the probe itself knows is wrong (open's flags, uprobe's key and target, ...).
    if (info->check && !info->check(id, result, error))
        return false;
    // profile and offcpu: one of the two halves of a stack, not neither.
    if (result.value(QStringLiteral("kernelOnly")).toBool() &&
        result.value(QStringLiteral("userOnly")).toBool()) {
        *error = QStringLiteral("probe %1: kernelOnly and userOnly exclude each other").arg(id);
        return false;
    }
    *normalized = result;
    return true;
}

bool ProbeCatalog::parsePortList(const QString &text, QList<quint16> *ports, QString *why)
{
    ports->clear();
    if (text.trimmed().isEmpty())
        return true;
    for (const QString &part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const uint port = part.trimmed().toUInt(&ok);
        if (!ok || port == 0 || port > 0xffff) {
            *why = QStringLiteral("\"%1\" is not a port (1 to 65535; a list is written 80,443)")
                       .arg(part.trimmed().left(64));
            return false;
        }
        if (!ports->contains(quint16(port)))
            ports->append(quint16(port));
    }
    if (ports->size() > MaxPortList) {
        *why = QStringLiteral("%1 ports listed; at most %2 can be")
                   .arg(ports->size())
                   .arg(MaxPortList);
        return false;
    }
    return true;
}

QString ProbeCatalog::spec(const QString &id, const QVariantMap &options, bool all)
{
    QStringList parts;
    auto add = [&](const QString &name, const QVariant &value, bool isBool) {
        if (isBool)
            parts << (value.toBool() ? name : name + QStringLiteral("=false"));
        else
            parts << name + QLatin1Char('=') + value.toString();
    };
    const ProbeInfo *info = find(id);
    QStringList known;
    if (info) {
        for (const ProbeOption &o : info->options) {
            known << o.name;
            if (!options.contains(o.name))
                continue;
            const QVariant v = options.value(o.name);
            const bool isBool = o.type == ProbeOption::Type::Bool;
            const bool isDefault = isBool ? v.toBool() == o.defaultValue.toBool()
                                          : v.toString() == o.defaultValue.toString();
            if (all || !isDefault)
                add(o.name, v, isBool);
        }
    }
    // Options the catalog does not know (a newer recorder's): as they are, sorted by name.
    for (auto it = options.cbegin(); it != options.cend(); ++it) {
        if (!known.contains(it.key()))
            add(it.key(), it.value(), it.value().typeId() == QMetaType::Bool);
    }
    return parts.join(QLatin1Char(','));
}

} // namespace bpflens
