// tppair and tpcount at user-space hooks against the real kernel: uprobetarget and usdttarget
// (tests/programs) call a function and fire USDT probes a known number of times with known
// arguments, and the pairs, their latencies and the counts per key must be exactly what they
// did. The hooks are resolved as the client resolves them (client/probetargets.h): the engine
// only gets the opened file, the offsets and the argument specs. Bad hooks are refused with the
// reason, before anything is loaded.
#include "client/probetargets.h"
#include "helper/engine.h"
#include "helper/kernelfeatures.h"
#include "helper/tpcountprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;

namespace {

const QList<QByteArray> ourPrograms{"tppair_", "tpcount_"};

QString uprobeTarget()
{
    return QStringLiteral(BPFLENS_UPROBETARGET);
}

QString usdtTarget()
{
    return QStringLiteral(BPFLENS_USDTTARGET);
}

// bpflens:site and bpflens:done, each at two places with different specs (usdtsites.c).
QString usdtSites()
{
    return QStringLiteral(BPFLENS_USDTSITES);
}

struct Recording
{
    QString attachPath;
    QVariantMap options; // as resolved
    RecordBatch batch;
    Log2Histogram histogram{HistogramUnit::Value};
    QHash<QString, Log2Histogram> histograms;
    QHash<QString, double> counters;
    quint64 lost = 0;
};

// Resolves and starts probe id, runs program with items as one process (the probe limited to
// it), stops and merges what came out.
bool record(const QString &id, const QVariantMap &options, const QString &program,
            const QByteArrayList &items, Recording *r, QString *error)
{
    test::GatedExec child(program.toLocal8Bit(), items);
    QVariantMap o = options;
    o.insert(QStringLiteral("pid"), qint64(child.pid()));
    QList<ProbeConfig> req{{id, o, {}}};
    if (!resolveProbeTargets(req, error))
        return false;
    Engine engine;
    if (!engine.start(req, error))
        return false;
    r->attachPath = req[0].attachPath;
    r->options = req[0].options;
    bool ok = child.go();
    QDeadlineTimer deadline(30000);
    while (!child.finished() && !deadline.hasExpired())
        engine.poll(20, r->batch);
    ok = child.exitedCleanly() && ok;
    engine.poll(10, r->batch);
    engine.stop(&r->batch);
    bool first = true;
    for (const HistogramSnapshot &s : std::as_const(r->batch.histograms)) {
        if (first)
            r->histogram = Log2Histogram(s.histogram.unit());
        first = false;
        r->histogram.merge(s.histogram);
        r->histograms[s.key].merge(s.histogram);
    }
    for (const ProbeStats &s : std::as_const(r->batch.stats))
        r->lost = qMax(r->lost, s.eventsLost);
    for (const CounterSample &c : std::as_const(r->batch.counters))
        r->counters[c.name] += c.value;
    if (!ok)
        *error = QStringLiteral("%1 failed").arg(program);
    return ok;
}

// The counters tpcount made per key, without its loss counters (zero in these runs).
QHash<QString, double> keyCounts(const Recording &r)
{
    QHash<QString, double> keys;
    for (auto it = r.counters.cbegin(); it != r.counters.cend(); ++it) {
        if (it.key() == TpCountProbe::keysFullCounter() ||
            it.key() == TpCountProbe::unreadableCounter())
            continue;
        keys.insert(it.key(), it.value());
    }
    return keys;
}

bool sameSlots(const Log2Histogram &a, const Log2Histogram &b)
{
    for (int i = 0; i < Log2Histogram::MaxSlots; ++i) {
        if (a.slot(i) != b.slot(i))
            return false;
    }
    return true;
}

} // namespace

