#include "core/histogram.h"

#include <QTest>

using bpflens::HistogramUnit;
using bpflens::Log2Histogram;

class TestHistogram : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void slotBoundariesFollowBcc()
    {
        // bits.bpf.h log2l(): 0 and 1 share slot 0, then [2^n, 2^(n+1)-1] is slot n.
        QCOMPARE(Log2Histogram::slotOf(0), 0);
        QCOMPARE(Log2Histogram::slotOf(1), 0);
        for (int n = 1; n < 64; ++n) {
            const quint64 low = quint64(1) << n;
            const quint64 high = n == 63 ? ~quint64(0) : (quint64(1) << (n + 1)) - 1;
            QCOMPARE(Log2Histogram::slotOf(low), n);
            QCOMPARE(Log2Histogram::slotOf(high), n);
            QCOMPARE(Log2Histogram::slotOf(low - 1), n - 1);
            QCOMPARE(Log2Histogram::slotLow(n), low);
            QCOMPARE(Log2Histogram::slotHigh(n), high);
        }
    }

    void labels()
    {
        QCOMPARE(Log2Histogram::slotLabel(0), QStringLiteral("0 -> 1"));
        QCOMPARE(Log2Histogram::slotLabel(1), QStringLiteral("2 -> 3"));
        QCOMPARE(Log2Histogram::slotLabel(2), QStringLiteral("4 -> 7"));
        QCOMPARE(Log2Histogram::slotLabel(10), QStringLiteral("1024 -> 2047"));
    }

    void textMatchesPrintLog2Hist()
    {
        // Expected bytes produced by libbpf-tools' print_log2_hist() for these counts.
        Log2Histogram h(HistogramUnit::Microseconds);
        h.addToSlot(0, 1);
        h.addToSlot(2, 10);
        h.addToSlot(3, 40);
        h.addToSlot(4, 25);
        h.addToSlot(6, 3);
        const QString expected = QStringLiteral(
            "     usecs               : count    distribution\n"
            "         0 -> 1          : 1        |*                                       |\n"
            "         2 -> 3          : 0        |                                        |\n"
            "         4 -> 7          : 10       |**********                              |\n"
            "         8 -> 15         : 40       |****************************************|\n"
            "        16 -> 31         : 25       |*************************               |\n"
            "        32 -> 63         : 0        |                                        |\n"
            "        64 -> 127        : 3        |***                                     |\n");
        QCOMPARE(h.toText(), expected);
        QCOMPARE(Log2Histogram().toText(), QString());
    }

    // bitesize's header and unit: the sizes of 4 KiB requests are 4 Kbytes, in 4 -> 7.
    void sizesInKbytesLikeBitesize()
    {
        Log2Histogram h(HistogramUnit::Kilobytes);
        QCOMPARE(unitDivisor(h.unit()), quint64(1024));
        QVERIFY(!isTimeUnit(h.unit()));
        h.add(4096 / unitDivisor(h.unit()), 3);
        QCOMPARE(h.toText(),
                 QStringLiteral("     Kbytes              : count    distribution\n"
                                "         0 -> 1          : 0        |                      "
                                "                  |\n"
                                "         2 -> 3          : 0        |                      "
                                "                  |\n"
                                "         4 -> 7          : 3        |**********************"
                                "******************|\n"));
    }

    void wideTextAbove32Slots()
    {
        Log2Histogram h(HistogramUnit::Nanoseconds);
        h.addToSlot(33, 2);
        const QStringList lines = h.toText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 35);
        QCOMPARE(lines.first(), QString(15, QLatin1Char(' ')) +
                                    QStringLiteral("nsecs").leftJustified(29) +
                                    QStringLiteral(" : count    distribution"));
        QCOMPARE(lines.last(),
                 QStringLiteral("          8589934592 -> 17179869183          : 2        |") +
                     QString(20, QLatin1Char('*')) + QStringLiteral("|"));
    }

    void countSumMean()
    {
        Log2Histogram h;
        h.add(5);
        h.add(7);
        h.add(100, 2);
        QCOMPARE(h.count(), quint64(4));
        QCOMPARE(h.sum(), quint64(212));
        QCOMPARE(h.mean(), 53.0);
        QCOMPARE(h.slot(2), quint64(2));
        QCOMPARE(h.slot(6), quint64(2));
    }

    void percentilesInterpolateInsideTheBucket()
    {
        Log2Histogram h;
        h.addToSlot(3, 100); // 100 values in [8, 16)
        QCOMPARE(h.percentile(0.5), 12.0);
        QCOMPARE(h.percentile(0.0), 8.0);
        QCOMPARE(h.percentile(1.0), 16.0);
        h.addToSlot(10, 100); // and 100 in [1024, 2048)
        QCOMPARE(h.percentile(0.5), 16.0);
        QCOMPARE(h.percentile(0.99), 1024.0 + 1024.0 * 0.98);
        QVERIFY(qAbs(h.percentile(0.999) - (1024.0 + 1024.0 * 0.998)) < 1e-9);
        QCOMPARE(Log2Histogram().percentile(0.5), 0.0);
    }

    void mergeAndSubtract()
    {
        Log2Histogram a, b;
        a.add(3, 4);
        b.add(3, 1);
        b.add(1000, 2);
        Log2Histogram m = a;
        m.merge(b);
        QCOMPARE(m.count(), quint64(7));
        QCOMPARE(m.slot(1), quint64(5));
        const Log2Histogram d = m.subtract(a);
        QCOMPARE(d, b);
    }
};

QTEST_GUILESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
