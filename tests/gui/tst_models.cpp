// The event models under QAbstractItemModelTester, for every event type: a loaded session,
// live batches appended (in and out of time order), and the filter and time range changing,
// with the filter computed in place and in a worker; the Container and Unit columns.
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QScopeGuard>
#include <QTest>

#include <memory>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 10'000'000'000ull;
constexpr quint64 StepNs = 1'000'000ull; // one event of each type per millisecond
constexpr int PerBatch = 50;
const QByteArray NoMatch = QByteArrayLiteral("no event has this text");

// An event of type E at index i: the fields every type has, and a latency where it has one.
template<typename E>
E eventAt(int i, quint64 timeNs)
{
    E e;
    e.timeNs = timeNs;
    e.pid = quint32(300 + i % 4);
    e.comm = i % 2 ? QByteArrayLiteral("cat") : QByteArrayLiteral("vim");
    const quint64 latencyNs = quint64(i % 10 + 1) * 100'000; // 0.1 .. 1 ms
    if constexpr (requires { e.latencyNs; })
        e.latencyNs = latencyNs;
    if constexpr (requires { e.deviceNs; })
        e.deviceNs = latencyNs;
    return e;
}

// Batch b of events of every type, in time order after batch b - 1. An out-of-order batch
// lands between the events of earlier batches.
RecordBatch batch(int b, bool outOfOrder = false)
{
    RecordBatch result;
    forEachEventType([&]<typename E>() {
        for (int i = 0; i < PerBatch; ++i) {
            const int n = b * PerBatch + i;
            const quint64 t = outOfOrder ? StartNs + quint64(i) * 2 * StepNs + StepNs / 2
                                         : StartNs + quint64(n) * StepNs;
            result.events<E>().append(eventAt<E>(n, t));
        }
    });
    return result;
}

SessionInfo info()
{
    SessionInfo i;
    i.startMonotonicNs = StartNs;
    return i;
}

SessionData session(int batches)
{
    SessionData data;
    data.info = info();
    for (int b = 0; b < batches; ++b) {
        const RecordBatch events = batch(b);
        forEachEventType([&]<typename E>() {
            for (const E &e : events.events<E>())
                data.events.append(e);
        });
    }
    return data;
}

// One event type's table and filter models, each watched by a fatal tester.
struct Models
{
    Models(EventType type, qsizetype asyncThreshold)
        : table(&sessionModel, type)
        , filter(&table, &state)
    {
        filter.setAsyncThreshold(asyncThreshold);
        tableTester = std::make_unique<QAbstractItemModelTester>(
            &table, QAbstractItemModelTester::FailureReportingMode::Fatal);
        filterTester = std::make_unique<QAbstractItemModelTester>(
            &filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
        QObject::connect(&sessionModel, &SessionModel::reset, &state, [this] {
            state.setFullRange(sessionModel.firstTimeNs(), sessionModel.endTimeNs());
        });
        QObject::connect(&sessionModel, &SessionModel::appended, &state, [this] {
            // As MainWindow does it: live data widens the range, a zoom stays.
            const bool zoomed = state.isZoomed();
            const quint64 s = state.startNs(), e = state.endNs();
            state.setFullRange(sessionModel.firstTimeNs(), sessionModel.endTimeNs());
            if (zoomed)
                state.setRange(s, e);
        });
    }

    // Every row of the filter model maps to a table row that passes the filter and range.
    void check() const
    {
        QCOMPARE(table.rowCount(), int(sessionModel.events().count(table.type())));
        QVERIFY(filter.rowCount() <= table.rowCount());
        QCOMPARE(filter.columnCount(), table.columnCount());
        for (int row = 0; row < filter.rowCount(); ++row) {
            const QModelIndex source = filter.mapToSource(filter.index(row, 0));
            QVERIFY(source.isValid());
            const quint64 t = source.data(EventTableModel::TimeNsRole).toULongLong();
            QVERIFY(t >= state.startNs() && t < state.endNs());
            if (state.filter().pid >= 0)
                QCOMPARE(qint64(source.data(EventTableModel::PidRole).toUInt()),
                         state.filter().pid);
            if (!state.filter().comm.isEmpty())
                QCOMPARE(source.data(EventTableModel::CommRole).toByteArray(), state.filter().comm);
            QCOMPARE(filter.mapFromSource(source).row(), row);
        }
    }

    void waitForFilter() const { QTRY_VERIFY(!filter.filterPending()); }

    SessionModel sessionModel;
    ViewState state;
    EventTableModel table;
    EventFilterModel filter;
    std::unique_ptr<QAbstractItemModelTester> tableTester;
    std::unique_ptr<QAbstractItemModelTester> filterTester;
};

} // namespace

class TestModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyTypeHasEvents();
    void loadedSession_data() { typesAndThresholds(); }
    void loadedSession();
    void liveBatches_data() { typesAndThresholds(); }
    void liveBatches();
    void filterAndRange_data() { typesAndThresholds(); }
    void filterAndRange();
    void cgroupColumnsNameContainersAndUnits();
    void memorySizesReadInBinaryUnits();

