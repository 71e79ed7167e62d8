// export --pprof on a session with known numbers (tests/gui/profiletestdata.h), read back by the
// real `go tool pprof` (-top, -raw, -traces): every share the same as BPF Lens's own
// (core/callgraph), the sample types, period, mappings and labels where pprof shows them, the
// time range and the filters applied, and what a user gets wrong (no samples, an existing
// file, a path that cannot be written). With the GUI, File > Export pprof Profile's controller
// with the window's visible range and filter.
#include "tests/clirun.h"
#include "tests/gopprof.h"
#include "tests/gui/profiletestdata.h"

#include "core/callgraph.h"
#include "core/pprofexport.h"
#include "core/sessionstore.h"

#ifdef BPFLENS_TEST_GUI
#include "gui/exportcontroller.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#endif

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

namespace {

CliRun cli(const QStringList &args)
{
    return runCli(QStringLiteral(BPFLENS_CLI), args, 60000);
}

bool writeSession(const QString &path, const SessionInfo &info, const RecordBatch &batch,
                  quint64 endNs)
{
    SessionWriter w;
    QString error;
    if (!w.create(path, info, &error) || !w.writeBatch(batch, &error) || !w.finish(endNs, &error)) {
        qWarning() << error;
        return false;
    }
    return true;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// BPF Lens's own shares, per function name: self and total as % of all samples, as `show` and
// the flame graph give them.
struct Share
{
    double self = 0;
    double total = 0;
};
QHash<QString, Share> ownShares(const SessionData &d, const StackWeights &w)
{
    QHash<QString, Share> shares;
    for (const FunctionCost &c : functionCosts(d.stacks, w)) {
        Share &s = shares[d.stacks.frameName(c.frame)];
        s.self += 100.0 * double(c.self) / double(w.total());
        s.total += 100.0 * double(c.total) / double(w.total());
    }
    return shares;
}

} // namespace

class TestPprofExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void knownProfileReadByGoToolPprof();
    void rangeAndFilters();
    void offCpu();
    void badInput();
#ifdef BPFLENS_TEST_GUI
    void windowExportsVisibleRangeUnderFilter();
    void fileMenuHasThePprofExport();
#endif

private:
    PprofRun pprof(const QStringList &args)
    {
        return goPprof(args, m_dir.path());
    }
    QString path(const char *name) const
    {
        return m_dir.filePath(QLatin1String(name));
    }
    QTemporaryDir m_dir;
    QString m_session;
    SessionData m_data;
};

void TestPprofExport::initTestCase()
{
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL("go is missing (Debian package golang-go; see .ci/deps --tests)");
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    }
    QVERIFY(m_dir.isValid());
    m_data = profileSession();
    m_data.info.appVersion = QStringLiteral("test");
    m_data.info.startWall = QDateTime(QDate(2026, 11, 28), QTime(12, 0), Qt::UTC);
    m_session = path("profile.bpflens");
    QVERIFY(writeSession(m_session, m_data.info, profileBatch(), m_data.info.endMonotonicNs));
}

