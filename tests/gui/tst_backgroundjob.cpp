// BackgroundJob (issue #31): the one way the GUI computes in the background. What its owners
// rely on: a burst of requests runs once, only the latest job's result arrives, a cancelled one
// never does, and an owner destroyed while its job runs gets no call (under ASan: no use after
// free).
#include "gui/models/backgroundjob.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <memory>

using namespace bpflens;

namespace {

// Runs work until released or cancelled, like a scan over a big store that polls its token.
int waitForRelease(const JobToken &token, const std::atomic_bool &release, int value)
{
    QElapsedTimer t;
    t.start();
    while (!release.load() && !token.isCancelled() && t.elapsed() < 10000)
        QThread::msleep(1);
    return value;
}

// Waits for the worker without an event loop: a result it posts stays queued.
bool spinUntil(const std::atomic_bool &flag)
{
    QElapsedTimer t;
    t.start();
    while (!flag.load() && t.elapsed() < 5000)
        QThread::msleep(1);
    QThread::msleep(20); // from the work's end to its result posted
    return flag.load();
}

// An owner as the pages are: the job a member, the result kept in the owner.
class Owner : public QObject
{
public:
    explicit Owner(QList<int> *delivered)
        : m_delivered(delivered)
    {
    }
    void start(std::atomic_bool *release, std::atomic_bool *workEnded, int value)
    {
        m_job.run(
            [release, workEnded, value](const JobToken &token) {
                const int v = waitForRelease(token, *release, value);
                workEnded->store(true);
                return v;
            },
            [this](int v) { m_delivered->append(v); });
    }

private:
    QList<int> *m_delivered;
    BackgroundJob m_job;
};

} // namespace

class TestBackgroundJob : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void burstRunsOnce();
    void supersededResultIsNotDelivered();
    void cancelStopsDeliveryAndTheWork();
    void stopForAChangeKeepsTheRequest();
    void ownerDestroyedWhileRunning();
    void ownerDestroyedWithResultQueued();
    void progressArrivesOnTheOwnersThread();
    void finishDeliversAtOnce();
};

void TestBackgroundJob::burstRunsOnce()
{
    BackgroundJob job;
    // Long enough that a loaded machine's 10 ms waits stay inside it.
    job.setDebounceInterval(500);
    std::atomic_int runs{0};
    QList<int> delivered;
    int requests = 0;
    connect(&job, &BackgroundJob::due, this, [&] {
        const int request = requests;
        job.run(
            [&runs, request](const JobToken &) {
                ++runs;
                return request;
            },
            [&](int r) { delivered.append(r); });
    });
    // Ten requests 10 ms apart (a drag across the timeline): one computation, of the last.
    for (requests = 1; requests <= 10; ++requests) {
        job.schedule();
        QVERIFY(job.isScheduled());
        QTest::qWait(10);
    }
    QVERIFY(runs.load() == 0);
    QTRY_COMPARE(delivered.size(), 1);
    QTest::qWait(600);
    QCOMPARE(runs.load(), 1);
    QCOMPARE(delivered, QList<int>{11});
    QVERIFY(!job.isRunning());
}

void TestBackgroundJob::supersededResultIsNotDelivered()
{
    BackgroundJob job;
    std::atomic_bool releaseFirst{false}, releaseSecond{false}, firstStarted{false};
    std::atomic_bool firstEnded{false};
    QList<int> delivered;
    // The first job ignores its token (work that cannot stop early): it ends with a result
    // after the second request.
    job.run(
        [&](const JobToken &) {
            firstStarted = true;
            while (!releaseFirst.load())
                QThread::msleep(1);
            firstEnded = true;
            return 1;
        },
        [&](int r) { delivered.append(r); });
    QTRY_VERIFY(firstStarted.load()); // (a job superseded before it starts does not run)
    job.run([&](const JobToken &token) { return waitForRelease(token, releaseSecond, 2); },
            [&](int r) { delivered.append(r); });
    releaseFirst = true;
    QTRY_VERIFY(firstEnded.load());
    QTest::qWait(20);
    QVERIFY(delivered.isEmpty());
    releaseSecond = true;
    QTRY_COMPARE(delivered.size(), 1);
    QTest::qWait(50);
    QCOMPARE(delivered, QList<int>{2});

    // A result already on its way to the owner's thread when the next request comes.
    delivered.clear();
    std::atomic_bool ended{false};
    job.run(
        [&](const JobToken &) {
            ended = true;
            return 3;
        },
        [&](int r) { delivered.append(r); });
    QVERIFY(spinUntil(ended));
    job.run([](const JobToken &) { return 4; }, [&](int r) { delivered.append(r); });
    QTRY_COMPARE(delivered.size(), 1);
    QTest::qWait(50);
    QCOMPARE(delivered, QList<int>{4});
}

