#include "core/csvexport.h"
#include "core/jsonlexport.h"
#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "core/traceexport.h"
#include "tests/csvreader.h"
#include "tests/everytype.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 StartNs = 5000000000ull;
constexpr int PerType = 5;

// A session of PerType events of every type (through a session file, as the CLI reads it),
// with counters and a histogram.
SessionData everyTypeSession(const QString &path)
{
    RecordBatch batch = everyTypeBatch(PerType, StartNs + 1000000);
    // Latencies that end after the start: the synthesised ones are a few thousand ns.
    batch.counters.append({QStringLiteral("cachestat"), StartNs + 1000000000ull, 1000000000ull,
                           QStringLiteral("hits"), 42});
    batch.counters.append({QStringLiteral("cachestat"), StartNs + 2000000000ull, 1000000000ull,
                           QStringLiteral("hitRatio"), 0.25});
    batch.counters.append({QStringLiteral("cachestat"), StartNs + 2000000000ull, 1000000000ull,
                           QStringLiteral("hitRatio"), std::nan("")});
    Log2Histogram h(HistogramUnit::Microseconds);
    h.add(3);
    h.add(100);
    batch.histograms.append({QStringLiteral("block"), QStringLiteral("vda"),
                             StartNs + 1500000000ull, 1000000000ull, h});
    SessionInfo info = sessionInfoForThisHost({{QStringLiteral("exec"), {}, {}}});
    info.startMonotonicNs = StartNs;
    SessionWriter writer;
    QString error;
    SessionData data;
    if (!writer.create(path, info, &error) || !writer.writeBatch(batch, &error) ||
        !writer.finish(StartNs + 3000000000ull, &error)) {
        qWarning() << error;
        return data;
    }
    writer.close();
    if (!SessionReader::open(path, &data, &error))
        qWarning() << error;
    return data;
}

QByteArray traceOf(const SessionData &data, const TraceExportOptions &options = {})
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    if (!TraceExport::write(data, &buffer, options, &error))
        qWarning() << error;
    return buffer.data();
}

QByteArray jsonlOf(const SessionData &data)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    if (!JsonlExport::write(data, &buffer, {}, &error))
        qWarning() << error;
    return buffer.data();
}

QString threadName(const QJsonArray &events, int pid, int tid)
{
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        if (e.value(QStringLiteral("name")).toString() == QLatin1String("thread_name") &&
            e.value(QStringLiteral("pid")).toInt() == pid &&
            e.value(QStringLiteral("tid")).toInt() == tid)
            return e.value(QStringLiteral("args"))
                .toObject()
                .value(QStringLiteral("name"))
                .toString();
    }
    return QString();
}

// Slices of one track that cross (one starts inside another and ends after it), which
// Perfetto's importer drops or moves aside. Times in ns, from the trace's microseconds.
int crossingSlices(const QJsonArray &events)
{
    QHash<QPair<int, qint64>, QList<QPair<qint64, qint64>>> tracks;
    for (const QJsonValue &v : events) {
        const QJsonObject e = v.toObject();
        if (e.value(QStringLiteral("ph")).toString() != QLatin1String("X"))
            continue;
        const qint64 start = qRound64(e.value(QStringLiteral("ts")).toDouble() * 1000);
        tracks[{e.value(QStringLiteral("pid")).toInt(), e.value(QStringLiteral("tid")).toInteger()}]
            .append({start, start + qRound64(e.value(QStringLiteral("dur")).toDouble() * 1000)});
    }
    int crossing = 0;
    for (auto &slices : tracks) {
        for (qsizetype i = 0; i < slices.size(); ++i)
            for (qsizetype j = 0; j < slices.size(); ++j)
                if (slices[i].first < slices[j].first && slices[j].first < slices[i].second &&
                    slices[i].second < slices[j].second)
                    ++crossing;
    }
    return crossing;
}

} // namespace