void TestPprofExport::knownProfileReadByGoToolPprof()
{
    const QString out = path("cpu.pb.gz");
    const CliRun r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), out});
    QVERIFY2(r.status == 0, r.err.constData());
    // Both kinds are in the session: it says which one it wrote.
    QVERIFY2(r.err.contains("writing the CPU samples (--probe offcpu writes the waits)"),
             r.err.constData());
    QCOMPARE(readAll(out).left(2), QByteArray("\x1f\x8b")); // gzip

    // -top by samples: the same shares as BPF Lens's functions, to the printed precision.
    PprofRun top = pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), out});
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    const QHash<QString, TopRow> rows = parseTop(top.out);
    const QHash<QString, Share> own = ownShares(m_data, [&] {
        StackWeights w;
        for (const CpuSampleEvent &e : profileBatch().cpuSample)
            w.add(e.stackId, 1);
        return w;
    }());
    QVERIFY(!own.isEmpty());
    for (auto it = own.cbegin(); it != own.cend(); ++it) {
        const QString name = it.key();
        QVERIFY2(rows.contains(name),
                 qPrintable(name + QLatin1Char('\n') + QString::fromUtf8(top.out)));
        QVERIFY2(qAbs(rows[name].flatPercent - it->self) < 0.01, qPrintable(name));
        QVERIFY2(qAbs(rows[name].cumPercent - it->total) < 0.01, qPrintable(name));
    }
    QCOMPARE(rows[QStringLiteral("compute(int)")].flat, QStringLiteral("50"));
    QCOMPARE(rows[QStringLiteral("main")].cum, QStringLiteral("95"));
    // The truncated stack stands on a [truncated] root, as in the flame graph.
    QCOMPARE(rows[QStringLiteral("[truncated]")].cum, QStringLiteral("5"));

    // The default sample type is CPU time: 99 Hz, 10101010 ns a sample.
    top = pprof({QStringLiteral("-top"), out});
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    QVERIFY2(top.out.contains("Type: cpu\n"), top.out.constData());
    QVERIFY2(top.out.contains("Duration: 1.02s, Total samples = 1010.10ms (99.03%)"),
             top.out.constData());
    QCOMPARE(parseTop(top.out)[QStringLiteral("compute(int)")].flat, QStringLiteral("505.05ms"));
    QVERIFY2(top.out.contains("Time: Nov 28, 2026 at 12:00pm (UTC)"), top.out.constData());

    // -raw: the header, the mappings (kernel ones marked) and the labels.
    const PprofRun raw = pprof({QStringLiteral("-raw"), out});
    QVERIFY2(raw.status == 0, qPrintable(raw.said()));
    for (const char *expected :
         {"PeriodType: cpu nanoseconds", "Period: 10101010", "samples/count cpu/nanoseconds\n",
          "/usr/bin/app  [FN]", "/usr/lib/x86_64-linux-gnu/libc.so.6  [FN]",
          "[kernel.kallsyms]  [FN]", "pid:[100] tid:[100]", "comm:[app]", "comm:[parser]",
          "entry_SYSCALL_64", "compute(int)"}) {
        QVERIFY2(raw.out.contains(expected),
                 qPrintable(QString::fromUtf8(expected) + QLatin1Char('\n') +
                            QString::fromUtf8(raw.out)));
    }

    // -traces: each stack leaf first, with its labels.
    const PprofRun traces = pprof({QStringLiteral("-traces"), out});
    QVERIFY2(traces.status == 0, qPrintable(traces.said()));
    const QList<Trace> list = parseTraces(traces.out);
    QCOMPARE(list.size(), 4);
    bool sawMalloc = false, sawParse = false, sawWrite = false;
    for (const Trace &t : list) {
        if (t.frames == QStringList{QStringLiteral("malloc"), QStringLiteral("compute(int)"),
                                    QStringLiteral("main")}) {
            sawMalloc = true;
            QCOMPARE(t.value, QStringLiteral("303.03ms"));
            QCOMPARE(t.labels.value(QStringLiteral("comm")), QStringLiteral("app"));
        }
        if (t.frames == QStringList{QStringLiteral("parse"), QStringLiteral("[truncated]")}) {
            sawParse = true;
            QCOMPARE(t.labels.value(QStringLiteral("pid")), QStringLiteral("200"));
        }
        sawWrite =
            sawWrite ||
            t.frames == QStringList{QStringLiteral("vfs_write"), QStringLiteral("entry_SYSCALL_64"),
                                    QStringLiteral("write"), QStringLiteral("main")};
    }
    QVERIFY2(sawMalloc && sawParse && sawWrite, traces.out.constData());

    // The same session gives the same bytes.
    const QString again = path("cpu-again.pb.gz");
    QCOMPARE(cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), again,
                  QStringLiteral("--probe"), QStringLiteral("profile")})
                 .status,
             0);
    QCOMPARE(readAll(again), readAll(out));
    // "-": the same bytes on standard output, for a pipe.
    const CliRun piped =
        cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), QStringLiteral("-"),
             QStringLiteral("--probe"), QStringLiteral("profile")});
    QCOMPARE(piped.status, 0);
    QCOMPARE(piped.out, readAll(out));
}

