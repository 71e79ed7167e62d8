// The uprobe probe against the real kernel: uprobetarget (tests/programs) calls bpflens_count
// and bpflens_sleep with known arguments a known number of times, and the counts per key, the
// latency histogram and the slow calls must match exactly (which calls were slow, the target
// measures: a loaded machine makes short sleeps long). The targets are resolved as the
// client resolves them (client/probetargets.h): the engine only gets the opened file and the
// offset. Bad targets are refused with the reason, before anything is loaded.
#include "client/probetargets.h"
#include "helper/engine.h"
#include "helper/uprobeprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

const QList<QByteArray> ourPrograms{"uprobe_"};

QString targetProgram()
{
    return QStringLiteral(BPFLENS_UPROBETARGET);
}

struct Recording
{
    QString attachPath;
    QString target; // the option as the engine got it, resolved
    RecordBatch batch;
    QHash<QString, double> counters;
    Log2Histogram histogram{HistogramUnit::Microseconds};
    quint64 lost = 0;
};

// Resolves and starts the probe, runs each item list as one uprobetarget process (filtered to
// the first one when filterFirst), stops and merges what came out.
bool record(QVariantMap options, const QList<QByteArrayList> &runs, Recording *r, QString *error,
            bool filterFirst = false)
{
    std::vector<std::unique_ptr<test::GatedExec>> children;
    for (const QByteArrayList &items : runs)
        children.push_back(std::make_unique<test::GatedExec>(targetProgram().toLocal8Bit(), items));
    if (filterFirst)
        options.insert(QStringLiteral("pid"), qint64(children.front()->pid()));
    QList<ProbeConfig> req{{QStringLiteral("uprobe"), options, {}}};
    if (!resolveProbeTargets(req, error))
        return false;
    Engine engine;
    if (!engine.start(req, error))
        return false;
    r->attachPath = req[0].attachPath;
    r->target = req[0].options.value(QStringLiteral("target")).toString();
    bool ok = true;
    for (auto &c : children)
        ok = c->go() && ok;
    for (auto &c : children) {
        QDeadlineTimer deadline(30000);
        while (!c->finished() && !deadline.hasExpired())
            engine.poll(20, r->batch);
        ok = c->exitedCleanly() && ok;
    }
    engine.poll(10, r->batch);
    engine.stop(&r->batch);
    bool first = true;
    for (const HistogramSnapshot &s : std::as_const(r->batch.histograms)) {
        if (first)
            r->histogram = Log2Histogram(s.histogram.unit());
        first = false;
        r->histogram.merge(s.histogram);
    }
    for (const ProbeStats &s : std::as_const(r->batch.stats))
        r->lost = qMax(r->lost, s.eventsLost);
    for (const CounterSample &c : std::as_const(r->batch.counters))
        r->counters[c.name] += c.value;
    if (!ok)
        *error = QStringLiteral("uprobetarget failed");
    return ok;
}

QVariantMap countOptions(const QString &function = QStringLiteral("bpflens_count"),
                         const QString &key = QString())
{
    return {{QStringLiteral("target"), targetProgram() + QLatin1Char(':') + function},
            {QStringLiteral("key"), key}};
}

} // namespace