private:
    void typesAndThresholds();
};

void TestModels::typesAndThresholds()
{
    QTest::addColumn<EventType>("type");
    QTest::addColumn<qsizetype>("asyncThreshold");
    for (EventType type : eventTypes) {
        const QString name = SessionModel::typeName(type);
        QTest::newRow(qPrintable(name + QStringLiteral(" sync"))) << type << qsizetype(1'000'000);
        QTest::newRow(qPrintable(name + QStringLiteral(" worker"))) << type << qsizetype(1);
    }
}

void TestModels::everyTypeHasEvents()
{
    // The builders above reach every type: a new type gets rows without touching this test.
    const SessionData data = session(1);
    for (EventType type : eventTypes)
        QCOMPARE(data.events.count(type), qsizetype(PerBatch));
}

void TestModels::loadedSession()
{
    QFETCH(EventType, type);
    QFETCH(qsizetype, asyncThreshold);
    Models m(type, asyncThreshold);
    m.sessionModel.setSession(session(3));
    m.waitForFilter();
    QCOMPARE(m.table.rowCount(), 3 * PerBatch);
    QCOMPARE(m.filter.rowCount(), 3 * PerBatch);
    m.check();
    for (int column = 0; column < m.table.columnCount(); ++column) {
        QVERIFY(m.table.headerData(column, Qt::Horizontal).isValid());
        QVERIFY(m.table.index(0, column).data().isValid());
    }
    m.sessionModel.clear();
    m.waitForFilter();
    QCOMPARE(m.table.rowCount(), 0);
    QCOMPARE(m.filter.rowCount(), 0);
}

void TestModels::liveBatches()
{
    QFETCH(EventType, type);
    QFETCH(qsizetype, asyncThreshold);
    Models m(type, asyncThreshold);
    SessionData start;
    start.info = info();
    m.sessionModel.setSession(std::move(start));
    QCOMPARE(m.table.rowCount(), 0);

    // Appended in order, then with a filter active and zoomed in, then out of order.
    m.sessionModel.append(batch(0));
    m.sessionModel.append(batch(1));
    m.waitForFilter();
    QCOMPARE(m.filter.rowCount(), 2 * PerBatch);
    m.check();

    EventFilter f;
    f.comm = QByteArrayLiteral("cat");
    m.state.setFilter(f);
    m.state.setRange(StartNs + 10 * StepNs, StartNs + 80 * StepNs);
    m.sessionModel.append(batch(2));
    m.waitForFilter();
    m.check();
    m.state.setFilter({});
    m.state.resetRange();
    m.waitForFilter();
    QCOMPARE(m.filter.rowCount(), 3 * PerBatch);

    m.sessionModel.append(batch(3, true));
    m.waitForFilter();
    QCOMPARE(m.table.rowCount(), 4 * PerBatch);
    m.check();
    m.sessionModel.setEndTime(StartNs + 10 * PerBatch * StepNs);
    m.waitForFilter();
    m.check();
}

void TestModels::filterAndRange()
{
    QFETCH(EventType, type);
    QFETCH(qsizetype, asyncThreshold);
    Models m(type, asyncThreshold);
    m.sessionModel.setSession(session(2));
    m.waitForFilter();

    const QList<EventFilter> filters = [] {
        EventFilter text, pid, comm, latency, nothing;
        text.text = QByteArrayLiteral("VI");
        pid.pid = 301;
        comm.comm = QByteArrayLiteral("vim");
        latency.minLatencyNs = 500'000;
        nothing.text = NoMatch;
        return QList<EventFilter>{text, pid, comm, latency, nothing, EventFilter{}};
    }();
    for (const EventFilter &f : filters) {
        m.state.setFilter(f);
        m.waitForFilter();
        m.check();
        if (f.pid >= 0)
            QCOMPARE(m.filter.rowCount(), 2 * PerBatch / 4);
        else if (f.text == NoMatch)
            QCOMPARE(m.filter.rowCount(), 0);
        // Zoom in, pan both ways and out again under the filter.
        m.state.zoom(0.25, StartNs + 30 * StepNs);
        m.check();
        m.state.pan(qint64(20 * StepNs));
        m.check();
        m.state.pan(-qint64(200 * StepNs));
        m.check();
        // Between two events.
        m.state.setRange(StartNs + 10 * StepNs + StepNs / 4, StartNs + 10 * StepNs + StepNs / 2);
        QCOMPARE(m.filter.rowCount(), 0);
        m.state.resetRange();
        m.check();
    }
    QCOMPARE(m.filter.rowCount(), 2 * PerBatch);

    // Filter changes in quick succession: a worker's scan is restarted, never shown half done.
    for (const EventFilter &f : filters)
        m.state.setFilter(f);
    m.state.setFilter(filters.first());
    m.waitForFilter();
    m.check();
}