void TestPprofExport::rangeAndFilters()
{
    // 0.5 s to 0.8 s: only stack 2's samples (main -> compute -> malloc), and the duration.
    const QString ranged = path("range.pb.gz");
    CliRun r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), ranged,
                    QStringLiteral("--from"), QStringLiteral("0.5"), QStringLiteral("--to"),
                    QStringLiteral("800ms")});
    QVERIFY2(r.status == 0, r.err.constData());
    PprofRun top = pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), ranged});
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    QHash<QString, TopRow> rows = parseTop(top.out);
    QCOMPARE(rows[QStringLiteral("malloc")].flat, QStringLiteral("30"));
    QCOMPARE(rows[QStringLiteral("malloc")].flatPercent, 100.0);
    QVERIFY(!rows.contains(QStringLiteral("vfs_write")));
    QVERIFY2(top.out.contains("Duration: 300ms"), top.out.constData());
    QVERIFY2(top.out.contains("range 0.500 s to 0.800 s"), top.out.constData());

    // --pid: only parser's 5 samples.
    const QString byPid = path("pid.pb.gz");
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), byPid,
             QStringLiteral("--pid"), QStringLiteral("200")});
    QVERIFY2(r.status == 0, r.err.constData());
    top = pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), byPid});
    rows = parseTop(top.out);
    QCOMPARE(rows[QStringLiteral("parse")].flat, QStringLiteral("5"));
    QCOMPARE(rows[QStringLiteral("parse")].flatPercent, 100.0);
    QVERIFY(!rows.contains(QStringLiteral("main")));

    // --comm: app's 95.
    const QString byComm = path("comm.pb.gz");
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), byComm,
             QStringLiteral("--comm"), QStringLiteral("app")});
    QVERIFY2(r.status == 0, r.err.constData());
    top = pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), byComm});
    rows = parseTop(top.out);
    QCOMPARE(rows[QStringLiteral("main")].cum, QStringLiteral("95"));
    QCOMPARE(rows[QStringLiteral("main")].cumPercent, 100.0);
    QVERIFY(!rows.contains(QStringLiteral("parse")));

    // --container and --unit (docs/containers.md): parser runs in a Docker container, app in a
    // service; each keeps its own samples, by the short id in capitals too.
    RecordBatch placed = profileBatch();
    const QByteArray id = "3f4e5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081";
    placed.cgroups = {{11, "/system.slice/docker-" + id + ".scope"},
                      {12, "/system.slice/app.service"}};
    for (CpuSampleEvent &e : placed.cpuSample)
        e.cgroupId = e.pid == 200 ? 11 : 12;
    const QString placedSession = path("placed.bpflens");
    QVERIFY(writeSession(placedSession, m_data.info, placed, m_data.info.endMonotonicNs));
    const QString byContainer = path("container.pb.gz");
    r = cli({QStringLiteral("export"), placedSession, QStringLiteral("--pprof"), byContainer,
             QStringLiteral("--container"), QStringLiteral("3F4E5A6B7C8D")});
    QVERIFY2(r.status == 0, r.err.constData());
    top = pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), byContainer});
    rows = parseTop(top.out);
    QCOMPARE(rows[QStringLiteral("parse")].flat, QStringLiteral("5"));
    QCOMPARE(rows[QStringLiteral("parse")].flatPercent, 100.0);
    QVERIFY2(top.out.contains("container 3F4E5A6B7C8D"), top.out.constData());
    const QString byUnit = path("unit.pb.gz");
    r = cli({QStringLiteral("export"), placedSession, QStringLiteral("--pprof"), byUnit,
             QStringLiteral("--unit"), QStringLiteral("app.service")});
    QVERIFY2(r.status == 0, r.err.constData());
    top = pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), byUnit});
    rows = parseTop(top.out);
    QCOMPARE(rows[QStringLiteral("main")].cum, QStringLiteral("95"));
    QCOMPARE(rows[QStringLiteral("main")].cumPercent, 100.0);
    // A unit the session does not have: said, nothing written.
    const QString none = path("nounit.pb.gz");
    r = cli({QStringLiteral("export"), placedSession, QStringLiteral("--pprof"), none,
             QStringLiteral("--unit"), QStringLiteral("db.service")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("has no cgroup of unit db.service"), r.err.constData());
    QVERIFY(!QFile::exists(none));
}