class TestUserHooks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QVERIFY(QFile::exists(uprobeTarget()));
        QVERIFY(QFile::exists(usdtTarget()));
        QVERIFY(QFile::exists(usdtSites()));
    }

    // funclatency for a user function: bpflens_sleep(3000) sleeps at least 3 ms, so every pair
    // from its entry to its return is at least that long; the calls of bpflens_count in between
    // are not paired.
    void entryToReturnOfAUserFunction()
    {
        constexpr int calls = 12;
        constexpr quint64 sleepNs = 3000 * 1000;
        const QString fn = uprobeTarget() + QStringLiteral(":bpflens_sleep");
        Recording r;
        QString error;
        QVERIFY2(record(QStringLiteral("tppair"),
                        {{QStringLiteral("start"), QStringLiteral("u:") + fn},
                         {QStringLiteral("end"), QStringLiteral("ur:") + fn},
                         {QStringLiteral("thresholdUs"), 0},
                         {QStringLiteral("units"), QStringLiteral("usecs")}},
                        uprobeTarget(), {"sleep:3000:12", "other:1:40"}, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.options.value(QStringLiteral("start")).toString(), QStringLiteral("u:") + fn);
        QCOMPARE(r.attachPath, QStringLiteral("uprobe/%1, uretprobe/%1").arg(fn));
        QCOMPARE(r.lost, 0u);
        QCOMPARE(r.batch.tpPair.size(), calls);
        QCOMPARE(r.histogram.count(), quint64(calls));
        // Each pair at least the sleep and well under a second more (a loaded machine).
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair)) {
            QVERIFY2(e.latencyNs >= sleepNs && e.latencyNs < sleepNs + 1000000000ull,
                     qPrintable(QString::number(e.latencyNs)));
            QCOMPARE(e.key, quint64(e.tid));
        }
        // The histogram holds the same latencies, in microseconds.
        Log2Histogram expected(HistogramUnit::Microseconds);
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair))
            expected.add(e.latencyNs / 1000);
        QVERIFY(sameSlots(r.histogram, expected));
    }

    // Two USDT probes: bpflens:tick(word, n, c) starts, the semaphore-guarded
    // bpflens:guarded(n, word) ends, paired by n (tick's arg1, guarded's arg0). Each pair's own
    // n: tick 7 is ended by guarded 7 only.
    void pairOfTwoUsdtProbesKeyedByAnArgument()
    {
        const QString prefix = QStringLiteral("usdt:") + usdtTarget() + QStringLiteral(":bpflens:");
        QByteArrayList items;
        constexpr int pairs = 9;
        for (int i = 0; i < pairs; ++i) {
            const QByteArray n = QByteArray::number(100 + i);
            items << "tick:w:" + n + ":1"
                  << "guarded:w:" + n + ":1";
        }
        // A tick nothing ends, and a guarded nothing started.
        items << "tick:w:5:1"
              << "guarded:w:6:1";
        Recording r;
        QString error;
        QVERIFY2(record(QStringLiteral("tppair"),
                        {{QStringLiteral("start"), prefix + QStringLiteral("tick")},
                         {QStringLiteral("end"), prefix + QStringLiteral("guarded")},
                         {QStringLiteral("key"), QStringLiteral("arg1")},
                         {QStringLiteral("endKey"), QStringLiteral("arg0")},
                         {QStringLiteral("thresholdUs"), 0}},
                        usdtTarget(), items, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.lost, 0u);
        QList<quint64> keys;
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair))
            keys << e.key;
        QList<quint64> expected;
        for (int i = 0; i < pairs; ++i)
            expected << quint64(100 + i);
        QCOMPARE(keys, expected);
        QCOMPARE(r.histogram.count(), quint64(pairs));
    }

    // Both sides at two places each, with a constant at one and a register at the other:
    // site(7, c) ... done(7) five times, site(9, c) ... done(9) three times, paired by arg0. A
    // side read with the wrong site's specs would pair nothing or pair under another key.
    void pairOfUsdtProbesAtSeveralSites()
    {
        const QString prefix = QStringLiteral("usdt:") + usdtSites() + QStringLiteral(":bpflens:");
        Recording r;
        QString error;
        const bool ok = record(QStringLiteral("tppair"),
                               {{QStringLiteral("start"), prefix + QStringLiteral("site")},
                                {QStringLiteral("end"), prefix + QStringLiteral("done")},
                                {QStringLiteral("key"), QStringLiteral("arg0")},
                                {QStringLiteral("thresholdUs"), 0}},
                               usdtSites(), {"5", "9", "3"}, &r, &error);
        BPFLENS_USDT_SITES_REFUSED(ok, error);
        QVERIFY2(ok, qPrintable(error));
        const QString start = r.options.value(QStringLiteral("start")).toString().mid(5);
        const QString end = r.options.value(QStringLiteral("end")).toString().mid(5);
        QCOMPARE(r.attachPath,
                 QStringLiteral("usdt/%1 (at 2 sites), usdt/%2 (at 2 sites)").arg(start, end));
        QCOMPARE(r.lost, 0u);
        QCOMPARE(r.counters.value(QStringLiteral("unreadableKeys")), 0.0);
        QList<quint64> keys;
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair)) {
            keys << e.key;
            // A few instructions apart in one thread: far less than a second.
            QVERIFY2(e.latencyNs > 0 && e.latencyNs < 1000000000ull,
                     qPrintable(QString::number(e.latencyNs)));
        }
        QCOMPARE(keys, (QList<quint64>{7, 7, 7, 7, 7, 9, 9, 9}));
        QCOMPARE(r.histogram.count(), quint64(8));
    }

    // tpcount at the same probe: hits per arg0 at both sites, and a histogram of arg1 (c,
    // from a different register at each site) per arg0.
    void countsUsdtHitsAtSeveralSites()
    {
        const QString site =
            QStringLiteral("usdt:") + usdtSites() + QStringLiteral(":bpflens:site");
        Recording r;
        QString error;
        const bool ok = record(
            QStringLiteral("tpcount"),
            {{QStringLiteral("tracepoint"), site}, {QStringLiteral("key"), QStringLiteral("arg0")}},
            usdtSites(), {"5", "9", "3"}, &r, &error);
        BPFLENS_USDT_SITES_REFUSED(ok, error);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(r.attachPath,
                 QStringLiteral("usdt/%1 (at 2 sites)")
                     .arg(r.options.value(QStringLiteral("tracepoint")).toString().mid(5)));
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{QStringLiteral("arg0=7"), 5.0},
                                                       {QStringLiteral("arg0=9"), 3.0}}));

        Recording h;
        QVERIFY2(record(QStringLiteral("tpcount"),
                        {{QStringLiteral("tracepoint"), site},
                         {QStringLiteral("key"), QStringLiteral("arg0")},
                         {QStringLiteral("histogram"), QStringLiteral("arg1")}},
                        usdtSites(), {"20", "-4", "9"}, &h, &error),
                 qPrintable(error));
        QCOMPARE(h.histograms.size(), 2);
        for (const auto &[n, count] : {std::pair{7, 20}, std::pair{-4, 9}}) {
            Log2Histogram expected(HistogramUnit::Value);
            for (int c = 0; c < count; ++c)
                expected.add(quint64(c));
            const QString key = QStringLiteral("arg0=%1").arg(n);
            QVERIFY2(h.histograms.contains(key), qPrintable(h.histograms.keys().join(u',')));
            QVERIFY(sameSlots(h.histograms.value(key), expected));
        }
    }

    // A tracepoint and a uprobe in one pair, keyed by thread: from the function's entry to the
    // nanosleep system call it makes, its only one (a 6.1 guest whose clock had no vDSO ended
    // bpflens_sleep's pairs at its clock_gettime, 0.15 ms in).
    void tracepointAndUprobeInOnePair()
    {
        Recording r;
        QString error;
        QVERIFY2(record(QStringLiteral("tppair"),
                        {{QStringLiteral("start"),
                          QStringLiteral("u:") + uprobeTarget() + QStringLiteral(":bpflens_nap")},
                         {QStringLiteral("end"), QStringLiteral("sys_exit")},
                         {QStringLiteral("thresholdUs"), 0}},
                        uprobeTarget(), {"nap:1000:6"}, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.batch.tpPair.size(), 6);
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair))
            QVERIFY2(e.latencyNs >= 1000 * 1000, qPrintable(QString::number(e.latencyNs)));
    }

    // sync_timing at a user function: start and end both libc's sync, keyed by pid. The
    // target's 5 calls, 10, 30, 20 and 20 ms apart, give exactly the 4 times from one call to
    // the next, each within what the target measured around the two calls.
    void sameHookTimesOneCallToTheNext()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString timesPath = dir.filePath(QStringLiteral("times"));
        qputenv("BPFLENS_UPROBETARGET_TIMES", QFile::encodeName(timesPath));
        Recording r;
        QString error;
        const bool recorded =
            record(QStringLiteral("tppair"),
                   {{QStringLiteral("start"), QStringLiteral("u:libc:sync")},
                    {QStringLiteral("end"), QStringLiteral("u:libc:sync")},
                    {QStringLiteral("key"), QStringLiteral("pid")},
                    {QStringLiteral("thresholdUs"), 0}},
                   uprobeTarget(), {"sync:0:1", "sync:10000:1", "sync:30000:1", "sync:20000:2"}, &r,
                   &error);
        qunsetenv("BPFLENS_UPROBETARGET_TIMES");
        QVERIFY2(recorded, qPrintable(error));
        const QString hook = r.options.value(QStringLiteral("start")).toString();
        QVERIFY2(hook.startsWith(QLatin1String("u:/")) && hook.endsWith(QLatin1String(":sync")),
                 qPrintable(hook));
        QCOMPARE(r.options.value(QStringLiteral("end")).toString(), hook);
        // One program at the one hook, not a start and an end that would both run on each hit.
        QCOMPARE(r.attachPath, QStringLiteral("uprobe/") + hook.mid(2));
        QList<QPair<quint64, quint64>> calls; // before, after
        QFile timesFile(timesPath);
        QVERIFY2(timesFile.open(QIODevice::ReadOnly), qPrintable(timesFile.errorString()));
        for (const QByteArray &line : timesFile.readAll().split('\n')) {
            const QList<QByteArray> f = line.split(' ');
            if (f.size() == 3 && f[0] == "sync")
                calls.append({f[1].toULongLong(), f[2].toULongLong()});
        }
        QCOMPARE(calls.size(), 5);
        const quint64 sleptMs[] = {10, 30, 20, 20};
        QCOMPARE(r.lost, 0u);
        QList<TpPairEvent> pairs = r.batch.tpPair;
        std::sort(pairs.begin(), pairs.end(),
                  [](const TpPairEvent &a, const TpPairEvent &b) { return a.timeNs < b.timeNs; });
        QCOMPARE(pairs.size(), 4);
        QCOMPARE(r.histogram.count(), 4u);
        for (qsizetype i = 0; i < pairs.size(); ++i) {
            const TpPairEvent &e = pairs[i];
            // The probe's times of the two calls are within [before, after] of each.
            const quint64 shortest = calls[i + 1].first - calls[i].second;
            const quint64 longest = calls[i + 1].second - calls[i].first;
            QVERIFY2(e.latencyNs >= shortest && e.latencyNs <= longest &&
                         e.latencyNs >= sleptMs[i] * 1000000,
                     qPrintable(QStringLiteral("pair %1: %2 ns, the calls %3..%4 ns apart")
                                    .arg(i)
                                    .arg(e.latencyNs)
                                    .arg(shortest)
                                    .arg(longest)));
            QCOMPARE(e.key, quint64(e.pid));
            QVERIFY(e.timeNs >= calls[i + 1].first && e.timeNs <= calls[i + 1].second);
        }
    }

    // strlen_count for our own function: every call counted, and only those.
    void countsCallsOfAUserFunction()
    {
        Recording r;
        QString error;
        QVERIFY2(record(QStringLiteral("tpcount"),
                        {{QStringLiteral("tracepoint"), QStringLiteral("u:") + uprobeTarget() +
                                                            QStringLiteral(":bpflens_count")}},
                        uprobeTarget(), {"a:1:7", "bb:2:5", "sleep:1:3"}, &r, &error),
                 qPrintable(error));
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{TpCountProbe::hitsCounter(), 12.0}}));
    }

    // A USDT probe's hits per argument (signed n) and per command, and a histogram of another
    // argument (the loop counter c) per n, against what usdttarget fired.
    void countsUsdtHitsPerArgument()
    {
        const QString tick =
            QStringLiteral("usdt:") + usdtTarget() + QStringLiteral(":bpflens:tick");
        Recording r;
        QString error;
        QVERIFY2(record(QStringLiteral("tpcount"),
                        {{QStringLiteral("tracepoint"), tick},
                         {QStringLiteral("key"), QStringLiteral("arg1")}},
                        usdtTarget(), {"tick:hello:-7:30", "tick:world:42:12", "tick:x:0:3"}, &r,
                        &error),
                 qPrintable(error));
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{QStringLiteral("arg1=-7"), 30.0},
                                                       {QStringLiteral("arg1=42"), 12.0},
                                                       {QStringLiteral("arg1=0"), 3.0}}));

        Recording h;
        QVERIFY2(record(QStringLiteral("tpcount"),
                        {{QStringLiteral("tracepoint"), tick},
                         {QStringLiteral("key"), QStringLiteral("arg1")},
                         {QStringLiteral("histogram"), QStringLiteral("arg2")}},
                        usdtTarget(), {"tick:hello:-7:30", "tick:world:42:12"}, &h, &error),
                 qPrintable(error));
        QCOMPARE(h.histograms.size(), 2);
        for (const auto &[n, count] : {std::pair{-7, 30}, std::pair{42, 12}}) {
            Log2Histogram expected(HistogramUnit::Value);
            for (int c = 0; c < count; ++c)
                expected.add(quint64(c));
            const QString key = QStringLiteral("arg1=%1").arg(n);
            QVERIFY2(h.histograms.contains(key), qPrintable(h.histograms.keys().join(u',')));
            QVERIFY(sameSlots(h.histograms.value(key), expected));
        }
    }

    void badHooksAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("probe");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("hook");
        QTest::addColumn<QString>("expected");
        const QString up = uprobeTarget();
        const QString usdt = usdtTarget();
        for (const char *probeId : {"tppair", "tpcount"}) {
            const QString probe = QLatin1String(probeId);
            const QString option = probe == QLatin1String("tppair") ? QStringLiteral("start")
                                                                    : QStringLiteral("tracepoint");
            const QString head = QStringLiteral("probe %1, %2 ").arg(probe, option);
            auto row = [&](const char *name, const QString &hook, const QString &why) {
                QTest::newRow(qPrintable(probe + QLatin1Char(' ') + QLatin1String(name)))
                    << probe << option << hook << head + hook + QStringLiteral(": ") + why;
            };
            row("no binary", QStringLiteral("u:/nonexistent/prog:main"),
                QStringLiteral("cannot open /nonexistent/prog: No such file or directory"));
            row("not elf", QStringLiteral("u:/etc/hostname:main"),
                QStringLiteral("/etc/hostname is not an ELF file"));
            row("no symbol", QStringLiteral("u:") + up + QStringLiteral(":no_such_function"),
                QStringLiteral("no function no_such_function in %1 (searched .symtab and .dynsym)")
                    .arg(up));
            row("no probe", QStringLiteral("usdt:") + usdt + QStringLiteral(":bpflens:nope"),
                QStringLiteral("no USDT probe bpflens:nope in %1; it has bpflens:guarded, "
                               "bpflens:tick")
                    .arg(usdt));
            row("no notes", QStringLiteral("usdt:") + up + QStringLiteral(":p:n"),
                QStringLiteral("%1 has no USDT probes (no .note.stapsdt section)").arg(up));
        }
    }

    // Refused by the client, which resolves the hook: nothing reaches the engine.
    void badHooksAreRefusedWithTheReason()
    {
        QFETCH(QString, probe);
        QFETCH(QString, option);
        QFETCH(QString, hook);
        QFETCH(QString, expected);
        QList<ProbeConfig> req{{probe, {{option, hook}}, {}}};
        QString error;
        QVERIFY(!resolveProbeTargets(req, &error));
        QCOMPARE(error, expected);
        QVERIFY(!req[0].file.isValid());
    }

    // Refused by the engine (what the helper checks itself), with nothing loaded.
    void engineRefusesWithTheReason_data()
    {
        QTest::addColumn<QString>("probe");
        QTest::addColumn<QVariantMap>("options");
        QTest::addColumn<QString>("expected");
        const QString fn = QStringLiteral(":bpflens_sleep");
        const QString u = QStringLiteral("u:") + uprobeTarget() + fn;
        const QString tick =
            QStringLiteral("usdt:") + usdtTarget() + QStringLiteral(":bpflens:tick");
        QTest::newRow("function argument as key")
            << QStringLiteral("tppair")
            << QVariantMap{{QStringLiteral("start"), u},
                           {QStringLiteral("end"), QStringLiteral("ur:") + uprobeTarget() + fn},
                           {QStringLiteral("key"), QStringLiteral("arg0")}}
            << QStringLiteral("probe tppair cannot run on this kernel: start: key arg0 at %1: only "
                              "a USDT probe's arguments can be keys here; use tid or pid")
                   .arg(u);
        QTest::newRow("argument past the probe's")
            << QStringLiteral("tpcount")
            << QVariantMap{{QStringLiteral("tracepoint"), tick},
                           {QStringLiteral("key"), QStringLiteral("arg3")}}
            << QStringLiteral("probe tpcount cannot run on this kernel: key arg3 at %1: the "
                              "USDT probe has 3 arguments")
                   .arg(tick);
        // One hook times each hit to the next of its key: a second key could not pair them.
        QTest::newRow("same hook, two keys")
            << QStringLiteral("tppair")
            << QVariantMap{{QStringLiteral("start"), u},
                           {QStringLiteral("end"), u},
                           {QStringLiteral("endKey"), QStringLiteral("pid")}}
            << QStringLiteral("probe tppair cannot run on this kernel: start and end are the same "
                              "hook (%1): each hit ends its key's pair and starts the next, so "
                              "endKey pid must be empty or name the same value as key tid")
                   .arg(u);
    }

    void engineRefusesWithTheReason()
    {
        QFETCH(QString, probe);
        QFETCH(QVariantMap, options);
        QFETCH(QString, expected);
        QList<ProbeConfig> req{{probe, options, {}}};
        QString error;
        QVERIFY2(resolveProbeTargets(req, &error), qPrintable(error));
        Engine engine;
        QVERIFY(!engine.start(req, &error));
        QCOMPARE(error, expected);
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }

    // A pair whose sides are in two binaries: from bpflens_sleep's entry in uprobetarget to the
    // return of the libc nanosleep it calls, each side attached in its own file (the end's is
    // ProbeConfig::file2). Every pair is at least the sleep, and far less than a second.
    void sidesInTwoBinaries()
    {
        const QString start =
            QStringLiteral("u:") + uprobeTarget() + QStringLiteral(":bpflens_sleep");
        Recording r;
        QString error;
        QVERIFY2(record(QStringLiteral("tppair"),
                        {{QStringLiteral("start"), start},
                         {QStringLiteral("end"), QStringLiteral("ur:libc:nanosleep")},
                         {QStringLiteral("thresholdUs"), 0}},
                        uprobeTarget(), {"sleep:2000:9", "other:1:20"}, &r, &error),
                 qPrintable(error));
        const QString end = r.options.value(QStringLiteral("end")).toString();
        QVERIFY2(end.startsWith(QLatin1String("ur:/")) && end.endsWith(QLatin1String(":nanosleep")),
                 qPrintable(end));
        QCOMPARE(r.attachPath,
                 QStringLiteral("uprobe/%1, uretprobe/%2").arg(start.mid(2), end.mid(3)));
        QCOMPARE(r.lost, 0u);
        QCOMPARE(r.batch.tpPair.size(), 9);
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair))
            QVERIFY2(e.latencyNs >= 2000 * 1000 && e.latencyNs < 1000ull * 1000 * 1000,
                     qPrintable(QString::number(e.latencyNs)));
        QCOMPARE(r.histogram.count(), quint64(9));

        // A caller that sends the end's offset for the start's file: checked in its own file.
        QList<ProbeConfig> req{{QStringLiteral("tppair"),
                                {{QStringLiteral("start"), start},
                                 {QStringLiteral("end"), QStringLiteral("ur:libc:nanosleep")}},
                                {}}};
        QVERIFY2(resolveProbeTargets(req, &error), qPrintable(error));
        QVERIFY(req[0].file.isValid() && req[0].file2.isValid());
        req[0].options.insert(QStringLiteral("endOffset"), qint64(1) << 40);
        QVERIFY(!Engine().start(req, &error));
        QVERIFY2(
            error.startsWith(QStringLiteral("probe tppair: %1: offset 0x10000000000 ").arg(end)),
            qPrintable(error));
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
        // And a second file for a probe that has one user-space side only.
        req = {{QStringLiteral("tpcount"), {{QStringLiteral("tracepoint"), start}}, {}}};
        QVERIFY2(resolveProbeTargets(req, &error), qPrintable(error));
        req[0].file2 = req[0].file;
        QVERIFY(!Engine().start(req, &error));
        QCOMPARE(error, QStringLiteral("probe tpcount takes no second file"));
    }

    // A caller that sends an offset outside the code for the second side: the helper checks
    // both sides, not only the one ProbeConfig::fileOffset names.
    void engineChecksBothSidesOffsets()
    {
        const QString fn = uprobeTarget() + QStringLiteral(":bpflens_sleep");
        QList<ProbeConfig> req{{QStringLiteral("tppair"),
                                {{QStringLiteral("start"), QStringLiteral("u:") + fn},
                                 {QStringLiteral("end"), QStringLiteral("ur:") + fn}},
                                {}}};
        QString error;
        QVERIFY2(resolveProbeTargets(req, &error), qPrintable(error));
        req[0].options.insert(QStringLiteral("endOffset"), qint64(0));
        Engine engine;
        QVERIFY(!engine.start(req, &error));
        QCOMPARE(error, QStringLiteral("probe tppair: ur:%1: offset 0x0 is not in an executable "
                                       "segment of the file")
                            .arg(fn));
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }

    // kprobes where the kernel has them; this development machine has none, so here the
    // refusal must name why (the VM matrix has kprobes: there the counts must be exact). tpcount
    // counts the function's calls; tppair times its entry to its return (funclatency).
    void kprobeHooks()
    {
        KernelFeatures kernel;
        const QString fn = QStringLiteral("hrtimer_nanosleep");
        const QVariantMap pair{{QStringLiteral("start"), QStringLiteral("k:") + fn},
                               {QStringLiteral("end"), QStringLiteral("kr:") + fn},
                               {QStringLiteral("thresholdUs"), 0}};
        QList<ProbeConfig> req{{QStringLiteral("tpcount"),
                                {{QStringLiteral("tracepoint"), QStringLiteral("k:") + fn}},
                                {}},
                               {QStringLiteral("tppair"), pair, {}}};
        QString error;
        QVERIFY2(resolveProbeTargets(req, &error), qPrintable(error));
        if (!kernel.canKprobe(fn)) {
            const QString r = kernel.kprobeUnavailableReason();
            const QString why = r.isEmpty() ? fn + QStringLiteral(" cannot be kprobed") : r;
            QList<ProbeConfig> count{req[0]}, timed{req[1]};
            QVERIFY(!Engine().start(count, &error));
            QCOMPARE(error, QStringLiteral("probe tpcount cannot run on this kernel: ") + why);
            QVERIFY(!Engine().start(timed, &error));
            QCOMPARE(error,
                     QStringLiteral("probe tppair cannot run on this kernel: start: ") + why);
            QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
            BPFLENS_REQUIRE_HOOKS(QStringLiteral("kprobe"), false);
            return;
        }
        Recording r;
        QVERIFY2(record(QStringLiteral("tpcount"),
                        {{QStringLiteral("tracepoint"), QStringLiteral("k:") + fn}}, uprobeTarget(),
                        {"sleep:1000:8"}, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.attachPath, QStringLiteral("kprobe/") + fn);
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{TpCountProbe::hitsCounter(), 8.0}}));

        // The target's 8 sleeps of 2 ms, each one call of the function on its thread.
        Recording p;
        QVERIFY2(
            record(QStringLiteral("tppair"), pair, uprobeTarget(), {"sleep:2000:8"}, &p, &error),
            qPrintable(error));
        QCOMPARE(p.attachPath, QStringLiteral("kprobe/%1, kretprobe/%1").arg(fn));
        QCOMPARE(p.lost, 0u);
        QCOMPARE(p.batch.tpPair.size(), 8);
        QCOMPARE(p.histogram.count(), 8u);
        for (const TpPairEvent &e : std::as_const(p.batch.tpPair)) {
            QVERIFY2(e.latencyNs >= 2000 * 1000 && e.latencyNs < 1000ull * 1000 * 1000,
                     qPrintable(QString::number(e.latencyNs)));
            QCOMPARE(e.key, quint64(e.tid));
        }
    }
};

QTEST_GUILESS_MAIN(TestUserHooks)
#include "tst_userhooks.moc"