// Every table of a type with a cgroup id ends in Container and Unit when the session's cgroups
// tell events apart: "docker 3f4e5a6b7c8d" (runtime and short id) with the whole id and path in
// the tool tip, the unit; a host process has no container. A session of one cgroup (a machine
// without services or containers) shows neither, and a session without containers no Container.
void TestModels::cgroupColumnsNameContainersAndUnits()
{
    const QByteArray id = "3f4e5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081";
    auto make = [&](const QList<CgroupPath> &cgroups) {
        SessionData d;
        d.info = info();
        d.cgroups.add(cgroups);
        for (int i = 0; i < 4; ++i) {
            OpenEvent o = eventAt<OpenEvent>(i, StartNs + quint64(i) * StepNs);
            o.cgroupId = quint64(i % 2 + 1);
            d.events.append(o);
        }
        return d;
    };
    SessionModel session;
    EventTableModel table(&session, EventType::Open);
    QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto headers = [&] {
        QStringList h;
        for (int c = 0; c < table.columnCount(); ++c)
            h << table.headerData(c, Qt::Horizontal).toString();
        return h;
    };
    const QStringList own = headers();
    // After Command, before the path: the long column stays last.
    const int container = int(own.indexOf(QStringLiteral("Command"))) + 1;
    const int unit = container + 1;
    QVERIFY(container > 1);

    session.setSession(
        make({{1, "/system.slice/docker-" + id + ".scope"}, {2, "/system.slice/nginx.service"}}));
    QStringList withBoth = own;
    withBoth.insert(container, QStringLiteral("Container"));
    withBoth.insert(unit, QStringLiteral("Unit"));
    QCOMPARE(headers(), withBoth);
    QCOMPARE(headers().last(), QStringLiteral("Path"));
    QCOMPARE(table.index(0, container).data().toString(), QStringLiteral("docker 3f4e5a6b7c8d"));
    QCOMPARE(table.index(0, container).data(Qt::ToolTipRole).toString(),
             QStringLiteral("docker container %1\nin /system.slice/docker-%1.scope")
                 .arg(QString::fromLatin1(id)));
    QCOMPARE(table.index(0, unit).data().toString(),
             QStringLiteral("docker-%1.scope").arg(QString::fromLatin1(id)));
    QCOMPARE(table.index(1, container).data().toString(), QString());
    QCOMPARE(table.index(1, unit).data().toString(), QStringLiteral("nginx.service"));
    QCOMPARE(table.index(1, unit).data(EventTableModel::RawValueRole).toString(),
             QStringLiteral("nginx.service"));
    QCOMPARE(table.index(1, unit).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignHorizontal_Mask,
             Qt::AlignLeft);
    // The type's own columns keep their values beside them.
    QCOMPARE(table.index(1, container - 1).data().toString(), QStringLiteral("cat"));

    session.setSession(make({{1, "/system.slice/ssh.service"}, {2, "/user.slice"}}));
    QStringList withUnit = own;
    withUnit.insert(container, QStringLiteral("Unit"));
    QCOMPARE(headers(), withUnit);
    QCOMPARE(table.index(1, container).data().toString(), QStringLiteral("user.slice"));

    session.setSession(make({{1, "/"}}));
    QCOMPARE(headers(), own);
}

// An OOM kill's memory as people read it ("66.3 MiB", "66,3 MiB" in German), the byte count
// itself where a program reads it (the raw value, CSV and SQL).
void TestModels::memorySizesReadInBinaryUnits()
{
    SessionData d;
    d.info = info();
    OomKillEvent e = eventAt<OomKillEvent>(0, StartNs + StepNs);
    e.anonRssBytes = 66584576; // 63.5 MiB
    e.fileRssBytes = 2953216;  // 2.8 MiB
    e.shmemRssBytes = 0;
    e.totalVmBytes = 84103168; // 80.2 MiB
    d.events.append(e);
    SessionModel session;
    EventTableModel table(&session, EventType::OomKill);
    QAbstractItemModelTester tester(&table, QAbstractItemModelTester::FailureReportingMode::QtTest);
    session.setSession(std::move(d));
    auto column = [&](const QString &title) {
        for (int c = 0; c < table.columnCount(); ++c) {
            if (table.headerData(c, Qt::Horizontal).toString() == title)
                return c;
        }
        return -1;
    };
    const int rss = column(QStringLiteral("RSS"));
    const int vm = column(QStringLiteral("Total VM"));
    QVERIFY(rss >= 0 && vm >= 0);
    QCOMPARE(table.index(0, rss).data().toString(), QStringLiteral("66.3 MiB"));
    QCOMPARE(table.index(0, vm).data().toString(), QStringLiteral("80.2 MiB"));
    QCOMPARE(table.index(0, vm).data(EventTableModel::RawValueRole).toULongLong(), 84103168ull);
    QCOMPARE(table.index(0, vm).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignHorizontal_Mask,
             Qt::AlignRight);
    QCOMPARE(formatPlainValue(Format::Size, QVariant::fromValue(quint64(84103168)), 0),
             QStringLiteral("80.2 MiB"));

    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const auto restore = qScopeGuard([&] { QLocale::setDefault(before); });
    QCOMPARE(table.index(0, rss).data().toString(), QStringLiteral("66,3 MiB"));
}

QTEST_GUILESS_MAIN(TestModels)

#include "tst_models.moc"