void TestPprofExport::offCpu()
{
    const QString out = path("off.pb.gz");
    const CliRun r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), out,
                          QStringLiteral("--probe"), QStringLiteral("offcpu")});
    QVERIFY2(r.status == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const PprofRun top = pprof({QStringLiteral("-top"), out});
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    QVERIFY2(top.out.contains("Type: off_cpu\n"), top.out.constData());
    const QHash<QString, TopRow> rows = parseTop(top.out);
    QCOMPARE(rows[QStringLiteral("vfs_write")].flat, QStringLiteral("900ms"));
    QCOMPARE(rows[QStringLiteral("vfs_write")].flatPercent, 90.0);
    QCOMPARE(rows[QStringLiteral("malloc")].flatPercent, 10.0);
    QCOMPARE(rows[QStringLiteral("main")].cumPercent, 100.0);
    const PprofRun waits =
        pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=waits"), out});
    QCOMPARE(parseTop(waits.out)[QStringLiteral("main")].cum, QStringLiteral("2"));
}

void TestPprofExport::badInput()
{
    // A session without CPU samples or off-CPU waits.
    RecordBatch execOnly;
    ExecEvent e;
    e.timeNs = ProfileStartNs + 1000;
    e.pid = 7;
    e.comm = "sh";
    execOnly.exec.append(e);
    SessionInfo info = m_data.info;
    info.probes = {{QStringLiteral("exec"), {}, QStringLiteral("tp_btf/sched_process_exec")}};
    const QString noProfile = path("exec.bpflens");
    QVERIFY(writeSession(noProfile, info, execOnly, ProfileStartNs + 1'000'000'000));
    const QString target = path("none.pb.gz");
    CliRun r = cli({QStringLiteral("export"), noProfile, QStringLiteral("--pprof"), target});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("has no CPU samples and no off-CPU waits: record them with --probe "
                            "profile or --probe offcpu"),
             r.err.constData());
    QVERIFY(!QFile::exists(target));

    // A time range or filter that keeps nothing.
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), target,
             QStringLiteral("--pid"), QStringLiteral("4242")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("no CPU samples in the chosen time range under the filter"),
             r.err.constData());
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), target,
             QStringLiteral("--from"), QStringLiteral("20s")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("--from 20s is after the session's end (1.020 s)"), r.err.constData());
    QVERIFY(!QFile::exists(target));
    // Arguments that make no sense: status 2.
    for (const QStringList &args :
         {QStringList{QStringLiteral("--from"), QStringLiteral("soon")},
          QStringList{QStringLiteral("--from"), QStringLiteral("2"), QStringLiteral("--to"),
                      QStringLiteral("1")},
          QStringList{QStringLiteral("--probe"), QStringLiteral("block")},
          QStringList{QStringLiteral("--pid"), QStringLiteral("me")},
          QStringList{QStringLiteral("--container"), QStringLiteral("nginx")},
          QStringList{QStringLiteral("--unit"), QStringLiteral("a b")},
          QStringList{QStringLiteral("--folded")}, QStringList{QStringLiteral("--user-only")}}) {
        r = cli(
            QStringList{QStringLiteral("export"), m_session, QStringLiteral("--pprof"), target} +
            args);
        QVERIFY2(r.status == 2, qPrintable(args.join(QLatin1Char(' ')) + QLatin1Char(' ') +
                                           QString::fromUtf8(r.err)));
        QVERIFY(!r.err.isEmpty());
    }
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--csv"), m_dir.path(),
             QStringLiteral("--pid"), QStringLiteral("1")});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("--pid applies to --pprof"), r.err.constData());
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--csv"), m_dir.path(),
             QStringLiteral("--unit"), QStringLiteral("app.service")});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("--unit applies to --pprof"), r.err.constData());
    // A session without a cgroups table cannot name a container: said so.
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), target,
             QStringLiteral("--container"), QStringLiteral("3f4e")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("names no containers or units"), r.err.constData());

    // An existing file is not replaced without --force, and is left as it was.
    const QString existing = path("existing.pb.gz");
    {
        QFile f(existing);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
    }
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), existing});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains(existing.toUtf8() + " already exists: choose another file, or --force"),
             r.err.constData());
    QCOMPARE(readAll(existing), QByteArray("keep me"));
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), existing,
             QStringLiteral("--force")});
    QCOMPARE(r.status, 0);
    QCOMPARE(readAll(existing).left(2), QByteArray("\x1f\x8b"));

    // Paths that cannot be written: status 1, the reason, nothing left behind.
    const QString inMissingDir = path("missing/cpu.pb.gz");
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"), inMissingDir});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("cannot write " + inMissingDir.toUtf8()), r.err.constData());
    r = cli({QStringLiteral("export"), m_session, QStringLiteral("--pprof"),
             QStringLiteral("/dev/full")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("cannot write /dev/full: No space left on device"), r.err.constData());
    const QStringList left = QDir(m_dir.path()).entryList({QStringLiteral("*.pb.gz*")});
    for (const QString &name : left)
        QVERIFY2(!name.contains(QLatin1String("none")) && !name.contains(QLatin1String("tmp")),
                 qPrintable(left.join(QLatin1Char(' '))));

    // The core refuses a kind the session has none of.
    SessionData onlyCpu = m_data;
    onlyCpu.events.clear();
    for (const CpuSampleEvent &s : profileBatch().cpuSample)
        onlyCpu.events.append(s);
    QByteArray proto;
    QString error;
    PprofOptions off;
    off.kind = PprofKind::OffCpu;
    QVERIFY(!PprofExport::encode(onlyCpu, off, &proto, &error));
    QCOMPARE(error, QStringLiteral("the session has no off-CPU waits: record them with the offcpu "
                                   "probe"));
}

