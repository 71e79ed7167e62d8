// The usdt probe against the real kernel: usdttarget (tests/programs) fires bpflens:tick and the
// semaphore-guarded bpflens:guarded with known arguments a known number of times, and the counts
// per key and the events' arguments must match exactly, read from registers (-O2) and from the
// stack (-O0). The probes are resolved as the client resolves them (client/probetargets.h): the
// engine only gets the opened file, the offsets and the argument specs. Bad targets are refused
// with the reason, before anything is loaded.
#include "client/probetargets.h"
#include "helper/engine.h"
#include "helper/usdtprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QFileInfo>
#include <QTest>

using namespace bpflens;

namespace {

const QList<QByteArray> ourPrograms{"usdt_"};

struct Recording
{
    QString attachPath;
    QString target;
    QString args;
    RecordBatch batch;
    QHash<QString, double> counters;
    quint64 lost = 0;
};

// Resolves and starts the probe, runs each item list as one process of program (filtered to the
// first one when filterFirst), stops and merges what came out.
bool record(const QString &program, QVariantMap options, const QList<QByteArrayList> &runs,
            Recording *r, QString *error, bool filterFirst = false)
{
    std::vector<std::unique_ptr<test::GatedExec>> children;
    for (const QByteArrayList &items : runs)
        children.push_back(std::make_unique<test::GatedExec>(program.toLocal8Bit(), items));
    if (filterFirst)
        options.insert(QStringLiteral("pid"), qint64(children.front()->pid()));
    QList<ProbeConfig> req{{QStringLiteral("usdt"), options, {}}};
    if (!resolveProbeTargets(req, error))
        return false;
    Engine engine;
    if (!engine.start(req, error))
        return false;
    r->attachPath = req[0].attachPath;
    r->target = req[0].options.value(QStringLiteral("target")).toString();
    r->args = req[0].options.value(QStringLiteral("args")).toString();
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
    for (const ProbeStats &s : std::as_const(r->batch.stats))
        r->lost = qMax(r->lost, s.eventsLost);
    for (const CounterSample &c : std::as_const(r->batch.counters))
        r->counters[c.name] += c.value;
    if (!ok)
        *error = QStringLiteral("usdttarget failed");
    return ok;
}

QVariantMap options(const QString &program, const QString &probe, const QString &key = QString(),
                    bool events = true)
{
    return {{QStringLiteral("target"), program + QLatin1Char(':') + probe},
            {QStringLiteral("key"), key},
            {QStringLiteral("events"), events}};
}

// The counters a key made, without the probe's fault and loss counters (zero in these runs).
QHash<QString, double> keyCounts(const Recording &r)
{
    QHash<QString, double> keys;
    for (auto it = r.counters.cbegin(); it != r.counters.cend(); ++it) {
        if (it.key() == UsdtProbe::keysFullCounter() ||
            it.key() == UsdtProbe::unreadableCounter() || it.key() == UsdtProbe::argFaultsCounter())
            continue;
        keys.insert(it.key(), it.value());
    }
    return keys;
}

} // namespace

