// The one way BPF Lens writes byte sizes and reads latencies (core/units.h), shared by the GUI
// and the CLI: binary prefixes that say so, and every latency form the GUI shows read back.
#include "core/units.h"

#include <QTest>

using namespace bpflens;

class TestUnits : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void byteSizesAreBinaryAndSaySo_data()
    {
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << quint64(0) << QStringLiteral("0 B");
        QTest::newRow("bytes") << quint64(1023) << QStringLiteral("1023 B");
        QTest::newRow("4 KiB request") << quint64(4096) << QStringLiteral("4.0 KiB");
        // The figure: 280.3 "MB" were 293,933,056 bytes, i.e. MiB.
        QTest::newRow("issue #29") << quint64(293933056) << QStringLiteral("280.3 MiB");
        QTest::newRow("rounds up to the next prefix")
            << quint64(1024 * 1024 - 1) << QStringLiteral("1.0 MiB");
        QTest::newRow("GiB") << quint64(3) * 1024 * 1024 * 1024 << QStringLiteral("3.0 GiB");
        QTest::newRow("largest") << ~quint64(0) << QStringLiteral("16.0 EiB");
    }
    void byteSizesAreBinaryAndSaySo()
    {
        QFETCH(quint64, bytes);
        QFETCH(QString, text);
        QCOMPARE(formatByteSize(bytes), text);
    }

    // bitesize's "Kbytes" are 1024 bytes: the window's histogram axes, buckets and Compare's
    // percentiles say KiB; times keep biolatency's names.
    void histogramAxesSayKibNotKbytes()
    {
        QCOMPARE(histogramAxisUnit(HistogramUnit::Kilobytes), QStringLiteral("KiB"));
        QCOMPARE(histogramAxisUnit(HistogramUnit::Microseconds), QStringLiteral("usecs"));
        QCOMPARE(histogramAxisUnit(HistogramUnit::Nanoseconds), QStringLiteral("nsecs"));
    }

    void byteSizesFollowTheLocale()
    {
        QCOMPARE(formatByteSize(293933056, QLocale(QLocale::German)), QStringLiteral("280,3 MiB"));
        QCOMPARE(formatByteSize(5000, QLocale(QLocale::English)), QStringLiteral("4.9 KiB"));
    }

    void latenciesAsTheGuiShowsThem_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("locale");
        QTest::addColumn<quint64>("bareUnitNs");
        QTest::addColumn<qint64>("ns"); // -1: refused
        const quint64 us = 1000, s = 1000000000;
        // The filter bar's latency box ("%1 µs", one decimal, no group separator).
        QTest::newRow("spin box") << QStringLiteral("2097.2 µs") << QStringLiteral("C") << s
                                  << qint64(2097200);
        QTest::newRow("issue #29 form")
            << QStringLiteral("2097.2us") << QStringLiteral("C") << s << qint64(2097200);
        QTest::newRow("greek mu") << QStringLiteral("2097.2μs") << QStringLiteral("C") << s
                                  << qint64(2097200);
        // The tables' durations.
        QTest::newRow("ms") << QStringLiteral("1.25 ms") << QStringLiteral("C") << s
                            << qint64(1250000);
        QTest::newRow("s") << QStringLiteral("1.396 s") << QStringLiteral("C") << s
                           << qint64(1396000000);
        QTest::newRow("ns") << QStringLiteral("800ns") << QStringLiteral("C") << s << qint64(800);
        QTest::newRow("grouped") << QStringLiteral("1,234.5 s") << QStringLiteral("en_US") << s
                                 << qint64(1234500000000);
        // German windows show decimal commas; the CLI reads them too.
        QTest::newRow("de") << QStringLiteral("1,05 ms") << QStringLiteral("de_DE") << s
                            << qint64(1050000);
        QTest::newRow("de copied into the CLI")
            << QStringLiteral("1,05 ms") << QStringLiteral("C") << s << qint64(1050000);
        // Not a latency's unit, and "10 m" is "10 ms" being typed in the filter bar.
        QTest::newRow("minutes") << QStringLiteral("2min") << QStringLiteral("C") << s
                                 << qint64(-1);
        QTest::newRow("bare, CLI")
            << QStringLiteral("0.5") << QStringLiteral("C") << s << qint64(500000000);
        QTest::newRow("bare, GUI box")
            << QStringLiteral("250") << QStringLiteral("C") << us << qint64(250000);
        QTest::newRow("zero") << QStringLiteral("0 µs") << QStringLiteral("C") << us << qint64(0);
        QTest::newRow("word") << QStringLiteral("slow") << QStringLiteral("C") << s << qint64(-1);
        QTest::newRow("negative") << QStringLiteral("-1ms") << QStringLiteral("C") << s
                                  << qint64(-1);
        QTest::newRow("unknown unit")
            << QStringLiteral("3 parsecs") << QStringLiteral("C") << s << qint64(-1);
        QTest::newRow("over a year")
            << QStringLiteral("32000000 s") << QStringLiteral("C") << s << qint64(-1);
    }
    void latenciesAsTheGuiShowsThem()
    {
        QFETCH(QString, text);
        QFETCH(QString, locale);
        QFETCH(quint64, bareUnitNs);
        QFETCH(qint64, ns);
        const std::optional<quint64> parsed = parseLatencyNs(text, QLocale(locale), bareUnitNs);
        if (ns < 0) {
            QVERIFY2(!parsed, qPrintable(QString::number(parsed.value_or(0))));
            return;
        }
        QVERIFY(parsed);
        QCOMPARE(*parsed, quint64(ns));
    }
};

QTEST_GUILESS_MAIN(TestUnits)
#include "tst_units.moc"