#ifdef BPFLENS_TEST_GUI
void TestPprofExport::windowExportsVisibleRangeUnderFilter()
{
    QMainWindow window;
    SessionModel session;
    ViewState state;
    ExportController exports(&session, &state, &window, [] { return nullptr; });
    QVERIFY(!exports.pprofMenu()->menuAction()->isEnabled());
    session.setSession(m_data);
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    QVERIFY(exports.pprofMenu()->menuAction()->isEnabled());
    const QList<QAction *> actions = exports.pprofMenu()->actions();
    QCOMPARE(actions.size(), 2);
    QVERIFY(actions[0]->isEnabled() && actions[1]->isEnabled());

    // The window shows 0 to 0.8 s of app's samples: stacks 1 and 2, 80 samples.
    state.setRange(ProfileStartNs, ProfileStartNs + 800'000'000);
    EventFilter filter;
    filter.comm = "app";
    state.setFilter(filter);
    const QString out = path("window.pb.gz");
    QString error;
    QVERIFY2(exports.exportPprof(out, PprofKind::OnCpu, &error), qPrintable(error));
    const PprofRun top =
        pprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), out});
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    const QHash<QString, TopRow> rows = parseTop(top.out);
    QCOMPARE(rows[QStringLiteral("main")].cum, QStringLiteral("80"));
    QCOMPARE(rows[QStringLiteral("compute(int)")].flat, QStringLiteral("50"));
    QCOMPARE(rows[QStringLiteral("malloc")].flat, QStringLiteral("30"));
    QVERIFY(!rows.contains(QStringLiteral("vfs_write")) && !rows.contains(QStringLiteral("parse")));
    QVERIFY2(top.out.contains("BPF Lens window, 0.000 s to 0.800 s, comm app"),
             top.out.constData());

    // A filter that keeps nothing: a clear error, no file.
    filter.comm = "nobody";
    state.setFilter(filter);
    const QString empty = path("window-empty.pb.gz");
    QVERIFY(!exports.exportPprof(empty, PprofKind::OnCpu, &error));
    QCOMPARE(error, QStringLiteral("no CPU samples in the chosen time range under the filter"));
    QVERIFY(!QFile::exists(empty));
}

void TestPprofExport::fileMenuHasThePprofExport()
{
    MainWindow w;
    QMenu *pprof = nullptr;
    for (QAction *menu : w.menuBar()->actions()) {
        if (menu->text() != QLatin1String("&File") || !menu->menu())
            continue;
        for (QAction *a : menu->menu()->actions()) {
            if (a->menu() && a->text() == QLatin1String("Export &pprof Profile"))
                pprof = a->menu();
        }
    }
    QVERIFY2(pprof, "no Export pprof Profile in the File menu");
    QVERIFY(!pprof->menuAction()->isEnabled()); // nothing open
    QString error;
    QVERIFY2(w.openFile(m_session, &error), qPrintable(error));
    QVERIFY(pprof->menuAction()->isEnabled());
    QStringList texts;
    for (QAction *a : pprof->actions()) {
        QVERIFY(a->isEnabled());
        texts << a->text();
    }
    QCOMPARE(texts, (QStringList{QStringLiteral("&On-CPU Samples\u2026"),
                                 QStringLiteral("O&ff-CPU Waits\u2026")}));
}
#endif

QTEST_MAIN(TestPprofExport)
#include "tst_pprofexport.moc"
