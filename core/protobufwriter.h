#pragma once

#include "core/varint.h"

#include <QByteArray>
#include <QByteArrayView>

#include <initializer_list>

namespace bpflens {

// The little of the protocol buffers wire format (protobuf.dev/programming-guides/encoding) a
// writer of pprof's profile.proto needs: varints, length-delimited bytes and nested messages,
// packed repeated integers. No schema, no reflection, no libprotobuf: each message is appended
// field by field in the order the caller chooses. A nested message is written into its own
// ProtobufWriter first and then appended whole (its length precedes it on the wire).
class ProtobufWriter
{
public:
    // Varint fields (int64, uint64, bool, enum): wire type 0. Proto3 leaves zero out; so does
    // this, unless always (a repeated element, a field whose presence means something).
    void varint(int field, quint64 value, bool always = false)
    {
        if (!value && !always)
            return;
        tag(field, 0);
        putVarint(m_bytes, value);
    }
    void int64(int field, qint64 value) { varint(field, quint64(value)); }
    // Length-delimited fields (string, bytes, a nested message): wire type 2. Always written,
    // even empty: string_table's first entry must be "".
    void bytes(int field, QByteArrayView value)
    {
        tag(field, 2);
        putVarint(m_bytes, quint64(value.size()));
        m_bytes.append(value.data(), value.size());
    }
    void message(int field, const ProtobufWriter &nested) { bytes(field, nested.m_bytes); }
    // A packed repeated varint field (repeated uint64/int64 in proto3); nothing when empty.
    template<typename Range>
    void packed(int field, const Range &values)
    {
        if (std::empty(values))
            return;
        m_scratch.clear();
        for (auto v : values)
            putVarint(m_scratch, quint64(v));
        bytes(field, m_scratch);
    }
    void packed(int field, std::initializer_list<qint64> values)
    {
        packed<std::initializer_list<qint64>>(field, values);
    }

    const QByteArray &data() const { return m_bytes; }
    qsizetype size() const { return m_bytes.size(); }
    void clear() { m_bytes.clear(); }
    void reserve(qsizetype n) { m_bytes.reserve(n); }

private:
    void tag(int field, int wireType)
    {
        putVarint(m_bytes, (quint64(field) << 3) | quint64(wireType));
    }
    QByteArray m_bytes;
    QByteArray m_scratch;
};

} // namespace bpflens
