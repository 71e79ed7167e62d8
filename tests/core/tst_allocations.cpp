// core/allocations: what the memory views sum of known allocations: bytes and blocks allocated
// and still in use by stack, over the session and over a range whose end frees some, one process
// or command, sampled events scaled by their weight; the bytes held over time as steps.
#include "core/allocations.h"
#include "core/eventstore.h"

#include <QTest>

using namespace bpflens;

namespace {

using E = AllocationEvent;

E block(quint64 t, quint64 size, quint32 stack, quint8 end, quint64 dur = 0, quint32 pid = 10,
        quint32 weight = 1)
{
    E e;
    e.timeNs = t;
    e.durNs = dur;
    e.size = size;
    e.stackId = stack;
    e.end = end;
    e.pid = pid;
    e.comm = pid == 10 ? QByteArray("app") : QByteArray("other");
    e.weight = weight;
    return e;
}

// Stack 1 leaks two blocks; stack 2 allocates three, freed 100 ns later; stack 3 (pid 20)
// one sampled block of weight 4 that outlived its process.
EventStore store()
{
    EventStore s;
    s.append(block(1000, 4000, 1, E::Outstanding));
    s.append(block(1100, 100, 2, E::Freed, 100));
    s.append(block(1200, 100, 2, E::Freed, 100));
    s.append(block(1300, 100, 2, E::Freed, 100));
    s.append(block(1400, 4000, 1, E::Outstanding));
    s.append(block(1500, 50, 3, E::Exited, 0, 20, 4));
    return s;
}

} // namespace

class TestAllocations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wholeSession()
    {
        const EventStore s = store();
        const AllocationSums a = sumAllocations(s, {}, 3);
        QCOMPARE(a.events, 6);
        QCOMPARE(a.inuseBytes[1], 8000u);
        QCOMPARE(a.inuseBlocks[1], 2u);
        QCOMPARE(a.inuseBytes[2], 0u);
        QCOMPARE(a.allocBytes[2], 300u);
        QCOMPARE(a.allocBlocks[2], 3u);
        QCOMPARE(a.inuseBytes[3], 200u); // 50 bytes standing for 4 blocks
        QCOMPARE(a.inuseBlocks[3], 4u);
        QCOMPARE(a.totalInuseBytes, 8200u);
        QCOMPARE(a.totalAllocBytes, 8500u);
        QCOMPARE(a.sampleEvery, 4u);
        // The oldest block still held per stack: none for the churning stack.
        QCOMPARE(a.oldestInuseNs[1], 1000u);
        QCOMPARE(a.oldestInuseNs[2], ~quint64(0));
        QCOMPARE(a.oldestInuseNs[3], 1500u);
    }

    // A range ending at 1250: the blocks allocated before it, the two of stack 2 freed after it
    // (1200's at 1300) or not yet (1100's freed at 1200, before the end) counted as in use.
    void rangeEnd()
    {
        const EventStore s = store();
        AllocationQuery q;
        q.startNs = 1050;
        q.endNs = 1250;
        const AllocationSums a = sumAllocations(s, q, 3);
        QCOMPARE(a.events, 2);
        QCOMPARE(a.allocBlocks[2], 2u);
        QCOMPARE(a.inuseBlocks[2], 1u); // 1200's, freed at 1300
        QCOMPARE(a.inuseBytes[1], 0u);  // 1000's block is before the range
        QCOMPARE(a.oldestInuseNs[2], 1200u);
        QCOMPARE(a.oldestInuseNs[1], ~quint64(0));
    }

    void oneProcess()
    {
        const EventStore s = store();
        AllocationQuery q;
        q.pid = 20;
        QCOMPARE(sumAllocations(s, q, 3).totalInuseBytes, 200u);
        q.pid = -1;
        q.comm = "app";
        QCOMPARE(sumAllocations(s, q, 3).totalInuseBytes, 8000u);
        // A stack id the table does not have counts as no stack.
        QCOMPARE(sumAllocations(s, {}, 1).inuseBytes[0], 200u);
    }

    void heldOverTime()
    {
        const EventStore s = store();
        const QList<QPair<quint64, quint64>> steps = outstandingBytesOverTime(s, 10);
        const QList<QPair<quint64, quint64>> expected = {
            {1000, 4000}, {1100, 4100}, {1200, 4100}, // 1100's freed as 1200's came
            {1300, 4100}, {1400, 8000},               // 1300's freed at 1400 too
        };
        QCOMPARE(steps, expected);
        QCOMPARE(outstandingBytesOverTime(s).last().second, 8200u);
    }
};

QTEST_GUILESS_MAIN(TestAllocations)
#include "tst_allocations.moc"