class TestTraceExport : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SessionData m_data;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_data = everyTypeSession(m_dir.filePath(QStringLiteral("every.bpflens")));
        QCOMPARE(m_data.events.totalCount(), qsizetype(PerType) * qsizetype(std::size(eventTypes)));
    }

    // Every element has what the format requires, and each type maps to its phase.
    void traceStructure()
    {
        const QByteArray trace = traceOf(m_data);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(trace, &error);
        QVERIFY2(doc.isObject(), qPrintable(error.errorString()));
        const QJsonObject root = doc.object();
        QCOMPARE(root.value(QStringLiteral("displayTimeUnit")).toString(), QStringLiteral("ns"));
        QCOMPARE(root.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("host")),
                 QJsonValue(m_data.info.host));
        const QJsonArray events = root.value(QStringLiteral("traceEvents")).toArray();
        QVERIFY(!events.isEmpty());

        QHash<QString, int> perCategory;
        QSet<QPair<int, int>> threadsUsed, threadsNamed;
        QSet<int> processesUsed, processesNamed;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            for (const char *key : {"ph", "ts", "pid", "tid", "name"})
                QVERIFY2(e.contains(QLatin1String(key)),
                         qPrintable(QString::fromUtf8(QJsonDocument(e).toJson())));
            QVERIFY(e.value(QStringLiteral("ts")).isDouble());
            const QString ph = e.value(QStringLiteral("ph")).toString();
            const int pid = e.value(QStringLiteral("pid")).toInt();
            const int tid = e.value(QStringLiteral("tid")).toInt();
            if (ph == QLatin1String("M")) {
                const QString name = e.value(QStringLiteral("name")).toString();
                QVERIFY(!e.value(QStringLiteral("args"))
                             .toObject()
                             .value(QStringLiteral("name"))
                             .toString()
                             .isEmpty());
                if (name == QLatin1String("thread_name"))
                    threadsNamed.insert({pid, tid});
                else if (name == QLatin1String("process_name"))
                    processesNamed.insert(pid);
                else
                    QFAIL(qPrintable(name));
                continue;
            }
            if (ph == QLatin1String("s") || ph == QLatin1String("f")) {
                // a wakeup's flow, between two threads' slices: counted in flowsOfWakeups
                QVERIFY(e.value(QStringLiteral("id")).isDouble());
                threadsUsed.insert({pid, tid});
                processesUsed.insert(pid);
                continue;
            }
            if (ph == QLatin1String("X")) {
                QVERIFY(e.value(QStringLiteral("dur")).isDouble());
                QVERIFY(e.value(QStringLiteral("dur")).toDouble() >= 0);
            } else if (ph == QLatin1String("i")) {
                QCOMPARE(e.value(QStringLiteral("s")).toString(), QStringLiteral("t"));
            } else {
                QCOMPARE(ph, QStringLiteral("C"));
            }
            // Counter tracks belong to a process (0), which is named too.
            processesUsed.insert(pid);
            if (ph != QLatin1String("C"))
                threadsUsed.insert({pid, tid});
            ++perCategory[e.value(QStringLiteral("cat")).toString()];
        }
        QCOMPARE(threadsNamed, threadsUsed);
        QCOMPARE(crossingSlices(events), 0);
        QCOMPARE(processesNamed, processesUsed);

        forEachEventType([&]<typename E>() {
            QCOMPARE(perCategory.value(QLatin1String(EventTraits<E>::probeId)),
                     int(m_data.events.count(eventTypeOf<E>)));
        });
        // The NaN counter has no value to show.
        QCOMPARE(perCategory.value(QStringLiteral("cachestat")), 2);

        // Phases by declaration: a latency gives a slice.
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            const QString cat = e.value(QStringLiteral("cat")).toString();
            forEachEventType([&]<typename E>() {
                if (cat == QLatin1String(EventTraits<E>::probeId))
                    QCOMPARE(e.value(QStringLiteral("ph")).toString(),
                             hasLatency<E> ? QStringLiteral("X") : QStringLiteral("i"));
            });
        }
    }

    // A block request's slice ends at its completion; an off-CPU wait starts where it was
    // recorded; times are microseconds after the session start.
    void slicesSitAtTheirTimes()
    {
        const QJsonArray events = QJsonDocument::fromJson(traceOf(m_data))
                                      .object()
                                      .value(QStringLiteral("traceEvents"))
                                      .toArray();
        int blocks = 0, waits = 0, execs = 0;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            const QString cat = e.value(QStringLiteral("cat")).toString();
            const double ts = e.value(QStringLiteral("ts")).toDouble();
            const double dur = e.value(QStringLiteral("dur")).toDouble();
            if (cat == QLatin1String("block")) {
                const BlockEvent b = m_data.events.block(blocks++);
                QCOMPARE(qRound64((ts + dur) * 1000), qint64(b.timeNs - StartNs));
                QCOMPARE(qRound64(dur * 1000), qint64(b.queueNs + b.deviceNs));
                QCOMPARE(e.value(QStringLiteral("pid")).toInt(), int(b.pid));
                // A slice track of the process's: block has no tid, so the pid's.
                QCOMPARE(threadName(events, b.pid, e.value(QStringLiteral("tid")).toInt()),
                         QString::fromUtf8(escapeKernelBytes(b.comm)) + u' ' +
                             QString::number(b.pid) + QStringLiteral(" block"));
                const QJsonObject args = e.value(QStringLiteral("args")).toObject();
                QCOMPARE(args.value(QStringLiteral("sector")).toDouble(), double(b.sector));
                QCOMPARE(args.value(QStringLiteral("disk")).toString(),
                         QString::fromUtf8(escapeKernelBytes(b.disk)));
            } else if (cat == QLatin1String("offcpu")) {
                const OffCpuEvent o = m_data.events.offCpu(waits++);
                QCOMPARE(qRound64(ts * 1000), qint64(o.timeNs - StartNs));
                QCOMPARE(qRound64(dur * 1000), qint64(o.offNs));
                QCOMPARE(e.value(QStringLiteral("args")).toObject().value(QStringLiteral("tid")),
                         QJsonValue(qint64(o.tid)));
                QVERIFY(e.value(QStringLiteral("tid")).toInteger() >= (1 << 30));
                // The stack, root first, by name.
                const QString stack = e.value(QStringLiteral("args"))
                                          .toObject()
                                          .value(QStringLiteral("stack"))
                                          .toString();
                QVERIFY2(stack.startsWith(QStringLiteral("app::Reader")) ||
                             stack.endsWith(QStringLiteral("do_syscall_64")),
                         qPrintable(stack));
            } else if (cat == QLatin1String("exec")) {
                const ExecEvent x = m_data.events.exec(execs++);
                QCOMPARE(qRound64(ts * 1000), qint64(x.timeNs - StartNs));
                // Instant events are on the thread's own track (exec has no tid: the pid's).
                QCOMPARE(e.value(QStringLiteral("tid")).toInteger(), qint64(x.pid));
                QCOMPARE(e.value(QStringLiteral("args"))
                             .toObject()
                             .value(QStringLiteral("argv"))
                             .toString(),
                         QString::fromUtf8(formatArgv(x.argv)));
            } else if (cat == QLatin1String("cachestat")) {
                // At the start of the counter's interval.
                QVERIFY(ts == 0 || ts == 1000000);
            }
        }
        QCOMPARE(blocks, PerType);
        QCOMPARE(waits, PerType);
        QCOMPARE(execs, PerType);
    }

    // Requests of one task in flight together, and the wait for them: never crossing slices on
    // one track, each request on the first of the task's block tracks that is free.
    void overlappingSlicesGetTracksOfTheirOwn()
    {
        SessionData data;
        data.info.startMonotonicNs = 0;
        auto block = [&](quint64 startNs, quint64 endNs) {
            BlockEvent b;
            b.timeNs = endNs;
            b.deviceNs = endNs - startNs;
            b.pid = 42;
            b.comm = "dd";
            data.events.append(b);
        };
        block(1000, 5000);
        block(2000, 6000); // crosses the first
        block(5500, 7000); // fits after the first
        block(3000, 8000); // crosses both
        OffCpuEvent wait;  // from 1500 to 6500: crosses the first two requests
        wait.timeNs = 1500;
        wait.offNs = 5000;
        wait.pid = 42;
        wait.tid = 42;
        wait.comm = "dd";
        data.events.append(wait);
        const QJsonArray events = QJsonDocument::fromJson(traceOf(data))
                                      .object()
                                      .value(QStringLiteral("traceEvents"))
                                      .toArray();
        QCOMPARE(crossingSlices(events), 0);
        QSet<qint64> tracks;
        QStringList names;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            if (e.value(QStringLiteral("cat")).toString() == QLatin1String("block")) {
                tracks.insert(e.value(QStringLiteral("tid")).toInteger());
                QCOMPARE(e.value(QStringLiteral("pid")).toInt(), 42);
            } else if (e.value(QStringLiteral("name")).toString() == QLatin1String("thread_name")) {
                names << e.value(QStringLiteral("args"))
                             .toObject()
                             .value(QStringLiteral("name"))
                             .toString();
            }
        }
        QCOMPARE(tracks.size(), 3);
        names.sort();
        QCOMPARE(names,
                 QStringList({QStringLiteral("dd 42 block"), QStringLiteral("dd 42 block 2"),
                              QStringLiteral("dd 42 block 3"), QStringLiteral("dd 42 offcpu")}));
    }

    // Thread states: slices on the thread's own track named by the state, and a wait woken by
    // a thread joined to it by a flow from the waker's track, at the wakeup.
    void threadStatesAndTheirWakeups()
    {
        SessionData data;
        data.info.startMonotonicNs = 0;
        auto state = [&](quint32 tid, quint8 s, quint8 reason, quint64 from, quint64 to,
                         quint32 waker) {
            ThreadStateEvent e;
            e.timeNs = from;
            e.durNs = to - from;
            e.pid = 7;
            e.tid = tid;
            e.comm = tid == 7 ? "reader" : "writer";
            e.state = s;
            e.reason = reason;
            e.wakerPid = waker ? 7 : 0;
            e.wakerTid = waker;
            e.wakerComm = waker ? "writer" : "[irq]";
            data.events.append(e);
        };
        using T = ThreadStateEvent;
        state(7, T::Sleeping, T::Pipe, 1000, 5000, 8);
        state(7, T::Runnable, T::Woken, 5000, 6000, 0);
        state(8, T::Sleeping, T::Sleep, 0, 2000, 0); // woken by the timer: no flow
        state(8, T::Running, 0, 2000, 9000, 0);
        const QJsonArray events = QJsonDocument::fromJson(traceOf(data))
                                      .object()
                                      .value(QStringLiteral("traceEvents"))
                                      .toArray();
        QCOMPARE(crossingSlices(events), 0);
        QStringList slices;
        QList<QJsonObject> flows;
        for (const QJsonValue &v : events) {
            const QJsonObject e = v.toObject();
            const QString ph = e.value(QStringLiteral("ph")).toString();
            if (ph == QLatin1String("X")) {
                QCOMPARE(e.value(QStringLiteral("cat")).toString(), QStringLiteral("threadstate"));
                slices << QStringLiteral("%1 %2 %3+%4")
                              .arg(e.value(QStringLiteral("tid")).toInt())
                              .arg(e.value(QStringLiteral("name")).toString())
                              .arg(e.value(QStringLiteral("ts")).toDouble())
                              .arg(e.value(QStringLiteral("dur")).toDouble());
            } else if (ph == QLatin1String("s") || ph == QLatin1String("f")) {
                flows << e;
            }
        }
        slices.sort();
        QCOMPARE(slices, (QStringList{QStringLiteral("7 Runnable (woken) 5+1"),
                                      QStringLiteral("7 Sleeping (pipe) 1+4"),
                                      QStringLiteral("8 Running 2+7"),
                                      QStringLiteral("8 Sleeping (sleep) 0+2")}));
        QCOMPARE(flows.size(), 2);
        QCOMPARE(flows[0].value(QStringLiteral("ph")).toString(), QStringLiteral("s"));
        QCOMPARE(flows[0].value(QStringLiteral("tid")).toInt(), 8); // the waker, running then
        QCOMPARE(flows[1].value(QStringLiteral("ph")).toString(), QStringLiteral("f"));
        QCOMPARE(flows[1].value(QStringLiteral("tid")).toInt(), 7);
        for (const QJsonObject &f : flows) {
            QCOMPARE(f.value(QStringLiteral("ts")).toDouble(), 5.0);
            QCOMPARE(f.value(QStringLiteral("id")).toInt(),
                     flows[0].value(QStringLiteral("id")).toInt());
        }
    }

    // Kernel bytes that are not UTF-8 (a comm, a path) still make valid JSON, in CSV's escaped
    // form.
    void nonUtf8CommGivesValidJson()
    {
        SessionData data;
        data.info.startMonotonicNs = 1000;
        ExecEvent e;
        e.timeNs = 2000;
        e.pid = 77;
        e.comm = "\xe9t\xe9\x01\"\\";
        e.filename = "/tmp/\xff";
        data.events.append(e);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(traceOf(data), &error);
        QVERIFY2(doc.isObject(), qPrintable(error.errorString()));
        bool named = false;
        for (const QJsonValue &v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("name")).toString() == QLatin1String("thread_name")) {
                QCOMPARE(o.value(QStringLiteral("args"))
                             .toObject()
                             .value(QStringLiteral("name"))
                             .toString(),
                         QStringLiteral("\\xE9t\\xE9\u0001\"\\\\"));
                named = true;
            }
            if (o.value(QStringLiteral("name")).toString() == QLatin1String("exec")) {
                QCOMPARE(o.value(QStringLiteral("ts")).toDouble(), 1.0);
                QCOMPARE(o.value(QStringLiteral("args"))
                             .toObject()
                             .value(QStringLiteral("filename"))
                             .toString(),
                         QStringLiteral("/tmp/\\xFF"));
            }
        }
        QVERIFY(named);
        const QByteArray lines = jsonlOf(data);
        for (const QByteArray &line : lines.split('\n')) {
            if (!line.isEmpty())
                QVERIFY2(QJsonDocument::fromJson(line, &error).isObject(),
                         qPrintable(error.errorString()));
        }
    }

    // JSON lines: every line an object, every event once, in time order across types, with
    // the values CSV has.
    void jsonLines()
    {
        const QByteArray text = jsonlOf(m_data);
        QVERIFY(text.endsWith('\n'));
        QHash<QString, int> perType;
        qint64 lastTime = std::numeric_limits<qint64>::min();
        QJsonObject firstBlock;
        int lineNumber = 0;
        for (const QByteArray &line : text.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
            QVERIFY2(doc.isObject(),
                     qPrintable(error.errorString() + u' ' + QString::fromUtf8(line)));
            const QJsonObject o = doc.object();
            const QString type = o.value(QStringLiteral("type")).toString();
            if (lineNumber++ == 0)
                QCOMPARE(type, QStringLiteral("session"));
            ++perType[type];
            if (type == QLatin1String("session") || type == QLatin1String("stack"))
                continue;
            const qint64 t = o.value(QStringLiteral("time_ns")).toInteger();
            QVERIFY2(t >= lastTime, line.constData());
            lastTime = t;
            if (type == QLatin1String("block") && firstBlock.isEmpty())
                firstBlock = o;
        }
        forEachEventType([&]<typename E>() {
            QCOMPARE(perType.value(QLatin1String(EventTraits<E>::probeId)),
                     int(m_data.events.count(eventTypeOf<E>)));
        });
        QCOMPARE(perType.value(QStringLiteral("session")), 1);
        QCOMPARE(perType.value(QStringLiteral("stack")), int(m_data.stacks.stackCount()));
        QCOMPARE(perType.value(QStringLiteral("counter")), 3);
        QCOMPARE(perType.value(QStringLiteral("histogram")), 1);

        // The first block event against block.csv's first row, column by column.
        QTemporaryDir csvDir;
        QString error;
        CsvExportOptions options;
        options.eventType = EventType::Block;
        QVERIFY2(!CsvExport::exportSession(m_data, csvDir.path(), options, &error).isEmpty(),
                 qPrintable(error));
        const auto rows = test::readCsv(csvDir.filePath(QStringLiteral("block.csv")));
        QVERIFY(rows.size() > 1);
        QCOMPARE(firstBlock.value(QStringLiteral("time_ns")).toInteger(),
                 qint64(m_data.events.block(0).timeNs - StartNs));
        int compared = 0;
        for (qsizetype c = 2; c < rows[0].size(); ++c) {
            const QString name = QString::fromUtf8(rows[0][c]);
            QVERIFY2(firstBlock.contains(name), qPrintable(name));
            const QJsonValue v = firstBlock.value(name);
            const QString text = v.isString() ? v.toString() : QString::number(v.toInteger());
            QCOMPARE(text, QString::fromUtf8(rows[1][c]));
            ++compared;
        }
        QCOMPARE(compared, firstBlock.size() - 2); // all but type and time_ns
    }

    // The streaming form gives the same event lines as the file's, batch by batch.
    void streamMatchesExport()
    {
        RecordBatch batch = everyTypeBatch(3, StartNs + 10);
        auto [first, second] = splitBatch(batch, 1);
        SessionInfo info;
        info.startMonotonicNs = StartNs;
        JsonlStream stream(info);
        const QByteArray lines = stream.header() + stream.format(first) + stream.format(second);
        int events = 0, stacks = 0;
        for (const QByteArray &line : lines.split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QVERIFY2(!o.isEmpty(), line.constData());
            const QString type = o.value(QStringLiteral("type")).toString();
            if (type == QLatin1String("stack"))
                ++stacks;
            else if (type != QLatin1String("session"))
                ++events;
        }
        QCOMPARE(events, int(batch.eventCount()));
        QCOMPARE(stacks, SynthesizedStacks);
    }
};

QTEST_GUILESS_MAIN(TestTraceExport)
#include "tst_traceexport.moc"
