// Stacks through every path that keeps them: the stream (split over many frames, definitions
// before use), a session file written from what the stream delivered, the reader, CSV. And what
// each path does with definitions that are out of order, missing or damaged.
#include "core/callgraph.h"
#include "core/csvexport.h"
#include "core/protocol.h"
#include "core/recordingfile.h"
#include "core/sessionsalvage.h"
#include "core/sessionstore.h"
#include "tests/core/sessiontestdata.h"
#include "tests/everytype.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 Start = 2'000'000'000;

SessionInfo sessionInfo()
{
    SessionInfo info;
    info.schemaVersion = SessionSchemaVersion;
    info.appVersion = QStringLiteral("test");
    info.host = QStringLiteral("host");
    info.kernelRelease = QStringLiteral("6.18");
    info.startWall = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    info.startMonotonicNs = Start;
    info.probes = {{QStringLiteral("profile"), {}, QStringLiteral("perf_event/cpu-clock")},
                   {QStringLiteral("offcpu"), {}, QStringLiteral("tp_btf/sched_switch")}};
    return info;
}

// RFC 4180 lines of a file: fields split, quotes undone (no line breaks inside fields here).
QList<QList<QByteArray>> readCsv(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QList<QByteArray>> rows;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QByteArray l = line.endsWith('\r') ? line.chopped(1) : line;
        if (l.isEmpty())
            continue;
        QList<QByteArray> fields{QByteArray()};
        bool quoted = false;
        for (qsizetype i = 0; i < l.size(); ++i) {
            const char c = l.at(i);
            if (quoted && c == '"' && i + 1 < l.size() && l.at(i + 1) == '"') {
                fields.last() += '"';
                ++i;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.append(QByteArray());
            } else {
                fields.last() += c;
            }
        }
        rows.append(fields);
    }
    return rows;
}

RecordBatch allDefinitions(const StackTable &t)
{
    RecordBatch b;
    t.appendAllDefinitions(b);
    return b;
}

// A profile as an engine makes it: three batches, each defining the frames and stacks its
// samples use first; among them a frame with neither module nor symbol, a C++ name with spaces,
// ',' and ';', and a stack of 300 frames.
struct Recording
{
    StackTable producer;
    QList<RecordBatch> batches;
    quint32 deep = 0, cpp = 0, unknown = 0, inlined = 0;

    Recording()
    {
        quint64 t = Start;
        for (int b = 0; b < 3; ++b) {
            RecordBatch batch;
            for (int k = 0; k < 40; ++k) {
                QList<quint32> frames;
                frames.append(producer.intern(StackFrame{FrameKind::Kernel, 0xffffffff81000000ull,
                                                         "vmlinux", "", "asm_sysvec_apic_timer"}));
                if (k % 7 == 3) {
                    // DWARF's inline chain: a function inlined into work<n> at one of its lines,
                    // each line its own frame of the same function.
                    StackFrame in{FrameKind::User, quint64(0x1000 + 16 * (k % 7 + b)),
                                  "/usr/bin/app", "0a1b2c", "inl"};
                    in.file = "/src/app/inl.h";
                    in.line = 12;
                    in.inlined = true;
                    inlined = producer.intern(in);
                    frames.append(inlined);
                }
                StackFrame work{FrameKind::User, quint64(0x1000 + 16 * (k % 7 + b)), "/usr/bin/app",
                                "0a1b2c", "work" + QByteArray::number(k % 7 + b)};
                if (k % 7 == 3) {
                    work.file = "/src/app/w\xc3\xa4rk.c";
                    work.line = quint32(40 + k % 3);
                }
                frames.append(producer.intern(work));
                frames.append(producer.intern(
                    StackFrame{FrameKind::User, 0x40, "/usr/bin/app", "0a1b2c", "main"}));
                const quint32 stack = producer.intern(0, frames);
                CpuSampleEvent s;
                s.timeNs = t += 1000;
                s.cpu = quint32(k % 2);
                s.pid = 100 + quint32(b);
                s.tid = s.pid;
                s.stackId = stack;
                s.comm = "app";
                batch.cpuSample.append(s);
            }
            if (b == 1) {
                cpp =
                    producer.intern(StackFrame{FrameKind::User, 0x2a40, "/opt/lib/libx.so", "ff",
                                               "ns::Map<int, std::string>::find(int; char) const"});
                unknown =
                    producer.intern(StackFrame{FrameKind::User, 0x7f0012345678ull, "", "", ""});
                QList<quint32> frames{unknown, cpp};
                for (int i = 0; i < 300; ++i)
                    frames.append(producer.intern(StackFrame{FrameKind::User, quint64(0x5000 + i),
                                                             "/usr/bin/deep", "",
                                                             "recurse" + QByteArray::number(i)}));
                deep = producer.intern(UserStackTruncated | UserFramePointers, frames);
                OffCpuEvent o;
                o.timeNs = t += 1000;
                o.offNs = 5'000'000;
                o.pid = o.tid = 200;
                o.stackId = deep;
                o.comm = "deep";
                batch.offCpu.append(o);
            }
            producer.takeNewDefinitions(batch);
            batches.append(batch);
        }
    }
};

