// The events tables' filter on sessions of a million events: computed off the GUI thread,
// restarted on every keystroke, exact, and safe against the store changing underneath it.
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <memory>

using namespace bpflens;

namespace {

constexpr quint64 Start = 1'000'000'000;
constexpr qsizetype Events = 1'000'000;

OpenEvent openAt(qsizetype i)
{
    OpenEvent e;
    e.timeNs = Start + quint64(i) * 1000;
    e.pid = 100 + quint32(i % 50);
    e.tid = e.pid;
    e.ret = 3;
    e.comm = i % 3 ? QByteArrayLiteral("worker") : QByteArrayLiteral("Postgres");
    e.path = "/srv/data/File-" + QByteArray::number(i % 5003) + ".dat";
    return e;
}

SessionData bigSession(qsizetype n)
{
    SessionData data;
    data.info.startMonotonicNs = Start;
    data.events.reserve(EventType::Open, n);
    for (qsizetype i = 0; i < n; ++i)
        data.events.append(openAt(i));
    return data;
}

// What the filter must find, by brute force over the public structs.
std::vector<quint32> expectedRows(const EventStore &store, const QByteArray &needle)
{
    std::vector<quint32> rows;
    for (qsizetype i = 0; i < store.count(EventType::Open); ++i) {
        const OpenEvent e = store.open(i);
        if (e.comm.toLower().contains(needle) || e.path.toLower().contains(needle))
            rows.push_back(quint32(i));
    }
    return rows;
}

void compareAccepted(const EventFilterModel &filter, const std::vector<quint32> &expected)
{
    QCOMPARE(filter.acceptedCount(), qsizetype(expected.size()));
    for (size_t k = 0; k < expected.size(); ++k) {
        if (filter.acceptedAt(qsizetype(k)) != qsizetype(expected[k]))
            QFAIL(qPrintable(QStringLiteral("accepted row %1 is %2, expected %3")
                                 .arg(k)
                                 .arg(filter.acceptedAt(qsizetype(k)))
                                 .arg(expected[k])));
    }
}

} // namespace

