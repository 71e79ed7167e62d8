// Containers and services on the real kernel (issue #32 part 4, docs/containers.md): cgroup v2
// directories named as Docker, containerd, CRI-O, Podman, Kubernetes and systemd name theirs are
// made under the v2 mount (found in /proc/self/mountinfo, not assumed), a workload moved into
// each opens a file, connects to a closed loopback port and execs /bin/true (and waits at its
// gate: offcpu); every event of each workload must carry its cgroup's id, and the recording's
// cgroups table must name its path, container, runtime, pod and unit exactly, also for a cgroup
// removed before the recording ends, one made while it runs and a name with spaces and
// non-ASCII letters. The session file keeps all of it, and a container's, a pod's or a unit's
// filter keeps exactly its workload's events.
#include "core/cgroupfilter.h"
#include "core/cgroups.h"
#include "core/sessionstore.h"
#include "core/toplists.h"
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/testutil.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace bpflens;

namespace {

struct Case
{
    QByteArray rel; // below the test's own slice
    QString container;
    QString runtime;
    QString pod;
    QString unit;
    enum When
    {
        Before,                // made before the recording starts
        RemovedEarly,          // made before, removed before the recording drained its events
        MadeDuringThenRemoved, // made while recording, removed after a poll, before the end
    } when = Before;
    // Filled by the test:
    QByteArray dir;
    quint64 id = 0;
    pid_t pid = -1;
    QByteArray openPath;
    quint64 movedNs = 0; // CLOCK_MONOTONIC when the move into dir had returned
};

QByteArray hex64(char c)
{
    QByteArray h;
    for (int i = 0; i < 64; ++i)
        h.append("0123456789abcdef"[(i * 7 + c) % 16]);
    return h;
}

bool writeFile(const QByteArray &path, const QByteArray &text)
{
    QFile f(QFile::decodeName(path));
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

quint64 inodeOf(const QByteArray &path)
{
    struct stat st
    {
    };
    return ::stat(path.constData(), &st) == 0 ? quint64(st.st_ino) : 0;
}

} // namespace

class TestCgroupAttribution : public QObject
{
    Q_OBJECT

private:
    QString m_mount;
    QByteArray m_top; // <mount>/bpflens-test-<pid>.slice
    QList<QByteArray> m_made;

    bool makeDirs(const QByteArray &dir)
    {
        // Each level once, remembered for the cleanup (deepest first).
        const QByteArray rel = dir.mid(m_top.size());
        QByteArray at = m_top;
        for (const QByteArray &part : rel.split('/')) {
            if (part.isEmpty())
                continue;
            at += '/' + part;
            if (::mkdir(at.constData(), 0755) == 0)
                m_made.append(at);
            else if (errno != EEXIST)
                return false;
        }
        return true;
    }

