// ProbeCatalog::validate is the gate every request (D-Bus, CLI, GUI) passes: names, types and
// ranges are checked, defaults filled in, and the error says what is wrong.
#include "core/probecatalog.h"

#include <QTest>

using namespace bpflens;

class TestProbeCatalog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // What the Summary shows: the --probe spec of the options that differ from the defaults.
    void specNamesWhatDiffersFromTheDefaults()
    {
        QVariantMap opts;
        QString err;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("block"), {}, &opts, &err));
        QCOMPARE(ProbeCatalog::spec(QStringLiteral("block"), opts), QString());
        opts.insert(QStringLiteral("perDisk"), true);
        opts.insert(QStringLiteral("pid"), qint64(1234));
        QCOMPARE(ProbeCatalog::spec(QStringLiteral("block"), opts),
                 QStringLiteral("pid=1234,perDisk"));
        QVERIFY(ProbeCatalog::spec(QStringLiteral("block"), opts, true)
                    .contains(QStringLiteral("queued=false")));
        // A newer recorder's option this catalog does not know stays visible.
        opts.insert(QStringLiteral("zzNew"), 7);
        QVERIFY(
            ProbeCatalog::spec(QStringLiteral("block"), opts).endsWith(QStringLiteral(",zzNew=7")));
        // The spec reads back as the same options.
        QVariantMap back;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("profile"),
                                       {{QStringLiteral("frequency"), 499}}, &back, &err));
        QCOMPARE(ProbeCatalog::spec(QStringLiteral("profile"), back),
                 QStringLiteral("frequency=499"));
    }

    void everyProbeHasUniqueIdAndValidDefaults()
    {
        QStringList ids;
        for (const ProbeInfo &p : ProbeCatalog::probes()) {
            QVERIFY2(!ids.contains(p.id), qPrintable(p.id));
            ids.append(p.id);
            QCOMPARE(ProbeCatalog::find(p.id), &p);
            QVariantMap normalized;
            QString error;
            QVERIFY2(ProbeCatalog::validate(p.id, {}, &normalized, &error), qPrintable(error));
            QCOMPARE(normalized.size(), p.options.size());
        }
        for (const char *id :
             {"exec", "open", "block", "runqlat", "tcpconnect", "cachestat", "iostack", "fsslower"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
    }

    void unknownProbe()
    {
        QVariantMap n;
        QString error;
        QVERIFY(!ProbeCatalog::validate(QStringLiteral("nope"), {}, &n, &error));
        QVERIFY2(error.contains(QLatin1String("unknown probe")), qPrintable(error));
        QVERIFY(!ProbeCatalog::find(QStringLiteral("nope")));
    }

    void unknownOption()
    {
        QVariantMap n;
        QString error;
        QVERIFY(!ProbeCatalog::validate(QStringLiteral("exec"), {{QStringLiteral("tid"), 1}}, &n,
                                        &error));
        QVERIFY2(error.contains(QLatin1String("\"tid\"")), qPrintable(error));
    }

    void defaultsFilled()
    {
        QVariantMap n;
        QString error;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("open"), {{QStringLiteral("pid"), 42}}, &n,
                                       &error));
        QCOMPARE(n.value(QStringLiteral("pid")), QVariant(qint64(42)));
        QCOMPARE(n.value(QStringLiteral("tid")), QVariant(qint64(0)));
        QCOMPARE(n.value(QStringLiteral("uid")), QVariant(qint64(-1)));
        QCOMPARE(n.value(QStringLiteral("comm")), QVariant(QString()));
        QCOMPARE(n.value(QStringLiteral("failedOnly")), QVariant(false));
        QCOMPARE(n.value(QStringLiteral("flags")), QVariant(QString()));
        QCOMPARE(n.value(QStringLiteral("fullPath")), QVariant(false));
        QCOMPARE(n.value(QStringLiteral("container")), QVariant(QString()));
        QCOMPARE(n.value(QStringLiteral("unit")), QVariant(QString()));
        QCOMPARE(n.value(QStringLiteral("attach")), QVariant(QStringLiteral("auto")));
        QCOMPARE(n.size(), 11);
        QVERIFY(ProbeCatalog::validate(QStringLiteral("block"), {}, &n, &error));
        QCOMPARE(n.value(QStringLiteral("units")), QVariant(QStringLiteral("usecs")));
        QCOMPARE(n.value(QStringLiteral("interval")), QVariant(qint64(1000)));
    }

    void conversions()
    {
        QVariantMap n;
        QString error;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("exec"),
                                       {{QStringLiteral("failed"), QStringLiteral("yes")},
                                        {QStringLiteral("pid"), QStringLiteral(" 17 ")},
                                        {QStringLiteral("uid"), 0u}},
                                       &n, &error));
        QCOMPARE(n.value(QStringLiteral("failed")), QVariant(true));
        QCOMPARE(n.value(QStringLiteral("pid")), QVariant(qint64(17)));
        QCOMPARE(n.value(QStringLiteral("uid")), QVariant(qint64(0)));
    }

    void wrongType_data()
    {
        QTest::addColumn<QString>("probe");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("bool from text")
            << "exec"
            << "failed" << QVariant(QStringLiteral("maybe")) << "true or false";
        QTest::newRow("bool from int") << "exec"
                                       << "failed" << QVariant(1) << "true or false";
        QTest::newRow("int from text")
            << "exec"
            << "pid" << QVariant(QStringLiteral("12a")) << "whole number";
        QTest::newRow("int from double") << "exec"
                                         << "pid" << QVariant(1.5) << "whole number";
        QTest::newRow("string from int") << "exec"
                                         << "comm" << QVariant(5) << "expects text";
        QTest::newRow("choice not listed")
            << "block"
            << "units" << QVariant(QStringLiteral("ns")) << "not one of";
    }

    void wrongType()
    {
        QFETCH(QString, probe);
        QFETCH(QString, option);
        QFETCH(QVariant, value);
        QFETCH(QString, expected);
        QVariantMap n;
        QString error;
        QVERIFY(!ProbeCatalog::validate(probe, {{option, value}}, &n, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY2(error.contains(option), qPrintable(error));
    }

    void outOfRange_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<bool>("ok");
        QTest::newRow("pid -1") << "pid" << QVariant(-1) << false;
        QTest::newRow("pid 0") << "pid" << QVariant(0) << true;
        QTest::newRow("pid max") << "pid" << QVariant(4194304) << true;
        QTest::newRow("pid max+1") << "pid" << QVariant(4194305) << false;
        QTest::newRow("uid -1") << "uid" << QVariant(-1) << true;
        QTest::newRow("uid -2") << "uid" << QVariant(-2) << false;
        QTest::newRow("uid 2^32-1") << "uid" << QVariant(quint64(4294967295u)) << false;
        QTest::newRow("huge unsigned") << "pid" << QVariant(~quint64(0)) << false;
    }

    void outOfRange()
    {
        QFETCH(QString, option);
        QFETCH(QVariant, value);
        QFETCH(bool, ok);
        QVariantMap n;
        QString error;
        QCOMPARE(ProbeCatalog::validate(QStringLiteral("exec"), {{option, value}}, &n, &error), ok);
        if (!ok)
            QVERIFY2(!error.isEmpty(), qPrintable(option));
    }

    void stringTooLong()
    {
        QVariantMap n;
        QString error;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("exec"),
                                       {{QStringLiteral("comm"), QString(15, QLatin1Char('c'))}},
                                       &n, &error));
        QVERIFY(!ProbeCatalog::validate(QStringLiteral("exec"),
                                        {{QStringLiteral("comm"), QString(16, QLatin1Char('c'))}},
                                        &n, &error));
        QVERIFY2(error.contains(QLatin1String("longer than 15")), qPrintable(error));
        // Bytes, not characters: 8 two-byte characters are 16 bytes.
        QVERIFY(!ProbeCatalog::validate(QStringLiteral("exec"),
                                        {{QStringLiteral("comm"), QString(8, QChar(0xe9))}}, &n,
                                        &error));
        QVERIFY(!ProbeCatalog::validate(
            QStringLiteral("exec"), {{QStringLiteral("comm"), QStringView(u"a\0b", 3).toString()}},
            &n, &error));
    }
};

QTEST_GUILESS_MAIN(TestProbeCatalog)
#include "tst_probecatalog.moc"
