// The Overview tab (OverviewPage, core/overview.h, the Overview models) on a session with
// known events: per-probe counts and percentiles equal brute force over the events; the
// histogram-only probe reads "N samples in M intervals"; BPF Lens' own processes are left out
// of the top lists unless asked for; each cost is its own list; a finding leads to the view
// that shows it; the red badge is for lost events only; and no recording figures are shown
// before there is a recording.
#include "core/overview.h"
#include "gui/detailspane.h"
#include "gui/explainpage.h"
#include "gui/histogramview.h"
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/overviewmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"
#include "gui/overviewpage.h"
#include "gui/profilepage.h"
#include "gui/resultspage.h"
#include "gui/translations.h"
#include "tests/gui/guitestdata.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLocale>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <algorithm>
#include <map>
#include <vector>

using namespace bpflens;

namespace {

constexpr quint64 S = 10'000'000'000ull; // the session's start
constexpr quint64 Ms = 1'000'000ull;
constexpr quint64 Us = 1'000ull;
constexpr int Timeout = 20'000;

CpuSampleEvent sample(quint64 t, quint32 pid, const char *comm)
{
    CpuSampleEvent e;
    e.timeNs = t;
    e.pid = pid;
    e.tid = pid;
    e.comm = QByteArray(comm);
    return e;
}

// Ten seconds of a machine where dd writes, tar bursts block I/O at 6.0 s, ls looks for files
// that are not there, curl connects to a closed port, and BPF Lens records and symbolises.
RecordBatch overviewBatch()
{
    RecordBatch b;
    // CPU samples every 10 ms: dd 300, python3 200, bpflens-cli 400 and its thread "QThread" 50,
    // the idle task 50.
    for (int i = 0; i < 1000; ++i) {
        const quint64 t = S + quint64(i) * 10 * Ms;
        const int k = i % 10;
        if (k < 3)
            b.cpuSample << sample(t, 700, "dd");
        else if (k < 5)
            b.cpuSample << sample(t, 800, "python3");
        else if (k < 9)
            b.cpuSample << sample(t, 900, "bpflens-cli");
        else
            b.cpuSample << (i % 20 == 9 ? sample(t, 900, "QThread") : sample(t, 0, "swapper/0"));
    }
    for (int i = 0; i < 40; ++i) {
        OffCpuEvent e;
        e.timeNs = S + 100 * Ms + quint64(i) * 250 * Ms;
        const int k = i % 4;
        e.pid = k == 0 ? 700 : k == 1 ? 800 : k == 2 ? 900 : 600;
        e.tid = e.pid;
        e.comm = k == 0   ? QByteArrayLiteral("dd")
                 : k == 1 ? QByteArrayLiteral("python3")
                 : k == 2 ? QByteArrayLiteral("bpflens-cli")
                          : QByteArrayLiteral("sshd");
        e.offNs = k == 0 ? 50 * Ms : k == 1 ? 5 * Ms : k == 2 ? 200 * Ms : Ms + quint64(i) * Us;
        b.offCpu << e;
    }
    for (int i = 0; i < 150; ++i) {
        BlockEvent e;
        e.timeNs = S + 30 * Ms + quint64(i) * 66 * Ms;
        e.pid = i % 3 == 0 ? 77 : 700;
        e.comm = i % 3 == 0 ? QByteArrayLiteral("kworker/0:1") : QByteArrayLiteral("dd");
        e.queueNs = 100 * Us;
        e.deviceNs = Ms + quint64(i * 37 % 50) * 100 * Us;
        e.bytes = 4096;
        e.disk = QByteArrayLiteral("vda");
        e.op = QByteArrayLiteral("Write");
        b.block << e;
    }
    for (int j = 0; j < 200; ++j) {
        BlockEvent e;
        e.timeNs = S + 6000 * Ms + quint64(j) * Ms;
        e.pid = 1500;
        e.comm = QByteArrayLiteral("tar");
        e.deviceNs = 20 * Ms + quint64(j) * 10 * Us;
        e.bytes = 131072;
        e.disk = QByteArrayLiteral("vda");
        e.op = QByteArrayLiteral("Read");
        b.block << e;
    }
    std::sort(b.block.begin(), b.block.end(),
              [](const BlockEvent &x, const BlockEvent &y) { return x.timeNs < y.timeNs; });
    for (int k = 0; k < 60; ++k) {
        OpenEvent e;
        e.timeNs = S + 50 * Ms + quint64(k) * 160 * Ms;
        e.pid = 1200;
        e.comm = QByteArrayLiteral("ls");
        e.ret = -2; // ENOENT
        e.path = QByteArrayLiteral("/nonexistent");
        b.open << e;
    }
    for (int k = 0; k < 40; ++k) {
        OpenEvent e;
        e.timeNs = S + 70 * Ms + quint64(k) * 240 * Ms;
        e.pid = 1300;
        e.comm = QByteArrayLiteral("cat");
        e.ret = 3;
        e.path = QByteArrayLiteral("/etc/hosts");
        b.open << e;
    }
    for (int k = 0; k < 80; ++k) {
        OpenEvent e;
        e.timeNs = S + 90 * Ms + quint64(k) * 120 * Ms;
        e.pid = 910;
        e.comm = QByteArrayLiteral("bpflens-symboli"); // the kernel's 15 bytes
        e.ret = k % 8 < 3 ? -2 : 4;
        e.path = QByteArrayLiteral("/usr/lib/debug/libc.so.6");
        b.open << e;
    }
    std::sort(b.open.begin(), b.open.end(),
              [](const OpenEvent &x, const OpenEvent &y) { return x.timeNs < y.timeNs; });
    for (int k = 0; k < 10; ++k) {
        TcpConnectEvent e;
        e.timeNs = S + 1000 * Ms + quint64(k) * 500 * Ms;
        e.pid = 1400;
        e.comm = QByteArrayLiteral("curl");
        e.daddr = {127, 0, 0, 1};
        e.dport = 9;
        e.ret = k < 7 ? -111 : 0; // ECONNREFUSED
        b.tcpConnect << e;
    }
    // runqlat: 100 waits of 4-7 us and 5 of 2-4 ms per second.
    for (int s = 0; s < 10; ++s) {
        HistogramSnapshot h;
        h.probeId = QStringLiteral("runqlat");
        h.timeNs = S + quint64(s + 1) * 1000 * Ms;
        h.intervalNs = 1000 * Ms;
        h.histogram = Log2Histogram(HistogramUnit::Microseconds);
        h.histogram.addToSlot(2, 100);
        h.histogram.addToSlot(11, 5);
        b.histograms << h;
    }
    for (const char *probe : {"profile", "offcpu", "block", "open", "tcpconnect", "runqlat"}) {
        ProbeStats s;
        s.probeId = QString::fromLatin1(probe);
        s.timeNs = S + 10'000 * Ms;
        s.eventsSeen = 100;
        // 4 block completions the kernel never ran the program for: nothing was lost.
        s.eventsUnseen = QByteArray(probe) == "block" ? 4 : 0;
        b.stats << s;
    }
    return b;
}

SessionInfo overviewInfo()
{
    SessionInfo info;
    info.appVersion = QStringLiteral("0.1.0");
    info.host = QStringLiteral("testhost");
    info.kernelRelease = QStringLiteral("6.18.0-test");
    info.startWall = QDateTime(QDate(2026, 11, 28), QTime(12, 0, 0), Qt::UTC);
    info.startMonotonicNs = S;
    for (const char *probe : {"profile", "offcpu", "block", "open", "tcpconnect", "runqlat"})
        info.probes << ProbeConfig{QString::fromLatin1(probe), {}, QString()};
    return info;
}

SessionData overviewData()
{
    SessionData data;
    data.info = overviewInfo();
    data.info.endMonotonicNs = S + 10'000 * Ms;
    const RecordBatch b = overviewBatch();
    for (const auto &e : b.cpuSample)
        data.events.append(e);
    for (const auto &e : b.offCpu)
        data.events.append(e);
    for (const auto &e : b.block)
        data.events.append(e);
    for (const auto &e : b.open)
        data.events.append(e);
    for (const auto &e : b.tcpConnect)
        data.events.append(e);
    data.histograms = b.histograms;
    data.stats = b.stats;
    return data;
}

quint64 rank(std::vector<quint64> v, double p)
{
    std::sort(v.begin(), v.end());
    const auto r = std::clamp<size_t>(size_t(std::ceil(p * double(v.size()) - 1e-9)), 1, v.size());
    return v[r - 1];
}

// The row of a probe in the probes model.
int probeRow(const OverviewProbeModel *m, const QString &id)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, 0).data(OverviewProbeModel::ProbeIdRole).toString() == id)
            return r;
    }
    return -1;
}