class TestUprobe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QVERIFY2(QFile::exists(targetProgram()), qPrintable(targetProgram()));
    }

    void countsEveryCall()
    {
        Recording r;
        QString error;
        QVERIFY2(record(countOptions(), {{"a:1:100", "bb:2:50"}}, &r, &error), qPrintable(error));
        QCOMPARE(r.counters.value(UprobeProbe::callsCounter()), 150.0);
        // The session says which file and function were probed, resolved.
        QVERIFY2(r.target.startsWith(QLatin1Char('/')) &&
                     r.target.endsWith(QLatin1String(":bpflens_count")),
                 qPrintable(r.target));
        QCOMPARE(r.attachPath, QStringLiteral("uprobe/") + r.target);
        QCOMPARE(r.lost, 0u);
        // Without the return probe: no histogram, no events.
        QVERIFY(r.batch.histograms.isEmpty());
        QVERIFY(r.batch.uprobeCall.isEmpty());
    }

    void countsPerIntegerArgument()
    {
        Recording r;
        QString error;
        QVERIFY2(record(countOptions(QStringLiteral("bpflens_count"), QStringLiteral("arg1")),
                        {{"a:7:30", "b:-3:12", "c:7:5"}}, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.counters.value(QStringLiteral("arg1=7")), 35.0);
        QCOMPARE(r.counters.value(QStringLiteral("arg1=-3")), 12.0);
        QCOMPARE(r.counters.size(), 2);
    }

    void countsPerStringArgument()
    {
        Recording r;
        QString error;
        QVERIFY2(record(countOptions(QStringLiteral("bpflens_count"), QStringLiteral("str(arg0)")),
                        {{"hello:1:40", "world:1:25", "hello:2:2"}}, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.counters.value(QStringLiteral("\"hello\"")), 42.0);
        QCOMPARE(r.counters.value(QStringLiteral("\"world\"")), 25.0);
        QCOMPARE(r.counters.size(), 2);
    }

    void stringKeysAreCutAtTheLength()
    {
        QVariantMap o = countOptions(QStringLiteral("bpflens_count"), QStringLiteral("str(arg0)"));
        o.insert(QStringLiteral("strLength"), 4); // three bytes and the NUL
        Recording r;
        QString error;
        QVERIFY2(record(o, {{"abcdef:1:9", "abcxyz:1:4", "ab:1:3"}}, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.counters.value(QStringLiteral("\"abc\"")), 13.0);
        QCOMPARE(r.counters.value(QStringLiteral("\"ab\"")), 3.0);
    }

    // Which calls are slow is the machine's doing, not the test's: on a loaded machine a 50 us
    // sleep can end milliseconds late. The target reports, per call, the time its body took
    // and the time around the call; the probe's latency of each call lies between the two, so
    // each call's place (event or not, histogram slot) is known, or known to be one of two
    // where the window straddles a boundary.
    void timesCallsAndRecordsTheSlowOnes()
    {
        constexpr quint64 thresholdNs = 5000000;
        QVariantMap o = countOptions(QStringLiteral("bpflens_sleep"), QStringLiteral("arg0"));
        o.insert(QStringLiteral("latency"), true);
        o.insert(QStringLiteral("thresholdUs"), int(thresholdNs / 1000));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString timesPath = dir.filePath(QStringLiteral("times"));
        qputenv("BPFLENS_UPROBETARGET_TIMES", QFile::encodeName(timesPath));
        Recording r;
        QString error;
        const bool recorded = record(o, {{"sleep:20000:3", "sleep:50:20"}}, &r, &error);
        qunsetenv("BPFLENS_UPROBETARGET_TIMES");
        QVERIFY2(recorded, qPrintable(error));
        QVERIFY2(r.attachPath.contains(QLatin1String("uretprobe/")), qPrintable(r.attachPath));

        struct Call
        {
            quint64 us, innerNs, outerNs;
        };
        QList<Call> calls;
        QFile timesFile(timesPath);
        QVERIFY2(timesFile.open(QIODevice::ReadOnly), qPrintable(timesFile.errorString()));
        for (const QByteArray &line : timesFile.readAll().split('\n')) {
            const QList<QByteArray> f = line.split(' ');
            if (f.size() == 3)
                calls.append({f[0].toULongLong(), f[1].toULongLong(), f[2].toULongLong()});
        }
        QCOMPARE(calls.size(), 23);
        for (const Call &c : std::as_const(calls))
            QVERIFY(c.innerNs >= c.us * 1000 && c.outerNs >= c.innerNs);

        QCOMPARE(r.histogram.count(), 23u);
        QCOMPARE(r.counters.value(QStringLiteral("arg0=20000")), 3.0);
        QCOMPARE(r.counters.value(QStringLiteral("arg0=50")), 20.0);

        // The events, in the order the calls returned, are exactly the calls at or above the
        // threshold, each with its argument and a latency within its call's window.
        QList<UprobeCallEvent> events = r.batch.uprobeCall;
        std::sort(
            events.begin(), events.end(),
            [](const UprobeCallEvent &a, const UprobeCallEvent &b) { return a.timeNs < b.timeNs; });
        qsizetype next = 0;
        int slowCalls = 0, late = 0;
        for (const Call &c : std::as_const(calls)) {
            const bool slow = c.innerNs >= thresholdNs;
            const bool maybe = !slow && c.outerNs >= thresholdNs;
            slowCalls += slow;
            if (c.us == 50 && c.innerNs >= 1000000)
                ++late;
            if (!slow && !maybe)
                continue;
            const bool matches = next < events.size() && events[next].argument == c.us &&
                                 events[next].latencyNs >= c.innerNs &&
                                 events[next].latencyNs <= c.outerNs;
            QVERIFY2(matches || maybe,
                     qPrintable(QStringLiteral("no event for the %1 us call that took %2..%3 ns")
                                    .arg(c.us)
                                    .arg(c.innerNs)
                                    .arg(c.outerNs)));
            next += matches;
        }
        QCOMPARE(events.size(), next);
        QVERIFY(slowCalls >= 3); // the 20 ms calls, whatever the machine does
        if (late)
            qInfo("%d of the 50 us sleeps took over 1 ms (a loaded machine)", late);
        for (const UprobeCallEvent &e : std::as_const(events)) {
            QCOMPARE(e.keyKind, quint8(1));
            QCOMPARE(e.comm, QByteArray("uprobetarget"));
            QVERIFY2(e.latencyNs >= thresholdNs, qPrintable(QString::number(e.latencyNs)));
            QVERIFY(e.text.isEmpty());
        }

        // One histogram per key, as the counts; every slot holds at least the calls whose
        // window lies in it and at most those whose window reaches it (exact where no window
        // straddles a slot boundary). The 20 ms calls are all events: their slots are exactly
        // those of the events' latencies.
        QMap<QString, Log2Histogram> perKey;
        for (const HistogramSnapshot &s : std::as_const(r.batch.histograms)) {
            auto it = perKey.find(s.key);
            if (it == perKey.end())
                it = perKey.insert(s.key, Log2Histogram(s.histogram.unit()));
            it->merge(s.histogram);
        }
        QCOMPARE(perKey.keys(),
                 (QStringList{QStringLiteral("arg0=20000"), QStringLiteral("arg0=50")}));
        for (quint64 us : {quint64(50), quint64(20000)}) {
            const Log2Histogram h = perKey.value(QStringLiteral("arg0=%1").arg(us));
            QCOMPARE(h.count(), us == 50 ? 20u : 3u);
            for (int slot = 0; slot < Log2Histogram::MaxSlots; ++slot) {
                quint64 inside = 0, reaching = 0;
                for (const Call &c : std::as_const(calls)) {
                    const int lo = Log2Histogram::slotOf(c.innerNs / 1000);
                    const int hi = Log2Histogram::slotOf(c.outerNs / 1000);
                    if (c.us != us || slot < lo || slot > hi)
                        continue;
                    ++reaching;
                    inside += lo == hi;
                }
                QVERIFY2(h.slot(slot) >= inside && h.slot(slot) <= reaching,
                         qPrintable(QStringLiteral("arg0=%1, slot %2: %3 calls, expected %4..%5")
                                        .arg(us)
                                        .arg(Log2Histogram::slotLabel(slot))
                                        .arg(h.slot(slot))
                                        .arg(inside)
                                        .arg(reaching)));
            }
        }
        Log2Histogram slowOnes(HistogramUnit::Microseconds);
        for (const UprobeCallEvent &e : std::as_const(events)) {
            if (e.argument == 20000)
                slowOnes.add(e.latencyNs / 1000);
        }
        for (int slot = 0; slot < Log2Histogram::MaxSlots; ++slot)
            QCOMPARE(perKey.value(QStringLiteral("arg0=20000")).slot(slot), slowOnes.slot(slot));
    }

    void pidFilterCountsOneProcess()
    {
        Recording r;
        QString error;
        QVERIFY2(record(countOptions(), {{"a:1:17"}, {"a:1:40"}}, &r, &error, true),
                 qPrintable(error));
        QCOMPARE(r.counters.value(UprobeProbe::callsCounter()), 17.0);
    }

    // The BCC tutorial's strlen_count: glibc's strlen is an IFUNC; the client resolves it to the
    // implementation this machine uses, and the calls uprobetarget makes are counted per string.
    void libcStrlenCountedPerString()
    {
        Recording r;
        QString error;
        const QVariantMap o{{QStringLiteral("target"), QStringLiteral("libc:strlen")},
                            {QStringLiteral("key"), QStringLiteral("str(arg0)")}};
        QVERIFY2(record(o, {{"bpflens-strlen:1:33"}}, &r, &error, true), qPrintable(error));
        QVERIFY2(r.target.contains(QLatin1String("libc.so")), qPrintable(r.target));
        QCOMPARE(r.counters.value(QStringLiteral("\"bpflens-strlen\"")), 33.0);
    }

    void badTargetsAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no file") << QStringLiteral("/nonexistent/prog:main")
                                 << QStringLiteral("No such file");
        QTest::newRow("not elf") << QStringLiteral("/etc/hostname:main")
                                 << QStringLiteral("not an ELF file");
        QTest::newRow("no symbol") << targetProgram() + QStringLiteral(":no_such_function")
                                   << QStringLiteral("no function no_such_function");
        QTest::newRow("no library")
            << QStringLiteral("libbpflens-none:f") << QStringLiteral("bpflens-none");
    }

    void badTargetsAreRefusedWithTheReason()
    {
        QFETCH(QString, target);
        QFETCH(QString, expected);
        QList<ProbeConfig> req{
            {QStringLiteral("uprobe"), {{QStringLiteral("target"), target}}, {}}};
        QString error;
        QVERIFY(!resolveProbeTargets(req, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(!req[0].file.isValid());
    }

    void engineRefusesAUprobeWithoutItsFile()
    {
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("uprobe"), countOptions(), {}}};
        QString error;
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(error.contains(QLatin1String("needs the file")), qPrintable(error));
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }

    void badKeysAreRefused()
    {
        for (const QString &key :
             {QStringLiteral("arg6"), QStringLiteral("str(arg0"), QStringLiteral("retval")}) {
            QVariantMap normalized;
            QString error;
            QVERIFY(!ProbeCatalog::validate(QStringLiteral("uprobe"),
                                            countOptions(QStringLiteral("bpflens_count"), key),
                                            &normalized, &error));
            QVERIFY2(error.contains(QLatin1String("option key")), qPrintable(error));
        }
    }

    void nothingStaysAttached()
    {
        QVariantMap o = countOptions();
        o.insert(QStringLiteral("latency"), true);
        Recording r;
        QString error;
        QVERIFY2(record(o, {{"a:1:3"}}, &r, &error), qPrintable(error));
        QCOMPARE(test::ownBpfObjects({}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestUprobe)
#include "tst_uprobe.moc"
