#pragma once

#include "core/protocol.h"
#include "tests/core/sessiontestdata.h"
#include "tests/everytype.h"

#include <QByteArray>
#include <QList>

// Builds wire bytes by hand, written from docs/protocol.md rather than from core/protocol.cpp,
// so tests can craft exactly the malformed input they need and check the documented layout.
namespace bpflens::test {

class Wire
{
public:
    QByteArray bytes;

    Wire &u8(quint8 v)
    {
        bytes.append(char(v));
        return *this;
    }
    Wire &varint(quint64 v)
    {
        do {
            const quint8 b = v & 0x7f;
            v >>= 7;
            bytes.append(char(v ? b | 0x80 : b));
        } while (v);
        return *this;
    }
    Wire &svarint(qint64 v) { return varint((quint64(v) << 1) ^ quint64(v >> 63)); }
    Wire &str(const QByteArray &s)
    {
        varint(quint64(s.size()));
        bytes.append(s);
        return *this;
    }
    Wire &raw(const QByteArray &b)
    {
        bytes.append(b);
        return *this;
    }
    // A section of a batch payload: kind, record count, byte length, records.
    Wire &section(quint8 kind, quint64 count, const QByteArray &records)
    {
        u8(kind).varint(count).varint(quint64(records.size()));
        return raw(records);
    }
};

// Header: "BLST", major, minor, type (u16 LE), payload length (u32 LE).
inline QByteArray wireFrame(quint16 type, const QByteArray &payload, quint8 major = 1,
                            quint8 minor = 0, qint64 length = -1)
{
    const quint32 n = length < 0 ? quint32(payload.size()) : quint32(length);
    QByteArray f("BLST", 4);
    f.append(char(major)).append(char(minor)).append(char(type & 0xff)).append(char(type >> 8));
    for (int i = 0; i < 4; ++i)
        f.append(char(n >> (8 * i)));
    return f + payload;
}

// One valid open record (time delta 1000, pid 7, tid 8, uid 0, flags 0, mode 0644, ret 3,
// comm "cat", path "/etc/hosts").
inline QByteArray openRecord()
{
    return Wire()
        .svarint(1000)
        .varint(7)
        .varint(8)
        .varint(0)
        .svarint(0)
        .varint(0644)
        .svarint(3)
        .str("cat")
        .str("/etc/hosts")
        .bytes;
}

// A histogram record up to its slot list; the caller appends the slot count and slots.
inline Wire histogramHead(quint8 unit = 1)
{
    Wire w;
    w.str("runqlat").str("").svarint(5000).varint(1000000000).u8(unit).varint(0);
    return w;
}

// Fixed content, unlike makeInfo(): no host name or kernel release of this machine, so the
// committed fuzz seed corpus does not depend on where it was generated.
inline SessionInfo fixedInfo()
{
    SessionInfo info;
    info.schemaVersion = 1;
    info.appVersion = QStringLiteral("0.1.0");
    info.host = QStringLiteral("seedhost");
    info.kernelRelease = QStringLiteral("6.18.0");
    info.startWall = QDateTime(QDate(2024, 2, 29), QTime(23, 59, 59, 250), Qt::UTC);
    info.startMonotonicNs = 5000000000ull;
    info.probes = {{QStringLiteral("open"),
                    {{QStringLiteral("pid"), qint64(42)}},
                    QStringLiteral("tp/syscalls/sys_enter_openat")},
                   {QStringLiteral("block"), {}, QStringLiteral("tp_btf/block_rq_complete")}};
    return info;
}

inline RecordBatch smallBatch(int perType)
{
    RecordBatch b = withTpPairs(makeBatch(5000000000ull, 0, perType), perType);
    b.histograms.resize(2);
    b.stats.resize(1);
    b.counters.append(
        {QStringLiteral("cachestat"), 6000000000ull, 1000000000ull, QStringLiteral("hits"), 0.75});
    // Samples and the stacks they name.
    synthesizedStacks().takeNewDefinitions(b);
    for (int k = 0; k < perType; ++k) {
        b.cpuSample.append(synthesizedEvent<CpuSampleEvent>(k, 5000000000ull + quint64(k) * 1000));
        b.offCpu.append(synthesizedEvent<OffCpuEvent>(k, 5000000000ull + quint64(k) * 1000));
    }
    return b;
}

struct Seed
{
    QString name; // "valid-..." decode to the end, "invalid-..." put the reader in error
    QByteArray bytes;
};

// The seed corpus of tests/fuzz/fuzz_streamreader.cpp (tests/fuzz/corpus/streamreader/).
inline QList<Seed> streamReaderSeeds()
{
    QList<Seed> seeds;
    const auto hello = [] {
        StreamWriter w;
        w.writeHello(fixedInfo());
        return w.takePending();
    }();
    const auto end = [](StreamEndReason reason, const QString &message) {
        StreamWriter w;
        w.writeEnd({reason, message, 9000000000ull});
        return w.takePending();
    };

    {
        StreamWriter w;
        w.writeHello(fixedInfo());
        w.writeBatch(smallBatch(2));
        w.writeEnd({StreamEndReason::Stopped, QString(), 9000000000ull});
        seeds.append({QStringLiteral("valid-full"), w.takePending()});
    }
    {
        StreamWriter w(256);
        w.writeHello(fixedInfo());
        w.writeBatch(smallBatch(3));
        w.writeEnd({StreamEndReason::Error, QStringLiteral("the disk is full"), 0});
        seeds.append({QStringLiteral("valid-split"), w.takePending()});
    }
    {
        const QByteArray batch = Wire().section(40, 1, "future").section(2, 1, openRecord()).bytes;
        const quint8 newer = StreamProtocolMinor + 1;
        seeds.append({QStringLiteral("valid-newer-minor"),
                      hello + wireFrame(99, "later", 1, newer) + wireFrame(2, batch, 1, newer) +
                          end(StreamEndReason::HelperShutdown, QString())});
    }
    seeds.append({QStringLiteral("invalid-major"), wireFrame(1, hello.mid(12), 3, 0)});
    seeds.append({QStringLiteral("invalid-cut"), seeds[0].bytes.left(seeds[0].bytes.size() - 7)});
    seeds.append({QStringLiteral("invalid-length"), hello + wireFrame(2, {}, 1, 0, 0x7fffffff)});
    {
        const QByteArray exec = Wire()
                                    .svarint(1)
                                    .varint(1)
                                    .varint(1)
                                    .varint(0)
                                    .svarint(0)
                                    .u8(0)
                                    .str("sh")
                                    .str("/bin/sh")
                                    .varint(1000000)
                                    .bytes;
        seeds.append({QStringLiteral("invalid-argv"),
                      hello + wireFrame(2, Wire().section(1, 1, exec).bytes)});
    }
    {
        const QByteArray h = histogramHead().varint(1).u8(64).varint(5).bytes;
        seeds.append({QStringLiteral("invalid-histogram-slot"),
                      hello + wireFrame(2, Wire().section(16, 1, h).bytes)});
    }
    {
        const QByteArray tcp = Wire()
                                   .svarint(1)
                                   .varint(1)
                                   .varint(0)
                                   .u8(5)
                                   .u8(4)
                                   .raw(QByteArray(4, '\1'))
                                   .u8(4)
                                   .raw(QByteArray(4, '\2'))
                                   .varint(1)
                                   .varint(2)
                                   .svarint(0)
                                   .str("curl")
                                   .bytes;
        seeds.append({QStringLiteral("invalid-tcp-family"),
                      hello + wireFrame(2, Wire().section(4, 1, tcp).bytes)});
    }
    {
        // A stack naming 100000 frames in a few bytes.
        const QByteArray stack = Wire().varint(1).u8(0).varint(100000).varint(1).bytes;
        seeds.append({QStringLiteral("invalid-stack-frame-count"),
                      hello + wireFrame(2, Wire().section(20, 1, stack).bytes)});
    }
    {
        const QByteArray frame = Wire().varint(1).u8(3).varint(0).str("").str("").str("").bytes;
        seeds.append({QStringLiteral("invalid-stack-frame-kind"),
                      hello + wireFrame(2, Wire().section(19, 1, frame).bytes)});
    }
    return seeds;
}

} // namespace bpflens::test
