// What a cgroup's path says (container, runtime, pod, unit), where the cgroup v2 hierarchy is
// mounted, and how a session keeps its cgroups: schema 4 files store the events' cgroup ids and
// the cgroups table; files of the schemas before still open, every event's cgroup 0 (unknown).
#include "core/cgroupfilter.h"
#include "core/cgroups.h"
#include "core/sessionquery.h"
#include "core/sessionstore.h"
#include "core/toplists.h"

#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;

namespace {

const QByteArray Hex64 = "3f4e5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081";
const QByteArray Hex64b = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

SessionInfo makeInfo()
{
    SessionInfo info;
    info.schemaVersion = SessionSchemaVersion;
    info.appVersion = QStringLiteral("test");
    info.host = QStringLiteral("host");
    info.startMonotonicNs = 1000;
    return info;
}

RecordBatch makeBatch()
{
    RecordBatch b;
    for (int i = 0; i < 6; ++i) {
        OpenEvent e;
        e.timeNs = 2000 + quint64(i);
        e.pid = 100 + quint32(i % 3);
        e.comm = "worker";
        e.path = "/etc/hosts";
        e.cgroupId = i % 3 == 0 ? 4242 : i % 3 == 1 ? 4343 : 0;
        b.open.append(e);
    }
    ExecEvent x;
    x.timeNs = 2100;
    x.pid = 100;
    x.comm = "worker";
    x.filename = "/bin/true";
    x.cgroupId = 4343;
    b.exec.append(x);
    b.cgroups = {{4242, "/system.slice/docker-" + Hex64 + ".scope"},
                 {4343, QByteArray("/odd slice.slice/caf\xc3\xa9 \xe2\x9c\x93 x.service")}};
    return b;
}

QString write(const QString &path, int schema, const RecordBatch &b)
{
    SessionWriter w;
    w.setSchemaVersion(schema);
    QString error;
    if (!w.create(path, makeInfo(), &error) || !w.writeBatch(b, &error) ||
        !w.finish(1'000'000'000, &error))
        return error;
    return {};
}

} // namespace

class TestCgroups : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pathsName_data()
    {
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("container");
        QTest::addColumn<QByteArray>("runtime");
        QTest::addColumn<QByteArray>("pod");
        QTest::addColumn<QByteArray>("unit");
        const QByteArray h = Hex64;
        const QByteArray none;
        QTest::newRow("docker") << "/system.slice/docker-" + Hex64 + ".scope" << h
                                << QByteArray("docker") << none << "docker-" + h + ".scope";
        QTest::newRow("docker cgroupfs")
            << "/docker/" + Hex64 << h << QByteArray("docker") << none << none;
        QTest::newRow("containerd")
            << "/system.slice/cri-containerd-" + Hex64 + ".scope" << h << QByteArray("containerd")
            << none << "cri-containerd-" + h + ".scope";
        QTest::newRow("cri-o") << "/machine.slice/crio-" + Hex64 + ".scope" << h
                               << QByteArray("cri-o") << none << "crio-" + h + ".scope";
        QTest::newRow("cri-o conmon") << "/machine.slice/crio-conmon-" + Hex64 + ".scope" << none
                                      << none << none << "crio-conmon-" + h + ".scope";
        QTest::newRow("podman") << "/machine.slice/libpod-" + Hex64 + ".scope" << h
                                << QByteArray("podman") << none << "libpod-" + h + ".scope";
        QTest::newRow("podman in a container's init")
            << "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" + Hex64 +
                   ".scope/container"
            << h << QByteArray("podman") << none << "libpod-" + h + ".scope";
        QTest::newRow("kubernetes systemd")
            << QByteArray("/kubepods.slice/kubepods-burstable.slice/"
                          "kubepods-burstable-pod0d8b5a56_2f9e_4c1e_9a7b_5f1c2d3e4f50.slice/"
                          "cri-containerd-") +
                   Hex64 + ".scope"
            << h << QByteArray("containerd") << QByteArray("0d8b5a56-2f9e-4c1e-9a7b-5f1c2d3e4f50")
            << "cri-containerd-" + h + ".scope";
        QTest::newRow("kubernetes guaranteed pod")
            << QByteArray("/kubepods.slice/kubepods-pod11111111_2222_3333_4444_555555555555.slice")
            << none << none << QByteArray("11111111-2222-3333-4444-555555555555")
            << QByteArray("kubepods-pod11111111_2222_3333_4444_555555555555.slice");
        QTest::newRow("kubernetes cgroupfs")
            << "/kubepods/burstable/pod0d8b5a56-2f9e-4c1e-9a7b-5f1c2d3e4f50/" + Hex64 << h
            << QByteArray("kubernetes") << QByteArray("0d8b5a56-2f9e-4c1e-9a7b-5f1c2d3e4f50")
            << none;
        QTest::newRow("service") << QByteArray("/system.slice/nginx.service") << none << none
                                 << none << QByteArray("nginx.service");
        QTest::newRow("service's sub-cgroup")
            << QByteArray("/system.slice/nginx.service/workers") << none << none << none
            << QByteArray("nginx.service");
        QTest::newRow("user session") << QByteArray("/user.slice/user-1000.slice/session-2.scope")
                                      << none << none << none << QByteArray("session-2.scope");
        QTest::newRow("user manager")
            << QByteArray("/user.slice/user-1000.slice/user@1000.service/init.scope") << none
            << none << none << QByteArray("init.scope");
        QTest::newRow("user slice") << QByteArray("/user.slice/user-1000.slice") << none << none
                                    << none << QByteArray("user-1000.slice");
        QTest::newRow("root") << QByteArray("/") << none << none << none << QByteArray("-.slice");
        QTest::newRow("odd characters")
            << QByteArray("/a b.slice/caf\xc3\xa9 \xe2\x9c\x93.service") << none << none << none
            << QByteArray("caf\xc3\xa9 \xe2\x9c\x93.service");
        QTest::newRow("not hex") << QByteArray("/system.slice/docker-xyz.scope") << none << none
                                 << none << QByteArray("docker-xyz.scope");
        QTest::newRow("unknown") << QByteArray("") << none << none << none << none;
    }
    void pathsName()
    {
        QFETCH(QByteArray, path);
        const CgroupNames n = parseCgroupPath(path);
        QTEST(n.container.toUtf8(), "container");
        QTEST(n.runtime.toUtf8(), "runtime");
        QTEST(n.pod.toUtf8(), "pod");
        QTEST(n.unit.toUtf8(), "unit");
    }

    void mountIsFoundInBothLayouts()
    {
        const QByteArray hybrid =
            "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
            "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
            "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
        const QByteArray unified =
            "25 21 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
            "shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";
        // Mountinfo escapes a space as \040.
        const QByteArray odd = "50 21 0:40 / /mnt/my\\040cgroups rw shared:9 - cgroup2 none rw\n";
        QString error;
        QCOMPARE(findCgroup2Mount(hybrid, &error), QStringLiteral("/sys/fs/cgroup/unified"));
        QCOMPARE(findCgroup2Mount(unified, &error), QStringLiteral("/sys/fs/cgroup"));
        QCOMPARE(findCgroup2Mount(odd, &error), QStringLiteral("/mnt/my cgroups"));
        QVERIFY(error.isEmpty());
    }

    void noCgroup2IsSaidClearly()
    {
        const QByteArray v1Only =
            "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
            "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n";
        QString error;
        QCOMPARE(findCgroup2Mount(v1Only, &error), QString());
        QVERIFY2(error.contains(QLatin1String("no cgroup v2 hierarchy")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("container or systemd unit")), qPrintable(error));
        // A resolver on such a machine resolves nothing and says why.
        CgroupResolver r(QStringLiteral("/nonexistent-cgroup2-mount"));
        QCOMPARE(r.resolve({1, 2}).size(), 0);
        const QList<CgroupPath> left = r.finish();
        QCOMPARE(left.size(), 2);
        for (const CgroupPath &c : left)
            QVERIFY(c.path.isEmpty());
    }

    // export --pprof --container/--unit and serve's container=/unit=: a container by its id's
    // first digits in either case, a pod by its UID, a unit or slice at any depth of the path
    // (a whole component, not a substring); both given, both must hold. Events of other
    // cgroups are dropped, of every type.
    void filtersPickContainersAndUnits()
    {
        CgroupTable t;
        const QByteArray podSd = "0d8b5a56_2f9e_4c1e_9a7b_5f1c2d3e4f50";
        t.add({{1, "/system.slice/docker-" + Hex64 + ".scope"},
               {2, "/system.slice/nginx.service"},
               {3, "/system.slice/nginx.service/worker"},
               {4, "/kubepods.slice/kubepods-pod" + podSd + ".slice/cri-containerd-" + Hex64b +
                       ".scope"},
               {5, "/system.slice/data.service"},
               {6, ""}});
        auto ids = [&](const QString &container, const QString &unit) {
            QList<quint64> l = matchingCgroups(t, {container, unit}).values();
            std::sort(l.begin(), l.end());
            return l;
        };
        QCOMPARE(ids(QStringLiteral("3F4E5A6B7C8D"), {}), QList<quint64>{1});
        QCOMPARE(ids(QString::fromLatin1(Hex64), {}), QList<quint64>{1});
        QCOMPARE(ids(QStringLiteral("0d8b5a56-2f9e-4c1e-9a7b-5f1c2d3e4f50"), {}),
                 QList<quint64>{4});
        QCOMPARE(ids({}, QStringLiteral("nginx.service")), (QList<quint64>{2, 3}));
        QCOMPARE(ids({}, QStringLiteral("system.slice")), (QList<quint64>{1, 2, 3, 5}));
        QCOMPARE(ids({}, QStringLiteral("a.service")), QList<quint64>{});
        QCOMPARE(ids(QStringLiteral("3f4e"), QStringLiteral("system.slice")), QList<quint64>{1});
        QCOMPARE(ids(QStringLiteral("3f4e"), QStringLiteral("kubepods.slice")), QList<quint64>{});

        EventStore events;
        for (quint64 cg : {1, 2, 3, 6}) {
            OpenEvent o;
            o.timeNs = 100 + cg;
            o.pid = quint32(cg);
            o.cgroupId = cg;
            events.append(o);
        }
        for (quint64 cg : {2, 5}) {
            ExecEvent e;
            e.timeNs = 200 + cg;
            e.pid = quint32(cg);
            e.cgroupId = cg;
            events.append(e);
        }
        QCOMPARE(
            keepCgroupEvents(&events, matchingCgroups(t, {{}, QStringLiteral("nginx.service")})),
            qsizetype(3));
        QCOMPARE(events.count(EventType::Open), 2);
        QCOMPARE(events.count(EventType::Exec), 1);
        QCOMPARE(events.exec(0).pid, 2u);
        QCOMPARE(events.pid(EventType::Open, 0), 2u);
        QCOMPARE(events.pid(EventType::Open, 1), 3u);

        QString why;
        QVERIFY(checkCgroupFilter(
            {QStringLiteral("3f4e5a6b7c8d"), QStringLiteral("user@1000.service")}, &why));
        QVERIFY(!checkCgroupFilter({QStringLiteral("nginx"), {}}, &why));
        QCOMPARE(why,
                 QStringLiteral("container=nginx: not a container id (hex digits, or a pod UID)"));
        QVERIFY(!checkCgroupFilter({{}, QStringLiteral("a b.service")}, &why));
        QCOMPARE(why, QStringLiteral("unit=a b.service: not a systemd unit name (letters, digits "
                                     "and :-_.\\@, up to 256 characters)"));
        QVERIFY(!checkCgroupFilter({{}, QString(257, QLatin1Char('a'))}, &why));
    }

    // What a probe's container= or unit= records: the one outermost cgroup that matches.
    void workloadIsOneCgroup()
    {
        const QByteArray podSd = "0d8b5a56_2f9e_4c1e_9a7b_5f1c2d3e4f50";
        const QByteArray pod = "/kubepods.slice/kubepods-pod" + podSd + ".slice";
        const QList<CgroupPath> running{
            {1, "/"},
            {2, "/system.slice"},
            {3, "/system.slice/nginx.service"},
            {4, "/system.slice/nginx.service/worker"},
            // sorts between nginx.service and its child: not taken for one of its descendants
            {5, "/system.slice/nginx.service-x/nginx.service"},
            {6, "/system.slice/docker-" + Hex64 + ".scope"},
            {7, pod},
            {8, pod + "/cri-containerd-" + Hex64b + ".scope"},
            {9, "/a.slice/dup.service"},
            {10, "/b.slice/dup.service"}};
        auto one = [&](const QString &container, const QString &unit) {
            QByteArray path;
            QString why;
            return workloadCgroup(running, {container, unit}, &path, &why) ? path : why.toUtf8();
        };
        QCOMPARE(one(QStringLiteral("3f4e5a6b7c8d"), {}),
                 "/system.slice/docker-" + Hex64 + ".scope");
        QCOMPARE(one(QStringLiteral("0d8b5a56-2f9e-4c1e-9a7b-5f1c2d3e4f50"), {}), pod);
        QCOMPARE(one({}, QStringLiteral("system.slice")), QByteArray("/system.slice"));
        QCOMPARE(one({}, QStringLiteral("nginx.service")),
                 QByteArray("unit nginx.service names 2 cgroups: /system.slice/nginx.service, "
                            "/system.slice/nginx.service-x/nginx.service; choose one with "
                            "cgroup=PATH"));
        QCOMPARE(one({}, QStringLiteral("dup.service")),
                 QByteArray("unit dup.service names 2 cgroups: /a.slice/dup.service, "
                            "/b.slice/dup.service; choose one with cgroup=PATH"));
        QCOMPARE(one(QStringLiteral("ffff"), {}),
                 QByteArray("no running cgroup is in container ffff (it must run when the "
                            "recording starts; docs/containers.md)"));
        QCOMPARE(one({}, QStringLiteral("msecs")),
                 QByteArray("no running cgroup is in unit msecs (it must run when the recording "
                            "starts; docs/containers.md); a histogram's units are units=msecs"));
        QCOMPARE(one(QStringLiteral("x y"), {}),
                 QByteArray("container=x y: not a container id (hex digits, or a pod UID)"));
    }

    void sessionKeepsCgroups()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.bpflens"));
        const RecordBatch b = makeBatch();
        QCOMPARE(write(path, SessionSchemaVersion, b), QString());
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error, {}, SessionReader::Salvage::Refuse),
                 qPrintable(error));
        QCOMPARE(data.info.schemaVersion, 4);
        QCOMPARE(data.cgroups.all(), b.cgroups);
        QCOMPARE(data.events.count(EventType::Open), 6);
        for (qsizetype i = 0; i < 6; ++i)
            QCOMPARE(data.events.event<OpenEvent>(i), b.open[i]);
        QCOMPARE(data.events.event<ExecEvent>(0).cgroupId, 4343u);
        const CgroupNames docker = data.cgroups.names(4242);
        QCOMPARE(docker.container, QString::fromLatin1(Hex64));
        QCOMPARE(docker.runtime, QStringLiteral("docker"));
        QCOMPARE(data.cgroups.names(4343).unit,
                 QString::fromUtf8("caf\xc3\xa9 \xe2\x9c\x93 x.service"));

        // Top by container and by unit: exact counts, the unknown id as [unknown].
        TopQuery q;
        q.limit = 0;
        const TopList byContainer =
            topListByCgroup(data.events, data.cgroups, CgroupKey::Container, q);
        QCOMPARE(byContainer.events, 7);
        QCOMPARE(byContainer.rows.size(), 3);
        QCOMPARE(byContainer.rows[0].key, QStringLiteral("[host]")); // 2 opens + 1 exec
        QCOMPARE(byContainer.rows[0].count, 3);
        QCOMPARE(byContainer.rows[1].key, QStringLiteral("[unknown]"));
        QCOMPARE(byContainer.rows[1].count, 2);
        QCOMPARE(byContainer.rows[2].key,
                 QStringLiteral("docker ") + QString::fromLatin1(Hex64.left(12)));
        QCOMPARE(byContainer.rows[2].count, 2);
        const TopList byUnit = topListByCgroup(data.events, data.cgroups, CgroupKey::Unit, q);
        QCOMPARE(byUnit.rows.size(), 3);
        QCOMPARE(byUnit.rows[0].key, QString::fromUtf8("caf\xc3\xa9 \xe2\x9c\x93 x.service"));
        QCOMPARE(byUnit.rows[0].count, 3);

        // SQL: the cgroups table joins on the events' cgroup_id.
        SessionQuery sql;
        QVERIFY2(sql.open(path, &error), qPrintable(error));
        QList<QVariantList> rows;
        QVERIFY2(sql.exec(
                     QStringLiteral("SELECT c.runtime, c.container, count(*) FROM open o "
                                    "JOIN cgroups c ON o.cgroup_id = c.id GROUP BY c.id "
                                    "ORDER BY c.id"),
                     nullptr,
                     [&](const QVariantList &r) {
                         rows.append(r);
                         return true;
                     },
                     &error),
                 qPrintable(error));
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0],
                 (QVariantList{QStringLiteral("docker"), QString::fromLatin1(Hex64), qint64(2)}));
        QCOMPARE(rows[1], (QVariantList{QString(), QString(), qint64(2)}));
    }

    // Files of schema 2 and 3 have no cgroup column and no cgroups table: they open, every
    // event's cgroup 0, and SQL's join runs on an empty table.
    void olderSchemasStillOpen_data()
    {
        QTest::addColumn<int>("schema");
        QTest::newRow("schema 2") << 2;
        QTest::newRow("schema 3") << 3;
    }
    void olderSchemasStillOpen()
    {
        QFETCH(int, schema);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.bpflens"));
        QCOMPARE(write(path, schema, makeBatch()), QString());
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error, {}, SessionReader::Salvage::Refuse),
                 qPrintable(error));
        QCOMPARE(data.info.schemaVersion, schema);
        QVERIFY(data.cgroups.isEmpty());
        QCOMPARE(data.events.count(EventType::Open), 6);
        RecordBatch want = makeBatch();
        for (qsizetype i = 0; i < 6; ++i) {
            want.open[i].cgroupId = 0;
            QCOMPARE(data.events.event<OpenEvent>(i), want.open[i]);
        }
        SessionQuery sql;
        QVERIFY2(sql.open(path, &error), qPrintable(error));
        qint64 joined = -1, all = -1;
        QVERIFY2(sql.exec(
                     QStringLiteral("SELECT (SELECT count(*) FROM open o JOIN cgroups c ON "
                                    "o.cgroup_id = c.id), (SELECT count(*) FROM open "
                                    "WHERE cgroup_id = 0)"),
                     nullptr,
                     [&](const QVariantList &r) {
                         joined = r[0].toLongLong();
                         all = r[1].toLongLong();
                         return true;
                     },
                     &error),
                 qPrintable(error));
        QCOMPARE(joined, 0);
        QCOMPARE(all, 6);
    }
};

QTEST_GUILESS_MAIN(TestCgroups)
#include "tst_cgroups.moc"
