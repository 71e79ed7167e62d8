#pragma once

#include <QByteArray>

#include <bit>

namespace bpflens {

// The byte codec the stream protocol and the session chunks share: LEB128 varints, and signed
// values zigzag-mapped so that small negative numbers stay short.

inline quint64 zigzag(qint64 v)
{
    return (quint64(v) << 1) ^ quint64(v >> 63);
}

inline qint64 unzigzag(quint64 u)
{
    return qint64(u >> 1) ^ -qint64(u & 1);
}

inline int varintSize(quint64 v)
{
    return v == 0 ? 1 : (std::bit_width(v) + 6) / 7;
}

inline void putVarint(QByteArray &out, quint64 v)
{
    char buf[10];
    int n = 0;
    while (v >= 0x80) {
        buf[n++] = char(quint8(v) | 0x80);
        v >>= 7;
    }
    buf[n++] = char(v);
    out.append(buf, n);
}

enum class VarintRead
{
    Ok,
    Truncated, // the bytes end inside the number
    TooLong,   // more than 64 bits
};

// Reads one varint at p (advanced past what was read), never past end.
inline VarintRead getVarint(const uchar *&p, const uchar *end, quint64 *value)
{
    quint64 v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p >= end)
            return VarintRead::Truncated;
        const uchar b = *p++;
        // The tenth byte may only hold the 64th bit.
        if (shift == 63 && b > 1)
            return VarintRead::TooLong;
        v |= quint64(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
    }
    *value = v;
    return VarintRead::Ok;
}

// An IPv4 address keeps 4 bytes when its other 12 are zero: a length byte, then the bytes.
inline void putAddress(QByteArray &out, const std::array<quint8, 16> &a, bool mayBeShort)
{
    bool tailZero = true;
    for (std::size_t i = 4; i < a.size(); ++i)
        tailZero = tailZero && !a[i];
    const int len = mayBeShort && tailZero ? 4 : 16;
    out.append(char(len));
    out.append(reinterpret_cast<const char *>(a.data()), len);
}

} // namespace bpflens