QByteArray sql(const QString &path, const char *statement)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READWRITE, nullptr) !=
        SQLITE_OK) {
        sqlite3_close_v2(db);
        return "cannot open";
    }
    char *message = nullptr;
    const int rc = sqlite3_exec(db, statement, nullptr, nullptr, &message);
    const QByteArray result = rc == SQLITE_OK ? QByteArray() : QByteArray(message);
    sqlite3_free(message);
    sqlite3_close_v2(db);
    return result;
}

} // namespace

class TestStacks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // A finished file holding the every-type batch with its stacks.
    QString writeEveryType(const QString &name)
    {
        const QString path = m_dir.filePath(name);
        SessionWriter w;
        QString error;
        if (!w.create(path, sessionInfo(), &error) ||
            !w.writeBatch(everyTypeBatch(4, Start), &error) || !w.finish(Start + 1000, &error))
            qWarning("%s", qPrintable(error));
        return path;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void surviveStreamFileReaderAndCsvExactly()
    {
        const Recording rec;
        // Small frames: the 300-frame stack and the definitions are spread over many of them.
        StreamWriter writer(1024);
        QString error;
        QVERIFY(writer.writeHello(sessionInfo(), &error));
        for (const RecordBatch &b : rec.batches)
            QVERIFY2(writer.writeBatch(b, &error), qPrintable(error));
        writer.writeEnd({StreamEndReason::Stopped, QString(), Start + 1'000'000});
        QVERIFY(writer.framesWritten() > 10);

        // The consumer: every stack id an event names is defined by the time the event comes.
        StreamReader reader;
        reader.feed(writer.takePending());
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        QVERIFY(reader.atEnd());
        StackTable consumer;
        const QString path = m_dir.filePath(QStringLiteral("stream.bpflens"));
        RecordingFile file;
        QVERIFY2(file.create(path, sessionInfo(), &error), qPrintable(error));
        int events = 0;
        while (reader.hasMessage()) {
            StreamMessage m = reader.takeMessage();
            if (m.type != StreamFrameType::Batch)
                continue;
            QVERIFY2(consumer.addDefinitions(m.batch, &error), qPrintable(error));
            for (const CpuSampleEvent &s : m.batch.cpuSample)
                QVERIFY(consumer.hasStack(s.stackId));
            for (const OffCpuEvent &o : m.batch.offCpu)
                QVERIFY(consumer.hasStack(o.stackId));
            events += int(m.batch.eventCount());
            file.add(std::move(m.batch), Start);
        }
        QCOMPARE(events, 121);
        QVERIFY2(file.finish(Start + 1'000'000, &error), qPrintable(error));
        const RecordBatch produced = allDefinitions(rec.producer);
        QVERIFY(allDefinitions(consumer) == produced);
        QCOMPARE(consumer.stack(rec.deep).frames.size(), 302);

        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        const RecordBatch loaded = allDefinitions(data.stacks);
        QCOMPARE(loaded.frames.size(), produced.frames.size());
        QVERIFY(loaded.frames == produced.frames);
        QVERIFY(loaded.stacks == produced.stacks);
        QCOMPARE(data.events.count(EventType::CpuSample), 120);
        QCOMPARE(data.events.offCpu(0).stackId, rec.deep);

        const QString csvDir = m_dir.filePath(QStringLiteral("csv"));
        const QStringList files = CsvExport::exportSession(data, csvDir, {}, &error);
        QVERIFY2(files.contains(QDir(csvDir).absoluteFilePath(QStringLiteral("stacks.csv"))),
                 qPrintable(files.join(u' ') + error));
        const auto stacks = readCsv(csvDir + QStringLiteral("/stacks.csv"));
        QCOMPARE(stacks.size(), 1 + data.stacks.stackCount());
        QCOMPARE(stacks.at(0),
                 (QList<QByteArray>{"stack_id", "flags", "depth", "frame_ids", "frames"}));
        for (qsizetype row = 1; row < stacks.size(); ++row) {
            const QList<QByteArray> &r = stacks.at(row);
            const quint32 id = r.at(0).toUInt();
            QCOMPARE(id, quint32(row));
            const StackDefinition &s = data.stacks.stack(id);
            QCOMPARE(r.at(2).toInt(), s.frames.size());
            // Root first, each name reversible after the split at ';'.
            const QList<QByteArray> ids = r.at(3).split(';');
            const QList<QByteArray> names = r.at(4).split(';');
            QCOMPARE(ids.size(), s.frames.size());
            QCOMPARE(names.size(), s.frames.size());
            for (qsizetype i = 0; i < ids.size(); ++i) {
                const quint32 frame = s.frames.at(s.frames.size() - 1 - i);
                QCOMPARE(ids.at(i).toUInt(), frame);
                QCOMPARE(QString::fromUtf8(CsvExport::unescapeBytes(names.at(i))),
                         data.stacks.frameName(frame));
            }
        }
        const QList<QByteArray> &deep = stacks.at(qsizetype(rec.deep));
        QCOMPARE(deep.at(1), QByteArray("user_truncated user_frame_pointers"));
        QCOMPARE(deep.at(2), QByteArray("302"));
        QVERIFY(deep.at(4).startsWith("recurse299;recurse298;"));
        QVERIFY(deep.at(4).endsWith(
            ";ns::Map<int, std::string>::find(int\\x3B char) const;[unknown] 0x7f0012345678"));
        QCOMPARE(stacks.at(1).at(1), QByteArray());

        const auto frames = readCsv(csvDir + QStringLiteral("/stack_frames.csv"));
        QCOMPARE(frames.size(), 1 + data.stacks.frameCount());
        QCOMPARE(frames.at(0), (QList<QByteArray>{"frame_id", "kind", "module", "build_id",
                                                  "address", "symbol", "file", "line", "inlined"}));
        QCOMPARE(frames.at(1),
                 (QList<QByteArray>{"1", "kernel", "vmlinux", "", "0xffffffff81000000",
                                    "asm_sysvec_apic_timer", "", "", "0"}));
        QCOMPARE(frames.at(qsizetype(rec.cpp)),
                 (QList<QByteArray>{QByteArray::number(rec.cpp), "user", "/opt/lib/libx.so", "ff",
                                    "0x2a40", "ns::Map<int, std::string>::find(int; char) const",
                                    "", "", "0"}));
        QCOMPARE(frames.at(qsizetype(rec.unknown)),
                 (QList<QByteArray>{QByteArray::number(rec.unknown), "user", "", "",
                                    "0x7f0012345678", "", "", "", "0"}));
        QCOMPARE(frames.at(qsizetype(rec.inlined)),
                 (QList<QByteArray>{
                     QByteArray::number(rec.inlined), "user", "/usr/bin/app", "0a1b2c",
                     "0x" + QByteArray::number(data.stacks.frame(rec.inlined).address, 16), "inl",
                     "/src/app/inl.h", "12", "1"}));
        // The samples' stack ids join with stacks.csv.
        const auto samples = readCsv(csvDir + QStringLiteral("/profile.csv"));
        const qsizetype column = samples.at(0).indexOf("stack_id");
        QVERIFY(column > 0);
        QCOMPARE(samples.at(1).at(column).toUInt(), data.events.cpuSample(0).stackId);

        // Only the offcpu file: its stacks come with it; histograms do not.
        CsvExportOptions only;
        only.eventType = EventType::OffCpu;
        const QString onlyDir = m_dir.filePath(QStringLiteral("csv-offcpu"));
        const QStringList some = CsvExport::exportSession(data, onlyDir, only, &error);
        QCOMPARE(some.size(), 3);
        QVERIFY(QFile::exists(onlyDir + QStringLiteral("/stack_frames.csv")));
        // A session without stacks has no stack files.
        SessionData plain;
        plain.info = sessionInfo();
        const QStringList none = CsvExport::exportSession(
            plain, m_dir.filePath(QStringLiteral("csv-plain")), {}, &error);
        QVERIFY(!none.isEmpty());
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("csv-plain/stacks.csv"))));
    }

    void linesOfOneFunctionAreOneNode()
    {
        // work3's samples at lines 40, 41 and 42 (each a frame): one function in the call tree,
        // the function list and the folded stacks, with the inlined function under it.
        const Recording rec;
        StackTable t;
        StackWeights w;
        for (const RecordBatch &b : rec.batches) {
            QString error;
            QVERIFY2(t.addDefinitions(b, &error), qPrintable(error));
            for (const CpuSampleEvent &s : b.cpuSample)
                w.add(s.stackId, 1);
        }
        QList<quint32> work3;
        for (quint32 f = 1; f <= quint32(t.frameCount()); ++f) {
            if (t.frame(f).symbol == "work3")
                work3.append(f);
        }
        QCOMPARE(work3.size(), 4); // without a line (batch 0, k 0) and at 40, 41, 42
        for (quint32 f : work3)
            QCOMPARE(t.functionOf(f), work3.first());
        QCOMPARE(t.functionOf(rec.inlined), rec.inlined);
        QCOMPARE(t.frameName(rec.inlined), QStringLiteral("inl (inlined)"));
        QCOMPARE(t.sourceLocation(rec.inlined), QStringLiteral("inl.h:12"));
        QCOMPARE(t.sourceLocation(1), QString());
        int nodes = 0;
        const CallTree tree =
            CallTree::build(t, w, CallTree::Direction::TopDown, StackPart::Both, false);
        for (qint32 i = 1; i < tree.size(); ++i)
            nodes +=
                t.hasFrame(tree.node(i).frame) && t.frame(tree.node(i).frame).symbol == "work3";
        QCOMPARE(nodes, 1);
        int rows = 0;
        for (const FunctionCost &c : functionCosts(t, w, StackPart::Both))
            rows += t.frame(c.frame).symbol == "work3";
        QCOMPARE(rows, 1);
        const QByteArray folded = foldedStacks(t, w, StackPart::Both);
        QVERIFY2(folded.contains("main;work3;inl (inlined);asm_sysvec_apic_timer "),
                 folded.constData());
    }

    void schema3FilesOpenAsBefore()
    {
        // Schema 3, as BPF Lens wrote it before frames had source lines: no file, line or
        // inlined columns. It opens with every frame and stack, without lines.
        const Recording rec;
        const QString path = m_dir.filePath(QStringLiteral("schema3.bpflens"));
        {
            SessionWriter w;
            w.setSchemaVersion(3);
            QString error;
            QVERIFY2(w.create(path, sessionInfo(), &error), qPrintable(error));
            for (const RecordBatch &b : rec.batches)
                QVERIFY2(w.writeBatch(b, &error), qPrintable(error));
            QVERIFY(w.finish(Start + 1'000'000, &error));
        }
        QVERIFY(sql(path, "SELECT line FROM stack_frames") != QByteArray());
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QCOMPARE(data.info.schemaVersion, 3);
        QCOMPARE(data.stacks.frameCount(), rec.producer.frameCount());
        QCOMPARE(data.stacks.stackCount(), rec.producer.stackCount());
        for (quint32 f = 1; f <= quint32(data.stacks.frameCount()); ++f) {
            const StackFrame &got = data.stacks.frame(f);
            const StackFrame &made = rec.producer.frame(f);
            QCOMPARE(got.symbol, made.symbol);
            QCOMPARE(got.address, made.address);
            QCOMPARE(got.module, made.module);
            QVERIFY(got.file.isEmpty());
            QCOMPARE(got.line, 0u);
            QVERIFY(!got.inlined);
        }
        QCOMPARE(data.events.count(EventType::CpuSample), 120);
        // The salvage reader too.
        SessionData salvaged;
        QVERIFY2(salvageSession(path, QStringLiteral("test"), &salvaged, &error),
                 qPrintable(error));
        QCOMPARE(salvaged.stacks.frameCount(), rec.producer.frameCount());

        // Schema 4 keeps them, and a schema 4 file that lost the columns is damaged.
        const QString four = m_dir.filePath(QStringLiteral("schema4.bpflens"));
        {
            SessionWriter w;
            QCOMPARE(w.schemaVersion(), 4);
            QVERIFY2(w.create(four, sessionInfo(), &error), qPrintable(error));
            for (const RecordBatch &b : rec.batches)
                QVERIFY2(w.writeBatch(b, &error), qPrintable(error));
            QVERIFY(w.finish(Start + 1'000'000, &error));
        }
        SessionData full;
        QVERIFY2(SessionReader::open(four, &full, &error), qPrintable(error));
        QVERIFY(full.stacks.frame(rec.inlined) == rec.producer.frame(rec.inlined));
        QVERIFY(full.stacks.frame(rec.inlined).inlined);
        QVERIFY2(salvageSession(four, QStringLiteral("test"), &salvaged, &error),
                 qPrintable(error));
        QVERIFY(salvaged.stacks.frame(rec.inlined) == rec.producer.frame(rec.inlined));
        QCOMPARE(sql(four, "ALTER TABLE stack_frames DROP COLUMN inlined"), QByteArray());
        QVERIFY(!SessionReader::open(four, &full, &error, {}, SessionReader::Salvage::Refuse));
        QVERIFY2(error.contains(QStringLiteral("has no columns file, line, inlined")),
                 qPrintable(error));
    }

    void samplesStayCompact()
    {
        // 100000 samples over 2000 stacks of 24 frames (3000 frames): what a minute of 99 Hz
        // profiling on a busy 16-CPU machine gives. The stacks are stored once; a sample costs
        // what any event does (its comm is most of it on the wire; the file interns it).
        StackTable producer;
        RecordBatch batch;
        QList<quint32> pool;
        for (int f = 0; f < 3000; ++f)
            pool.append(producer.intern(
                StackFrame{f < 500 ? FrameKind::Kernel : FrameKind::User, quint64(0x1000 + 64 * f),
                           f < 500 ? "vmlinux" : "/usr/lib/x86_64-linux-gnu/libexample.so.1", "",
                           "namespace_" + QByteArray::number(f % 37) + "::function_" +
                               QByteArray::number(f)}));
        QList<quint32> stacks;
        for (int i = 0; i < 2000; ++i) {
            QList<quint32> frames;
            for (int d = 0; d < 24; ++d)
                frames.append(pool[(i * 7 + d * 131) % pool.size()]);
            stacks.append(producer.intern(0, frames));
        }
        for (int i = 0; i < 100000; ++i) {
            CpuSampleEvent s;
            s.timeNs = Start + quint64(i) * 10'101;
            s.cpu = quint32(i % 16);
            s.pid = 1000 + quint32(i % 50);
            s.tid = s.pid + quint32(i % 3);
            s.stackId = stacks[(i * 13) % stacks.size()];
            s.comm = "worker";
            batch.cpuSample.append(s);
        }
        producer.takeNewDefinitions(batch);
        StreamWriter w;
        QVERIFY(w.writeBatch(batch));
        const qint64 wire = w.takePending().size();
        RecordBatch definitions;
        definitions.frames = batch.frames;
        definitions.stacks = batch.stacks;
        StreamWriter dw;
        QVERIFY(dw.writeBatch(definitions));
        const qint64 wireDefinitions = dw.takePending().size();

        const QString path = m_dir.filePath(QStringLiteral("compact.bpflens"));
        {
            SessionWriter writer;
            QString error;
            QVERIFY(writer.create(path, sessionInfo(), &error));
            QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
            QVERIFY(writer.finish(Start + 1, &error));
        }
        QElapsedTimer timer;
        timer.start();
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        const qint64 readMs = timer.elapsed();
        QCOMPARE(data.stacks.stackCount(), 2000);
        const qint64 file = QFileInfo(path).size();
        const double perSample = double(wire - wireDefinitions) / 100000.0;
        qInfo("100000 samples, 2000 stacks, 3000 frames: stream %lld bytes (definitions %lld, "
              "%.1f bytes/sample), file %lld bytes, read in %lld ms",
              wire, wireDefinitions, perSample, file, readMs);
        QVERIFY2(perSample < 20, qPrintable(QString::number(perSample)));
        // Each frame is sent twice since minor version 10, with its source and without it for
        // older readers (docs/protocol.md).
        QVERIFY2(wireDefinitions < 2000 * 24 * 3 + 3000 * 100 * 2,
                 qPrintable(QString::number(wireDefinitions)));
    }

    void consumersRefuseDefinitionsOutOfOrder()
    {
        StackTable t;
        QString error;
        QVERIFY(!t.add(FrameDefinition{2, {}}, &error));
        QCOMPARE(error, QStringLiteral("stack frame 2 is defined out of order (expected 1)"));
        QVERIFY(t.add(FrameDefinition{1, {}}, &error));
        QVERIFY(!t.add(StackDefinition{1, 0, {1, 7}}, &error));
        QCOMPARE(error, QStringLiteral("stack 1 names frame 7, which is not defined"));
        QVERIFY(!t.add(StackDefinition{3, 0, {1}}, &error));
        QCOMPARE(error, QStringLiteral("stack 3 is defined out of order (expected 1)"));
        QCOMPARE(t.stackCount(), 0);
    }

    void writerRefusesDefinitionsOutOfOrder()
    {
        const QString path = m_dir.filePath(QStringLiteral("order.bpflens"));
        SessionWriter w;
        QString error;
        QVERIFY2(w.create(path, sessionInfo(), &error), qPrintable(error));
        RecordBatch first = everyTypeBatch(2, Start);
        QVERIFY2(w.writeBatch(first, &error), qPrintable(error));
        // The same definitions again: nothing of the batch is written.
        RecordBatch again = everyTypeBatch(2, Start + 10'000);
        QVERIFY(!w.writeBatch(again, &error));
        QCOMPARE(error, QStringLiteral("cannot write to %1: stack frame 1 is defined out of order "
                                       "(expected %2)")
                            .arg(path)
                            .arg(first.frames.size() + 1));
        RecordBatch dangling;
        dangling.stacks.append(StackDefinition{quint32(first.stacks.size() + 1), 0, {1, 99}});
        QVERIFY(!w.writeBatch(dangling, &error));
        QCOMPARE(error,
                 QStringLiteral("cannot write to %1: stack %2 names frame 99, which is not defined")
                     .arg(path)
                     .arg(first.stacks.size() + 1));
        // The next definitions in order are fine.
        RecordBatch next;
        next.frames.append(FrameDefinition{quint32(first.frames.size() + 1),
                                           StackFrame{FrameKind::User, 1, "m", "", "f"}});
        next.stacks.append(StackDefinition{
            quint32(first.stacks.size() + 1), 0, {quint32(first.frames.size() + 1)}});
        QVERIFY2(w.writeBatch(next, &error), qPrintable(error));
        QVERIFY(w.finish(Start + 1, &error));
        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QCOMPARE(data.stacks.stackCount(), first.stacks.size() + 1);
        QCOMPARE(data.events.count(EventType::CpuSample), 2);
    }

    void schema1RefusesStacks()
    {
        const QString path = m_dir.filePath(QStringLiteral("schema1.bpflens"));
        SessionWriter w;
        w.setSchemaVersion(1);
        QString error;
        QVERIFY2(w.create(path, sessionInfo(), &error), qPrintable(error));
        RecordBatch b;
        synthesizedStacks().takeNewDefinitions(b);
        QVERIFY(!w.writeBatch(b, &error));
        QCOMPARE(error,
                 QStringLiteral("cannot write to %1: schema 1 files cannot hold stacks").arg(path));
        RecordBatch samples;
        samples.cpuSample.append(synthesizedEvent<CpuSampleEvent>(0, Start));
        QVERIFY(!w.writeBatch(samples, &error));
        QCOMPARE(error, QStringLiteral("cannot write to %1: schema 1 files cannot hold profile "
                                       "events")
                            .arg(path));
    }

    void readerRefusesDamagedDefinitions_data()
    {
        QTest::addColumn<QByteArray>("statement");
        QTest::addColumn<QString>("why");
        QTest::newRow("gap") << QByteArray("DELETE FROM stack_frames WHERE id = 2")
                             << QStringLiteral("table stack_frames, id 3: stack frame 3 is "
                                               "defined out of order (expected 2)");
        QTest::newRow("kind") << QByteArray("UPDATE stack_frames SET kind = 7 WHERE id = 4")
                              << QStringLiteral("table stack_frames, id 4: kind 7 is neither 1 "
                                                "(kernel) nor 2 (user)");
        QTest::newRow("line") << QByteArray("UPDATE stack_frames SET line = -1 WHERE id = 2")
                              << QStringLiteral("table stack_frames, id 2: line -1 is out of "
                                                "range");
        QTest::newRow("inlined") << QByteArray("UPDATE stack_frames SET inlined = 7 WHERE id = 3")
                                 << QStringLiteral("table stack_frames, id 3: inlined 7 is neither "
                                                   "0 nor 1");
        QTest::newRow("frame id") << QByteArray("UPDATE stack_frames SET id = -5 WHERE id = 1")
                                  << QStringLiteral("table stack_frames, id -5: the id is out of "
                                                    "range");
        QTest::newRow("undefined frame")
            << QByteArray("UPDATE stacks SET frames = x'0163' WHERE id = 2")
            << QStringLiteral("table stacks, id 2: stack 2 names frame 99, which is not defined");
        QTest::newRow("cut varint")
            << QByteArray("UPDATE stacks SET frames = x'0180' WHERE id = 1")
            << QStringLiteral("table stacks, id 1: frame 2 of the frames blob is cut short or "
                              "longer than 64 bits");
        QTest::newRow("frame id over 32 bits")
            << QByteArray("UPDATE stacks SET frames = x'8080808010' WHERE id = 3")
            << QStringLiteral("table stacks, id 3: frame id 4294967296 is out of range");
        QTest::newRow("flags") << QByteArray("UPDATE stacks SET flags = 256 WHERE id = 3")
                               << QStringLiteral("table stacks, id 3: flags 256 are out of range "
                                                 "(0-255)");
        QTest::newRow("stack gap") << QByteArray("DELETE FROM stacks WHERE id = 1")
                                   << QStringLiteral("table stacks, id 2: stack 2 is defined out "
                                                     "of order (expected 1)");
        QTest::newRow("one table")
            << QByteArray("DROP TABLE stacks") << QStringLiteral("the table stacks is missing");
    }

    void readerRefusesDamagedDefinitions()
    {
        QFETCH(QByteArray, statement);
        QFETCH(QString, why);
        const QString path = writeEveryType(
            QStringLiteral("damaged-%1.bpflens")
                .arg(QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-')));
        QCOMPARE(sql(path, statement.constData()), QByteArray());
        SessionData data;
        QString error;
        // The strict reader names the damage and keeps nothing ...
        QVERIFY(!SessionReader::open(path, &data, &error, {}, SessionReader::Salvage::Refuse));
        QCOMPARE(error, QStringLiteral("%1 is damaged (%2); it cannot be read").arg(path, why));
        QVERIFY(data.stacks.isEmpty());
        QCOMPARE(data.events.count(EventType::CpuSample), 0);
        // ... and the default one salvages: the samples stay, the damage is reported, and the
        // stack ids still line up (lost ones are placeholders), unless the tables are gone.
        SessionData salvaged;
        const bool opened = SessionReader::open(path, &salvaged, &error);
        if (QByteArray(QTest::currentDataTag()) == "one table") {
            QVERIFY(!opened);
            return;
        }
        QVERIFY2(opened, qPrintable(error));
        QVERIFY(!salvaged.damage.reason.isEmpty());
        QVERIFY(salvaged.events.count(EventType::CpuSample) > 0);
        QVERIFY2(salvaged.damage.lost.join(u' ').contains(QStringLiteral("stack")),
                 qPrintable(salvaged.damage.lost.join(u'|')));
    }

    void opensFilesWithoutStackTables()
    {
        // Schema 2 as written before stacks were recorded: no stack tables, no stacks.
        const QString path = m_dir.filePath(QStringLiteral("nostacks.bpflens"));
        {
            SessionWriter w;
            QString error;
            QVERIFY(w.create(path, sessionInfo(), &error));
            RecordBatch b = makeBatch(Start, 0, 3);
            QVERIFY2(w.writeBatch(b, &error), qPrintable(error));
            QVERIFY(w.finish(Start + 1, &error));
        }
        QCOMPARE(sql(path, "DROP TABLE stack_frames; DROP TABLE stacks"), QByteArray());
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QVERIFY(data.stacks.isEmpty());
        QCOMPARE(data.events.count(EventType::Open), 3);
    }

    void keepsSamplesWhoseStackIsNotDefined()
    {
        // A file cut short by hand (or by a tool) may keep samples whose stacks are gone: they
        // open, and the ids resolve to nothing.
        const QString path = writeEveryType(QStringLiteral("undefined.bpflens"));
        QCOMPARE(sql(path, "DELETE FROM stacks; DELETE FROM stack_frames"), QByteArray());
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QCOMPARE(data.events.count(EventType::CpuSample), 4);
        QCOMPARE(data.events.cpuSample(1).stackId, 2u);
        QVERIFY(!data.stacks.hasStack(2));
        StackWeights w;
        w.add(data.events.cpuSample(1).stackId, 1);
        QCOMPARE(foldedStacks(data.stacks, w), QByteArray("[no stack] 1\n"));
    }

    void progressCountsStackRows()
    {
        const QString path = writeEveryType(QStringLiteral("progress.bpflens"));
        const RecordBatch b = everyTypeBatch(4, Start);
        qint64 lastTotal = -1, lastDone = -1;
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error,
                                     [&](qint64 done, qint64 total) {
                                         lastDone = done;
                                         lastTotal = total;
                                         return true;
                                     }),
                 qPrintable(error));
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY,
                                 nullptr),
                 SQLITE_OK);
        sqlite3_stmt *st = nullptr;
        sqlite3_prepare_v2(db, "SELECT count(*) FROM strings", -1, &st, nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        const qint64 strings = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        sqlite3_close_v2(db);
        QCOMPARE(lastTotal, b.eventCount() + strings + b.frames.size() + b.stacks.size());
        QCOMPARE(lastDone, lastTotal);
    }
};

QTEST_GUILESS_MAIN(TestStacks)
#include "tst_stacks.moc"