void TestBackgroundJob::cancelStopsDeliveryAndTheWork()
{
    BackgroundJob job;
    std::atomic_bool never{false}, sawCancel{false}, ended{false};
    QList<int> delivered;
    QSignalSpy running(&job, &BackgroundJob::runningChanged);
    job.run(
        [&](const JobToken &token) {
            const int v = waitForRelease(token, never, 1);
            sawCancel = token.isCancelled();
            ended = true;
            return v;
        },
        [&](int r) { delivered.append(r); });
    QVERIFY(job.isRunning());
    QTest::qWait(20);
    job.cancel();
    QVERIFY(!job.isRunning());
    // The work polls its token: it returns long before its 10 s.
    QTRY_VERIFY_WITH_TIMEOUT(ended.load(), 2000);
    QVERIFY(sawCancel.load());
    QTest::qWait(50);
    QVERIFY(delivered.isEmpty());
    QCOMPARE(running.size(), 2); // on, then off at the cancel

    // A job after the cancel is delivered as usual.
    job.run([](const JobToken &) { return 7; }, [&](int r) { delivered.append(r); });
    QTRY_COMPARE(delivered, QList<int>{7});
}

// A page stops its work before the store changes (an append while recording); the request it
// had scheduled is for the store as it will be, and still runs.
void TestBackgroundJob::stopForAChangeKeepsTheRequest()
{
    BackgroundJob job;
    job.setDebounceInterval(50);
    int dues = 0;
    connect(&job, &BackgroundJob::due, this, [&] { ++dues; });
    job.schedule();
    job.stopAndWait();
    QVERIFY(job.isScheduled());
    QTRY_COMPARE(dues, 1);
    // cancel() drops it.
    job.schedule();
    job.cancel();
    QVERIFY(!job.isScheduled());
    QTest::qWait(150);
    QCOMPARE(dues, 1);
}

void TestBackgroundJob::ownerDestroyedWhileRunning()
{
    QList<int> delivered;
    std::atomic_bool never{false}, ended{false};
    auto *owner = new Owner(&delivered);
    owner->start(&never, &ended, 1);
    QTest::qWait(20);
    QVERIFY(!ended.load());
    QElapsedTimer t;
    t.start();
    delete owner; // waits for the work, which sees the cancel
    QVERIFY(ended.load());
    QVERIFY2(t.elapsed() < 2000, "the destructor waited for the whole work");
    QTest::qWait(50);
    QVERIFY(delivered.isEmpty());
}

void TestBackgroundJob::ownerDestroyedWithResultQueued()
{
    QList<int> delivered;
    std::atomic_bool released{true}, ended{false};
    auto *owner = new Owner(&delivered);
    owner->start(&released, &ended, 1);
    // The result is computed and its delivery queued; no event has been processed yet.
    QVERIFY(spinUntil(ended));
    delete owner;
    QTest::qWait(50);
    QVERIFY(delivered.isEmpty());

    // The same without the delete: delivered (the test above could not pass by accident).
    owner = new Owner(&delivered);
    ended = false;
    owner->start(&released, &ended, 2);
    QTRY_COMPARE(delivered, QList<int>{2});
    delete owner;
}

void TestBackgroundJob::progressArrivesOnTheOwnersThread()
{
    BackgroundJob job;
    QList<qint64> done;
    bool onOwnersThread = true;
    connect(&job, &BackgroundJob::progressChanged, this, [&](qint64 d, qint64 total) {
        onOwnersThread = onOwnersThread && QThread::currentThread() == thread();
        QCOMPARE(total, qint64(100));
        done.append(d);
    });
    bool delivered = false;
    job.run(
        [](const JobToken &token) {
            for (int i = 1; i <= 100; ++i) {
                token.setProgress(i, 100);
                QThread::msleep(1);
            }
        },
        [&] { delivered = true; });
    QTRY_VERIFY(delivered);
    QVERIFY(onOwnersThread);
    QVERIFY(!done.isEmpty());
    // Coalesced, in order, never past the end.
    QVERIFY(std::is_sorted(done.begin(), done.end()));
    QVERIFY(done.last() <= 100);
}

void TestBackgroundJob::finishDeliversAtOnce()
{
    BackgroundJob job;
    int delivered = 0;
    job.run(
        [](const JobToken &) {
            QThread::msleep(30);
            return 5;
        },
        [&](int r) { delivered = r; });
    QVERIFY(job.finish());
    QCOMPARE(delivered, 5);
    QVERIFY(!job.isRunning());
    // Its queued call finds nothing left to deliver.
    delivered = 0;
    QTest::qWait(20);
    QCOMPARE(delivered, 0);
    QVERIFY(!job.finish());
}

QTEST_GUILESS_MAIN(TestBackgroundJob)
#include "tst_backgroundjob.moc"
