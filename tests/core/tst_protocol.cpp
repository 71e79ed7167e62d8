#include "core/protocol.h"
#include "tests/core/protocoltestdata.h"
#include "tests/core/sessiontestdata.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTest>

#include <bit>
#include <cmath>
#include <fcntl.h>
#include <limits>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 Base = 7000000000ull;

struct Decoded
{
    QList<StreamMessage> messages;
    QString error;
    bool atEnd = false;
    qint64 skipped = 0;
};

Decoded drain(StreamReader &reader)
{
    Decoded d;
    while (reader.hasMessage())
        d.messages.append(reader.takeMessage());
    d.error = reader.errorString();
    d.atEnd = reader.atEnd();
    d.skipped = reader.framesSkipped();
    return d;
}

// Feeds bytes in pieces of chunk bytes (all at once if chunk is 0), then closes the input.
Decoded decode(const QByteArray &bytes, qsizetype chunk = 0, bool close = true)
{
    StreamReader reader;
    if (chunk <= 0)
        chunk = std::max<qsizetype>(1, bytes.size());
    for (qsizetype i = 0; i < bytes.size(); i += chunk)
        reader.feed(QByteArrayView(bytes).sliced(i, std::min(chunk, bytes.size() - i)));
    if (close)
        reader.closeInput();
    return drain(reader);
}

QByteArray helloBytes(const SessionInfo &info = fixedInfo())
{
    StreamWriter w;
    w.writeHello(info);
    return w.takePending();
}

QByteArray endBytes(const StreamEnd &end = {})
{
    StreamWriter w;
    w.writeEnd(end);
    return w.takePending();
}

// Every kind of record with values at the edges of their types.
RecordBatch extremeBatch()
{
    RecordBatch b;
    ExecEvent e;
    e.timeNs = ~quint64(0);
    e.pid = ~quint32(0);
    e.ppid = 0;
    e.uid = 65534;
    e.retval = std::numeric_limits<qint32>::min();
    e.comm = QByteArray();                                              // empty
    e.filename = QByteArray(1 << 20, '\xff') + QByteArray("\0tail", 5); // 1 MiB, not UTF-8
    e.argv = {QByteArray(), QByteArray("\x00\x01\x02", 3), QByteArray(70000, 'a'), QByteArray()};
    e.argvTruncated = true;
    b.exec.append(e);
    ExecEvent plain;
    plain.timeNs = 0; // a time going back by 2^64 - 1
    b.exec.append(plain);

    OpenEvent o;
    o.timeNs = 1;
    o.pid = 1;
    o.tid = ~quint32(0);
    o.uid = ~quint32(0);
    o.flags = std::numeric_limits<qint32>::min();
    o.mode = ~quint32(0);
    o.ret = std::numeric_limits<qint32>::max();
    o.comm = QByteArrayLiteral("comm\xc0\x80\xed\xa0\x80");
    o.path = QByteArray(4096, '/');
    b.open.append(o);

    BlockEvent k;
    k.timeNs = 1ull << 63;
    k.dev = ~quint32(0);
    k.cmdFlags = ~quint32(0);
    k.sector = ~quint64(0);
    k.bytes = ~quint32(0);
    k.pid = 0;
    k.queueNs = ~quint64(0);
    k.deviceNs = 0;
    k.disk = QByteArrayLiteral("nvme0n1");
    k.op = QByteArray();
    k.comm = QByteArray(16, '\0');
    b.block.append(k);

    TcpConnectEvent t;
    t.timeNs = 12345;
    t.family = 6;
    for (int i = 0; i < 16; ++i) {
        t.saddr[size_t(i)] = quint8(0xf0 + i);
        t.daddr[size_t(i)] = quint8(i == 15 ? 1 : 0); // ::1, sent in the long form
    }
    t.sport = 65535;
    t.dport = 0;
    t.ret = -111;
    b.tcpConnect.append(t);
    TcpConnectEvent t4;
    t4.family = 4;
    t4.saddr = {127, 0, 0, 1};
    t4.daddr = {10, 1, 2, 3};
    b.tcpConnect.append(t4);

    FsSlowEvent f;
    f.timeNs = 99;
    f.op = 0xff;
    f.bytes = ~quint64(0);
    f.offset = 1ull << 63;
    f.latencyNs = ~quint64(0);
    f.fs = QByteArrayLiteral("btrfs");
    f.filename = QByteArray();
    b.fsSlow.append(f);

    TpPairEvent tp;
    tp.timeNs = 98;
    tp.pid = ~quint32(0);
    tp.tid = 0;
    tp.key = ~quint64(0);
    tp.latencyNs = 1ull << 63;
    tp.comm = QByteArrayLiteral("jbd2/\xff");
    b.tpPair.append(tp);
    b.tpPair.append(TpPairEvent{});

    HistogramSnapshot full;
    full.probeId = QStringLiteral("bio\u00e9\U0001F600");
    full.key = QStringLiteral("\ufeffkey with BOM");
    full.timeNs = ~quint64(0);
    full.intervalNs = ~quint64(0);
    full.histogram = Log2Histogram(HistogramUnit::Nanoseconds);
    for (int s = 0; s < Log2Histogram::MaxSlots; ++s)
        full.histogram.addToSlot(s, s == 63 ? ~quint64(0) : quint64(s + 1));
    full.histogram.setSum(~quint64(0));
    b.histograms.append(full);
    HistogramSnapshot empty;
    empty.histogram = Log2Histogram(HistogramUnit::Milliseconds);
    b.histograms.append(empty);
    HistogramSnapshot values; // tpcount's histogram of a field, in no unit
    values.probeId = QStringLiteral("tpcount");
    values.key = QStringLiteral("id=1");
    values.histogram = Log2Histogram(HistogramUnit::Value);
    values.histogram.add(5000, 2);
    b.histograms.append(values);

    ProbeStats s;
    s.probeId = QString();
    s.timeNs = ~quint64(0);
    s.eventsSeen = ~quint64(0);
    s.eventsLost = ~quint64(0);
    s.eventsUnseen = ~quint64(0);
    s.unfinished = ~quint64(0);
    s.runCount = ~quint64(0);
    s.runTimeNs = ~quint64(0);
    b.stats.append(s);

    b.counters.append({QStringLiteral("cachestat"), 1, 2, QStringLiteral("ratio"), 0.123456789});
    b.counters.append(
        {QString(), ~quint64(0), 0, QString(), -std::numeric_limits<double>::infinity()});
    b.counters.append({QStringLiteral("x"), 0, 0, QStringLiteral("tiny"),
                       std::numeric_limits<double>::denorm_min()});

    // Definitions at the limits the stream carries (the codec checks bytes, not their order).
    b.frames.append(
        FrameDefinition{~quint32(0), {FrameKind::Kernel, ~quint64(0), "vmlinux", "", ""}});
    b.frames.append(FrameDefinition{0,
                                    {FrameKind::User, 0, QByteArray(StreamMaxModuleBytes, '\xff'),
                                     QByteArray(StreamMaxBuildIdBytes, 'f'),
                                     QString(StreamMaxSymbolBytes / 2, QChar(0xe9)).toUtf8()}});
    b.stacks.append(StackDefinition{1, 0xff, {}});
    b.stacks.append(
        StackDefinition{~quint32(0), 0, QList<quint32>(StreamMaxStackFrames, ~quint32(0))});
    CpuSampleEvent cpu;
    cpu.timeNs = 5;
    cpu.cpu = ~quint32(0);
    cpu.pid = 0;
    cpu.tid = ~quint32(0);
    cpu.stackId = ~quint32(0);
    b.cpuSample.append(cpu);
    OffCpuEvent off;
    off.timeNs = ~quint64(0);
    off.offNs = ~quint64(0);
    off.stackId = 0;
    off.comm = "swapper/0";
    b.offCpu.append(off);
    return b;
}

RecordBatch merged(const QList<StreamMessage> &messages)
{
    RecordBatch all;
    for (const StreamMessage &m : messages) {
        if (m.type == StreamFrameType::Batch)
            all.append(RecordBatch(m.batch));
    }
    return all;
}

void appendBatch(RecordBatch &all, const RecordBatch &b)
{
    all.append(RecordBatch(b));
}

// Offsets at which frames end, read from the headers as docs/protocol.md describes them.
QList<qsizetype> frameEnds(const QByteArray &stream)
{
    QList<qsizetype> ends;
    qsizetype pos = 0;
    while (pos + 12 <= stream.size()) {
        const auto *h = reinterpret_cast<const uchar *>(stream.constData() + pos);
        const quint32 length =
            quint32(h[8]) | quint32(h[9]) << 8 | quint32(h[10]) << 16 | quint32(h[11]) << 24;
        pos += 12 + qsizetype(length);
        ends.append(pos);
    }
    return ends;
}

