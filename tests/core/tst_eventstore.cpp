#include "core/eventstore.h"
#include "tests/core/sessiontestdata.h"

#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

class TestEventStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripsEveryFieldOfEveryType()
    {
        EventStore store;
        QList<ExecEvent> exec;
        QList<OpenEvent> open;
        QList<BlockEvent> block;
        QList<TcpConnectEvent> tcp;
        QList<FsSlowEvent> fs;
        for (quint32 n = 0; n < 500; ++n) {
            const quint64 t = 1000 + n * 10;
            exec.append(makeExec(t, n));
            open.append(makeOpen(t, n));
            block.append(makeBlock(t, n));
            tcp.append(makeTcp(t, n));
            fs.append(makeFsSlow(t, n));
            QCOMPARE(store.append(exec.last()), qsizetype(n));
            store.append(open.last());
            store.append(block.last());
            store.append(tcp.last());
            store.append(fs.last());
        }
        QCOMPARE(store.count(EventType::Exec), 500);
        QCOMPARE(store.count(EventType::TpPair), 0);
        QCOMPARE(store.totalCount(), 2500);
        for (qsizetype i = 0; i < 500; ++i) {
            QCOMPARE(store.exec(i), exec[i]);
            QCOMPARE(store.open(i), open[i]);
            QCOMPARE(store.block(i), block[i]);
            QCOMPARE(store.tcpConnect(i), tcp[i]);
            QCOMPARE(store.fsSlow(i), fs[i]);
            QCOMPARE(store.timeNs(EventType::Block, i), block[i].timeNs);
            QCOMPARE(store.value<&BlockEvent::deviceNs>(i), block[i].deviceNs);
            QCOMPARE(store.value<&BlockEvent::queueNs>(i), block[i].queueNs);
            QCOMPARE(store.value<&BlockEvent::bytes>(i), block[i].bytes);
            QCOMPARE(store.value<&FsSlowEvent::latencyNs>(i), fs[i].latencyNs);
            QCOMPARE(store.value<&OpenEvent::path>(i), open[i].path);
            QCOMPARE(store.comm(EventType::Open, i), open[i].comm);
            QCOMPARE(store.pid(EventType::TcpConnect, i), tcp[i].pid);
        }
        QCOMPARE(store.firstTimeNs(), quint64(1000));
        QCOMPARE(store.lastTimeNs(), quint64(1000 + 499 * 10));
        QVERIFY(!store.outOfOrderAppends());
    }

    void internsEachStringOnce()
    {
        EventStore store;
        for (quint32 n = 0; n < 10000; ++n)
            store.append(makeOpen(n, n));
        // hostilePath() makes 8 x 50 distinct paths at most, plus two comms and "".
        QVERIFY(store.strings().size() <= 8 * 50 + 3);
        // The same bytes come back as the same shared buffer, not a copy per event.
        QCOMPARE(store.open(0).path.constData(), store.open(400).path.constData());
        StringPool pool;
        QCOMPARE(pool.intern(QByteArray()), 0u);
        const quint32 a = pool.intern(QByteArrayLiteral("x"));
        QCOMPARE(pool.intern(QByteArrayLiteral("x")), a);
        QVERIFY(pool.intern(QByteArrayLiteral("y")) != a);
        QCOMPARE(pool.string(a), QByteArrayLiteral("x"));
        QCOMPARE(pool.string(12345), QByteArray());
    }

    void millionEventsStayCompact()
    {
        constexpr int N = 1000000;
        EventStore opens;
        EventStore blocks;
        for (quint32 n = 0; n < quint32(N); ++n) {
            opens.append(makeOpen(n, n));
            blocks.append(makeBlock(n, n));
        }
        opens.squeeze();
        blocks.squeeze();
        const double openPerEvent = double(opens.memoryBytes()) / N;
        const double blockPerEvent = double(blocks.memoryBytes()) / N;
        qInfo("memory per event: open %.2f bytes, block %.2f bytes", openPerEvent, blockPerEvent);
        // Ten million opens must fit well under 1 GB.
        QVERIFY2(openPerEvent < 48, qPrintable(QString::number(openPerEvent)));
        QVERIFY2(blockPerEvent <= 48.5, qPrintable(QString::number(blockPerEvent)));
    }

    void lowerBoundFindsTimeRanges()
    {
        EventStore store;
        QCOMPARE(store.lowerBound(EventType::Open, 5), 0);
        for (quint32 n = 0; n < 100; ++n)
            store.append(makeOpen(100 + quint64(n / 2) * 10, n)); // pairs of equal times
        QCOMPARE(store.lowerBound(EventType::Open, 0), 0);
        QCOMPARE(store.lowerBound(EventType::Open, 100), 0);
        QCOMPARE(store.lowerBound(EventType::Open, 101), 2);
        QCOMPARE(store.lowerBound(EventType::Open, 110), 2);
        QCOMPARE(store.lowerBound(EventType::Open, 590), 98);
        QCOMPARE(store.lowerBound(EventType::Open, 591), 100);
        QCOMPARE(store.lowerBound(EventType::Block, 591), 0);
    }

    void outOfOrderAppendStaysSorted()
    {
        EventStore store;
        store.append(makeBlock(10, 1));
        store.append(makeBlock(30, 2));
        store.append(makeBlock(30, 3));
        QVERIFY(!store.outOfOrderAppends());
        // Back in time: lands after the equal-or-earlier events, and lowerBound stays right.
        QCOMPARE(store.append(makeBlock(20, 4)), 1);
        QCOMPARE(store.append(makeBlock(30, 5)), 4);
        QCOMPARE(store.append(makeBlock(5, 6)), 0);
        QVERIFY(store.outOfOrderAppends());
        const quint64 expected[] = {5, 10, 20, 30, 30, 30};
        for (int i = 0; i < 6; ++i)
            QCOMPARE(store.timeNs(EventType::Block, i), expected[i]);
        QCOMPARE(store.block(3), makeBlock(30, 2));
        QCOMPARE(store.block(5), makeBlock(30, 5));
        QCOMPARE(store.lowerBound(EventType::Block, 20), 2);
        QCOMPARE(store.lowerBound(EventType::Block, 21), 3);

        // Exec rows carry an argv range into a side table; inserting must not mix them up.
        EventStore execs;
        execs.append(makeExec(50, 1));
        execs.append(makeExec(40, 2));
        QCOMPARE(execs.exec(0), makeExec(40, 2));
        QCOMPARE(execs.exec(1), makeExec(50, 1));
    }
};

QTEST_GUILESS_MAIN(TestEventStore)
#include "tst_eventstore.moc"
