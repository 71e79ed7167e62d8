#include "core/eventschema.h"
#include "core/units.h"

#include <algorithm>
#include <cstring>

namespace bpflens {

namespace {

// Length of the well-formed UTF-8 sequence at bytes[i] (Unicode table 3-7: no overlong forms,
// no surrogates, nothing above U+10FFFF), or 0 when the byte starts none.
int utf8SequenceAt(const QByteArray &bytes, qsizetype i)
{
    const auto at = [&](qsizetype k) { return quint8(bytes.at(k)); };
    const qsizetype left = bytes.size() - i;
    const quint8 b = at(i);
    if (b < 0x80)
        return 1;
    auto cont = [&](qsizetype k, quint8 lo = 0x80, quint8 hi = 0xbf) {
        return k - i < left && at(k) >= lo && at(k) <= hi;
    };
    if (b >= 0xc2 && b <= 0xdf)
        return cont(i + 1) ? 2 : 0;
    if (b >= 0xe0 && b <= 0xef) {
        const quint8 lo = b == 0xe0 ? 0xa0 : 0x80;
        const quint8 hi = b == 0xed ? 0x9f : 0xbf;
        return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
    }
    if (b >= 0xf0 && b <= 0xf4) {
        const quint8 lo = b == 0xf0 ? 0x90 : 0x80;
        const quint8 hi = b == 0xf4 ? 0x8f : 0xbf;
        return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    return 0;
}

} // namespace

QByteArray escapeKernelBytes(const QByteArray &bytes)
{
    QByteArray out;
    out.reserve(bytes.size());
    static const char hex[] = "0123456789ABCDEF";
    for (qsizetype i = 0; i < bytes.size();) {
        const char c = bytes.at(i);
        if (c == '\\') {
            out += "\\\\";
            ++i;
            continue;
        }
        const int n = utf8SequenceAt(bytes, i);
        if (n > 0) {
            out.append(bytes.constData() + i, n);
            i += n;
            continue;
        }
        const auto b = quint8(c);
        out += '\\';
        out += 'x';
        out += hex[b >> 4];
        out += hex[b & 0xf];
        ++i;
    }
    return out;
}

QByteArray formatArgv(const QList<QByteArray> &argv)
{
    QByteArray out;
    for (qsizetype k = 0; k < argv.size(); ++k) {
        if (k)
            out += ' ';
        const QByteArray text = escapeKernelBytes(argv.at(k));
        bool bare = !text.isEmpty();
        for (char c : text) {
            const bool alnum =
                (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && (c == '\0' || !std::strchr("_@%+=:,./-", c))) {
                bare = false;
                break;
            }
        }
        if (bare) {
            out += text;
            continue;
        }
        out += '\'';
        for (char c : text) {
            if (c == '\'')
                out += "'\\''";
            else
                out += c;
        }
        out += '\'';
    }
    return out;
}

QByteArray formatAddress(quint8 family, const std::array<quint8, 16> &a)
{
    if (family == 4)
        return QByteArray::number(a[0]) + '.' + QByteArray::number(a[1]) + '.' +
               QByteArray::number(a[2]) + '.' + QByteArray::number(a[3]);
    // RFC 5952: lower-case hex, the longest run (>= 2) of zero groups becomes "::".
    quint16 groups[8];
    for (int i = 0; i < 8; ++i)
        groups[i] = quint16(a[size_t(2 * i)] << 8 | a[size_t(2 * i + 1)]);
    int bestStart = -1, bestLen = 0;
    for (int i = 0; i < 8;) {
        if (groups[i]) {
            ++i;
            continue;
        }
        int j = i;
        while (j < 8 && !groups[j])
            ++j;
        if (j - i > bestLen && j - i >= 2) {
            bestStart = i;
            bestLen = j - i;
        }
        i = j;
    }
    QByteArray out;
    for (int i = 0; i < 8; ++i) {
        if (i == bestStart) {
            out += "::";
            i += bestLen - 1;
            continue;
        }
        if (!out.isEmpty() && !out.endsWith(':'))
            out += ':';
        out += QByteArray::number(groups[i], 16);
    }
    return out;
}

bool isSignedValue(const QVariant &v)
{
    switch (v.metaType().id()) {
    case QMetaType::Int:
    case QMetaType::LongLong:
    case QMetaType::Short:
    case QMetaType::Long:
    case QMetaType::SChar:
        return true;
    default:
        return false;
    }
}

QString formatEndpoint(quint8 family, const std::array<quint8, 16> &address, quint16 port)
{
    const QString a = QString::fromLatin1(formatAddress(family, address));
    return family == 4 ? QStringLiteral("%1:%2").arg(a).arg(port)
                       : QStringLiteral("[%1]:%2").arg(a).arg(port);
}

QString formatPlainValue(Format format, const QVariant &v, quint64 sessionStartNs)
{
    switch (format) {
    case Format::Number:
        return isSignedValue(v) ? QString::number(v.toLongLong())
                                : QString::number(v.toULongLong());
    case Format::Hex:
        // A negative 32-bit value (open flags) is shown as its 32 bits.
        return QStringLiteral("0x%1").arg(
            v.metaType().id() == QMetaType::Int ? quint64(uint(v.toInt())) : v.toULongLong(), 0,
            16);
    case Format::Octal:
        return QStringLiteral("0%1").arg(v.toULongLong(), 0, 8);
    case Format::Duration: {
        const quint64 ns = v.toULongLong();
        if (ns < 1000)
            return QStringLiteral("%1 ns").arg(ns);
        if (ns < 1000000)
            return QStringLiteral("%1 us").arg(double(ns) / 1e3, 0, 'f', 2);
        if (ns < 1000000000)
            return QStringLiteral("%1 ms").arg(double(ns) / 1e6, 0, 'f', 2);
        return QStringLiteral("%1 s").arg(double(ns) / 1e9, 0, 'f', 3);
    }
    case Format::Size:
        return formatByteSize(v.toULongLong());
    case Format::Bytes:
        return QString::fromUtf8(escapeKernelBytes(v.toByteArray()));
    case Format::Char:
        return QString(QLatin1Char(char(v.toInt())));
    case Format::Text:
        return v.toString();
    case Format::Argv:
        return QString::fromUtf8(formatArgv(v.value<QList<QByteArray>>()));
    case Format::YesNo:
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    case Format::Time: {
        const quint64 t = v.toULongLong();
        return QString::number(double(t - std::min(t, sessionStartNs)) / 1e9, 'f', 6);
    }
    }
    return v.toString();
}

} // namespace bpflens