    void removeAll()
    {
        for (qsizetype i = m_made.size() - 1; i >= 0; --i)
            ::rmdir(m_made[i].constData());
        m_made.clear();
        if (!m_top.isEmpty())
            ::rmdir(m_top.constData());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_mount = cgroup2Mount(&error);
        if (m_mount.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no cgroup v2 hierarchy here: ") + error));
    }

    void cleanup() { removeAll(); }

    void everyEventNamesItsContainerAndUnit()
    {
        BPFLENS_REQUIRE_ROOT(
            "makes cgroups and loads the exec, open, tcpconnect and offcpu probes");
        m_top =
            QFile::encodeName(m_mount) + "/bpflens-test-" + QByteArray::number(getpid()) + ".slice";
        QVERIFY2(::mkdir(m_top.constData(), 0755) == 0, strerror(errno));

        const QString pod = QStringLiteral("0d8b5a56-2f9e-4c1e-9a7b-5f1c2d3e4f50");
        const QByteArray podSd = "0d8b5a56_2f9e_4c1e_9a7b_5f1c2d3e4f50";
        QList<Case> cases;
        auto add = [&](const QByteArray &rel, const QString &container, const char *runtime,
                       const QString &podUid, const QString &unit, Case::When when = Case::Before) {
            Case c;
            c.rel = rel;
            c.container = container;
            c.runtime = QLatin1String(runtime);
            c.pod = podUid;
            c.unit = unit;
            c.when = when;
            cases.append(c);
        };
        const QByteArray a = hex64('a'), b = hex64('b'), c = hex64('c'), d = hex64('d'),
                         e = hex64('e'), f = hex64('f'), g = hex64('g');
        auto s = [](const QByteArray &x) { return QString::fromLatin1(x); };
        add("system.slice/docker-" + a + ".scope", s(a), "docker", {}, s("docker-" + a + ".scope"));
        add("system.slice/cri-containerd-" + b + ".scope", s(b), "containerd", {},
            s("cri-containerd-" + b + ".scope"));
        add("machine.slice/crio-" + c + ".scope", s(c), "cri-o", {}, s("crio-" + c + ".scope"));
        add("machine.slice/libpod-" + d + ".scope", s(d), "podman", {},
            s("libpod-" + d + ".scope"));
        add("kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + podSd +
                ".slice/cri-containerd-" + e + ".scope",
            s(e), "containerd", pod, s("cri-containerd-" + e + ".scope"));
        const QByteArray service = "bpflens-test-" + QByteArray::number(getpid()) + ".service";
        add("system.slice/" + service, {}, "", {}, QString::fromLatin1(service));
        const QByteArray odd = "system.slice/odd name caf\xc3\xa9 \xe2\x9c\x93.service";
        add(odd, {}, "", {}, QString::fromUtf8("odd name caf\xc3\xa9 \xe2\x9c\x93.service"));
        add("system.slice/docker-" + f + ".scope", s(f), "docker", {}, s("docker-" + f + ".scope"),
            Case::RemovedEarly);
        add("machine.slice/libpod-" + g + ".scope", s(g), "podman", {}, s("libpod-" + g + ".scope"),
            Case::MadeDuringThenRemoved);

        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        for (qsizetype i = 0; i < cases.size(); ++i) {
            Case &k = cases[i];
            k.dir = m_top + '/' + k.rel;
            k.openPath = QFile::encodeName(tmp.filePath(QStringLiteral("cg-%1").arg(i)));
            QVERIFY(writeFile(k.openPath, "x"));
            if (k.when != Case::MadeDuringThenRemoved) {
                QVERIFY2(makeDirs(k.dir), k.dir.constData());
                k.id = inodeOf(k.dir);
                QVERIFY(k.id != 0);
            }
        }

        // A loopback port nobody listens on: the connect is refused, and its outcome is known
        // in softirq context, where only the id the probe kept names the workload's cgroup.
        sockaddr_in closed{};
        {
            const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            closed.sin_family = AF_INET;
            closed.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            socklen_t len = sizeof(closed);
            QVERIFY(bind(fd, reinterpret_cast<sockaddr *>(&closed), len) == 0);
            QVERIFY(getsockname(fd, reinterpret_cast<sockaddr *>(&closed), &len) == 0);
            close(fd);
        }

        Engine engine;
        // offcpu: the one probe whose id is read from a task_struct (next's, at the switch).
        QList<ProbeConfig> req{{QStringLiteral("exec"), {}, {}},
                               {QStringLiteral("open"), {}, {}},
                               {QStringLiteral("tcpconnect"), {}, {}},
                               {QStringLiteral("offcpu"), {}, {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        RecordBatch all;
        auto pollFor = [&](int ms) {
            QElapsedTimer t;
            t.start();
            while (t.elapsed() < ms) {
                RecordBatch batch;
                engine.poll(50, batch);
                all.append(std::move(batch));
            }
        };

        char *const trueArgv[] = {const_cast<char *>("/bin/true"), nullptr};
        char *const noEnv[] = {nullptr};
        for (Case &k : cases) {
            if (k.when == Case::MadeDuringThenRemoved) {
                pollFor(100);
                QVERIFY2(makeDirs(k.dir), k.dir.constData());
                k.id = inodeOf(k.dir);
                QVERIFY(k.id != 0);
            }
            const char *path = k.openPath.constData();
            test::GatedChild child([path, closed, trueArgv, noEnv] {
                ::close(::open(path, O_RDONLY));
                const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
                ::connect(fd, reinterpret_cast<const sockaddr *>(&closed), sizeof(closed));
                ::close(fd);
                ::execve("/bin/true", trueArgv, noEnv);
            });
            QVERIFY(child.pid() > 0);
            k.pid = child.pid();
            QVERIFY2(writeFile(k.dir + "/cgroup.procs", QByteArray::number(child.pid())),
                     k.dir.constData());
            k.movedNs = Engine::monotonicNowNs();
            ::usleep(20000); // a wait at the gate longer than offcpu's minimum
            QCOMPARE(child.run(), 0);
            if (k.when == Case::RemovedEarly) {
                // Gone before a single poll drained its events.
                QVERIFY2(::rmdir(k.dir.constData()) == 0, strerror(errno));
                m_made.removeAll(k.dir);
            } else if (k.when == Case::MadeDuringThenRemoved) {
                pollFor(600); // past the resolver's rescan interval
                QVERIFY2(::rmdir(k.dir.constData()) == 0, strerror(errno));
                m_made.removeAll(k.dir);
            }
        }
        pollFor(300);
        engine.stop(&all);

        CgroupTable table;
        table.add(all.cgroups);
        // Every id named once.
        QSet<quint64> ids;
        for (const CgroupPath &p : std::as_const(all.cgroups)) {
            QVERIFY2(!ids.contains(p.id),
                     qPrintable(QStringLiteral("cgroup %1 handed out twice").arg(p.id)));
            ids.insert(p.id);
        }

        const QByteArray topRel = m_top.mid(QFile::encodeName(m_mount).size());
        QHash<pid_t, qint64> eventsOf;
        for (const Case &k : std::as_const(cases)) {
            const QString what = QString::fromUtf8(k.rel);
            // Every event of the workload, of every type (the loader's opens of /bin/true's
            // libraries too), in the workload's cgroup.
            qint64 events = 0, opens = 0, execs = 0, connects = 0, waits = 0;
            forEachEventType([&]<typename E>() {
                for (const E &ev : std::as_const(all.events<E>())) {
                    if (ev.pid != quint32(k.pid))
                        continue;
                    // A wait is named by the cgroup at its switch-in: one that ended before the
                    // move had returned (the child preempted on its way to the gate, seen on a
                    // 6.12 guest's single emulated CPU) is in the parent's cgroup, or either.
                    if constexpr (std::is_same_v<E, OffCpuEvent>) {
                        if (ev.timeNs + ev.offNs < k.movedNs) {
                            events += ev.cgroupId == k.id;
                            continue;
                        }
                    }
                    ++events;
                    if constexpr (std::is_same_v<E, OpenEvent>)
                        opens += ev.path == k.openPath;
                    execs += std::is_same_v<E, ExecEvent>;
                    connects += std::is_same_v<E, TcpConnectEvent>;
                    waits += std::is_same_v<E, OffCpuEvent>;
                    QVERIFY2(ev.cgroupId == k.id,
                             qPrintable(QStringLiteral("%1: a %2 event in cgroup %3, not %4")
                                            .arg(what, QLatin1String(EventTraits<E>::probeId))
                                            .arg(ev.cgroupId)
                                            .arg(k.id)));
                }
            });
            // The child waits at its gate (moved meanwhile) for more than offcpu's minimum.
            QVERIFY2(opens == 1 && execs == 1 && connects == 1 && waits >= 1,
                     qPrintable(QStringLiteral("%1: %2 opens of its file, %3 execs, %4 connects, "
                                               "%5 waits")
                                    .arg(what)
                                    .arg(opens)
                                    .arg(execs)
                                    .arg(connects)
                                    .arg(waits)));
            eventsOf.insert(k.pid, events);
            const CgroupPath *p = table.path(k.id);
            QVERIFY2(p, qPrintable(what + QStringLiteral(": not in the cgroups table")));
            QCOMPARE(p->path, topRel + '/' + k.rel);
            const CgroupNames n = table.names(k.id);
            QCOMPARE(n.container, k.container);
            QCOMPARE(n.runtime, k.runtime);
            QCOMPARE(n.pod, k.pod);
            QCOMPARE(n.unit, k.unit);
        }

        // The session file keeps the ids and the table; top lists them per container.
        const QString file = tmp.filePath(QStringLiteral("cgroups.bpflens"));
        {
            SessionWriter w;
            SessionInfo info;
            info.startMonotonicNs = engine.startMonotonicNs();
            info.probes = req;
            QVERIFY2(w.create(file, info, &error), qPrintable(error));
            QVERIFY2(w.writeBatch(all, &error), qPrintable(error));
            QVERIFY2(w.finish(Engine::monotonicNowNs(), &error), qPrintable(error));
        }
        SessionData data;
        QVERIFY2(SessionReader::open(file, &data, &error, {}, SessionReader::Salvage::Refuse),
                 qPrintable(error));
        TopQuery q;
        q.limit = 0;
        const TopList byContainer =
            topListByCgroup(data.events, data.cgroups, CgroupKey::Container, q);
        for (const Case &k : std::as_const(cases)) {
            QCOMPARE(data.cgroups.names(k.id).unit, k.unit);
            if (k.container.isEmpty())
                continue;
            const QString key = k.runtime + QLatin1Char(' ') + k.container.left(12);
            qint64 count = -1;
            for (const TopRow &r : byContainer.rows) {
                if (r.key == key)
                    count = r.count;
            }
            QVERIFY2(count == eventsOf.value(k.pid),
                     qPrintable(QStringLiteral("%1: %2 events in the top list, %3 recorded")
                                    .arg(key)
                                    .arg(count)
                                    .arg(eventsOf.value(k.pid))));
        }

        // What export --pprof --container/--unit and serve's container=/unit= keep: exactly
        // the workload's events, by its container's short id, its pod, its unit; the test's
        // slice keeps every workload's.
        auto kept = [&](const CgroupFilter &f, QSet<quint32> *pids) -> qint64 {
            EventStore events = data.events;
            const qint64 n = keepCgroupEvents(&events, matchingCgroups(data.cgroups, f));
            forEachEventType([&]<typename E>() {
                for (qsizetype i = 0; i < events.count(eventTypeOf<E>); ++i)
                    pids->insert(events.pid(eventTypeOf<E>, i));
            });
            return n;
        };
        qint64 everyWorkload = 0;
        for (const Case &k : std::as_const(cases)) {
            everyWorkload += eventsOf.value(k.pid);
            QList<CgroupFilter> filters{{{}, k.unit}};
            if (!k.container.isEmpty())
                filters.append({k.container.left(12).toUpper(), {}});
            if (!k.pod.isEmpty())
                filters.append({k.pod, {}});
            for (const CgroupFilter &f : std::as_const(filters)) {
                QString why;
                QVERIFY2(k.unit.contains(QLatin1Char(' ')) || checkCgroupFilter(f, &why),
                         qPrintable(why));
                QSet<quint32> pids;
                QCOMPARE(kept(f, &pids), eventsOf.value(k.pid));
                QCOMPARE(pids, QSet<quint32>{quint32(k.pid)});
            }
        }
        QSet<quint32> pids;
        const QString slice = QFile::decodeName(m_top.mid(m_top.lastIndexOf('/') + 1));
        QCOMPARE(kept({{}, slice}, &pids), everyWorkload);
        QCOMPARE(pids.size(), cases.size());
        pids.clear();
        QCOMPARE(kept({QStringLiteral("0123456789ab"), {}}, &pids), qint64(0));
        QCOMPARE(kept({{}, QStringLiteral("bpflens-test")}, &pids), qint64(0)); // not a prefix
    }

    // The probes' own container= and unit= options (what `record --probe exec:container=ID`
    // gives): the recording holds the events of that container's, pod's or unit's tasks and of
    // no other; a name that matches no running cgroup, or several, is refused with the reason.
    void recordingOfOneContainerOrUnit()
    {
        BPFLENS_REQUIRE_ROOT("makes cgroups and loads the exec probe");
        m_top =
            QFile::encodeName(m_mount) + "/bpflens-test-" + QByteArray::number(getpid()) + ".slice";
        QVERIFY2(::mkdir(m_top.constData(), 0755) == 0, strerror(errno));
        // Ids of their own (this test's pid in them), so that no running container matches.
        const QByteArray pid = QByteArray::number(getpid()).rightJustified(8, '0');
        const QByteArray a = "a1" + pid + hex64('a').mid(10), b = "b2" + pid + hex64('b').mid(10);
        const QByteArray podUid = "5eed" + pid + "-2f9e-4c1e-9a7b-5f1c2d3e4f50";
        QByteArray podSd = podUid;
        podSd.replace('-', '_');
        const QByteArray service = "bpflens-test-" + QByteArray::number(getpid()) + ".service";
        const QByteArray twice = "bpflens-twice-" + QByteArray::number(getpid()) + ".service";
        const QByteArray dockerA = "system.slice/docker-" + a + ".scope";
        const QByteArray dockerB = "system.slice/docker-" + b + ".scope";
        const QByteArray pod = "kubepods.slice/kubepods-pod" + podSd + ".slice";
        const QByteArray podContainer = pod + "/cri-containerd-" + hex64('c') + ".scope";
        const QByteArray unit = "system.slice/" + service;
        const QList<QByteArray> workloads{dockerA, dockerB, podContainer, unit};
        for (const QByteArray &rel :
             workloads + QList<QByteArray>{"x.slice/" + twice, "y.slice/" + twice})
            QVERIFY2(makeDirs(m_top + '/' + rel), rel.constData());

        // One exec of /bin/true in each workload's cgroup; which workloads' execs were recorded.
        auto record = [&](const QVariantMap &options, QString *error) -> QSet<pid_t> {
            Engine engine;
            QList<ProbeConfig> req{{QStringLiteral("exec"), options, {}}};
            if (!engine.start(req, error))
                return {};
            RecordBatch all;
            QList<pid_t> pids; // in the order of `workloads`
            char *const trueArgv[] = {const_cast<char *>("/bin/true"), nullptr};
            char *const noEnv[] = {nullptr};
            for (const QByteArray &rel : workloads) {
                test::GatedChild child(
                    [trueArgv, noEnv] { ::execve("/bin/true", trueArgv, noEnv); });
                if (child.pid() <= 0 ||
                    !writeFile(m_top + '/' + rel + "/cgroup.procs",
                               QByteArray::number(child.pid())) ||
                    child.run() != 0) {
                    *error = QStringLiteral("the workload in %1 did not run")
                                 .arg(QString::fromUtf8(rel));
                    return {};
                }
                RecordBatch batch;
                engine.poll(0, batch);
                all.append(std::move(batch));
                pids.append(child.pid());
            }
            engine.stop(&all);
            QSet<quint32> recorded;
            for (const ExecEvent &e : std::as_const(all.events<ExecEvent>()))
                recorded.insert(e.pid);
            QSet<pid_t> which;
            for (qsizetype i = 0; i < pids.size(); ++i)
                if (recorded.contains(quint32(pids[i])))
                    which.insert(pid_t(i));
            return which;
        };

        struct Expect
        {
            QVariantMap options;
            QSet<pid_t> workloads; // indexes into `workloads`
        };
        const QList<Expect> expects{
            {{{QStringLiteral("container"), QString::fromLatin1(a.left(12)).toUpper()}}, {0}},
            {{{QStringLiteral("container"), QString::fromLatin1(b)}}, {1}},
            {{{QStringLiteral("container"), QString::fromLatin1(podUid)}}, {2}},
            {{{QStringLiteral("unit"), QString::fromLatin1(service)}}, {3}},
            {{{QStringLiteral("container"), QString::fromLatin1(a.left(12))},
              {QStringLiteral("unit"), QStringLiteral("system.slice")}},
             {0}},
        };
        for (const Expect &x : expects) {
            QString error;
            const QSet<pid_t> got = record(x.options, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QStringList asked;
            for (auto it = x.options.cbegin(); it != x.options.cend(); ++it)
                asked << it.key() + QLatin1Char('=') + it.value().toString();
            QStringList which;
            for (pid_t i : got)
                which << QString::fromUtf8(workloads[i]);
            QVERIFY2(got == x.workloads,
                     qPrintable(asked.join(QLatin1Char(',')) + QStringLiteral(" recorded: ") +
                                which.join(QStringLiteral(", "))));
        }

        auto refused = [&](const QVariantMap &options, const QString &part) {
            QString error;
            record(options, &error);
            QVERIFY2(error.contains(part),
                     qPrintable(QStringLiteral("\"%1\" does not say \"%2\"").arg(error, part)));
            QVERIFY(error.startsWith(QStringLiteral("probe exec: ")));
        };
        refused({{QStringLiteral("container"), QStringLiteral("ffffffff0000")}},
                QStringLiteral("no running cgroup is in container ffffffff0000"));
        refused({{QStringLiteral("unit"), QString::fromLatin1(twice)}},
                QStringLiteral("names 2 cgroups: ") + QFile::decodeName(m_top.mid(m_mount.size())) +
                    QStringLiteral("/x.slice/") + QString::fromLatin1(twice));
        refused({{QStringLiteral("unit"), QStringLiteral("msecs")}},
                QStringLiteral("a histogram's units are units=msecs"));
        refused({{QStringLiteral("container"), QString::fromLatin1(a)},
                 {QStringLiteral("cgroup"), QStringLiteral("/")}},
                QStringLiteral("cgroup= and container= exclude each other"));
        refused({{QStringLiteral("container"), QStringLiteral("not/hex")}},
                QStringLiteral("not a container id"));
    }
};

QTEST_GUILESS_MAIN(TestCgroupAttribution)
#include "tst_cgroupattribution.moc"