class TestUsdt : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QVERIFY(QFile::exists(QStringLiteral(BPFLENS_USDTTARGET)));
        QVERIFY(QFile::exists(QStringLiteral(BPFLENS_USDTTARGET_O0)));
    }

    void countsAndRecordsEveryHit_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("specs");
        // The specs as GCC wrote them (readelf -n), registers by their 64-bit names.
        QTest::newRow("-O2 registers")
            << QStringLiteral(BPFLENS_USDTTARGET) << QStringLiteral("8@%rdi -4@%rsi 8@%rdx");
        QTest::newRow("-O0 stack") << QStringLiteral(BPFLENS_USDTTARGET_O0)
                                   << QStringLiteral("8@-8(%rbp) -4@-12(%rbp) 8@-24(%rbp)");
    }

    void countsAndRecordsEveryHit()
    {
        QFETCH(QString, program);
        QFETCH(QString, specs);
        Recording r;
        QString error;
        QVERIFY2(record(program, options(program, QStringLiteral("bpflens:tick")),
                        {{"tick:hello:-7:30", "tick:world:42:12"}}, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.args, specs);
        QVERIFY2(r.target.startsWith(QLatin1Char('/')) &&
                     r.target.endsWith(QLatin1String(":bpflens:tick")),
                 qPrintable(r.target));
        QCOMPARE(r.attachPath, QStringLiteral("usdt/") + r.target);
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{UsdtProbe::hitsCounter(), 42.0}}));
        QCOMPARE(r.counters.value(UsdtProbe::argFaultsCounter()), 0.0);
        QCOMPARE(r.lost, 0u);
        // Every hit an event, in order, with all three arguments: the word's address, N signed,
        // and the loop counter. Expected: the same loops, computed here.
        QCOMPARE(r.batch.usdt.size(), 42);
        QList<QByteArray> expected;
        for (int c = 0; c < 30; ++c)
            expected << "-7 " + QByteArray::number(c);
        for (int c = 0; c < 12; ++c)
            expected << "42 " + QByteArray::number(c);
        QByteArray firstWordAddress;
        for (qsizetype i = 0; i < r.batch.usdt.size(); ++i) {
            const UsdtEvent &e = r.batch.usdt[i];
            const QList<QByteArray> parts = e.args.split(' ');
            QCOMPARE(parts.size(), 3);
            QCOMPARE(parts[1] + ' ' + parts[2], expected[i]);
            QVERIFY2(parts[0].toULongLong() > 0, e.args.constData());
            QCOMPARE(e.comm, QFileInfo(program).fileName().left(15).toUtf8());
            QVERIFY(e.text.isEmpty());
        }
    }

    // bpflens:site is at two places whose specs differ: "-4@$7 8@%rdi" (a constant) and
    // "-4@%edi 8@%rsi" (registers). Both attached, each read with its own specs: 5 hits with
    // arg0 7 and 3 with arg0 9 (what usdtsites was told), c counting from 0 at each.
    void firesAtEverySiteWithItsOwnSpecs()
    {
        const QString program = QStringLiteral(BPFLENS_USDTSITES);
        Recording r;
        QString error;
        const bool ok = record(
            program, options(program, QStringLiteral("bpflens:site"), QStringLiteral("arg0")),
            {{"5", "9", "3"}}, &r, &error);
        BPFLENS_USDT_SITES_REFUSED(ok, error);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(r.args, QStringLiteral("-4@$7 8@%rdi"));
        QCOMPARE(r.attachPath, QStringLiteral("usdt/%1 (at 2 sites)").arg(r.target));
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{QStringLiteral("arg0=7"), 5.0},
                                                       {QStringLiteral("arg0=9"), 3.0}}));
        QCOMPARE(r.counters.value(UsdtProbe::argFaultsCounter()), 0.0);
        QByteArrayList args;
        for (const UsdtEvent &e : std::as_const(r.batch.usdt))
            args << e.args;
        QCOMPARE(args, (QByteArrayList{"7 0", "7 1", "7 2", "7 3", "7 4", "9 0", "9 1", "9 2"}));
    }

    // One site more than a probe attaches at: refused by the client with the count, and by the
    // engine (as the helper) when a caller sends that many, with nothing loaded.
    void tooManySitesAreRefused()
    {
        const QString program = QStringLiteral(BPFLENS_USDTSITES);
        QList<ProbeConfig> req{
            {QStringLiteral("usdt"), options(program, QStringLiteral("bpflens:many")), {}}};
        QString error;
        QVERIFY(!resolveProbeTargets(req, &error));
        QCOMPARE(error, QStringLiteral("probe usdt, target %1:bpflens:many: USDT probe "
                                       "bpflens:many in %1 is at 65 places; at most 64 are "
                                       "attached at once")
                            .arg(program));
        req = {{QStringLiteral("usdt"), options(program, QStringLiteral("bpflens:site")), {}}};
        QVERIFY2(resolveProbeTargets(req, &error), qPrintable(error));
        QStringList sites;
        for (int i = 0; i < 65; ++i)
            sites << QString::number(req[0].fileOffset) + QStringLiteral("=-4@$7");
        req[0].options.insert(QStringLiteral("sites"), sites.join(QLatin1Char(';')));
        QVERIFY(!Engine().start(req, &error));
        QCOMPARE(error, QStringLiteral("probe usdt cannot run on this kernel: 65 sites, more than "
                                       "the 64 one probe attaches at"));
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
        // And every site's offset is checked, not only the one fileOffset names.
        req[0].options.insert(QStringLiteral("sites"), QString::number(req[0].fileOffset) +
                                                           QStringLiteral("=-4@$7;0=-4@$7"));
        QVERIFY(!Engine().start(req, &error));
        QCOMPARE(error, QStringLiteral("probe usdt: site 2 of 2: offset 0x0 is not in an "
                                       "executable segment of the file"));
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }

    void countsPerIntegerArgument()
    {
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        Recording r;
        QString error;
        QVERIFY2(record(program,
                        options(program, QStringLiteral("tick"), QStringLiteral("arg1"), false),
                        {{"tick:a:7:30", "tick:b:-3:12", "tick:c:7:5"}}, &r, &error),
                 qPrintable(error));
        // Signed as the spec says (-4@): -3, not 4294967293.
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{QStringLiteral("arg1=7"), 35.0},
                                                       {QStringLiteral("arg1=-3"), 12.0}}));
        // Events off: counts only.
        QVERIFY(r.batch.usdt.isEmpty());
    }

    void countsPerStringArgumentFromTheStack()
    {
        const QString program = QStringLiteral(BPFLENS_USDTTARGET_O0);
        Recording r;
        QString error;
        QVERIFY2(
            record(program,
                   options(program, QStringLiteral("bpflens:tick"), QStringLiteral("str(arg0)")),
                   {{"tick:hello:1:40", "tick:world:1:25", "tick:hello:2:2"}}, &r, &error),
            qPrintable(error));
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{QStringLiteral("\"hello\""), 42.0},
                                                       {QStringLiteral("\"world\""), 25.0}}));
        // Each event carries the string it was counted by.
        QCOMPARE(r.batch.usdt.size(), 67);
        int hello = 0;
        for (const UsdtEvent &e : std::as_const(r.batch.usdt))
            hello += e.text == "hello";
        QCOMPARE(hello, 42);
    }

    // bpflens:guarded fires only while its semaphore is non-zero: every hit seen means the
    // kernel incremented it (ref_ctr_offset) in the process, which started before the attach.
    void semaphoreGuardedProbeFires()
    {
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        Recording r;
        QString error;
        QVERIFY2(
            record(program,
                   options(program, QStringLiteral("bpflens:guarded"), QStringLiteral("str(arg1)")),
                   {{"guarded:abc:5:17", "guarded:xyz:-9:4"}}, &r, &error),
            qPrintable(error));
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{QStringLiteral("\"abc\""), 17.0},
                                                       {QStringLiteral("\"xyz\""), 4.0}}));
        QCOMPARE(r.batch.usdt.size(), 21);
        QCOMPARE(r.batch.usdt.first().args.split(' ').first(), QByteArray("5"));
        QCOMPARE(r.batch.usdt.last().args.split(' ').first(), QByteArray("-9"));
    }

    void pidFilterCountsOneProcess()
    {
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        Recording r;
        QString error;
        QVERIFY2(record(program, options(program, QStringLiteral("tick"), QString(), false),
                        {{"tick:a:1:17"}, {"tick:a:1:40"}}, &r, &error, true),
                 qPrintable(error));
        QCOMPARE(keyCounts(r), (QHash<QString, double>{{UsdtProbe::hitsCounter(), 17.0}}));
    }

    void badTargetsAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("expected");
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        QTest::newRow("no file") << QStringLiteral("/nonexistent/prog:p:n")
                                 << QStringLiteral("No such file");
        QTest::newRow("not elf") << QStringLiteral("/etc/hostname:p:n")
                                 << QStringLiteral("not an ELF file");
        QTest::newRow("no probe")
            << program + QStringLiteral(":bpflens:nope")
            << QStringLiteral("no USDT probe bpflens:nope in %1; it has bpflens:guarded, "
                              "bpflens:tick")
                   .arg(program);
        QTest::newRow("other provider") << program + QStringLiteral(":other:tick")
                                        << QStringLiteral("no USDT probe other:tick in");
        QTest::newRow("no notes") << QStringLiteral(BPFLENS_UPROBETARGET ":p:n")
                                  << QStringLiteral(
                                         "has no USDT probes (no .note.stapsdt section)");
    }

    void badTargetsAreRefusedWithTheReason()
    {
        QFETCH(QString, target);
        QFETCH(QString, expected);
        QList<ProbeConfig> req{{QStringLiteral("usdt"), {{QStringLiteral("target"), target}}, {}}};
        QString error;
        QVERIFY(!resolveProbeTargets(req, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(!req[0].file.isValid());
    }

    // What a caller could send the helper instead of what the client resolved: refused before
    // anything is loaded.
    void engineRefusesWhatItCannotRead_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("index register")
            << QStringLiteral("args") << QVariant(QStringLiteral("8@(%rax,%rbx,8)"))
            << QStringLiteral("index registers are not supported");
        QTest::newRow("rip") << QStringLiteral("args") << QVariant(QStringLiteral("8@16(%rip)"))
                             << QStringLiteral("%rip-relative");
        QTest::newRow("key past args") << QStringLiteral("key") << QVariant(QStringLiteral("arg5"))
                                       << QStringLiteral("the USDT probe has 3 arguments");
        QTest::newRow("semaphore in code")
            << QStringLiteral("semaphore") << QVariant(qint64(0x1000))
            << QStringLiteral("not in a writable segment");
        QTest::newRow("odd semaphore") << QStringLiteral("semaphore") << QVariant(qint64(0x3011))
                                       << QStringLiteral("not 2-byte aligned");
    }

    void engineRefusesWhatItCannotRead()
    {
        QFETCH(QString, option);
        QFETCH(QVariant, value);
        QFETCH(QString, expected);
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        QList<ProbeConfig> req{
            {QStringLiteral("usdt"), options(program, QStringLiteral("tick")), {}}};
        QString error;
        QVERIFY2(resolveProbeTargets(req, &error), qPrintable(error));
        req[0].options.insert(option, value);
        Engine engine;
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }

    void badKeysAreRefused()
    {
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        for (const QString &key :
             {QStringLiteral("arg12"), QStringLiteral("str(arg0"), QStringLiteral("retval")}) {
            QVariantMap normalized;
            QString error;
            QVERIFY(!ProbeCatalog::validate(QStringLiteral("usdt"),
                                            options(program, QStringLiteral("tick"), key),
                                            &normalized, &error));
            QVERIFY2(error.contains(QLatin1String("option key")), qPrintable(error));
        }
        // Up to arg11 is a key: USDT probes have 12 arguments.
        QVariantMap normalized;
        QString error;
        QVERIFY2(ProbeCatalog::validate(
                     QStringLiteral("usdt"),
                     options(program, QStringLiteral("tick"), QStringLiteral("arg11")), &normalized,
                     &error),
                 qPrintable(error));
    }

    void nothingStaysAttached()
    {
        const QString program = QStringLiteral(BPFLENS_USDTTARGET);
        Recording r;
        QString error;
        QVERIFY2(record(program, options(program, QStringLiteral("guarded")), {{"guarded:a:1:3"}},
                        &r, &error),
                 qPrintable(error));
        QCOMPARE(r.batch.usdt.size(), 3);
        QCOMPARE(test::ownBpfObjects({}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestUsdt)
#include "tst_usdt.moc"