QString corpusDir()
{
    return QStringLiteral(BPFLENS_SOURCE_DIR "/tests/fuzz/corpus/streamreader");
}

} // namespace

class TestProtocol : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripsEveryMessageAndField()
    {
        SessionInfo info = makeInfo();
        info.endMonotonicNs = ~quint64(0);
        info.schemaVersion = -3;
        info.host = QStringLiteral("h\u00f6st \U0001F600");
        info.probes.append({QStringLiteral("exec"),
                            {{QStringLiteral("nested"),
                              QVariantMap{{QStringLiteral("list"), QVariantList{1, 2}}}}},
                            QString()});
        const RecordBatch regular = makeBatch(Base, 0, 40);
        const RecordBatch extreme = extremeBatch();
        const StreamEnd end{StreamEndReason::Error,
                            QStringLiteral("BPF program \"exec\" failed: \u00e9\nsecond line"),
                            Base + 123};

        StreamWriter w;
        QString error;
        QVERIFY2(w.writeHello(info, &error), qPrintable(error));
        QVERIFY2(w.writeBatch(regular, &error), qPrintable(error));
        QVERIFY2(w.writeBatch(extreme, &error), qPrintable(error));
        w.writeEnd(end);
        QCOMPARE(w.framesWritten(), 4);
        const Decoded d = decode(w.takePending());

        QCOMPARE(d.error, QString());
        QVERIFY(d.atEnd);
        QCOMPARE(d.messages.size(), 4);
        QCOMPARE(d.messages[0].type, StreamFrameType::Hello);
        QCOMPARE(d.messages[0].info.startWall, info.startWall);
        QCOMPARE(d.messages[0].info.probes, info.probes);
        QCOMPARE(d.messages[0].info, info);
        QCOMPARE(d.messages[1].type, StreamFrameType::Batch);
        QCOMPARE(d.messages[1].batch.exec, regular.exec);
        QCOMPARE(d.messages[1].batch.open, regular.open);
        QCOMPARE(d.messages[1].batch.block, regular.block);
        QCOMPARE(d.messages[1].batch.tcpConnect, regular.tcpConnect);
        QCOMPARE(d.messages[1].batch.fsSlow, regular.fsSlow);
        QCOMPARE(d.messages[1].batch.histograms, regular.histograms);
        QCOMPARE(d.messages[1].batch.stats, regular.stats);
        QCOMPARE(d.messages[2].batch.exec, extreme.exec);
        QCOMPARE(d.messages[2].batch.open, extreme.open);
        QCOMPARE(d.messages[2].batch.block, extreme.block);
        QCOMPARE(d.messages[2].batch.tcpConnect, extreme.tcpConnect);
        QCOMPARE(d.messages[2].batch.fsSlow, extreme.fsSlow);
        QCOMPARE(d.messages[2].batch.tpPair.size(), 2);
        QCOMPARE(d.messages[2].batch.tpPair, extreme.tpPair);
        QCOMPARE(d.messages[2].batch.histograms, extreme.histograms);
        QCOMPARE(d.messages[2].batch.stats, extreme.stats);
        QCOMPARE(d.messages[2].batch.counters, extreme.counters);
        QVERIFY(d.messages[2].batch.frames == extreme.frames);
        QVERIFY(d.messages[2].batch.stacks == extreme.stacks);
        QVERIFY(d.messages[2].batch.cpuSample == extreme.cpuSample);
        QVERIFY(d.messages[2].batch.offCpu == extreme.offCpu);
        QVERIFY(d.messages[2].batch == extreme);
        QCOMPARE(d.messages[3].type, StreamFrameType::End);
        QCOMPARE(d.messages[3].end, end);
    }

    void roundTripsEveryEndReason_data()
    {
        QTest::addColumn<int>("reason");
        QTest::addColumn<QString>("message");
        QTest::newRow("stopped") << int(StreamEndReason::Stopped) << QString();
        QTest::newRow("error") << int(StreamEndReason::Error)
                               << QStringLiteral("cannot attach: Operation not permitted");
        QTest::newRow("helper shutdown")
            << int(StreamEndReason::HelperShutdown) << QStringLiteral("SIGTERM");
    }

    void roundTripsEveryEndReason()
    {
        QFETCH(int, reason);
        QFETCH(QString, message);
        const StreamEnd end{StreamEndReason(reason), message, 42};
        const Decoded d = decode(helloBytes() + endBytes(end));
        QCOMPARE(d.error, QString());
        QVERIFY(d.atEnd);
        QCOMPARE(d.messages.size(), 2);
        QCOMPARE(d.messages[1].end, end);
    }

    void cutsAHugeEndMessageAtACharacterBoundary()
    {
        // 40000 two-byte characters = 80000 bytes; 64 KiB ends in the middle of one.
        const QString message(40000, QChar(0xe9));
        const Decoded d = decode(helloBytes() + endBytes({StreamEndReason::Error, message, 1}));
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages.size(), 2);
        QCOMPARE(d.messages[1].end.message, message.left(32768));
    }

    void roundTripsAHelloWithoutStartTimeOrProbes()
    {
        SessionInfo info;
        const Decoded d = decode(helloBytes(info) + endBytes());
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages.size(), 2);
        QVERIFY(!d.messages[0].info.startWall.isValid());
        QCOMPARE(d.messages[0].info, info);
    }

    void keepsEveryDoubleBitForBit()
    {
        const QList<double> values = {std::nan(""), -0.0, std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::denorm_min()};
        RecordBatch b;
        for (double v : values)
            b.counters.append({QStringLiteral("p"), 1, 1, QStringLiteral("v"), v});
        StreamWriter w;
        w.writeHello(fixedInfo());
        QVERIFY(w.writeBatch(b));
        const Decoded d = decode(w.takePending(), 0, false);
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages.size(), 2);
        const QList<CounterSample> got = d.messages[1].batch.counters;
        QCOMPARE(got.size(), values.size());
        for (qsizetype i = 0; i < values.size(); ++i)
            QCOMPARE(std::bit_cast<quint64>(got[i].value), std::bit_cast<quint64>(values[i]));
    }

    void decodesTheSameWhateverTheChunking()
    {
        StreamWriter w(4096);
        w.writeHello(makeInfo());
        w.writeBatch(makeBatch(Base, 0, 30));
        w.writeBatch(extremeBatch());
        w.writeEnd({StreamEndReason::Stopped, QString(), Base});
        const QByteArray stream = w.takePending();
        const Decoded whole = decode(stream);
        QCOMPARE(whole.error, QString());
        QVERIFY(whole.messages.size() > 4);

        const Decoded bytewise = decode(stream, 1);
        QCOMPARE(bytewise.error, QString());
        QVERIFY(bytewise.atEnd);
        QCOMPARE(bytewise.messages, whole.messages);

        QRandomGenerator rng(20240229);
        StreamReader reader;
        for (qsizetype i = 0; i < stream.size();) {
            const qsizetype n = std::min<qsizetype>(rng.bounded(1, 5000), stream.size() - i);
            reader.feed(QByteArrayView(stream).sliced(i, n));
            i += n;
        }
        reader.closeInput();
        const Decoded random = drain(reader);
        QCOMPARE(random.error, QString());
        QCOMPARE(random.messages, whole.messages);
    }

    void encodesTheDocumentedBytes()
    {
        // The example in docs/protocol.md, byte for byte.
        OpenEvent o;
        o.timeNs = 5000001000ull;
        o.pid = 300;
        o.tid = 301;
        o.uid = 1000;
        o.flags = 0x80000;
        o.mode = 0644;
        o.ret = -2;
        o.comm = QByteArrayLiteral("cat");
        o.path = QByteArrayLiteral("/etc/hosts");
        RecordBatch b;
        b.open = {o};
        StreamWriter w;
        QVERIFY(w.writeBatch(b));
        const QByteArray expected = QByteArray::fromHex("424c5354 020f 0200 24000000"
                                                        "02 01 21"
                                                        "d0d7afa025"
                                                        "ac02 ad02 e807"
                                                        "808040"
                                                        "a403"
                                                        "03"
                                                        "03636174"
                                                        "0a2f6574632f686f737473"
                                                        "00");
        QCOMPARE(w.takePending().toHex(' '), expected.toHex(' '));
        QCOMPARE(StreamWriter::frame(3, "xy", 1, 2),
                 QByteArray::fromHex("424c5354 0102 0300 02000000 7879"));
        QCOMPARE(StreamProtocolMinor, quint8(15));
    }

    // Major 2: every event's cgroup id, and the cgroups a batch names first (docs/containers.md),
    // a path with spaces and non-ASCII letters as it is. (The hand-made frames of the other
    // tests are major 1, whose records have no cgroup id: read as 0.)
    void carriesCgroupIdsAndPaths()
    {
        RecordBatch b;
        OpenEvent o;
        o.timeNs = 1;
        o.pid = 2;
        o.comm = "a";
        o.path = "/x";
        o.cgroupId = 123456789012ull;
        b.open = {o};
        b.cgroups = {{123456789012ull, QByteArray("/system.slice/caf\xc3\xa9 x.service")},
                     {7, QByteArray()}};
        StreamWriter w;
        QVERIFY(w.writeBatch(b));
        const Decoded d = decode(helloBytes() + w.takePending() + endBytes());
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages.size(), 3);
        QCOMPARE(d.messages[1].batch, b);
    }

    void encodesTheDocumentedStackBytes()
    {
        // The second example in docs/protocol.md: a sample, and the frame and stack it names
        // ahead of it.
        RecordBatch b;
        b.frames = {FrameDefinition{1, {FrameKind::User, 0x1139, "/bin/app", "", "main"}}};
        b.stacks = {StackDefinition{1, 0, {1}}};
        CpuSampleEvent s;
        s.timeNs = 5000001000ull;
        s.cpu = 1;
        s.pid = 300;
        s.tid = 301;
        s.stackId = 1;
        s.comm = "app";
        b.cpuSample = {s};
        StreamWriter w;
        QVERIFY(w.writeBatch(b));
        const QByteArray expected = QByteArray::fromHex("424c5354 020f 0200 49000000"
                                                        "13 01 13"
                                                        "01 02 b922"
                                                        "08 2f62696e2f617070"
                                                        "00"
                                                        "04 6d61696e"
                                                        "17 01 16"
                                                        "01 02 b922"
                                                        "08 2f62696e2f617070"
                                                        "00"
                                                        "04 6d61696e"
                                                        "00 00 00"
                                                        "14 01 04"
                                                        "01 00 01 01"
                                                        "07 01 10"
                                                        "d0d7afa025"
                                                        "01 ac02 ad02 01"
                                                        "03 617070"
                                                        "00");
        QCOMPARE(w.takePending().toHex(' '), expected.toHex(' '));
    }

    void keepsDefinitionsBeforeTheirUseAcrossFrames()
    {
        // An engine batch with many new stacks, split into small frames: a consumer adding each
        // frame's definitions as it comes knows every stack a sample names.
        StackTable producer;
        RecordBatch batch;
        for (int i = 0; i < 400; ++i) {
            QList<quint32> frames;
            for (int d = 0; d < 1 + i % 40; ++d)
                frames.append(producer.intern(
                    StackFrame{FrameKind::User, quint64(i * 64 + d), "/usr/lib/libfoo.so", "abcdef",
                               "foo::bar<" + QByteArray::number(i) + ">(int) [" +
                                   QByteArray::number(d) + "]"}));
            CpuSampleEvent s;
            s.timeNs = Base + quint64(i);
            s.stackId = producer.intern(0, frames);
            batch.cpuSample.append(s);
        }
        producer.takeNewDefinitions(batch);
        StreamWriter w(2048);
        QVERIFY(w.writeHello(fixedInfo()));
        QString error;
        QVERIFY2(w.writeBatch(batch, &error), qPrintable(error));
        const Decoded d = decode(w.takePending(), 0, false);
        QCOMPARE(d.error, QString());
        QVERIFY2(d.messages.size() > 20, qPrintable(QString::number(d.messages.size())));
        StackTable consumer;
        qsizetype samples = 0;
        bool mixed = false; // a frame with both definitions and samples
        for (const StreamMessage &m : d.messages) {
            if (m.type != StreamFrameType::Batch)
                continue;
            QVERIFY2(consumer.addDefinitions(m.batch, &error), qPrintable(error));
            for (const CpuSampleEvent &s : m.batch.cpuSample)
                QVERIFY2(consumer.hasStack(s.stackId), qPrintable(QString::number(s.stackId)));
            mixed = mixed || (!m.batch.stacks.isEmpty() && !m.batch.cpuSample.isEmpty());
            samples += m.batch.cpuSample.size();
        }
        QCOMPARE(samples, 400);
        QVERIFY(mixed);
        QCOMPARE(consumer.stackCount(), producer.stackCount());
        QCOMPARE(consumer.frameCount(), producer.frameCount());
        const RecordBatch all = merged(d.messages);
        QVERIFY(all.frames == batch.frames);
        QVERIFY(all.stacks == batch.stacks);
    }

    void cutsOverlongDefinitions()
    {
        RecordBatch b;
        // 'x' then two-byte characters: the limit falls in the middle of one.
        const QByteArray symbol = "x" + QString(StreamMaxSymbolBytes, QChar(0xe9)).toUtf8();
        b.frames.append(FrameDefinition{
            1, {FrameKind::User, 1, QByteArray(5000, 'm'), QByteArray(200, 'b'), symbol}});
        QList<quint32> deep;
        for (int i = 0; i < StreamMaxStackFrames + 10; ++i)
            deep.append(quint32(i + 1));
        b.stacks.append(StackDefinition{1, NoUserStack, deep});
        StreamWriter w;
        w.writeHello(fixedInfo());
        QVERIFY(w.writeBatch(b));
        const Decoded d = decode(w.takePending(), 0, false);
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages.size(), 2);
        const RecordBatch &got = d.messages[1].batch;
        QCOMPARE(got.frames.size(), 1);
        QCOMPARE(got.frames[0].frame.module, QByteArray(StreamMaxModuleBytes, 'm'));
        QCOMPARE(got.frames[0].frame.buildId, QByteArray(StreamMaxBuildIdBytes, 'b'));
        QCOMPARE(got.frames[0].frame.symbol.size(), StreamMaxSymbolBytes - 1);
        QVERIFY(symbol.startsWith(got.frames[0].frame.symbol));
        QCOMPARE(got.stacks.size(), 1);
        // The innermost frames stay; the stack says it is incomplete.
        QCOMPARE(got.stacks[0].frames, deep.first(StreamMaxStackFrames));
        QCOMPARE(got.stacks[0].flags, quint8(NoUserStack | UserStackTruncated));

        RecordBatch bad;
        bad.frames.append(FrameDefinition{1, {FrameKind(9), 1, "", "", ""}});
        QString error;
        StreamWriter w2;
        QVERIFY(!w2.writeBatch(bad, &error));
        QCOMPARE(error, QStringLiteral("1 record could not be sent: stack frame 1 has kind 9, "
                                       "neither 1 (kernel) nor 2 (user)"));
    }

    void splitsLargeBatchesIntoFramesUnderTheLimit()
    {
        // 5000 events of each type into frames of at most 4 KiB.
        const RecordBatch batch = withTpPairs(makeBatch(Base, 3, 5000), 5000);
        StreamWriter w(4096);
        QVERIFY(w.writeHello(makeInfo()));
        QString error;
        QVERIFY2(w.writeBatch(batch, &error), qPrintable(error));
        const QByteArray stream = w.takePending();
        const QList<qsizetype> ends = frameEnds(stream);
        QCOMPARE(ends.last(), stream.size());
        QVERIFY2(ends.size() > 100, qPrintable(QString::number(ends.size())));
        qsizetype previous = 0;
        qsizetype largest = 0;
        for (qsizetype end : ends) {
            QVERIFY(end - previous - 12 <= 4096);
            largest = std::max(largest, end - previous - 12);
            previous = end;
        }
        QVERIFY2(largest > 3500, "frames should be filled, not split early");

        const Decoded d = decode(stream, 0, false);
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages.size(), ends.size());
        const RecordBatch all = merged(d.messages);
        QCOMPARE(all.exec, batch.exec);
        QCOMPARE(all.open, batch.open);
        QCOMPARE(all.block, batch.block);
        QCOMPARE(all.tcpConnect, batch.tcpConnect);
        QCOMPARE(all.fsSlow, batch.fsSlow);
        QCOMPARE(all.tpPair, batch.tpPair);
        QCOMPARE(all.histograms, batch.histograms);
        QCOMPARE(all.stats, batch.stats);
    }

    void acceptsAFrameAtTheLimitAndRefusesOneOver()
    {
        // A batch whose one exec event fills the payload to exactly StreamMaxPayloadBytes.
        ExecEvent e = makeExec(Base, 1);
        e.argv.clear();
        const auto payloadSize = [&](qsizetype filenameBytes) {
            e.filename = QByteArray(filenameBytes, 'f');
            RecordBatch b;
            b.exec = {e};
            StreamWriter w;
            w.writeBatch(b);
            return w.takePending().size() - 12;
        };
        const qsizetype base = payloadSize(StreamMaxPayloadBytes - 1000);
        const qsizetype fits = StreamMaxPayloadBytes - 1000 + (StreamMaxPayloadBytes - base);
        QCOMPARE(payloadSize(fits), StreamMaxPayloadBytes);

        e.filename = QByteArray(fits, 'f');
        RecordBatch atLimit;
        atLimit.exec = {e};
        StreamWriter w;
        QVERIFY(w.writeHello(fixedInfo()));
        QString error;
        QVERIFY2(w.writeBatch(atLimit, &error), qPrintable(error));
        // An unknown frame of a newer minor version at the limit is skipped whole.
        const QByteArray skipped = StreamWriter::frame(77, QByteArray(StreamMaxPayloadBytes, 'x'),
                                                       1, StreamProtocolMinor + 1);
        const QByteArray stream = w.takePending() + skipped + endBytes();
        const Decoded d = decode(stream);
        QCOMPARE(d.error, QString());
        QVERIFY(d.atEnd);
        QCOMPARE(d.skipped, 1);
        QCOMPARE(d.messages.size(), 3);
        QCOMPARE(d.messages[1].batch.exec, atLimit.exec);

        // One byte more: the writer leaves the event out and says why; the rest is sent.
        e.filename.append('f');
        RecordBatch over;
        over.exec = {e};
        over.open = {makeOpen(Base, 2)};
        StreamWriter w2;
        w2.writeHello(fixedInfo());
        QVERIFY(!w2.writeBatch(over, &error));
        QCOMPARE(error, QStringLiteral("1 record could not be sent: exec record at %1 ns needs "
                                       "a frame payload of 16777217 bytes, more than the limit of "
                                       "16777216")
                            .arg(Base));
        const Decoded d2 = decode(w2.takePending(), 0, false);
        QCOMPARE(d2.error, QString());
        QCOMPARE(d2.messages.size(), 2);
        QVERIFY(d2.messages[1].batch.exec.isEmpty());
        QCOMPARE(d2.messages[1].batch.open, over.open);

        // A header announcing one byte over the limit is refused before any payload arrives.
        StreamReader reader;
        reader.feed(helloBytes());
        reader.feed(wireFrame(2, {}, 1, 0, StreamMaxPayloadBytes + 1));
        QVERIFY(reader.hasError());
        QCOMPARE(reader.errorString(),
                 QStringLiteral("frame 2 (batch) announces a payload of 16777217 bytes, more "
                                "than the limit of 16777216 bytes"));
    }

    void leavesOutRecordsItCannotSendAndSaysSo()
    {
        RecordBatch b;
        TcpConnectEvent bad = makeTcp(Base, 1);
        bad.family = 5;
        b.tcpConnect = {makeTcp(Base, 2), bad, makeTcp(Base, 3)};
        ExecEvent many = makeExec(Base, 4);
        many.argv.clear();
        for (int i = 0; i < StreamMaxArgv + 10; ++i)
            many.argv.append(QByteArray::number(i));
        many.argvTruncated = false;
        b.exec = {many};
        StreamWriter w;
        w.writeHello(fixedInfo());
        QString error;
        QVERIFY(!w.writeBatch(b, &error));
        QCOMPARE(error, QStringLiteral("1 record could not be sent: tcp connect event at %1 ns "
                                       "has family 5, neither 4 nor 6")
                            .arg(Base));
        const Decoded d = decode(w.takePending(), 0, false);
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages[1].batch.tcpConnect,
                 (QList<TcpConnectEvent>{b.tcpConnect[0], b.tcpConnect[2]}));
        // Too many arguments are cut, and the event says it was cut.
        const ExecEvent got = d.messages[1].batch.exec.value(0);
        QCOMPARE(got.argv, many.argv.first(StreamMaxArgv));
        QVERIFY(got.argvTruncated);
    }

    void refusesAHelloItCannotSend()
    {
        SessionInfo info = fixedInfo();
        info.host = QString(300, QLatin1Char('h'));
        StreamWriter w(256);
        QString error;
        QVERIFY(!w.writeHello(info, &error));
        QVERIFY2(error.startsWith(QStringLiteral("the session header is ")) &&
                     error.endsWith(QStringLiteral(" bytes encoded, more than a frame holds (256 "
                                                   "bytes)")),
                 qPrintable(error));
        QCOMPARE(w.pendingBytes(), 0);
        QCOMPARE(w.framesWritten(), 0);

        StreamWriter w2;
        SessionInfo many = fixedInfo();
        many.probes = QList<ProbeConfig>(1025, {QStringLiteral("open"), {}, QString()});
        QVERIFY(!w2.writeHello(many, &error));
        QCOMPARE(error, QStringLiteral("the session has 1025 probes, more than a stream can carry "
                                       "(1024)"));
        SessionInfo future = fixedInfo();
        future.startWall = QDateTime(QDate(300000, 1, 1), QTime(0, 0), Qt::UTC);
        QVERIFY(!w2.writeHello(future, &error));
        QVERIFY2(error.startsWith(QStringLiteral("the session start time ")), qPrintable(error));
        QCOMPARE(w2.pendingBytes(), 0);
    }

    void skipsWhatANewerMinorVersionAdded()
    {
        const QByteArray batch =
            Wire().section(200, 3, QByteArray("\x01\x02\x03", 3)).section(2, 1, openRecord()).bytes;
        const quint8 newer = StreamProtocolMinor + 1;
        QByteArray hello = helloBytes();
        hello[5] = char(newer); // with a field this build does not know appended
        hello.append('\x7f');
        hello[8] = char(hello[8] + 1);
        const QByteArray stream =
            hello + wireFrame(999, "whatever comes later", 1, newer) +
            wireFrame(2, batch, 1, newer) +
            wireFrame(3, Wire().u8(9).str("new reason").varint(5).bytes, 1, newer);
        const Decoded d = decode(stream);
        QCOMPARE(d.error, QString());
        QVERIFY(d.atEnd);
        QCOMPARE(d.skipped, 1);
        QCOMPARE(d.messages.size(), 3);
        QCOMPARE(d.messages[0].info, fixedInfo());
        QCOMPARE(d.messages[1].batch.open.size(), 1);
        QCOMPARE(d.messages[1].batch.open[0].path, QByteArrayLiteral("/etc/hosts"));
        QCOMPARE(d.messages[1].batch.open[0].timeNs, 1000u);
        // An end reason this build does not know is shown as an error with its message.
        QCOMPARE(d.messages[2].end,
                 (StreamEnd{StreamEndReason::Error, QStringLiteral("new reason"), 5}));

        StreamReader reader;
        reader.feed(hello);
        QCOMPARE(reader.peerMinorVersion(), newer);
    }

    // Stats of a writer of minor 3 (no loss causes) are read as they were; this writer's are
    // read once, with their causes, though it sends them in both sections.
    void readsStatsOfEveryMinorVersionOnce()
    {
        const QByteArray stats =
            Wire().str("block").svarint(5000).varint(10).varint(3).varint(7).varint(9).bytes;
        const QByteArray end = wireFrame(3, Wire().u8(0).str("").varint(0).bytes, 1, 3);
        const QByteArray old =
            helloBytes() + wireFrame(2, Wire().section(17, 1, stats).bytes, 1, 3) + end;
        const Decoded d = decode(old);
        QCOMPARE(d.error, QString());
        QCOMPARE(d.messages.size(), 3);
        QCOMPARE(d.messages[1].batch.stats.size(), 1);
        const ProbeStats &o = d.messages[1].batch.stats[0];
        QCOMPARE(o.probeId, QStringLiteral("block"));
        QCOMPARE(o.timeNs, 5000u);
        QCOMPARE(o.eventsLost, 3u);
        QCOMPARE(o.eventsUnseen, 0u);
        QCOMPARE(o.unfinished, 0u);

        RecordBatch b;
        ProbeStats n;
        n.probeId = QStringLiteral("block");
        n.timeNs = 7000;
        n.eventsSeen = 10;
        n.eventsLost = 3;
        n.eventsUnseen = 4;
        n.unfinished = 2;
        b.stats = {n};
        StreamWriter w;
        QVERIFY(w.writeBatch(b));
        const QByteArray bytes = w.takePending();
        // The probe stats section for older readers is there, with the same record.
        QVERIFY(bytes.contains(Wire()
                                   .section(17, 1,
                                            Wire()
                                                .str("block")
                                                .svarint(7000)
                                                .varint(10)
                                                .varint(3)
                                                .varint(0)
                                                .varint(0)
                                                .bytes)
                                   .bytes));
        const Decoded now = decode(helloBytes() + bytes + end);
        QCOMPARE(now.error, QString());
        QCOMPARE(now.messages.size(), 3);
        QCOMPARE(now.messages[1].batch.stats, QList<ProbeStats>{n});
    }

    void readsFramesOfEveryMinorVersionOnce()
    {
        // A writer of minor 9 sends its frames in the stack frame section only: no source.
        const QByteArray main =
            Wire().varint(1).u8(2).varint(0x1139).str("/bin/app").str("").str("main").bytes;
        const QByteArray end = wireFrame(3, Wire().u8(0).str("").varint(0).bytes, 1, 9);
        const Decoded old =
            decode(helloBytes() + wireFrame(2, Wire().section(19, 1, main).bytes, 1, 9) + end);
        QCOMPARE(old.error, QString());
        QCOMPARE(old.messages.size(), 3);
        QCOMPARE(old.messages[1].batch.frames,
                 (QList<FrameDefinition>{{1, {FrameKind::User, 0x1139, "/bin/app", "", "main"}}}));

        // This writer sends them twice, with their source in section 23; each comes once.
        RecordBatch b;
        StackFrame inl{FrameKind::User, 0x1139, "/bin/app", "ab", "parse"};
        inl.file = "/src/app/parse.h";
        inl.line = 77;
        inl.inlined = true;
        StackFrame caller{FrameKind::User, 0x1139, "/bin/app", "ab", "main"};
        caller.file = "/src/app/main.c";
        caller.line = 12;
        b.frames = {{1, inl}, {2, caller}};
        b.stacks = {{1, 0, {1, 2}}};
        StreamWriter w;
        QVERIFY(w.writeBatch(b));
        const QByteArray bytes = w.takePending();
        QVERIFY(bytes.contains(Wire()
                                   .varint(1)
                                   .u8(2)
                                   .varint(0x1139)
                                   .str("/bin/app")
                                   .str("ab")
                                   .str("parse")
                                   .u8(1)
                                   .str("/src/app/parse.h")
                                   .varint(77)
                                   .bytes));
        const Decoded now = decode(helloBytes() + bytes + end);
        QCOMPARE(now.error, QString());
        QCOMPARE(now.messages.size(), 3);
        QCOMPARE(now.messages[1].batch.frames, b.frames);
        QCOMPARE(now.messages[1].batch.stacks, b.stacks);
        // A flag this version does not know is refused, not dropped.
        const QByteArray unknownFlag = Wire().raw(main).u8(3).str("").varint(0).bytes;
        const Decoded bad =
            decode(helloBytes() + wireFrame(2, Wire().section(23, 1, unknownFlag).bytes, 2, 10));
        QVERIFY2(bad.error.contains(QStringLiteral("frame flags 0x3")), qPrintable(bad.error));
    }

    void refusesADifferentMajorVersion_data()
    {
        QTest::addColumn<int>("major");
        QTest::newRow("0") << 0;
        QTest::newRow("3") << 3;
        QTest::newRow("255") << 255;
    }

    void refusesADifferentMajorVersion()
    {
        QFETCH(int, major);
        QByteArray hello = helloBytes();
        hello[4] = char(major);
        const Decoded d = decode(hello);
        QVERIFY(d.messages.isEmpty());
        QCOMPARE(d.error, QStringLiteral("frame 1 uses stream protocol %1.%2, but this build reads "
                                         "versions 1.x to 2.x only: the helper and this program "
                                         "come from incompatible BPF Lens releases")
                              .arg(major)
                              .arg(StreamProtocolMinor));
        // A later frame with another major is refused just the same.
        const Decoded later = decode(helloBytes() + wireFrame(2, {}, quint8(major), 0));
        QCOMPARE(later.messages.size(), 1);
        QVERIFY(later.error.startsWith(QStringLiteral("frame 2 uses stream protocol")));
    }

    void refusesMalformedInput_data()
    {
        QTest::addColumn<QByteArray>("frames"); // after a valid hello and one valid batch
        QTest::addColumn<QString>("error");

        const auto batch = [](const QByteArray &payload) { return wireFrame(2, payload); };
        const auto section = [](quint8 kind, quint64 count, const QByteArray &records) {
            return Wire().section(kind, count, records).bytes;
        };
        const auto exec = [](quint8 truncated, quint64 argc, const QByteArray &argv) {
            return Wire()
                .svarint(1)
                .varint(1)
                .varint(1)
                .varint(0)
                .svarint(0)
                .u8(truncated)
                .str("sh")
                .str("/bin/sh")
                .varint(argc)
                .raw(argv)
                .bytes;
        };
        const auto tcp = [](quint8 family, quint8 slen) {
            return Wire()
                .svarint(1)
                .varint(1)
                .varint(0)
                .u8(family)
                .u8(slen)
                .raw(QByteArray(slen, '\1'))
                .u8(4)
                .raw(QByteArray(4, '\2'))
                .varint(1)
                .varint(2)
                .svarint(0)
                .str("curl")
                .bytes;
        };
        const auto openWith = [](const QByteArray &pidBytes, qint64 ret) {
            return Wire()
                .svarint(1000)
                .raw(pidBytes)
                .varint(8)
                .varint(0)
                .svarint(0)
                .varint(0644)
                .svarint(ret)
                .str("cat")
                .str("/etc/hosts")
                .bytes;
        };
        const QString f3 = QStringLiteral("frame 3 (batch, %1 bytes): ");

        QTest::newRow("bad magic") << QByteArray("BLSX\1\0\2\0\0\0\0\0", 12)
                                   << QStringLiteral("frame 3 does not start with the magic "
                                                     "\"BLST\" (it starts with 42 4c 53 58): this "
                                                     "is not a BPF Lens stream or it is out of "
                                                     "step");
        QTest::newRow("unknown frame type") << wireFrame(99, "x")
                                            << QStringLiteral("frame 3 has the unknown type 99 "
                                                              "(protocol 1.0 has no such frame)");
        QTest::newRow("second hello")
            << helloBytes() << QStringLiteral("frame 3 is a second hello frame");
        {
            const QByteArray p = Wire().u8(2).varint(1).varint(200).raw(openRecord()).bytes;
            QTest::newRow("section length past the end")
                << batch(p)
                << f3.arg(p.size()) +
                       QStringLiteral("section 1: length 200 is more than the 24 bytes left in "
                                      "the frame payload");
        }
        {
            const QByteArray p = section(2, 1000000000, openRecord());
            QTest::newRow("absurd record count")
                << batch(p)
                << f3.arg(p.size()) +
                       QStringLiteral("section 1: open section claims 1000000000 records in 24 "
                                      "bytes (each takes at least 9)");
        }
        {
            // Long enough for the count check (9 bytes), but cut after tid.
            const QByteArray p =
                section(2, 1, Wire().svarint(1).varint(0xffffffff).varint(0xffffffff).bytes);
            QTest::newRow("truncated record")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (open), record 1: uid runs past "
                                                     "the end of the open section");
        }
        {
            const QByteArray rec = openRecord().left(13) + "\x32/e";
            const QByteArray p = section(2, 1, rec);
            QTest::newRow("string length past the end")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (open), record 1: path length 50 "
                                                     "is more than the 2 bytes left in the open "
                                                     "section");
        }
        {
            const QByteArray p = section(2, 2, openRecord() + openRecord().left(20));
            QTest::newRow("second record cut")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (open), record 2: path length "
                                                     "10 is more than the 6 bytes left in the "
                                                     "open section");
        }
        {
            const QByteArray p = section(1, 1, exec(0, 1000000, "\1a\1b"));
            QTest::newRow("absurd argv count")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (exec), record 1: argv count "
                                                     "1000000 is more than the 4 bytes left in "
                                                     "the exec section can hold");
        }
        {
            const QByteArray p = section(1, 1, exec(0, 4097, QByteArray(4097, '\0')));
            QTest::newRow("too many argv entries")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (exec), record 1: argv count "
                                                     "4097 exceeds the limit of 4096");
        }
        {
            const QByteArray p = section(19, 1000000, QByteArray(12, '\1'));
            QTest::newRow("absurd stack frame count")
                << batch(p)
                << f3.arg(p.size()) +
                       QStringLiteral("section 1: stack frame section claims 1000000 records in 12 "
                                      "bytes (each takes at least 6)");
        }
        const auto frame = [](quint64 id, quint8 kind, const QByteArray &module) {
            return Wire().varint(id).u8(kind).varint(0x1000).raw(module).str("").str("f").bytes;
        };
        {
            const QByteArray p = section(19, 1, frame(1, 3, Wire().str("m").bytes));
            QTest::newRow("stack frame kind")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack frame), record 1: kind 3 "
                                                     "is neither 1 (kernel) nor 2 (user)");
        }
        {
            const QByteArray p = section(19, 2,
                                         frame(1, 1, Wire().str("vmlinux").bytes) +
                                             frame(2, 2, Wire().varint(5000).raw("/lib").bytes));
            QTest::newRow("stack frame module over the limit")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack frame), record 2: module "
                                                     "length 5000 exceeds the limit of 4096");
        }
        {
            const QByteArray p = section(
                19, 1, Wire().varint(1).u8(2).varint(0x1000).str("m").str("").varint(64).bytes);
            QTest::newRow("stack frame symbol past the end")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack frame), record 1: symbol "
                                                     "length 64 is more than the 0 bytes left in "
                                                     "the stack frame section");
        }
        {
            const QByteArray p = section(19, 1, frame(quint64(1) << 32, 1, Wire().str("").bytes));
            QTest::newRow("stack frame id over 32 bits")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack frame), record 1: frame "
                                                     "id 4294967296 is out of range (at most "
                                                     "4294967295)");
        }
        {
            const QByteArray p =
                section(20, 1, Wire().varint(1).u8(0).varint(100000).varint(1).bytes);
            QTest::newRow("absurd stack depth")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack), record 1: frame count "
                                                     "100000 is more than the 1 bytes left in the "
                                                     "stack section can hold");
        }
        {
            const QByteArray p = section(
                20, 1, Wire().varint(1).u8(0).varint(4097).raw(QByteArray(4097, '\1')).bytes);
            QTest::newRow("stack deeper than the limit")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack), record 1: frame count "
                                                     "4097 exceeds the limit of 4096");
        }
        {
            const QByteArray p = section(
                20, 1, Wire().varint(7).u8(1).varint(2).varint(1).varint(quint64(1) << 40).bytes);
            QTest::newRow("stack frame reference over 32 bits")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack), record 1: frame "
                                                     "1099511627776 is out of range (at most "
                                                     "4294967295)");
        }
        {
            const QByteArray p = section(20, 2,
                                         Wire().varint(1).u8(0).varint(1).varint(1).bytes +
                                             Wire().varint(2).u8(0).varint(2).varint(1).bytes);
            QTest::newRow("stack cut")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (stack), record 2: frame count 2 "
                                                     "is more than the 1 bytes left in the stack "
                                                     "section can hold");
        }
        {
            const QByteArray p = section(1, 1, exec(2, 0, {}));
            QTest::newRow("bad flag")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (exec), record 1: argv "
                                                     "truncated is 2, not 0 or 1");
        }
        {
            const QByteArray p = section(4, 1, tcp(5, 4));
            QTest::newRow("bad tcp family")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (tcp connect), record 1: family "
                                                     "5 is neither 4 nor 6");
        }
        {
            const QByteArray p = section(4, 1, tcp(4, 5));
            QTest::newRow("bad address length")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (tcp connect), record 1: source "
                                                     "address length 5 is neither 4 nor 16");
        }
        {
            const QByteArray p = section(16, 1, histogramHead(5).varint(0).bytes);
            QTest::newRow("bad histogram unit")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (histogram), record 1: unit 5 is "
                                                     "not a histogram unit (0 ns, 1 us, 2 ms, 3 "
                                                     "KiB, 4 value)");
        }
        {
            const QByteArray p = section(16, 1, histogramHead().varint(1).u8(64).varint(5).bytes);
            QTest::newRow("histogram slot index out of range")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (histogram), record 1: slot "
                                                     "index 64 is out of range (0-63)");
        }
        {
            const QByteArray p =
                section(16, 1, histogramHead().varint(2).u8(5).varint(1).u8(3).varint(1).bytes);
            QTest::newRow("histogram slots out of order")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (histogram), record 1: slot "
                                                     "index 3 does not follow slot 5 (indices "
                                                     "must increase)");
        }
        {
            Wire h = histogramHead().varint(65);
            for (int i = 0; i < 65; ++i)
                h.u8(quint8(i)).varint(1);
            const QByteArray p = section(16, 1, h.bytes);
            QTest::newRow("too many histogram slots")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (histogram), record 1: slot "
                                                     "count 65 exceeds the limit of 64");
        }
        {
            const QByteArray p = section(16, 1, histogramHead().varint(1).u8(2).varint(0).bytes);
            QTest::newRow("empty histogram slot")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (histogram), record 1: slot 2 "
                                                     "has count 0 (only non-empty slots are "
                                                     "sent)");
        }
        {
            const QByteArray p =
                section(2, 1, openWith(QByteArray(10, '\xff') + QByteArray(1, '\x01'), 0));
            QTest::newRow("varint over 64 bits")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (open), record 1: pid is a "
                                                     "varint larger than 64 bits");
        }
        {
            const QByteArray p = section(2, 1, openWith(Wire().varint(1ull << 32).bytes, 0));
            QTest::newRow("pid out of range")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (open), record 1: pid 4294967296 "
                                                     "is out of range (at most 4294967295)");
        }
        {
            const QByteArray p = section(2, 1, openWith(Wire().varint(7).bytes, 1ll << 31));
            QTest::newRow("ret out of range")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (open), record 1: ret 2147483648 "
                                                     "is out of range for a 32-bit signed value");
        }
        {
            const QByteArray p = section(2, 1, openRecord() + QByteArray(2, '\0'));
            QTest::newRow("bytes left in a section")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1: 2 bytes left over in the open "
                                                     "section after its 1 records");
        }
        {
            // 255: no event type (they count up from 1) nor section (up to 23) has it.
            const QByteArray p = section(255, 1, openRecord());
            QTest::newRow("unknown section kind")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1: unknown section kind 255");
        }
        {
            const QByteArray p =
                section(18, 1, Wire().str("p").svarint(1).varint(1).str("n").raw("1234567").bytes);
            QTest::newRow("counter value cut")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (counter), record 1: value runs "
                                                     "past the end of the counter section");
        }
        {
            const QByteArray p = section(
                17, 1, Wire().str("\xff").svarint(1).varint(1).varint(1).varint(1).varint(1).bytes);
            QTest::newRow("probe id not UTF-8")
                << batch(p)
                << f3.arg(p.size()) + QStringLiteral("section 1 (probe stats), record 1: probe id "
                                                     "is not valid UTF-8");
        }
        {
            const QByteArray p = Wire().u8(7).str("").varint(0).bytes;
            QTest::newRow("bad end reason")
                << wireFrame(3, p)
                << QStringLiteral("frame 3 (end, 3 bytes): reason 7 is not an end reason (0 "
                                  "stopped, 1 error, 2 helper shutdown)");
        }
        {
            const QByteArray p = Wire().u8(0).str("").varint(0).u8(0).bytes;
            QTest::newRow("bytes left in a payload")
                << wireFrame(3, p)
                << QStringLiteral("frame 3 (end, 4 bytes): 1 bytes left over at the end of the "
                                  "payload");
        }
        QTest::newRow("data after the end")
            << endBytes() + "BLST"
            << QStringLiteral("data follows the end-of-stream frame (frame 3)");
    }

    void refusesMalformedInput()
    {
        QFETCH(QByteArray, frames);
        QFETCH(QString, error);
        const RecordBatch good = makeBatch(Base, 0, 3);
        StreamWriter w;
        w.writeHello(fixedInfo());
        w.writeBatch(good);
        const QByteArray valid = w.takePending();

        for (qsizetype chunk : {qsizetype(0), qsizetype(1), qsizetype(7)}) {
            StreamReader reader;
            const QByteArray stream = valid + frames;
            for (qsizetype i = 0; i < stream.size(); i += std::max<qsizetype>(chunk, 1)) {
                reader.feed(QByteArrayView(stream).sliced(
                    i, chunk ? std::min(chunk, stream.size() - i) : stream.size()));
                if (!chunk)
                    break;
            }
            QVERIFY(reader.hasError());
            QCOMPARE(reader.errorString(), error);
            QVERIFY(!reader.atEnd());
            // Nothing of the bad frame, everything before it.
            reader.feed(endBytes()); // ignored once in error
            reader.closeInput();
            QCOMPARE(reader.errorString(), error);
            const Decoded d = drain(reader);
            const bool endFirst = error.contains(QStringLiteral("follows the end-of-stream"));
            QCOMPARE(d.messages.size(), endFirst ? 3 : 2);
            QCOMPARE(d.messages[0].info, fixedInfo());
            QCOMPARE(d.messages[1].batch.open, good.open);
            QCOMPARE(d.messages[1].batch.exec, good.exec);
        }
    }

    void refusesMalformedHellos_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QString>("error");
        const QByteArray helloPayload = helloBytes().mid(12);
        QTest::newRow("batch first") << wireFrame(2, Wire().section(2, 1, openRecord()).bytes)
                                     << QStringLiteral("frame 1 is a batch frame, but a stream "
                                                       "must start with a hello frame");
        QTest::newRow("unknown newer frame first")
            << wireFrame(50, "x", 1, StreamProtocolMinor + 1)
            << QStringLiteral("frame 1 is a type 50 frame, but a stream must start with a hello "
                              "frame");
        QTest::newRow("not a stream") << QByteArray("GET / HTTP/1.1\r\n\r\n")
                                      << QStringLiteral("frame 1 does not start with the magic "
                                                        "\"BLST\" (it starts with 47 45 54 20): "
                                                        "this is not a BPF Lens stream or it is "
                                                        "out of step");
        QTest::newRow("trailing bytes")
            << wireFrame(1, helloPayload + QByteArray(2, '\0'))
            << QStringLiteral("frame 1 (hello, %1 bytes): 2 bytes left over at the end of the "
                              "payload")
                   .arg(helloPayload.size() + 2);
        const auto hello = [](const QByteArray &probes) {
            return Wire().svarint(1).str("0.1").str("h").str("k").u8(0).varint(1).varint(0).raw(
                probes);
        };
        {
            const QByteArray p = hello(Wire().varint(100000).bytes).bytes;
            QTest::newRow("absurd probe count")
                << wireFrame(1, p)
                << QStringLiteral("frame 1 (hello, %1 bytes): probe count 100000 is more than "
                                  "the 0 bytes left in the frame payload can hold")
                       .arg(p.size());
        }
        {
            Wire probes;
            probes.varint(1025);
            for (int i = 0; i < 1025; ++i)
                probes.str("p").str("{}").str("");
            const QByteArray p = hello(probes.bytes).bytes;
            QTest::newRow("too many probes")
                << wireFrame(1, p)
                << QStringLiteral("frame 1 (hello, %1 bytes): probe count 1025 exceeds the limit "
                                  "of 1024")
                       .arg(p.size());
        }
        {
            const QByteArray p =
                hello(Wire().varint(1).str("\xc3(").str("{}").str("tp").bytes).bytes;
            QTest::newRow("probe id not UTF-8")
                << wireFrame(1, p)
                << QStringLiteral("frame 1 (hello, %1 bytes): probe 1: id is not valid UTF-8")
                       .arg(p.size());
        }
        {
            const QByteArray p =
                hello(Wire().varint(1).str("open").str("[1]").str("tp").bytes).bytes;
            QTest::newRow("options not an object")
                << wireFrame(1, p)
                << QStringLiteral("frame 1 (hello, %1 bytes): probe 1: options are not a JSON "
                                  "object (not an object)")
                       .arg(p.size());
        }
        {
            const QByteArray p =
                hello(Wire().varint(1).str("open").str("{\"a\":").str("tp").bytes).bytes;
            QTest::newRow("options not JSON")
                << wireFrame(1, p)
                << QStringLiteral("frame 1 (hello, %1 bytes): probe 1: options are not a JSON "
                                  "object (unterminated object)")
                       .arg(p.size());
        }
        {
            const QByteArray p = Wire()
                                     .svarint(1)
                                     .str("0.1")
                                     .str("h")
                                     .str("k")
                                     .u8(1)
                                     .svarint(std::numeric_limits<qint64>::max())
                                     .varint(1)
                                     .varint(0)
                                     .varint(0)
                                     .bytes;
            QTest::newRow("implausible start time")
                << wireFrame(1, p)
                << QStringLiteral("frame 1 (hello, %1 bytes): start wall 9223372036854775807 ms "
                                  "is not a plausible time")
                       .arg(p.size());
        }
        {
            const QByteArray p =
                Wire().svarint(1).str("0.1").str("h").str("k").u8(0).varint(1).bytes;
            QTest::newRow("truncated hello")
                << wireFrame(1, p)
                << QStringLiteral("frame 1 (hello, %1 bytes): end monotonic ns runs past the end "
                                  "of the frame payload")
                       .arg(p.size());
        }
    }

    void refusesMalformedHellos()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QString, error);
        const Decoded whole = decode(stream);
        QCOMPARE(whole.error, error);
        QVERIFY(whole.messages.isEmpty());
        const Decoded bytewise = decode(stream, 1);
        QCOMPARE(bytewise.error, error);
        QVERIFY(bytewise.messages.isEmpty());
    }

    void reportsAStreamCutAtAnyByte()
    {
        // Wherever the writer dies, the reader delivers exactly the complete frames and then
        // says the stream ended early.
        StreamWriter w(300);
        w.writeHello(fixedInfo());
        w.writeBatch(smallBatch(2));
        w.writeEnd({StreamEndReason::Stopped, QString(), 1});
        const QByteArray stream = w.takePending();
        const QList<qsizetype> ends = frameEnds(stream);
        const Decoded full = decode(stream);
        QCOMPARE(full.error, QString());
        // A frame is a message, but for one that holds nothing a reader of this version takes
        // (the stack frame section that the next section repeats with the frames' sources).
        qsizetype duplicateOnly = 0;
        QList<qsizetype> messagesAfter; // messages once frame i is complete
        for (qsizetype i = 0; i < ends.size(); ++i) {
            messagesAfter.append(decode(stream.left(ends[i])).messages.size());
            const qsizetype before = i ? messagesAfter[i - 1] : 0;
            QVERIFY(messagesAfter[i] == before || messagesAfter[i] == before + 1);
            duplicateOnly += messagesAfter[i] == before;
        }
        QVERIFY(duplicateOnly <= 1);
        QCOMPARE(full.messages.size(), ends.size() - duplicateOnly);
        for (qsizetype cut = 0; cut < stream.size(); ++cut) {
            const Decoded d = decode(stream.left(cut));
            const qsizetype complete =
                std::count_if(ends.begin(), ends.end(), [&](qsizetype e) { return e <= cut; });
            QCOMPARE(d.messages, full.messages.first(complete ? messagesAfter[complete - 1] : 0));
            const bool atBoundary = cut == 0 || ends.contains(cut);
            const QString expected =
                atBoundary
                    ? QStringLiteral("the stream ended after frame %1 without an end-of-stream "
                                     "frame")
                          .arg(complete)
                    : QStringLiteral("the stream ended in the middle of frame %1")
                          .arg(complete + 1);
            QVERIFY2(d.error.startsWith(expected), qPrintable(d.error));
        }
        QCOMPARE(decode(stream.left(ends[1] + 5)).error,
                 QStringLiteral("the stream ended in the middle of frame 3 (5 of its 12 header "
                                "bytes)"));
        QCOMPARE(decode(stream.left(ends[1] + 20)).error,
                 QStringLiteral("the stream ended in the middle of frame 3 (20 of its %1 bytes)")
                     .arg(ends[2] - ends[1]));
    }

    void roundTripsOverASocketWithAWriterThread()
    {
        int fds[2];
        QCOMPARE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        constexpr int Batches = 40;
        constexpr int PerType = 500;
        QString writerError;
        qint64 bytesWritten = 0;
        std::thread writer([&] {
            StreamWriter w;
            w.writeHello(makeInfo());
            for (int b = 0; b < Batches; ++b) {
                w.writeBatch(makeBatch(Base, quint32(b), PerType));
                if (b % 3 == 0) { // flush at irregular points, as a recorder would
                    bytesWritten += w.pendingBytes();
                    if (!w.flushTo(fds[0], &writerError))
                        break;
                }
            }
            w.writeEnd({StreamEndReason::HelperShutdown, QString(), Base + 99});
            bytesWritten += w.pendingBytes();
            if (!w.flushTo(fds[0], &writerError))
                return;
            ::close(fds[0]);
        });

        QRandomGenerator rng(42);
        StreamReader reader;
        QByteArray buf(70000, Qt::Uninitialized);
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            const qsizetype want = rng.bounded(1, 65536);
            const ssize_t n = ::read(fds[1], buf.data(), size_t(want));
            if (n <= 0)
                break;
            reader.feed(QByteArrayView(buf.constData(), n));
        }
        reader.closeInput();
        const qint64 ms = std::max<qint64>(1, timer.elapsed());
        writer.join();
        ::close(fds[1]);
        QCOMPARE(writerError, QString());

        const Decoded d = drain(reader);
        QCOMPARE(d.error, QString());
        QVERIFY(d.atEnd);
        QCOMPARE(d.messages.first().info, makeInfo());
        QCOMPARE(d.messages.last().end,
                 (StreamEnd{StreamEndReason::HelperShutdown, QString(), Base + 99}));
        RecordBatch expected;
        for (int b = 0; b < Batches; ++b)
            appendBatch(expected, makeBatch(Base, quint32(b), PerType));
        const RecordBatch all = merged(d.messages);
        QCOMPARE(all.exec, expected.exec);
        QCOMPARE(all.open, expected.open);
        QCOMPARE(all.block, expected.block);
        QCOMPARE(all.tcpConnect, expected.tcpConnect);
        QCOMPARE(all.fsSlow, expected.fsSlow);
        QCOMPARE(all.histograms, expected.histograms);
        QCOMPARE(all.stats, expected.stats);
        const qint64 events = expected.eventCount();
        qInfo("%lld events, %lld bytes (%.1f bytes/event) over a socketpair in %lld ms "
              "(%lld events/s, encode + decode on two threads)",
              events, bytesWritten, double(bytesWritten) / double(events), ms, events * 1000 / ms);
    }

    void roundTripsFromAWriterProcessThroughAPipe()
    {
        int fds[2];
        QCOMPARE(pipe2(fds, O_CLOEXEC), 0);
        const pid_t child = fork();
        if (child == 0) {
            ::close(fds[0]);
            StreamWriter w(8192);
            w.writeHello(makeInfo());
            for (quint32 b = 0; b < 10; ++b) {
                w.writeBatch(makeBatch(Base, b, 200));
                if (!w.flushTo(fds[1]))
                    _exit(1);
            }
            w.writeEnd({StreamEndReason::Stopped, QString(), 7});
            _exit(w.flushTo(fds[1]) ? 0 : 1);
        }
        ::close(fds[1]);
        QVERIFY(child > 0);
        QCOMPARE(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
        StreamReader reader;
        for (;;) {
            pollfd pfd{fds[0], POLLIN, 0};
            QVERIFY(::poll(&pfd, 1, 30000) == 1);
            const StreamReader::ReadResult r = reader.readFrom(fds[0]);
            if (r == StreamReader::ReadResult::Closed || r == StreamReader::ReadResult::Failed)
                break;
        }
        ::close(fds[0]);
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        const Decoded d = drain(reader);
        QCOMPARE(d.error, QString());
        QVERIFY(d.atEnd);
        RecordBatch expected;
        for (quint32 b = 0; b < 10; ++b)
            appendBatch(expected, makeBatch(Base, b, 200));
        const RecordBatch all = merged(d.messages);
        QCOMPARE(all.exec, expected.exec);
        QCOMPARE(all.block, expected.block);
        QCOMPARE(all.histograms, expected.histograms);
        QCOMPARE(d.messages.last().end.endMonotonicNs, 7u);
    }

    void writerSurvivesAReaderThatWentAway()
    {
        // A pipe: write() would raise SIGPIPE and kill the helper.
        int p[2];
        QCOMPARE(pipe(p), 0);
        ::close(p[0]);
        StreamWriter w;
        w.writeHello(fixedInfo());
        const qsizetype pending = w.pendingBytes();
        QString error;
        QVERIFY(!w.flushTo(p[1], &error));
        QCOMPARE(error,
                 QStringLiteral("the reader closed the stream (%1 bytes not sent)").arg(pending));
        QCOMPARE(w.pendingBytes(), pending); // kept, nothing silently dropped
        sigset_t set;
        sigpending(&set);
        QVERIFY(!sigismember(&set, SIGPIPE));
        ::close(p[1]);

        // A socket.
        int s[2];
        QCOMPARE(socketpair(AF_UNIX, SOCK_STREAM, 0, s), 0);
        ::close(s[1]);
        QVERIFY(!w.flushTo(s[0], &error));
        QVERIFY2(error.startsWith(QStringLiteral("the reader closed the stream")),
                 qPrintable(error));
        ::close(s[0]);

        // Reading a descriptor that is not open.
        StreamReader reader;
        QCOMPARE(reader.readFrom(-1), StreamReader::ReadResult::Failed);
        QCOMPARE(reader.errorString(),
                 QStringLiteral("reading the stream failed: Bad file descriptor"));
    }

    void isCompactAndFast()
    {
        const RecordBatch batch = makeBatch(Base, 0, 20000); // 100000 events
        QElapsedTimer timer;
        timer.start();
        StreamWriter w;
        QVERIFY(w.writeBatch(batch));
        const QByteArray bytes = w.takePending();
        const qint64 encodeMs = std::max<qint64>(1, timer.restart());
        StreamReader reader;
        reader.feed(helloBytes());
        reader.feed(bytes);
        const qint64 decodeMs = std::max<qint64>(1, timer.elapsed());
        QCOMPARE(reader.errorString(), QString());
        reader.takeMessage();
        QCOMPARE(reader.takeMessage().batch.eventCount(), 100000);

        // The same events in memory take (fixed fields + string bytes); the wire must not be
        // larger than the string bytes plus a few bytes per number.
        qint64 stringBytes = 0;
        for (const ExecEvent &e : batch.exec) {
            stringBytes += e.comm.size() + e.filename.size();
            for (const QByteArray &a : e.argv)
                stringBytes += a.size();
        }
        for (const OpenEvent &e : batch.open)
            stringBytes += e.comm.size() + e.path.size();
        for (const BlockEvent &e : batch.block)
            stringBytes += e.disk.size() + e.op.size() + e.comm.size();
        for (const TcpConnectEvent &e : batch.tcpConnect)
            stringBytes += e.comm.size();
        for (const FsSlowEvent &e : batch.fsSlow)
            stringBytes += e.fs.size() + e.comm.size() + e.filename.size();
        const double overhead = double(bytes.size() - stringBytes) / 100000.0;
        qInfo("100000 events: %lld bytes on the wire (%.1f bytes/event, %.1f of them not string "
              "content); encode %lld ms, decode %lld ms",
              qint64(bytes.size()), double(bytes.size()) / 100000.0, overhead, encodeMs, decodeMs);
        QVERIFY2(overhead < 30, qPrintable(QString::number(overhead)));
    }

    void fuzzSeedCorpusIsCurrent()
    {
        const QList<Seed> seeds = streamReaderSeeds();
        QDir dir(corpusDir());
        const bool update = qEnvironmentVariableIntValue("BPFLENS_UPDATE_FUZZ_CORPUS");
        if (update)
            QVERIFY(dir.mkpath(QStringLiteral(".")));
        for (const Seed &seed : seeds) {
            const Decoded d = decode(seed.bytes);
            if (seed.name.startsWith(QStringLiteral("valid"))) {
                QVERIFY2(d.error.isEmpty() && d.atEnd, qPrintable(seed.name + d.error));
            } else {
                QVERIFY2(!d.error.isEmpty(), qPrintable(seed.name));
            }
            QFile file(dir.filePath(seed.name));
            if (update) {
                QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
                file.write(seed.bytes);
                continue;
            }
            QVERIFY2(
                file.open(QIODevice::ReadOnly),
                qPrintable(file.fileName() +
                           QStringLiteral(" is missing; run with BPFLENS_UPDATE_FUZZ_CORPUS=1")));
            QVERIFY2(file.readAll() == seed.bytes,
                     qPrintable(seed.name + QStringLiteral(" differs from what the protocol writes "
                                                           "now; run with "
                                                           "BPFLENS_UPDATE_FUZZ_CORPUS=1")));
        }
        QCOMPARE(dir.entryList(QDir::Files).size(), seeds.size());
    }
};

QTEST_GUILESS_MAIN(TestProtocol)
#include "tst_protocol.moc"