int findingRow(const OverviewFindingModel *m, Finding::Kind kind, EventType type = EventType(0))
{
    for (int r = 0; r < m->rowCount(); ++r) {
        const Finding &f = m->findings()[r];
        if (f.kind == kind && (type == EventType(0) || f.type == type))
            return r;
    }
    return -1;
}

QString text(const QAbstractItemModel *m, int row, int column)
{
    return m->index(row, column).data().toString();
}

} // namespace

class TestOverview : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_path = QDir(m_dir.path()).filePath(QStringLiteral("overview.bpflens"));
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(m_path, overviewInfo(), &error), qPrintable(error));
        QVERIFY2(writer.writeBatch(overviewBatch(), &error), qPrintable(error));
        QVERIFY2(writer.finish(S + 10'000 * Ms, &error), qPrintable(error));
    }

    void probesEqualBruteForce_data()
    {
        QTest::addColumn<quint64>("from");
        QTest::addColumn<quint64>("to");
        QTest::addColumn<qint64>("pid");
        QTest::newRow("whole") << S << S + 10'000 * Ms << qint64(-1);
        QTest::newRow("zoomed") << S + 5'500 * Ms << S + 7'000 * Ms << qint64(-1);
        QTest::newRow("filtered") << S << S + 10'000 * Ms << qint64(700);
    }
    // Counts and exact percentiles of every event probe equal brute force over the events of
    // the range that pass the filter.
    void probesEqualBruteForce()
    {
        QFETCH(quint64, from);
        QFETCH(quint64, to);
        QFETCH(qint64, pid);
        SessionModel session;
        session.setSession(overviewData());
        ViewState state;
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        state.setRange(from, to);
        EventFilter filter;
        filter.pid = pid;
        state.setFilter(filter);
        OverviewPage page(&session, &state);
        QAbstractItemModelTester tester(page.probeModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), Timeout);

        const RecordBatch b = overviewBatch();
        auto in = [&](quint64 t, quint32 p) {
            return t >= from && t < to && (pid < 0 || qint64(p) == pid);
        };
        std::vector<quint64> block, offcpu;
        qint64 samples = 0, opens = 0, connects = 0;
        for (const auto &e : b.block)
            if (in(e.timeNs, e.pid))
                block.push_back(e.queueNs + e.deviceNs);
        for (const auto &e : b.offCpu)
            if (in(e.timeNs, e.pid))
                offcpu.push_back(e.offNs);
        for (const auto &e : b.cpuSample)
            samples += in(e.timeNs, e.pid);
        for (const auto &e : b.open)
            opens += in(e.timeNs, e.pid);
        for (const auto &e : b.tcpConnect)
            connects += in(e.timeNs, e.pid);

        const OverviewProbeModel *m = page.probeModel();
        using C = OverviewProbeModel;
        auto check = [&](const QString &id, qint64 count, const std::vector<quint64> &lat) {
            const int r = probeRow(m, id);
            QVERIFY2(r >= 0, qPrintable(id));
            QCOMPARE(m->index(r, 0).data(C::EventsRole).toLongLong(), count);
            QCOMPARE(text(m, r, C::RecordedColumn), C::tr("%Ln event(s)", "", count));
            if (lat.empty()) {
                QCOMPARE(text(m, r, C::P50Column), QStringLiteral("–"));
                return;
            }
            QCOMPARE(text(m, r, C::P50Column), EventTableModel::formatDuration(rank(lat, 0.5)));
            QCOMPARE(text(m, r, C::P99Column), EventTableModel::formatDuration(rank(lat, 0.99)));
            QCOMPARE(text(m, r, C::MaxColumn),
                     EventTableModel::formatDuration(*std::max_element(lat.begin(), lat.end())));
        };
        check(QStringLiteral("block"), qint64(block.size()), block);
        check(QStringLiteral("offcpu"), qint64(offcpu.size()), offcpu);
        check(QStringLiteral("profile"), samples, {});
        check(QStringLiteral("open"), opens, {});
        check(QStringLiteral("tcpconnect"), connects, {});
    }

    // runqlat counts into histograms in the kernel: it says how many samples in how many
    // intervals, with the buckets its percentiles fall in, and never "0 events".
    void histogramProbeReadsSamples()
    {
        SessionModel session;
        session.setSession(overviewData());
        ViewState state;
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        OverviewPage page(&session, &state);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), Timeout);
        const OverviewProbeModel *m = page.probeModel();
        using C = OverviewProbeModel;
        const int r = probeRow(m, QStringLiteral("runqlat"));
        QVERIFY(r >= 0);
        const QString recorded = text(m, r, C::RecordedColumn);
        QCOMPARE(recorded,
                 C::tr("%1 in %2", "samples in intervals")
                     .arg(C::tr("%Ln sample(s)", "", 1050), C::tr("%Ln interval(s)", "", 10)));
        QVERIFY2(recorded.contains(QLocale().toString(1050)), qPrintable(recorded));
        QVERIFY2(!recorded.contains(QLatin1String("event")), qPrintable(recorded));
        // p50 in the 4-7 us bucket, p99 and max in 2048-4095 us: ranges, not values.
        QCOMPARE(text(m, r, C::P50Column), C::bucketText(2, HistogramUnit::Microseconds));
        QCOMPARE(text(m, r, C::P99Column), C::bucketText(11, HistogramUnit::Microseconds));
        QCOMPARE(text(m, r, C::MaxColumn), C::bucketText(11, HistogramUnit::Microseconds));
        QCOMPARE(text(m, r, C::P50Column), QStringLiteral("4–7 µs"));

        // Zoomed to 3 s of the 10: the intervals that end there.
        state.setRange(S + 2'500 * Ms, S + 5'500 * Ms);
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), Timeout);
        QCOMPARE(m->index(r, 0).data(C::SamplesRole).toULongLong(), 315ull);
        QCOMPARE(m->index(r, 0).data(C::IntervalsRole).toLongLong(), 3);

        // And a run-queue p99 far above the p50 is worth a look.
        const int f = findingRow(page.findingModel(), Finding::Kind::RunQueue);
        QVERIFY(f >= 0);
        QVERIFY2(text(page.findingModel(), f, 0).contains(QStringLiteral("2,048–4,095 µs")) ||
                     text(page.findingModel(), f, 0).contains(QStringLiteral("2048–4095 µs")),
                 qPrintable(text(page.findingModel(), f, 0)));
    }

    // Counts read as words (issue #29): "1 event" and "2 events" in English, not "1 event(s)"
    // (also under the C locale, which has no translation of its own), and German's forms.
    void countsReadAsWords()
    {
        const auto english = qScopeGuard([] { installTranslations(QLocale::c()); });
        auto make = [] {
            SessionData data;
            data.info = overviewInfo();
            data.info.endMonotonicNs = S + 10'000 * Ms;
            data.events.append(sample(S + 100 * Ms, 100, "one"));
            for (quint64 k = 1; k <= 2; ++k) {
                OpenEvent o;
                o.timeNs = S + k * 200 * Ms;
                o.pid = 100;
                o.comm = "two";
                o.path = "/etc/hostname";
                data.events.append(o);
            }
            return data;
        };
        const struct
        {
            const char *locale;
            const char *one;
            const char *two;
        } cases[] = {{"en_US", "1 event", "2 events"},
                     {"C", "1 event", "2 events"},
                     {"de_DE", "1 Ereignis", "2 Ereignisse"}};
        for (const auto &c : cases) {
            installTranslations(QLocale(QLatin1String(c.locale)));
            SessionModel session;
            session.setSession(make());
            ViewState state;
            state.setFullRange(session.firstTimeNs(), session.endTimeNs());
            OverviewPage page(&session, &state);
            page.show();
            QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), Timeout);
            const OverviewProbeModel *m = page.probeModel();
            const int profile = probeRow(m, QStringLiteral("profile"));
            const int open = probeRow(m, QStringLiteral("open"));
            QVERIFY(profile >= 0 && open >= 0);
            QCOMPARE(text(m, profile, OverviewProbeModel::RecordedColumn),
                     QString::fromUtf8(c.one));
            QCOMPARE(text(m, open, OverviewProbeModel::RecordedColumn), QString::fromUtf8(c.two));
        }
    }

    // bpflens-cli and its thread (another name, the same pid) are left out of the top lists
    // and marked when shown; the idle task is never a process's cost.
    void ownProcessesLeftOut()
    {
        SessionModel session;
        session.setSession(overviewData());
        ViewState state;
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        OverviewPage page(&session, &state);
        OverviewCostModel *cpu = page.costModel(CostKind::CpuSamples);
        QAbstractItemModelTester tester(cpu,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), Timeout);
        QVERIFY(!page.ownProcessesBox()->isChecked());
        auto processes = [cpu] {
            QStringList p;
            for (int r = 0; r < cpu->rowCount(); ++r)
                p << text(cpu, r, OverviewCostModel::ProcessColumn);
            return p;
        };
        QCOMPARE(processes(),
                 (QStringList{QStringLiteral("700 dd"), QStringLiteral("800 python3")}));
        QCOMPARE(cpu->index(0, 0).data(OverviewCostModel::ValueRole).toULongLong(), 300ull);
        // The symbolizer's opens are not the system's either.
        OverviewCostModel *opens = page.costModel(CostKind::Opens);
        QCOMPARE(text(opens, 0, OverviewCostModel::ProcessColumn), QStringLiteral("1200 ls"));
        QCOMPARE(opens->rowCount(), 2);

        page.ownProcessesBox()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), Timeout);
        const QStringList all = processes();
        QCOMPARE(all.size(), 4); // dd, python3, bpflens-cli, QThread; never swapper/0
        QCOMPARE(cpu->index(0, 0).data(OverviewCostModel::PidRole).toLongLong(), 900);
        QVERIFY(cpu->index(0, 0).data(OverviewCostModel::OwnRole).toBool());
        QVERIFY2(all.first().contains(QLatin1String("bpflens-cli")) &&
                     all.first().contains(QLatin1String("BPF Lens")),
                 qPrintable(all.first()));
        const int thread = int(all.indexOf(QStringLiteral("900 QThread (BPF Lens)")));
        QVERIFY2(thread >= 0, qPrintable(all.join(QLatin1Char(','))));
        QVERIFY(cpu->index(thread, 0).data(OverviewCostModel::OwnRole).toBool());
        QVERIFY(!all.join(QLatin1Char(',')).contains(QLatin1String("swapper")));
        QCOMPARE(text(page.costModel(CostKind::Opens), 0, OverviewCostModel::ProcessColumn),
                 QStringLiteral("910 bpflens-symboli (BPF Lens)"));
    }

    // Each kind of cost is its own list in its own unit: the block list's total is block
    // time alone, the off-CPU list's off-CPU time alone.
    void unlikeCostsNeverSummed()
    {
        SessionModel session;
        session.setSession(overviewData());
        ViewState state;
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        OverviewPage page(&session, &state);
        page.setShowOwnProcesses(true);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing(), Timeout);
        const RecordBatch b = overviewBatch();
        // Per process (pid and command), as the lists are.
        using Process = std::pair<qint64, QByteArray>;
        std::map<CostKind, std::map<Process, quint64>> brute;
        for (const auto &e : b.cpuSample)
            if (e.pid != 0)
                ++brute[CostKind::CpuSamples][{e.pid, e.comm}];
        for (const auto &e : b.offCpu)
            brute[CostKind::OffCpuTime][{e.pid, e.comm}] += e.offNs;
        for (const auto &e : b.block)
            brute[CostKind::BlockTime][{e.pid, e.comm}] += e.queueNs + e.deviceNs;
        for (const auto &e : b.open)
            ++brute[CostKind::Opens][{e.pid, e.comm}];
        for (const auto &e : b.tcpConnect)
            ++brute[CostKind::Connects][{e.pid, e.comm}];
        for (int k = 0; k < CostKindCount; ++k) {
            const CostKind kind = CostKind(k);
            OverviewCostModel *m = page.costModel(kind);
            QVERIFY(page.costView(kind));
            QCOMPARE(m->headerData(OverviewCostModel::ValueColumn, Qt::Horizontal).toString(),
                     OverviewCostModel::kindTitle(kind));
            quint64 total = 0;
            for (const auto &p : brute[kind])
                total += p.second;
            QCOMPARE(m->list().total, total);
            for (int r = 0; r < m->rowCount(); ++r) {
                const Process p{m->index(r, 0).data(OverviewCostModel::PidRole).toLongLong(),
                                m->index(r, 0).data(OverviewCostModel::CommRole).toByteArray()};
                QCOMPARE(m->index(r, 0).data(OverviewCostModel::ValueRole).toULongLong(),
                         brute[kind][p]);
                QCOMPARE(text(m, r, OverviewCostModel::ValueColumn),
                         OverviewCostModel::valueText(kind, brute[kind][p]));
            }
        }
        // dd has both block and off-CPU time: each list holds one of them, neither their sum.
        auto ddValue = [&](CostKind kind) {
            OverviewCostModel *m = page.costModel(kind);
            for (int r = 0; r < m->rowCount(); ++r)
                if (m->index(r, 0).data(OverviewCostModel::PidRole).toLongLong() == 700)
                    return m->index(r, 0).data(OverviewCostModel::ValueRole).toULongLong();
            return quint64(0);
        };
        QCOMPARE(ddValue(CostKind::OffCpuTime), 500 * Ms);
        const quint64 ddBlock = brute[CostKind::BlockTime][{700, QByteArrayLiteral("dd")}];
        QCOMPARE(ddValue(CostKind::BlockTime), ddBlock);
        QVERIFY(ddValue(CostKind::BlockTime) != ddBlock + 500 * Ms);
    }

    // In the window: each finding is a link to the view that shows it.
    void findingLeadsToItsView()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        OverviewPage *page = w.results()->summaryPanel()->overview();
        QCOMPARE(w.results()->currentView(), w.results()->summaryPanel());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        OverviewFindingModel *findings = page->findingModel();
        QAbstractItemModelTester tester(findings,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto click = [&](int row) {
            QTableView *v = page->findingsView();
            v->scrollTo(findings->index(row, 0));
            const QRect r = v->visualRect(findings->index(row, OverviewFindingModel::LinkColumn));
            QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, r.center());
        };

        // ls and the symbolizer looked for files that are not there: 90 opens failed.
        const int enoent = findingRow(findings, Finding::Kind::Errors, EventType::Open);
        QVERIFY(enoent >= 0);
        QCOMPARE(text(findings, enoent, 0),
                 OverviewFindingModel::tr("%1: %Ln failed with %2", "", 90)
                     .arg(SessionModel::typeName(EventType::Open), QStringLiteral("ENOENT")));
        click(enoent);
        QCOMPARE(w.results()->currentView(), w.results()->tableView(EventType::Open));
        QCOMPARE(w.viewState()->filter().error, -2);
        QTRY_COMPARE_WITH_TIMEOUT(w.results()->tableView(EventType::Open)->model()->rowCount(), 90,
                                  Timeout);

        // curl's refused connects.
        w.viewState()->setFilter({});
        w.results()->showView(w.results()->summaryPanel());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        const int refused = findingRow(findings, Finding::Kind::Errors, EventType::TcpConnect);
        QVERIFY(refused >= 0);
        QVERIFY(text(findings, refused, 0).contains(QLatin1String("ECONNREFUSED")));
        click(refused);
        QCOMPARE(w.results()->currentView(), w.results()->tableView(EventType::TcpConnect));
        QCOMPARE(w.viewState()->filter().error, -111);

        // tar's burst of block I/O: the range becomes the burst and Explain says what it held.
        w.viewState()->setFilter({});
        w.results()->showView(w.results()->summaryPanel());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        const int spike = findingRow(findings, Finding::Kind::Spike, EventType::Block);
        QVERIFY(spike >= 0);
        const Finding f = findings->findings()[spike];
        // The burst's bins: 6.000 to 6.200 s give or take a bin's rounding.
        QVERIFY2(f.startNs < S + 6'010 * Ms && f.endNs > S + 6'100 * Ms,
                 qPrintable(QStringLiteral("%1 %2").arg(f.startNs - S).arg(f.endNs - S)));
        QVERIFY2(text(findings, spike, 0).contains(QLatin1String("tar")),
                 qPrintable(text(findings, spike, 0)));
        click(spike);
        QCOMPARE(w.results()->currentView(), w.results()->explainPage());
        QCOMPARE(w.viewState()->startNs(), f.startNs);
        QCOMPARE(w.viewState()->endNs(), f.endNs);

        // The run queue's long waits: the histograms.
        w.viewState()->resetRange();
        w.results()->showView(w.results()->summaryPanel());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        const int runq = findingRow(findings, Finding::Kind::RunQueue);
        QVERIFY(runq >= 0);
        click(runq);
        QCOMPARE(w.results()->currentView(), w.results()->histogramView());

        // A process of a top list: filtered to it, in the view of that cost.
        w.results()->showView(w.results()->summaryPanel());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        QTableView *offcpu = page->costView(CostKind::OffCpuTime);
        QVERIFY(offcpu);
        const QModelIndex first = offcpu->model()->index(0, 0);
        QCOMPARE(first.data().toString(), QStringLiteral("700 dd"));
        offcpu->scrollTo(first);
        // A double click, as a user makes it: press and release, then the second press.
        QTest::mouseClick(offcpu->viewport(), Qt::LeftButton, {},
                          offcpu->visualRect(first).center());
        QTest::mouseDClick(offcpu->viewport(), Qt::LeftButton, {},
                           offcpu->visualRect(first).center());
        QCOMPARE(w.viewState()->filter().pid, 700);
        QCOMPARE(w.viewState()->filter().comm, QByteArrayLiteral("dd"));
        QCOMPARE(w.results()->currentView(), w.results()->profilePage());
        QCOMPARE(w.results()->profilePage()->kind(), ProfileKind::OffCpu);
    }

    // 4 block completions not seen, nothing lost: no red anywhere, the note says what it is.
    void badgeRedOnlyForLosses()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        OverviewPage *page = w.results()->summaryPanel()->overview();
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        QVERIFY(!page->lossBadge()->isVisible());
        QVERIFY(page->missingNote()->isVisible());
        QCOMPARE(page->missingNote()->text(), QStringLiteral("4 not seen"));
        QVERIFY(page->missingNote()->styleSheet().isEmpty());
        QVERIFY(page->missingNote()->toolTip().contains(QLatin1String("No buffer was full")));
        QVERIFY(findingRow(page->findingModel(), Finding::Kind::Losses) < 0);
        // The status bar says the same, in the text colour.
        w.updateRecordingStatus();
        QCOMPARE(w.lostLabel()->text(), QStringLiteral("0 lost · 4 not seen"));
        QVERIFY2(!w.lostLabel()->styleSheet().contains(QLatin1String("background")),
                 qPrintable(w.lostLabel()->styleSheet()));

        // The GUI test session lost 6 opens to a full buffer: that is red, and worth a look.
        QTemporaryDir dir;
        const QString lossy = test::writeGuiSession(QDir(dir.path()), &error);
        QVERIFY2(!lossy.isEmpty(), qPrintable(error));
        QVERIFY2(w.openFile(lossy, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(!page->isComputing(), Timeout);
        QVERIFY(page->lossBadge()->isVisible());
        QCOMPARE(page->lossBadge()->text(), OverviewPage::tr("%Ln event(s) lost", "", 6));
        QVERIFY(page->lossBadge()->styleSheet().contains(QLatin1String("#d0312d")));
        const int losses = findingRow(page->findingModel(), Finding::Kind::Losses);
        QVERIFY(losses >= 0);
        QVERIFY(page->findingModel()
                    ->index(losses, 0)
                    .data(OverviewFindingModel::SeverityRole)
                    .toBool());
        const int open = probeRow(page->probeModel(), QStringLiteral("open"));
        QVERIFY(page->probeModel()
                    ->index(open, OverviewProbeModel::LossesColumn)
                    .data(OverviewProbeModel::RealLossRole)
                    .toBool());
        const int block = probeRow(page->probeModel(), QStringLiteral("block"));
        QVERIFY(!page->probeModel()
                     ->index(block, OverviewProbeModel::LossesColumn)
                     .data(OverviewProbeModel::RealLossRole)
                     .toBool());
        w.updateRecordingStatus();
        QVERIFY(w.lostLabel()->styleSheet().contains(QLatin1String("background")));
    }

    // A probe whose options cut its rate says which, where it lost events: the page-fault probe
    // loses most of a fault storm at its defaults, and every=N or stackBytes=0 keeps up. A
    // probe without such options (open) gets the plain line.
    void lossesSayHowToLoseFewer()
    {
        OverviewFindingModel model;
        Finding pagefault;
        pagefault.kind = Finding::Kind::Losses;
        pagefault.probeId = QStringLiteral("pagefault");
        pagefault.count = 26861;
        Finding open = pagefault;
        open.probeId = QStringLiteral("open");
        open.count = 6;
        model.setFindings({pagefault, open}, 0);
        const QString lost =
            OverviewFindingModel::tr("%1 lost %Ln event(s): its buffer was full", "", 26861)
                .arg(QStringLiteral("pagefault"));
        const QString withHint = model.index(0, 0).data().toString();
        QVERIFY2(withHint.startsWith(lost + QStringLiteral(". To lose fewer: ")),
                 qPrintable(withHint));
        QVERIFY2(withHint.contains(QLatin1String("every=N")) &&
                     withHint.contains(QLatin1String("stackBytes=0")),
                 qPrintable(withHint));
        QCOMPARE(model.index(1, 0).data().toString(),
                 OverviewFindingModel::tr("%1 lost %Ln event(s): its buffer was full", "", 6)
                     .arg(QStringLiteral("open")));
    }

    // The session's facts stay, in one line above the overview and in full when asked for.
    void factsAreSecondary()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        SummaryPanel *summary = w.results()->summaryPanel();
        const QString line = summary->factsLine()->text();
        QVERIFY2(
            line.startsWith(QStringLiteral("overview.bpflens · testhost · kernel 6.18.0-test")),
            qPrintable(line));
        QVERIFY2(line.contains(EventTableModel::formatDuration(10'000 * Ms)), qPrintable(line));
        QVERIFY(!summary->facts()->isVisible());
        summary->detailsButton()->click();
        QVERIFY(summary->facts()->isVisible());
        QVERIFY(summary->probes()->isVisible());
    }

    // Before anything is recorded or opened the status bar has no duration, rate or CPU of a
    // recording that does not exist; a session brings them.
    void noRecordingFiguresWithoutRecording()
    {
        MainWindow w;
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.updateRecordingStatus();
        for (QLabel *l : {w.elapsedLabel(), w.rateLabel(), w.cpuLabel(), w.lostLabel()})
            QVERIFY2(!l->isVisible(), qPrintable(l->text()));
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        QVERIFY(w.elapsedLabel()->isVisible());
        QVERIFY2(w.elapsedLabel()->text().contains(QLatin1String("0:00:10")),
                 qPrintable(w.elapsedLabel()->text()));
        QVERIFY(w.lostLabel()->isVisible());
    }

    // The models stay consistent through resets (QAbstractItemModelTester).
    void modelsPassTester()
    {
        OverviewProbeModel probes;
        OverviewCostModel costs(CostKind::BlockTime);
        OverviewFindingModel findings;
        QAbstractItemModelTester t1(&probes,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&costs, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&findings,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        const SessionData data = overviewData();
        OverviewQuery q;
        q.fullStartNs = S;
        q.fullEndNs = S + 10'000 * Ms;
        const Overview o = computeOverview(data, q, &data.stacks);
        probes.setProbes(o.probes);
        QCOMPARE(probes.rowCount(), 6);
        for (const CostList &l : o.costs) {
            if (l.kind == CostKind::BlockTime)
                costs.setList(l);
        }
        QCOMPARE(costs.rowCount(), 3); // tar, dd, kworker
        QCOMPARE(text(&costs, 0, OverviewCostModel::ProcessColumn), QStringLiteral("1500 tar"));
        findings.setFindings(o.findings, S);
        QVERIFY(findings.rowCount() >= 4); // the burst, two errors, the run queue
        probes.setProbes({});
        costs.setList({});
        findings.setFindings({}, 0);
        QCOMPARE(findings.rowCount(), 0);
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestOverview)
#include "tst_overview.moc"
