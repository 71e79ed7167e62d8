// The tppair probe against the real kernel: the same precompiled programs pair ext4's fsync
// tracepoints by thread and the block layer's issue and completion by request pointer or by a
// field of the request, and the counts must match the work the test did. Bad tracepoints,
// arguments and fields are refused before anything is loaded, with the bad value named.
#include "helper/engine.h"
#include "helper/tppairprobe.h"
#include "helper/tracepoints.h"
#include "tests/engine/enginetestutil.h"
#include "tests/testutil.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <bpf/btf.h>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

using namespace bpflens;

namespace {

constexpr long ext4Magic = 0xEF53;
constexpr int blockSize = 4096;
const QList<QByteArray> ourPrograms{"tppair_"};

using test::ownComm;

// BPFLENS_TEST_DIR if set, else a directory on the root file system (/tmp may be tmpfs).
QString testDirectory()
{
    const QString env = qEnvironmentVariable("BPFLENS_TEST_DIR");
    return env.isEmpty() ? QDir::rootPath() + QStringLiteral("var/tmp") : env;
}

struct Recording
{
    QString attachPath;
    RecordBatch batch;
    Log2Histogram histogram{HistogramUnit::Microseconds};
    QStringList keys;
    quint64 lost = 0;
    double unreadable = 0;
};

// Starts tppair with options, runs work, stops and merges what came out.
bool record(const QVariantMap &options, const std::function<bool()> &work, Recording *r,
            QString *error)
{
    Engine engine;
    QList<ProbeConfig> req{{QStringLiteral("tppair"), options, {}}};
    if (!engine.start(req, error))
        return false;
    r->attachPath = req[0].attachPath;
    const bool ok = work();
    engine.poll(10, r->batch);
    engine.stop(&r->batch);
    bool first = true;
    for (const HistogramSnapshot &s : std::as_const(r->batch.histograms)) {
        if (first)
            r->histogram = Log2Histogram(s.histogram.unit());
        first = false;
        r->histogram.merge(s.histogram);
        if (!r->keys.contains(s.key))
            r->keys.append(s.key);
    }
    for (const ProbeStats &s : std::as_const(r->batch.stats))
        r->lost = qMax(r->lost, s.eventsLost);
    for (const CounterSample &c : std::as_const(r->batch.counters)) {
        if (c.name == QLatin1String("unreadableKeys"))
            r->unreadable += c.value;
    }
    if (!ok)
        *error = QStringLiteral("the workload failed");
    return ok;
}

// count fsyncs of path, each after dirtying a page when dirty (a journal commit and a disk
// write) or of a clean file (next to nothing to do). Async-signal-safe: also used in a child.
bool fsyncs(const char *path, int count, bool dirty)
{
    const int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    char buf[512];
    memset(buf, 'x', sizeof(buf));
    bool ok = true;
    for (int i = 0; ok && i < count; ++i) {
        if (dirty)
            ok = pwrite(fd, buf, sizeof(buf), off_t(i) * blockSize) == ssize_t(sizeof(buf));
        ok = ok && fsync(fd) == 0;
    }
    close(fd);
    return ok;
}

// count O_DIRECT 4 KiB writes at offsets 0, 4096, ...
bool directWrites(const QString &path, int count)
{
    const int fd =
        open(path.toLocal8Bit().constData(), O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    void *buf = nullptr;
    if (posix_memalign(&buf, blockSize, blockSize) != 0) {
        close(fd);
        return false;
    }
    memset(buf, 0x5a, blockSize);
    bool ok = true;
    for (int i = 0; ok && i < count; ++i)
        ok = pwrite(fd, buf, blockSize, off_t(i) * blockSize) == blockSize;
    free(buf);
    close(fd);
    return ok;
}

// The disk sectors (512 bytes, counted from the start of the whole disk) of each 4 KiB block
// of the file's first count blocks, from the file system's extent map.
QList<quint64> blockSectors(const QString &path, int count)
{
    QList<quint64> out;
    const int fd = open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return out;
    struct stat st
    {
    };
    fstat(fd, &st);
    // A partition's sectors are remapped to the disk's before the request is built.
    quint64 partitionStart = 0;
    QFile start(
        QStringLiteral("/sys/dev/block/%1:%2/start").arg(major(st.st_dev)).arg(minor(st.st_dev)));
    if (start.open(QIODevice::ReadOnly))
        partitionStart = start.readAll().trimmed().toULongLong();
    constexpr int maxExtents = 64;
    QByteArray mem(sizeof(fiemap) + maxExtents * sizeof(fiemap_extent), '\0');
    auto *fm = reinterpret_cast<fiemap *>(mem.data());
    fm->fm_start = 0;
    fm->fm_length = quint64(count) * blockSize;
    fm->fm_flags = FIEMAP_FLAG_SYNC;
    fm->fm_extent_count = maxExtents;
    if (ioctl(fd, FS_IOC_FIEMAP, fm) == 0) {
        for (int b = 0; b < count; ++b) {
            const quint64 logical = quint64(b) * blockSize;
            for (quint32 e = 0; e < fm->fm_mapped_extents; ++e) {
                const fiemap_extent &x = fm->fm_extents[e];
                if (logical >= x.fe_logical && logical < x.fe_logical + x.fe_length) {
                    out.append(partitionStart + (x.fe_physical + logical - x.fe_logical) / 512);
                    break;
                }
            }
        }
    }
    close(fd);
    return out;
}

// A loop device over a new file of size bytes in the test's directory, its path, or empty
// with the reason in why.
QString attachLoopDevice(const QString &backing, qint64 size, QString *why)
{
    QFile f(backing);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(size)) {
        *why = f.errorString();
        return {};
    }
    f.close();
    QProcess p;
    p.start(QStringLiteral("losetup"),
            {QStringLiteral("--find"), QStringLiteral("--show"), backing});
    if (!p.waitForFinished() || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        const QString said = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
        *why = QStringLiteral("losetup: ") + (said.isEmpty() ? p.errorString() : said);
        return {};
    }
    return QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
}

// What the running kernel's block structures look like, read from its BTF directly (not
// through the code under test), so the tests name the fields this kernel has: the request's
// disk moved from request->rq_disk to request->q->disk in 5.17, block_rq_complete's error became
// a blk_status_t later than 5.10.
struct BlockLayout
{
    bool valid = false;
    QString diskKey;          // the path from block_rq_complete's request to its gendisk
    QList<quint32> hops;      // byte offsets of the pointers read on the way (the disk's included)
    QString completeError;    // the type name of block_rq_complete's arg1
    QString longChain;        // a key through more than 6 pointers, from the request
    QString unionField;       // a field of an anonymous union in struct request
    bool argNames = false;    // BTF has the __bpf_trace_ functions that carry argument names
    int schedSwitchArgs = -1; // 4 since prev_state came (5.18), 3 before
};

// Whether type id has field inside one of its anonymous unions.
bool inAnonymousUnion(const btf *b, int id, const char *field)
{
    const btf_type *t = btf__type_by_id(b, id);
    const btf_member *m = btf_members(t);
    for (int i = 0; i < btf_vlen(t); ++i, ++m) {
        const btf_type *mt = btf__type_by_id(b, m->type);
        if (m->name_off || !mt || !btf_is_union(mt))
            continue;
        const btf_member *u = btf_members(mt);
        for (int j = 0; j < btf_vlen(mt); ++j, ++u) {
            if (qstrcmp(btf__name_by_offset(b, u->name_off), field) == 0)
                return true;
        }
    }
    return false;
}

qint64 memberOffset(const btf *b, const char *structName, const char *field)
{
    const int id = btf__find_by_name_kind(b, structName, BTF_KIND_STRUCT);
    if (id < 0)
        return -1;
    const btf_type *t = btf__type_by_id(b, id);
    const btf_member *m = btf_members(t);
    for (int i = 0; i < btf_vlen(t); ++i, ++m) {
        if (qstrcmp(btf__name_by_offset(b, m->name_off), field) == 0)
            return btf_member_bit_offset(t, i) / 8;
    }
    return -1;
}

BlockLayout blockLayout()
{
    BlockLayout l;
    btf *b = btf__load_vmlinux_btf();
    if (!b)
        return l;
    const qint64 rqDisk = memberOffset(b, "request", "rq_disk");
    const qint64 rqQ = memberOffset(b, "request", "q");
    const qint64 qDisk = memberOffset(b, "request_queue", "disk");
    if (rqDisk >= 0) {
        l.diskKey = QStringLiteral("arg0.rq_disk");
        l.hops = {quint32(rqDisk)};
    } else if (rqQ >= 0 && qDisk >= 0) {
        l.diskKey = QStringLiteral("arg0.q.disk");
        l.hops = {quint32(rqQ), quint32(qDisk)};
    }
    // 6.x: gendisk->queue->disk... (as before); older: request->q->last_merge (a request)...
    if (qDisk >= 0)
        l.longChain = QStringLiteral("arg0.q.disk.queue.disk.queue.disk.queue.disk.first_minor");
    else if (memberOffset(b, "request_queue", "last_merge") >= 0)
        l.longChain = QStringLiteral("arg0.q.last_merge.q.last_merge.q.last_merge.q.queue_depth");
    const int request = btf__find_by_name_kind(b, "request", BTF_KIND_STRUCT);
    for (const char *f : {"rq_next", "completion_data"}) {
        if (request >= 0 && inAnonymousUnion(b, request, f)) {
            l.unionField = QStringLiteral("arg0.") + QLatin1String(f);
            break;
        }
    }
    // 5.10's BTF has no probe functions: its tracepoints' arguments have types, no names.
    l.argNames = btf__find_by_name_kind(b, "__bpf_trace_block_rq_completion", BTF_KIND_FUNC) >= 0 ||
                 btf__find_by_name_kind(b, "__bpf_trace_block_rq_complete", BTF_KIND_FUNC) >= 0;
    const int sw = btf__find_by_name_kind(b, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
    if (sw >= 0) {
        const btf_type *ptr = btf__type_by_id(b, btf__type_by_id(b, sw)->type);
        const btf_type *proto = ptr ? btf__type_by_id(b, ptr->type) : nullptr;
        if (proto && btf_is_func_proto(proto))
            l.schedSwitchArgs = btf_vlen(proto) - 1; // less the probe's void *data
    }
    const int tp = btf__find_by_name_kind(b, "btf_trace_block_rq_complete", BTF_KIND_TYPEDEF);
    if (tp >= 0) {
        const btf_type *ptr = btf__type_by_id(b, btf__type_by_id(b, tp)->type);
        const btf_type *proto = ptr ? btf__type_by_id(b, ptr->type) : nullptr;
        if (proto && btf_is_func_proto(proto) && btf_vlen(proto) >= 3) {
            const btf_type *arg = btf__type_by_id(b, btf_params(proto)[2].type);
            if (arg)
                l.completeError = QString::fromLatin1(btf__name_by_offset(b, arg->name_off));
        }
    }
    btf__free(b);
    l.valid = !l.diskKey.isEmpty() && !l.longChain.isEmpty() && !l.completeError.isEmpty() &&
              !l.unionField.isEmpty() && l.schedSwitchArgs >= 3;
    return l;
}

QVariantMap blockPair(const QVariantMap &extra)
{
    QVariantMap o{{QStringLiteral("start"), QStringLiteral("block:block_rq_issue")},
                  {QStringLiteral("end"), QStringLiteral("block_rq_complete")},
                  {QStringLiteral("key"), QStringLiteral("arg0")}};
    for (auto it = extra.cbegin(); it != extra.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

// ext4's tracepoints have BTF where ext4 is built in or its module has BTF (5.11+): not on the
// VM matrix's 5.10, where ext4 is a module without it. The pairs over them cannot start there.
#define REQUIRE_EXT4_TRACEPOINTS()                                                                 \
    do {                                                                                           \
        if (!KernelFeatures().hasBtfTracepoint(QStringLiteral("ext4_sync_file_enter")))            \
            QSKIP("ext4_sync_file_enter has no BTF on this kernel (ext4 is a module without it)"); \
    } while (false)

QVariantMap fsyncPair(const QVariantMap &extra)
{
    QVariantMap o{{QStringLiteral("start"), QStringLiteral("ext4_sync_file_enter")},
                  {QStringLiteral("end"), QStringLiteral("ext4_sync_file_exit")},
                  {QStringLiteral("pid"), qint64(getpid())}};
    for (auto it = extra.cbegin(); it != extra.cend(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

} // namespace

class TestTpPair : public QObject
{
    Q_OBJECT

    QTemporaryDir *m_dir = nullptr;

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        m_dir = new QTemporaryDir(testDirectory() + QStringLiteral("/bpflens-tppair-XXXXXX"));
        QVERIFY2(m_dir->isValid(), qPrintable(testDirectory()));
        struct statfs sfs
        {
        };
        QCOMPARE(statfs(m_dir->path().toLocal8Bit().constData(), &sfs), 0);
        QVERIFY2(sfs.f_type == ext4Magic,
                 "the test directory must be on ext4 (set BPFLENS_TEST_DIR to one that is)");
    }

    void cleanupTestCase() { delete m_dir; }

    // No root needed: what the catalog fills in and refuses before any kernel is asked.
    void catalogDefaultsAndRanges()
    {
        QVariantMap n;
        QString error;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("tppair"), {}, &n, &error));
        QCOMPARE(ProbeCatalog::find(QStringLiteral("tppair"))->group, ProbeGroup::Custom);
        QCOMPARE(n.value(QStringLiteral("start")), QVariant(QStringLiteral("sys_enter")));
        QCOMPARE(n.value(QStringLiteral("end")), QVariant(QStringLiteral("sys_exit")));
        QCOMPARE(n.value(QStringLiteral("key")), QVariant(QStringLiteral("tid")));
        QCOMPARE(n.value(QStringLiteral("endKey")), QVariant(QString()));
        QCOMPARE(n.value(QStringLiteral("thresholdUs")), QVariant(qint64(-1)));
        QCOMPARE(n.value(QStringLiteral("units")), QVariant(QStringLiteral("usecs")));
        QVERIFY(ProbeCatalog::validate(QStringLiteral("tppair"),
                                       {{QStringLiteral("units"), QStringLiteral("nsecs")}}, &n,
                                       &error));
        QVERIFY(!ProbeCatalog::validate(QStringLiteral("tppair"),
                                        {{QStringLiteral("thresholdUs"), -2}}, &n, &error));
        QCOMPARE(error, QStringLiteral("probe tppair, option thresholdUs: -2 is out of range (-1 "
                                       "to 3600000000)"));
        QVERIFY(!ProbeCatalog::validate(QStringLiteral("tppair"),
                                        {{QStringLiteral("key"), QString(300, QLatin1Char('a'))}},
                                        &n, &error));
        QCOMPARE(error, QStringLiteral("probe tppair, option key: is longer than 256 bytes"));
    }

    // The list a GUI completes from: every tracepoint with its arguments' names and types.
    void listsTracepointsWithTheirArguments()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        KernelFeatures kernel;
        const QList<TracepointInfo> all = Tracepoints::list(kernel);
        qInfo() << all.size() << "tracepoints";
        QVERIFY(all.size() > 100);
        for (int i = 1; i < all.size(); ++i)
            QVERIFY(all[i - 1].name < all[i].name);
        auto find = [&](const char *name) {
            for (const TracepointInfo &t : all) {
                if (t.name == QLatin1String(name))
                    return t;
            }
            return TracepointInfo{};
        };
        // Its own class has another name (block_rq_completion): the names still come through.
        const BlockLayout layout = blockLayout();
        QVERIFY(layout.valid);
        auto named = [&](const char *name) {
            return layout.argNames ? QString::fromLatin1(name) : QString();
        };
        const QList<TracepointArg> complete{{named("rq"), QStringLiteral("struct request *")},
                                            {named("error"), layout.completeError},
                                            {named("nr_bytes"), QStringLiteral("unsigned int")}};
        QCOMPARE(find("block_rq_complete").args, complete);
        if (kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_enter"))) {
            // A module's tracepoint where ext4 is a module (6.1 in the VM matrix).
            const TracepointInfo enter = find("ext4_sync_file_enter");
            QCOMPARE(enter.args.size(), 2);
            QCOMPARE(enter.args[0].type, QStringLiteral("struct file *"));
            QCOMPARE(enter.args[1].type, QStringLiteral("int"));
        }
        QCOMPARE(find("sched_switch").args.size(), layout.schedSwitchArgs);

        TracepointInfo one;
        QString error;
        QVERIFY2(Tracepoints::find(kernel, QStringLiteral("block:block_rq_complete"), &one, &error),
                 qPrintable(error));
        QCOMPARE(one.name, QStringLiteral("block_rq_complete"));
        QCOMPARE(one.args, complete);
    }

    void keysResolveToOffsets()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        KernelFeatures kernel;
        TracepointKey k;
        QString error;
        const BlockLayout layout = blockLayout();
        QVERIFY(layout.valid);
        QVERIFY2(Tracepoints::resolveKey(kernel, QStringLiteral("block_rq_complete"),
                                         layout.diskKey + QStringLiteral(".first_minor"), &k,
                                         &error),
                 qPrintable(error));
        QCOMPARE(k.kind, TracepointKey::Kind::Field);
        QCOMPARE(k.arg, 0);
        QCOMPARE(k.size, 4);
        QCOMPARE(k.type, QStringLiteral("int"));
        // One read per pointer on the way, at the offsets the kernel's BTF gives: request->q at
        // 0 then queue->disk (6.x), or request->rq_disk (older).
        QCOMPARE(k.hops, layout.hops);
        // An embedded struct costs no read; a field of an anonymous union is found by name.
        QVERIFY(Tracepoints::resolveKey(kernel, QStringLiteral("block_rq_issue"),
                                        QStringLiteral("arg0.elv.icq"), &k, &error));
        QCOMPARE(k.hops.size(), 0);
        QCOMPARE(k.size, 8);
        QVERIFY2(Tracepoints::resolveKey(kernel, QStringLiteral("block_rq_issue"),
                                         layout.unionField, &k, &error),
                 qPrintable(error));
        QCOMPARE(k.size, 8);
        QVERIFY(Tracepoints::resolveKey(kernel, QStringLiteral("block_rq_complete"),
                                        QStringLiteral("arg2"), &k, &error));
        QCOMPARE(k.kind, TracepointKey::Kind::Arg);
        QCOMPARE(k.size, 4);
    }

    void invalidOptionsNameTheBadValue_data()
    {
        QTest::addColumn<QVariantMap>("options");
        QTest::addColumn<QString>("reason");
        const QString issue = QStringLiteral("block_rq_issue");
        const BlockLayout layout = blockLayout();
        QVERIFY(layout.valid);
        QTest::newRow("no such tracepoint")
            << blockPair({{QStringLiteral("start"), QStringLiteral("block_rq_isue")}})
            << QStringLiteral("tracepoint block_rq_isue does not exist in this kernel");
        QTest::newRow("no such end tracepoint")
            << blockPair({{QStringLiteral("end"), QStringLiteral("block:block_rq_complet")}})
            << QStringLiteral("tracepoint block:block_rq_complet does not exist in this kernel");
        QTest::newRow("not a name")
            << blockPair({{QStringLiteral("start"), QStringLiteral("../block_rq_issue")}})
            << QStringLiteral("\"../block_rq_issue\" is not a tracepoint name (expected a name "
                              "like block_rq_issue or block:block_rq_issue)");
        QTest::newRow("no start") << blockPair({{QStringLiteral("start"), QString()}})
                                  << QStringLiteral("no start tracepoint given");
        // One tracepoint times each hit to the next of its key: a second key could not pair them.
        QTest::newRow("same tracepoint, two keys")
            << blockPair({{QStringLiteral("end"), issue},
                          {QStringLiteral("endKey"), QStringLiteral("tid")}})
            << QStringLiteral("start and end are the same hook (block_rq_issue): each hit ends its "
                              "key's pair and starts the next, so endKey tid must be empty or name "
                              "the same value as key arg0");
        QTest::newRow("argument out of range")
            << blockPair({{QStringLiteral("key"), QStringLiteral("arg2")}})
            << QStringLiteral("block_rq_issue has 1 argument, arg2 does not exist");
        QTest::newRow("end argument out of range")
            << blockPair({{QStringLiteral("endKey"), QStringLiteral("arg3")}})
            << QStringLiteral("block_rq_complete has 3 arguments, arg3 does not exist");
        QTest::newRow("no such field")
            << blockPair({{QStringLiteral("key"), QStringLiteral("arg0.tgs")}})
            << QStringLiteral("struct request has no field tgs");
        QTest::newRow("no such nested field")
            << blockPair({{QStringLiteral("key"), layout.diskKey + QStringLiteral(".nope")}})
            << QStringLiteral("struct gendisk has no field nope");
        QTest::newRow("field of an integer")
            << blockPair({{QStringLiteral("endKey"), QStringLiteral("arg1.x")}})
            << QStringLiteral("arg1 of block_rq_complete is %1, not a struct or a pointer to "
                              "one: it has no field x")
                   .arg(layout.completeError);
        QTest::newRow("field of an integer field")
            << blockPair({{QStringLiteral("key"), QStringLiteral("arg0.tag.x")}})
            << QStringLiteral("field tag of struct request is int, not a struct or a pointer to "
                              "one: it has no field x");
        QTest::newRow("struct as key")
            << blockPair({{QStringLiteral("key"), QStringLiteral("arg0.elv")}})
            << QStringLiteral("key arg0.elv is struct (anonymous), not an integer or a pointer: "
                              "name a field inside it");
        QTest::newRow("bit field")
            << QVariantMap{{QStringLiteral("start"), QStringLiteral("consume_skb")},
                           {QStringLiteral("end"), QStringLiteral("kfree_skb")},
                           {QStringLiteral("key"), QStringLiteral("arg0.pkt_type")}}
            << QStringLiteral("field pkt_type of struct sk_buff is a bit field: a key must be a "
                              "whole integer or pointer");
        QTest::newRow("too many pointers")
            << blockPair({{QStringLiteral("key"), layout.longChain}})
            << QStringLiteral("key %1 follows more than 6 pointers").arg(layout.longChain);
        QTest::newRow("bad key syntax")
            << blockPair({{QStringLiteral("key"), QStringLiteral("arg0..q")}})
            << QStringLiteral("key \"arg0..q\" is not valid: expected tid, pid, argN, an "
                              "argument's name, or either with fields (like arg0.__sector)");
    }

    void invalidOptionsNameTheBadValue()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        QFETCH(QVariantMap, options);
        QFETCH(QString, reason);
        KernelFeatures kernel;
        TpPairProbe probe;
        QVariantMap normalized;
        QString error;
        QVERIFY2(ProbeCatalog::validate(QStringLiteral("tppair"), options, &normalized, &error),
                 qPrintable(error));
        const ProbeAvailability a = probe.availability(kernel, normalized);
        QVERIFY(!a.available);
        QCOMPARE(a.reason, reason);

        // The engine refuses it with the same words, and loads nothing.
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("tppair"), options, {}}};
        QVERIFY(!engine.start(req, &error));
        QCOMPARE(error, QStringLiteral("probe tppair cannot run on this kernel: ") + reason);
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }

    void defaultsPairSyscalls()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        KernelFeatures kernel;
        TpPairProbe probe;
        QVariantMap defaults;
        QString error;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("tppair"), {}, &defaults, &error));
        const ProbeAvailability a = probe.availability(kernel, defaults);
        QVERIFY2(a.available, qPrintable(a.reason));
        QCOMPARE(a.attachPath, QStringLiteral("raw_tp/sys_enter, raw_tp/sys_exit"));
    }

    // BCC's sync_timing: start and end the same tracepoint, so each hit ends the pair of its key
    // and starts the next. sys_enter keyed by the system call's number (every process's sync()
    // has the one key, as sync_timing's one timer), started only by the child: its 5 syncs, 10,
    // 30, 20 and 40 ms apart, are exactly 4 pairs of key SYS_sync, each within what the child
    // measured around the two calls. Its other system calls pair per number too.
    void sameTracepointTimesOneHitToTheNext()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        constexpr int syncs = 5;
        static constexpr long sleepMs[syncs - 1] = {10, 30, 20, 40};
        struct Calls
        {
            qint64 before[syncs];
            qint64 after[syncs];
        };
        // Written by the child, read here after it exited.
        void *shared =
            mmap(nullptr, sizeof(Calls), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        QVERIFY(shared != MAP_FAILED);
        auto unmap = qScopeGuard([&] { munmap(shared, sizeof(Calls)); });
        auto *calls = static_cast<Calls *>(shared);
        test::GatedChild child([calls] {
            for (int i = 0; i < syncs; ++i) {
                if (i > 0) {
                    timespec t{0, sleepMs[i - 1] * 1000 * 1000};
                    while (nanosleep(&t, &t) != 0) {
                    }
                }
                calls->before[i] = qint64(monotonicNs());
                sync();
                calls->after[i] = qint64(monotonicNs());
            }
        });
        QVERIFY(child.pid() > 0);
        Recording r;
        QString error;
        QVERIFY2(record(
                     {{QStringLiteral("start"), QStringLiteral("sys_enter")},
                      {QStringLiteral("end"), QStringLiteral("raw_syscalls:sys_enter")},
                      {QStringLiteral("key"), QStringLiteral("arg1")},
                      {QStringLiteral("pid"), qint64(child.pid())},
                      {QStringLiteral("thresholdUs"), qint64(0)},
                      {QStringLiteral("units"), QStringLiteral("nsecs")}},
                     [&] {
                         const int status = child.run();
                         return WIFEXITED(status) && WEXITSTATUS(status) == 0;
                     },
                     &r, &error),
                 qPrintable(error));
        // One program at the one tracepoint, not a start and an end that would both run.
        QCOMPARE(r.attachPath, QStringLiteral("raw_tp/sys_enter"));
        QCOMPARE(r.lost, 0u);
        QList<TpPairEvent> pairs;
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair)) {
            // Only the child starts pairs.
            QCOMPARE(e.pid, quint32(child.pid()));
            if (e.key == quint64(SYS_sync))
                pairs.append(e);
        }
        // Every pair is an event (threshold 0), whatever its system call.
        QCOMPARE(r.histogram.count(), quint64(r.batch.tpPair.size()));
        std::sort(pairs.begin(), pairs.end(),
                  [](const TpPairEvent &a, const TpPairEvent &b) { return a.timeNs < b.timeNs; });
        QCOMPARE(pairs.size(), syncs - 1);
        for (int i = 0; i < syncs - 1; ++i) {
            const TpPairEvent &e = pairs[i];
            // The probe saw each call between the child's times before it and after it.
            const quint64 shortest = quint64(calls->before[i + 1] - calls->after[i]);
            const quint64 longest = quint64(calls->after[i + 1] - calls->before[i]);
            QVERIFY2(e.latencyNs >= shortest && e.latencyNs <= longest &&
                         e.latencyNs >= quint64(sleepMs[i]) * 1000 * 1000,
                     qPrintable(QStringLiteral("pair %1: %2 ns, the calls %3..%4 ns apart")
                                    .arg(i)
                                    .arg(e.latencyNs)
                                    .arg(shortest)
                                    .arg(longest)));
            QVERIFY(e.timeNs >= quint64(calls->before[i + 1]) &&
                    e.timeNs <= quint64(calls->after[i + 1]));
        }
        QCOMPARE(r.unreadable, 0.0);
    }

    // Another process's fsyncs run at the same time: the pid filter on the start side must
    // leave exactly the test's own.
    void fsyncsPairedByThreadCountExactly()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        REQUIRE_EXT4_TRACEPOINTS();
        constexpr int N = 40;
        const QByteArray mine = m_dir->filePath(QStringLiteral("mine")).toLocal8Bit();
        const QByteArray other = m_dir->filePath(QStringLiteral("other")).toLocal8Bit();
        test::GatedChild child([&] { fsyncs(other.constData(), 30, true); });
        QVERIFY(child.pid() > 0);
        Recording r;
        QString error;
        const bool ok = record(
            fsyncPair({{QStringLiteral("thresholdUs"), qint64(0)},
                       {QStringLiteral("units"), QStringLiteral("nsecs")}}),
            [&] {
                const int status = child.run();
                return fsyncs(mine.constData(), N, true) && WIFEXITED(status) &&
                       WEXITSTATUS(status) == 0;
            },
            &r, &error);
        QVERIFY2(ok, qPrintable(error));
        QCOMPARE(r.attachPath,
                 QStringLiteral("raw_tp/ext4_sync_file_enter, raw_tp/ext4_sync_file_exit"));
        QCOMPARE(r.lost, 0u);
        QCOMPARE(r.keys, QStringList{QString()});
        QCOMPARE(r.histogram.unit(), HistogramUnit::Nanoseconds);
        QCOMPARE(r.histogram.count(), quint64(N));
        // Threshold 0: every pair is an event too, and the events add up to the histogram.
        QCOMPARE(r.batch.tpPair.size(), N);
        quint64 sum = 0;
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair)) {
            QCOMPARE(e.pid, quint32(getpid()));
            QCOMPARE(e.tid, quint32(gettid()));
            QCOMPARE(e.key, quint64(gettid()));
            QCOMPARE(e.comm, ownComm());
            QVERIFY(e.latencyNs > 0);
            QVERIFY(e.timeNs > 0);
            sum += e.latencyNs;
        }
        QCOMPARE(r.histogram.sum(), sum);
        qInfo() << "mean fsync" << double(sum) / N / 1000 << "us";
        QCOMPARE(r.unreadable, 0.0);
        QCOMPARE(r.batch.eventCount(), qsizetype(N));
    }

    // Events only for pairs at least as slow as the threshold; the histogram still counts all.
    // The default pair (syscall entry and exit by thread) with syscalls of known duration:
    // 20 ms sleeps among calls that return at once.
    void thresholdRecordsOnlySlowPairs()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        REQUIRE_EXT4_TRACEPOINTS();
        constexpr int sleeps = 10;
        constexpr int quick = 100;
        const qint64 thresholdUs = 5000;
        Recording r;
        QString error;
        QVERIFY2(record(
                     {{QStringLiteral("pid"), qint64(getpid())},
                      {QStringLiteral("thresholdUs"), thresholdUs},
                      {QStringLiteral("units"), QStringLiteral("nsecs")}},
                     [&] {
                         for (int i = 0; i < sleeps; ++i) {
                             const timespec ts{0, 20 * 1000 * 1000};
                             nanosleep(&ts, nullptr);
                             for (int j = 0; j < quick; ++j)
                                 getppid();
                         }
                         return true;
                     },
                     &r, &error),
                 qPrintable(error));
        QVERIFY(r.histogram.count() >= quint64(sleeps * (quick + 1)));
        const quint64 t = quint64(thresholdUs) * 1000;
        int slept = 0;
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair)) {
            QVERIFY2(e.latencyNs >= t, qPrintable(QString::number(e.latencyNs)));
            QCOMPARE(e.pid, quint32(getpid()));
            slept += e.latencyNs >= 20 * 1000 * 1000;
        }
        QVERIFY2(slept >= sleeps, qPrintable(QString::number(slept)));
        // Slots wholly at or above the threshold are all events; the slot holding it partly.
        quint64 surely = 0, maybe = 0;
        for (int s = 0; s < Log2Histogram::MaxSlots; ++s) {
            if (Log2Histogram::slotLow(s) >= t)
                surely += r.histogram.slot(s);
            else if (Log2Histogram::slotHigh(s) >= t)
                maybe += r.histogram.slot(s);
        }
        qInfo() << r.batch.tpPair.size() << "of" << r.histogram.count() << "syscalls took at least"
                << thresholdUs << "us";
        QVERIFY(quint64(r.batch.tpPair.size()) >= surely);
        QVERIFY(quint64(r.batch.tpPair.size()) <= surely + maybe);
        QVERIFY(quint64(r.batch.tpPair.size()) < r.histogram.count() - quint64(sleeps * quick) / 2);

        // The default threshold records nothing.
        const QByteArray path = m_dir->filePath(QStringLiteral("fsynced")).toLocal8Bit();
        Recording none;
        QVERIFY2(
            record(
                fsyncPair({}), [&] { return fsyncs(path.constData(), 10, true); }, &none, &error),
            qPrintable(error));
        QCOMPARE(none.histogram.count(), 10u);
        QCOMPARE(none.batch.tpPair.size(), 0);
        QCOMPARE(none.histogram.unit(), HistogramUnit::Microseconds);
    }

    // O_DIRECT writes, paired by the request pointer. The pid filter applies where the pair
    // starts, so it must start where the writer is current: block_io_start runs in the
    // submitter's context, block_rq_issue wherever the queue is run, which through an I/O
    // scheduler is now and then kblockd or another task's dispatch (measured here: 1 or 2
    // requests of 32 in some runs). From block_io_start nearly N: a write whose bio the
    // scheduler merges into another task's queued request next to it starts no request of its
    // own (CI saw 31 of 32 with a build writing beside it). From block_rq_issue about N: fewer
    // when another task runs the queue, more when the writer's own run of the queue issues
    // other tasks' requests queued beside it (36 of 32 here with the suite writing its files).
    // Either way the histogram holds exactly the pairs recorded. The writes go to a loop device
    // of the test's own (no I/O scheduler, no other task's requests): on the root disk, beside a
    // build, the writer issued 4 of its 32 requests, the scheduler's dispatch from other tasks
    // the rest. Where no loop device can be set up, a file on the root disk.
    void blockRequestsPairedByPointer()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        constexpr int N = 32;
        QString why;
        const QString loop =
            attachLoopDevice(m_dir->filePath(QStringLiteral("pointer.img")), N * blockSize, &why);
        const auto detach = qScopeGuard([&] {
            if (!loop.isEmpty())
                QProcess::execute(QStringLiteral("losetup"), {QStringLiteral("-d"), loop});
        });
        QString path = loop;
        if (loop.isEmpty()) {
            qInfo().noquote()
                << QStringLiteral("no loop device (%1): a file on the root disk").arg(why);
            path = m_dir->filePath(QStringLiteral("direct.bin"));
        }
        QVERIFY(directWrites(path, N)); // a file's blocks allocated once: no metadata I/O later
        Recording r;
        QString error;
        KernelFeatures kernel;
        // block_io_start came with 6.5: older kernels (the VM matrix) check the issue side only.
        if (!kernel.hasBtfTracepoint(QStringLiteral("block_io_start")))
            qInfo("no block_io_start on this kernel: only block_rq_issue is paired");
        else
            QVERIFY2(record(
                         blockPair({{QStringLiteral("start"), QStringLiteral("block_io_start")},
                                    {QStringLiteral("pid"), qint64(getpid())},
                                    {QStringLiteral("thresholdUs"), qint64(0)}}),
                         [&] { return directWrites(path, N); }, &r, &error),
                     qPrintable(error));
        if (kernel.hasBtfTracepoint(QStringLiteral("block_io_start"))) {
            QCOMPARE(r.attachPath,
                     QStringLiteral("raw_tp/block_io_start, raw_tp/block_rq_complete"));
            qInfo() << r.histogram.count() << "of" << N << "requests started by the writer";
            QVERIFY(r.histogram.count() <= quint64(N));
            QVERIFY(r.histogram.count() >= quint64(N - N / 8));
            QCOMPARE(quint64(r.batch.tpPair.size()), r.histogram.count());
            for (const TpPairEvent &e : std::as_const(r.batch.tpPair)) {
                QCOMPARE(e.pid, quint32(getpid()));
                QCOMPARE(e.comm, ownComm());
                QVERIFY2(e.key >= 0xffff000000000000ull, "the key is the request's kernel address");
            }
        }

        Recording issued;
        QVERIFY2(record(
                     blockPair({{QStringLiteral("pid"), qint64(getpid())},
                                {QStringLiteral("thresholdUs"), qint64(0)}}),
                     [&] { return directWrites(path, N); }, &issued, &error),
                 qPrintable(error));
        QCOMPARE(issued.attachPath,
                 QStringLiteral("raw_tp/block_rq_issue, raw_tp/block_rq_complete"));
        qInfo() << issued.histogram.count() << "of" << N << "requests issued by the writer";
        QVERIFY(issued.histogram.count() <= quint64(N) * 3 / 2);
        QVERIFY(issued.histogram.count() >= quint64(N) / 2);
        QCOMPARE(quint64(issued.batch.tpPair.size()), issued.histogram.count());
        for (const TpPairEvent &e : std::as_const(issued.batch.tpPair))
            QCOMPARE(e.pid, quint32(getpid()));
    }

    // The request's start sector as the key on both sides, unfiltered (so every request counts,
    // whoever issues it): every written block's sector is among the keys. On a loop device of
    // the test's own the sectors are offset / 512 and no other task's request can absorb one of
    // the writes: on the root disk CI once saw one sector missing, its write merged into another
    // task's queued request next to it (see blockRequestsPairedByPointer). Where no loop device
    // can be set up, the blocks of a file on the root disk, as its file system placed them.
    void fieldKeyPairsBySector()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        constexpr int N = 16;
        QString why;
        const QString loop =
            attachLoopDevice(m_dir->filePath(QStringLiteral("loop.img")), N * blockSize, &why);
        const auto detach = qScopeGuard([&] {
            if (!loop.isEmpty())
                QProcess::execute(QStringLiteral("losetup"), {QStringLiteral("-d"), loop});
        });
        QString path = loop;
        QList<quint64> sectors;
        if (!loop.isEmpty()) {
            for (int i = 0; i < N; ++i)
                sectors.append(quint64(i) * blockSize / 512);
        } else {
            qInfo().noquote()
                << QStringLiteral("no loop device (%1): a file on the root disk").arg(why);
            path = m_dir->filePath(QStringLiteral("sectors.bin"));
            QVERIFY(directWrites(path, N));
            sectors = blockSectors(path, N);
        }
        QCOMPARE(sectors.size(), N);
        Recording r;
        QString error;
        QVERIFY2(record(
                     blockPair({{QStringLiteral("key"), QStringLiteral("arg0.__sector")},
                                {QStringLiteral("thresholdUs"), qint64(0)}}),
                     [&] { return directWrites(path, N); }, &r, &error),
                 qPrintable(error));
        QHash<quint64, TpPairEvent> byKey;
        for (const TpPairEvent &e : std::as_const(r.batch.tpPair))
            byKey.insert(e.key, e);
        int issuedByOthers = 0;
        for (quint64 sector : sectors) {
            QVERIFY2(byKey.contains(sector), qPrintable(QString::number(sector)));
            issuedByOthers += byKey.value(sector).pid != quint32(getpid());
        }
        qInfo() << issuedByOthers << "of" << N << "issued by another task";
        QVERIFY(r.histogram.count() >= quint64(N));
        QCOMPARE(r.histogram.count(), quint64(r.batch.tpPair.size()));
    }

    // A key path through a NULL pointer pairs nothing and says so.
    void unreadableKeysAreCounted()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        REQUIRE_EXT4_TRACEPOINTS();
        constexpr int N = 10;
        const QByteArray path = m_dir->filePath(QStringLiteral("owner")).toLocal8Bit();
        Recording r;
        QString error;
        // No F_SETOWN: the file has no fown_struct (6.12+: f_owner is a NULL pointer), or an
        // embedded one whose pid pointer is NULL (older kernels): .level is behind NULL on both.
        QVERIFY2(record(
                     fsyncPair({{QStringLiteral("key"), QStringLiteral("arg0.f_owner.pid.level")},
                                {QStringLiteral("endKey"), QStringLiteral("tid")}}),
                     [&] { return fsyncs(path.constData(), N, false); }, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.histogram.count(), 0u);
        QCOMPARE(r.unreadable, double(N));
    }

    // Detached, the probe sees no more pairs, yet the final drain and snapshot still deliver
    // every pair recorded before.
    void detachKeepsWhatWasRecorded()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        REQUIRE_EXT4_TRACEPOINTS();
        constexpr int N = 5;
        const QByteArray path = m_dir->filePath(QStringLiteral("detach")).toLocal8Bit();
        KernelFeatures kernel;
        TpPairProbe probe;
        QVariantMap options;
        QString error;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("tppair"),
                                       fsyncPair({{QStringLiteral("thresholdUs"), qint64(0)}}),
                                       &options, &error));
        QVERIFY2(probe.start(options, kernel, &error), qPrintable(error));
        QVERIFY(fsyncs(path.constData(), N, false));
        probe.detach();
        QVERIFY(!probe.isAttached());
        // No link or perf event of ours is left; the programs and maps stay for the drain.
        for (const QString &held : test::ownBpfObjects(ourPrograms))
            QVERIFY2(!held.contains(QLatin1String("link of prog")) &&
                         !held.contains(QLatin1String("perf event")),
                     qPrintable(held));
        QVERIFY(fsyncs(path.constData(), N, false)); // not seen
        RecordBatch b;
        probe.drain(b);
        probe.snapshot(Engine::monotonicNowNs(), b);
        probe.stop();
        QCOMPARE(b.tpPair.size(), N);
        QCOMPARE(b.histograms.size(), 1);
        QCOMPARE(b.histograms[0].histogram.count(), quint64(N));
    }

    void nothingStaysAttached()
    {
        BPFLENS_REQUIRE_ROOT("loads the tppair probe");
        REQUIRE_EXT4_TRACEPOINTS();
        const QByteArray path = m_dir->filePath(QStringLiteral("attached")).toLocal8Bit();
        Recording r;
        QString error;
        QVERIFY2(record(
                     fsyncPair({}), [&] { return fsyncs(path.constData(), 1, false); }, &r, &error),
                 qPrintable(error));
        QCOMPARE(test::ownBpfObjects({}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestTpPair)
#include "tst_tppair.moc"
