#include "core/usdtargs.h"

#include "core/counttext.h"

#include <QRegularExpression>

namespace bpflens {

namespace {

// x86-64's general-purpose registers by every name GCC's "nor" constraint may print, mapped to
// the 64-bit register they are part of.
QString canonicalRegister(const QString &name)
{
    static const struct
    {
        const char *full;
        const char *aliases[4];
    } registers[] = {
        {"rax", {"eax", "ax", "al", nullptr}},       {"rbx", {"ebx", "bx", "bl", nullptr}},
        {"rcx", {"ecx", "cx", "cl", nullptr}},       {"rdx", {"edx", "dx", "dl", nullptr}},
        {"rsi", {"esi", "si", "sil", nullptr}},      {"rdi", {"edi", "di", "dil", nullptr}},
        {"rbp", {"ebp", "bp", "bpl", nullptr}},      {"rsp", {"esp", "sp", "spl", nullptr}},
        {"r8", {"r8d", "r8w", "r8b", nullptr}},      {"r9", {"r9d", "r9w", "r9b", nullptr}},
        {"r10", {"r10d", "r10w", "r10b", nullptr}},  {"r11", {"r11d", "r11w", "r11b", nullptr}},
        {"r12", {"r12d", "r12w", "r12b", nullptr}},  {"r13", {"r13d", "r13w", "r13b", nullptr}},
        {"r14", {"r14d", "r14w", "r14b", nullptr}},  {"r15", {"r15d", "r15w", "r15b", nullptr}},
        {"rip", {"eip", nullptr, nullptr, nullptr}},
    };
    for (const auto &r : registers) {
        if (name == QLatin1String(r.full))
            return QString::fromLatin1(r.full);
        for (const char *alias : r.aliases) {
            if (alias && name == QLatin1String(alias))
                return QString::fromLatin1(r.full);
        }
    }
    return QString();
}

bool parseOne(const QString &spec, UsdtArg *arg, QString *why)
{
    // SIZE@OPERAND; the size is required (every sys/sdt.h since 2010 writes it).
    static const QRegularExpression form(QStringLiteral("^(-?[0-9]+)@(.+)$"));
    static const QRegularExpression constant(QStringLiteral("^\\$(-?[0-9]+)$"));
    static const QRegularExpression reg(QStringLiteral("^%([a-z0-9]+)$"));
    static const QRegularExpression mem(QStringLiteral("^(-?[0-9]+)?\\(%([a-z0-9]+)\\)$"));
    const QRegularExpressionMatch m = form.match(spec);
    if (!m.hasMatch()) {
        *why = QStringLiteral("not SIZE@OPERAND");
        return false;
    }
    bool ok = false;
    const int size = m.captured(1).toInt(&ok);
    if (!ok || (qAbs(size) != 1 && qAbs(size) != 2 && qAbs(size) != 4 && qAbs(size) != 8)) {
        *why = QStringLiteral("size %1 is not 1, 2, 4 or 8 bytes").arg(m.captured(1).left(8));
        return false;
    }
    arg->size = quint8(qAbs(size));
    arg->isSigned = size < 0;
    const QString operand = m.captured(2);
    if (const QRegularExpressionMatch c = constant.match(operand); c.hasMatch()) {
        arg->kind = UsdtArg::Kind::Constant;
        arg->value = c.captured(1).toLongLong(&ok);
        if (!ok) {
            *why = QStringLiteral("the constant is out of range");
            return false;
        }
        return true;
    }
    QString name;
    if (const QRegularExpressionMatch r = reg.match(operand); r.hasMatch()) {
        arg->kind = UsdtArg::Kind::Register;
        name = r.captured(1);
    } else if (const QRegularExpressionMatch d = mem.match(operand); d.hasMatch()) {
        arg->kind = UsdtArg::Kind::Memory;
        name = d.captured(2);
        arg->value = d.hasCaptured(1) ? d.captured(1).toLongLong(&ok) : 0;
        if (d.hasCaptured(1) && !ok) {
            *why = QStringLiteral("the offset is out of range");
            return false;
        }
    } else if (operand.contains(QLatin1Char(','))) {
        *why = QStringLiteral("index registers are not supported");
        return false;
    } else {
        *why = QStringLiteral("not a constant ($N), a register (%REG) or memory (OFFSET(%REG))");
        return false;
    }
    arg->reg = canonicalRegister(name);
    if (arg->reg.isEmpty()) {
        *why = QStringLiteral("%1 is not an x86-64 general-purpose register").arg(name.left(16));
        return false;
    }
    // rip-relative addresses need the instruction's address, which no spec says.
    if (arg->reg == QLatin1String("rip")) {
        *why = QStringLiteral("%rip-relative operands are not supported");
        return false;
    }
    return true;
}

} // namespace

bool parseUsdtArgs(const QString &text, QList<UsdtArg> *args, QString *why)
{
    args->clear();
    const QStringList specs = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (specs.size() > MaxUsdtArgs) {
        *why =
            QStringLiteral("%1 arguments, more than USDT's %2").arg(specs.size()).arg(MaxUsdtArgs);
        return false;
    }
    for (qsizetype i = 0; i < specs.size(); ++i) {
        UsdtArg arg;
        QString reason;
        if (!parseOne(specs[i], &arg, &reason)) {
            *why = QStringLiteral("arg %1: %2: %3").arg(i).arg(specs[i].left(64), reason);
            args->clear();
            return false;
        }
        args->append(arg);
    }
    return true;
}

QString formatUsdtArgs(const QList<UsdtArg> &args)
{
    QStringList parts;
    for (const UsdtArg &a : args) {
        const QString size = QString::number(a.isSigned ? -int(a.size) : int(a.size));
        switch (a.kind) {
        case UsdtArg::Kind::Constant:
            parts << size + QStringLiteral("@$") + QString::number(a.value);
            break;
        case UsdtArg::Kind::Register:
            parts << size + QStringLiteral("@%") + a.reg;
            break;
        case UsdtArg::Kind::Memory:
            parts << size + QLatin1Char('@') + QString::number(a.value) + QStringLiteral("(%") +
                         a.reg + QLatin1Char(')');
            break;
        }
    }
    return parts.join(QLatin1Char(' '));
}

bool parseUsdtSites(const QString &text, QList<UsdtSite> *sites, QString *why)
{
    sites->clear();
    const QStringList parts = text.split(QLatin1Char(';'));
    if (text.trimmed().isEmpty()) {
        *why = QStringLiteral("no USDT probe site given");
        return false;
    }
    if (parts.size() > MaxUsdtSites) {
        *why = QStringLiteral("%1 sites, more than the %2 one probe attaches at")
                   .arg(parts.size())
                   .arg(MaxUsdtSites);
        return false;
    }
    QList<UsdtSite> out;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const qsizetype eq = parts[i].indexOf(QLatin1Char('='));
        bool ok = false;
        UsdtSite site;
        site.offset = eq > 0 ? parts[i].left(eq).toULongLong(&ok, 10) : 0;
        if (!ok) {
            *why =
                QStringLiteral("site %1: '%2' is not OFFSET=SPECS").arg(i).arg(parts[i].left(64));
            return false;
        }
        QString reason;
        if (!parseUsdtArgs(parts[i].mid(eq + 1), &site.args, &reason)) {
            *why = QStringLiteral("site %1: %2").arg(i).arg(reason);
            return false;
        }
        if (!out.isEmpty() && site.args.size() != out.front().args.size()) {
            *why = QStringLiteral("site %1 has %2, site 0 has %3")
                       .arg(QString::number(i),
                            countOf(qint64(site.args.size()), "argument", "arguments"),
                            QString::number(out.front().args.size()));
            return false;
        }
        out.append(site);
    }
    *sites = out;
    return true;
}

QString formatUsdtSites(const QList<UsdtSite> &sites)
{
    QStringList parts;
    for (const UsdtSite &s : sites)
        parts << QString::number(s.offset) + QLatin1Char('=') + formatUsdtArgs(s.args);
    return parts.join(QLatin1Char(';'));
}

QList<QList<UsdtArg>> usdtSpecTable(const QList<UsdtSite> &sites, QList<int> *specOfSite)
{
    QList<QList<UsdtArg>> table;
    specOfSite->clear();
    for (const UsdtSite &s : sites) {
        qsizetype at = table.indexOf(s.args);
        if (at < 0) {
            at = table.size();
            table.append(s.args);
        }
        specOfSite->append(int(at));
    }
    return table;
}

} // namespace bpflens