class TestEventFilter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_session.setSession(bigSession(Events));
        m_state.setFullRange(m_session.firstTimeNs(), m_session.endTimeNs());
    }

    void filtersInAWorkerWhileTheGuiKeepsRunning()
    {
        EventTableModel table(&m_session, EventType::Open);
        EventFilterModel filter(&table, &m_state);
        // The model tester walks every row and column after each reset: it looks at a window of
        // the session (the filter still scans all of it; acceptedCount() is session-wide).
        m_state.setRange(Start + 400'000'000, Start + 410'000'000);
        QAbstractItemModelTester tester(&filter,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy accepted(&filter, &EventFilterModel::acceptedChanged);
        QCOMPARE(filter.rowCount(), 10000);
        QCOMPARE(filter.acceptedCount(), Events);

        // Typing "file-12" one key at a time: every keystroke restarts the scan, the table
        // keeps showing what it showed until the last one's result is in.
        int ticks = 0;
        QTimer timer;
        timer.setInterval(0);
        connect(&timer, &QTimer::timeout, this, [&] {
            if (filter.filterPending())
                ++ticks;
        });
        timer.start();
        const QByteArray typed = "file-12";
        for (int k = 1; k <= typed.size(); ++k) {
            EventFilter f;
            f.text = typed.left(k);
            m_state.setFilter(f);
            QVERIFY2(filter.filterPending(), "a million rows must be filtered in a worker");
            QCOMPARE(filter.acceptedCount(), Events); // still the unfiltered rows
        }
        QElapsedTimer waited;
        waited.start();
        while (filter.filterPending() && waited.elapsed() < 120000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QVERIFY(!filter.filterPending());
        QVERIFY2(ticks > 0, "the GUI thread's timer never fired while the filter ran");
        // Only the last keystroke's result was ever swapped in.
        QCOMPARE(accepted.count(), 1);
        const std::vector<quint32> expected = expectedRows(m_session.events(), "file-12");
        QVERIFY(expected.size() > 1000 && expected.size() < size_t(Events) / 10);
        compareAccepted(filter, expected);
        const auto firstShown = std::lower_bound(expected.begin(), expected.end(), 400'000);
        QCOMPARE(filter.rowCount(),
                 int(std::lower_bound(expected.begin(), expected.end(), 410'000) - firstShown));
        QCOMPARE(filter.index(0, 8).data(Qt::DisplayRole).toString(),
                 QString::fromLatin1(m_session.events().open(*firstShown).path));
        qInfo("%lld rows filtered to %lld while the GUI thread ran %d timer ticks", qint64(Events),
              qint64(expected.size()), ticks);

        // Clearing the filter is immediate: nothing to compute.
        m_state.setFilter({});
        QVERIFY(!filter.filterPending());
        QCOMPARE(filter.acceptedCount(), Events);
        m_state.resetRange();
    }

    void combinesTextWithPidAndComm()
    {
        EventTableModel table(&m_session, EventType::Open);
        EventFilterModel filter(&table, &m_state);
        EventFilter f;
        f.text = "POSTGRES";
        f.pid = 103;
        m_state.setFilter(f);
        QVERIFY(filter.filterPending());
        QTRY_VERIFY_WITH_TIMEOUT(!filter.filterPending(), 120000);
        std::vector<quint32> expected;
        for (qsizetype i = 0; i < Events; ++i) {
            if (i % 3 == 0 && 100 + i % 50 == 103)
                expected.push_back(quint32(i));
        }
        compareAccepted(filter, expected);
        m_state.setFilter({});
    }

    // A top list's file row filters by the whole path: of the million opens, those of
    // File-12.dat, not File-120.dat or File-1234.dat as the text "File-12" would; scanned in a
    // worker like the text.
    void fileKeySelectsOnlyThatPath()
    {
        EventTableModel table(&m_session, EventType::Open);
        EventFilterModel filter(&table, &m_state);
        EventFilter f;
        f.file = "/srv/data/File-12.dat";
        m_state.setFilter(f);
        QVERIFY(filter.filterPending());
        QTRY_VERIFY_WITH_TIMEOUT(!filter.filterPending(), 120000);
        std::vector<quint32> expected;
        for (qsizetype i = 0; i < Events; ++i) {
            if (m_session.events().open(i).path == f.file)
                expected.push_back(quint32(i));
        }
        QCOMPARE(qsizetype(expected.size()), Events / 5003 + 1);
        compareAccepted(filter, expected);
        // With the text filter too: both must hold. "postgres" is every third open.
        f.text = "postgres";
        m_state.setFilter(f);
        QTRY_VERIFY_WITH_TIMEOUT(!filter.filterPending(), 120000);
        std::erase_if(expected, [](quint32 i) { return i % 3 != 0; });
        QVERIFY(!expected.empty());
        compareAccepted(filter, expected);
        m_state.setFilter({});
    }

    // Disk and operation keys: exactly the events with that value, of the types that have the
    // dimension (block and fsslower); every other type's events fail them. A one-character
    // operation is fsslower's; block's are words.
    void diskAndOperationKeysAreExact()
    {
        SessionData data;
        data.info.startMonotonicNs = Start;
        const char fsOps[] = {'R', 'W', 'O', 'F'};
        const QByteArray blockOps[] = {"Write", "Sync-Write", "Read", "W"};
        const QByteArray disks[] = {"vda", "vda1", "nvme0n1"};
        for (int i = 0; i < 400; ++i) {
            FsSlowEvent f;
            f.timeNs = Start + quint64(i) * 1000;
            f.pid = 1;
            f.op = quint8(fsOps[i % 4]);
            f.comm = "vda-writer";
            f.filename = "Write";
            data.events.append(f);
            BlockEvent b;
            b.timeNs = f.timeNs + 1;
            b.disk = disks[i % 3];
            b.op = blockOps[(i / 3) % 4];
            b.comm = "Write";
            data.events.append(b);
            OpenEvent o;
            o.timeNs = f.timeNs + 2;
            o.comm = "vda";
            o.path = "Write";
            data.events.append(o);
        }
        SessionModel session;
        session.setSession(std::move(data));
        ViewState state;
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        struct Case
        {
            QByteArray disk, operation;
        };
        for (const Case &c : {Case{"vda", {}}, Case{{}, "Write"}, Case{{}, "W"},
                              Case{"vda1", "Sync-Write"}, Case{"vda", "R"}}) {
            EventFilter f;
            f.disk = c.disk;
            f.operation = c.operation;
            state.setFilter(f);
            for (EventType type : {EventType::FsSlow, EventType::Block, EventType::Open}) {
                EventTableModel table(&session, type);
                EventFilterModel filter(&table, &state);
                QTRY_VERIFY_WITH_TIMEOUT(!filter.filterPending(), 120000);
                std::vector<quint32> expected;
                const EventStore &store = session.events();
                for (qsizetype i = 0; i < store.count(type); ++i) {
                    bool pass = false;
                    if (type == EventType::Block) {
                        const BlockEvent b = store.block(i);
                        pass = (c.disk.isEmpty() || b.disk == c.disk) &&
                               (c.operation.isEmpty() || b.op == c.operation);
                    } else if (type == EventType::FsSlow) {
                        const FsSlowEvent e = store.fsSlow(i);
                        pass = c.disk.isEmpty() &&
                               (c.operation.isEmpty() ||
                                (c.operation.size() == 1 && e.op == quint8(c.operation[0])));
                    }
                    if (pass)
                        expected.push_back(quint32(i));
                }
                compareAccepted(filter, expected);
            }
        }
    }

    void liveDataDuringAScanIsIncluded()
    {
        SessionModel session;
        session.setSession(bigSession(Events / 2));
        ViewState state;
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        EventTableModel table(&session, EventType::Open);
        auto filter = std::make_unique<EventFilterModel>(&table, &state);
        filter->setAsyncThreshold(1000);
        state.setRange(Start + 100'000'000, Start + 105'000'000);
        QAbstractItemModelTester tester(filter.get(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        EventFilter f;
        f.text = "file-7";
        state.setFilter(f);
        QVERIFY(filter->filterPending());
        // A recording appends while the scan reads the store: the scan is stopped, the store
        // grows, and the scan starts again over all of it.
        RecordBatch batch;
        for (qsizetype i = Events / 2; i < Events / 2 + 20000; ++i)
            batch.open.append(openAt(i));
        session.append(batch);
        QTRY_VERIFY_WITH_TIMEOUT(!filter->filterPending(), 120000);
        compareAccepted(*filter, expectedRows(session.events(), "file-7"));

        // A new session while a scan runs: the result is the new session's.
        state.setFilter({});
        f.text = "file-9";
        state.setFilter(f);
        QVERIFY(filter->filterPending());
        session.setSession(bigSession(Events / 4));
        QTRY_VERIFY_WITH_TIMEOUT(!filter->filterPending(), 120000);
        compareAccepted(*filter, expectedRows(session.events(), "file-9"));

        // Going away mid-scan must not leave a worker reading a dead store.
        f.text = "file-1";
        state.setFilter(f);
        QVERIFY(filter->filterPending());
        filter.reset();
    }

private:
    SessionModel m_session;
    ViewState m_state;
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestEventFilter test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_eventfilter.moc"
