#include "core/csvexport.h"
#include "tests/core/sessiontestdata.h"
#include "tests/csvreader.h"

#include <QDir>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

SessionData makeSession()
{
    SessionData s;
    s.info = makeInfo();
    for (quint32 b = 0; b < 3; ++b) {
        const RecordBatch batch = makeBatch(s.info.startMonotonicNs, b, 40);
        for (const auto &e : batch.exec)
            s.events.append(e);
        for (const auto &e : batch.open)
            s.events.append(e);
        for (const auto &e : batch.block)
            s.events.append(e);
        for (const auto &e : batch.tcpConnect)
            s.events.append(e);
        for (const auto &e : batch.fsSlow)
            s.events.append(e);
        s.histograms += batch.histograms;
        s.stats += batch.stats;
        s.counters += batch.counters;
    }
    return s;
}

} // namespace

// POSIX shell word splitting of what formatArgv writes: spaces between words, '...' quoting,
// and a backslash outside quotes taking the next character as it is.
QList<QByteArray> shellSplit(const QByteArray &line)
{
    QList<QByteArray> words;
    QByteArray word;
    bool inWord = false, quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line.at(i);
        if (quoted) {
            if (c == '\'')
                quoted = false;
            else
                word += c;
        } else if (c == ' ') {
            if (inWord)
                words.append(word);
            word.clear();
            inWord = false;
        } else if (c == '\'') {
            quoted = inWord = true;
        } else if (c == '\\' && i + 1 < line.size()) {
            word += line.at(++i);
            inWord = true;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words.append(word);
    return words;
}

class TestCsvExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The argv column as a shell reads it: bare words bare, the rest in '...'.
    void argvIsQuotedAsAShellWould()
    {
        QCOMPARE(formatArgv({"ls", "-l", "My Documents", "it's", "", "a=b,c:d/e.f@g%h+i_j-k"}),
                 QByteArray("ls -l 'My Documents' 'it'\\''s' '' a=b,c:d/e.f@g%h+i_j-k"));
        QCOMPARE(formatArgv({"$HOME", "*", "x\ny", QByteArray("\xff", 1)}),
                 QByteArray("'$HOME' '*' 'x\ny' '\\xFF'"));
        QCOMPARE(formatArgv({}), QByteArray());
        const QList<QByteArray> hostile{"a b", "'", "\\", "", "\"q\"", "\t"};
        QList<QByteArray> back;
        for (const QByteArray &w : shellSplit(formatArgv(hostile)))
            back.append(CsvExport::unescapeBytes(w));
        QCOMPARE(back, hostile);
    }

    void escapingIsReversible()
    {
        QCOMPARE(CsvExport::escapeBytes("a\\b"), QByteArrayLiteral("a\\\\b"));
        QCOMPARE(CsvExport::escapeBytes("caf\xc3\xa9"), QByteArrayLiteral("caf\xc3\xa9"));
        QCOMPARE(CsvExport::escapeBytes("\xe9t\xe9"), QByteArrayLiteral("\\xE9t\\xE9"));
        QCOMPARE(CsvExport::escapeBytes("\xc0\x80"), QByteArrayLiteral("\\xC0\\x80"));
        QCOMPARE(CsvExport::escapeBytes("\xed\xa0\x80"), QByteArrayLiteral("\\xED\\xA0\\x80"));
        QCOMPARE(CsvExport::escapeBytes("\xf0\x9f\x98\x80"), QByteArrayLiteral("\xf0\x9f\x98\x80"));
        QCOMPARE(CsvExport::escapeBytes("\xe2\x82"), QByteArrayLiteral("\\xE2\\x82"));
        QCOMPARE(CsvExport::quoteField("a,\"b\"\r\n"), QByteArrayLiteral("\"a,\"\"b\"\"\r\n\""));
        QCOMPARE(CsvExport::quoteField("plain"), QByteArrayLiteral("plain"));
        for (quint32 n = 0; n < 64; ++n) {
            const QByteArray p = hostilePath(n);
            QCOMPARE(CsvExport::unescapeBytes(CsvExport::escapeBytes(p)), p);
            QVERIFY(QString::fromUtf8(CsvExport::escapeBytes(p)).toUtf8() ==
                    CsvExport::escapeBytes(p));
        }
        // Every byte value, alone and after a lead byte.
        for (int b = 0; b < 256; ++b) {
            const QByteArray p = QByteArray(1, char(b)) + "\xc3" + char(b);
            QCOMPARE(CsvExport::unescapeBytes(CsvExport::escapeBytes(p)), p);
        }
    }

    void hostileFieldsParseBack()
    {
        QTemporaryDir dir;
        const SessionData s = makeSession();
        QString error;
        const QStringList files = CsvExport::exportSession(s, dir.path(), {}, &error);
        QVERIFY2(!files.isEmpty(), qPrintable(error));
        QStringList names;
        for (const QString &f : files)
            names.append(QFileInfo(f).fileName());
        QCOMPARE(names,
                 (QStringList{QStringLiteral("exec.csv"), QStringLiteral("open.csv"),
                              QStringLiteral("block.csv"), QStringLiteral("tcpconnect.csv"),
                              QStringLiteral("fsslower.csv"), QStringLiteral("histograms.csv"),
                              QStringLiteral("stats.csv"), QStringLiteral("counters.csv")}));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 8); // no temporary files left

        const auto open = readCsv(dir.filePath(QStringLiteral("open.csv")));
        QCOMPARE(open.size(), 1 + 120);
        QCOMPARE(open[0], (QList<QByteArray>{"time_s", "time", "pid", "tid", "uid", "comm", "flags",
                                             "mode", "ret", "path", "cgroup_id"}));
        for (qsizetype i = 0; i < 120; ++i) {
            const OpenEvent e = s.events.open(i);
            const auto &row = open[i + 1];
            QCOMPARE(row.size(), 11);
            QCOMPARE(CsvExport::unescapeBytes(row[9]), e.path);
            QCOMPARE(CsvExport::unescapeBytes(row[5]), e.comm);
            QCOMPARE(row[2].toUInt(), e.pid);
            QCOMPARE(row[8].toInt(), e.ret);
        }
        // Batch 0 starts at the session start; the second event is 1 us later.
        QCOMPARE(open[1][0], QByteArrayLiteral("0.000000000"));
        QCOMPARE(open[1][1], QByteArrayLiteral("2024-02-29T23:59:59.250000Z"));
        QCOMPARE(open[2][0], QByteArrayLiteral("0.000001000"));
        QCOMPARE(open[2][1], QByteArrayLiteral("2024-02-29T23:59:59.250001Z"));
        QCOMPARE(open[41][0], QByteArrayLiteral("1.000000000"));
        QCOMPARE(open[41][1], QByteArrayLiteral("2024-03-01T00:00:00.250000Z"));

        const auto exec = readCsv(dir.filePath(QStringLiteral("exec.csv")));
        QCOMPARE(exec.size(), 121);
        for (qsizetype i = 0; i < 120; ++i) {
            const ExecEvent e = s.events.exec(i);
            // As a shell splits the line: the quoting is reversible, an empty argument too.
            QList<QByteArray> argv;
            for (const QByteArray &a : shellSplit(exec[i + 1][8]))
                argv.append(CsvExport::unescapeBytes(a));
            QCOMPARE(argv, e.argv);
            QCOMPARE(exec[i + 1][9], e.argvTruncated ? QByteArray("1") : QByteArray("0"));
        }

        const auto tcp = readCsv(dir.filePath(QStringLiteral("tcpconnect.csv")));
        QCOMPARE(tcp[1][6], QByteArrayLiteral("3:609::181b:1e21:2427:2a2d")); // n = 0, v6
        QCOMPARE(tcp[2][6], QByteArrayLiteral("1.4.7.10"));
        QCOMPARE(tcp[2][8], QByteArrayLiteral("255.254.253.252"));

        const auto hist = readCsv(dir.filePath(QStringLiteral("histograms.csv")));
        QCOMPARE(hist[0], (QList<QByteArray>{"probe_id", "key", "time_s", "time", "interval_s",
                                             "unit", "slot", "low", "high", "count", "sum"}));
        qsizetype expectedRows = 0;
        for (const HistogramSnapshot &h : s.histograms)
            expectedRows += std::max(1, h.histogram.usedSlots());
        QCOMPARE(hist.size(), 1 + expectedRows);
        // makeHistogram(n = 1): block/vda, usecs, slot 0 = 1.
        QCOMPARE(hist[2],
                 (QList<QByteArray>{"block", "vda", "0.999000000", "2024-03-01T00:00:00.249000Z",
                                    "1.000000000", "usecs", "0", "0", "1", "1", "12345"}));
        const auto stats = readCsv(dir.filePath(QStringLiteral("stats.csv")));
        QCOMPARE(stats.size(), 1 + s.stats.size());
        QCOMPARE(stats[1][6], QByteArray::number(~quint64(0)));
        // Each cause of a missing event in a column of its own.
        QCOMPARE(stats[0],
                 (QList<QByteArray>{"probe_id", "time_s", "time", "events_seen", "events_lost",
                                    "run_count", "run_time_ns", "events_unseen", "unfinished"}));
        QCOMPARE(stats[1][4], QByteArray::number(s.stats[0].eventsLost));
        QCOMPARE(stats[1][7], QByteArray::number(s.stats[0].eventsUnseen));
        QCOMPARE(stats[1][8], QByteArray::number(s.stats[0].unfinished));

        const auto counters = readCsv(dir.filePath(QStringLiteral("counters.csv")));
        QCOMPARE(counters.size(), 1 + s.counters.size());
        QCOMPARE(counters[0],
                 (QList<QByteArray>{"time_s", "time", "probe_id", "name", "interval_s", "value"}));
        // makeCounter(n = 0): end of batch 0, 1 s interval, 0 accesses.
        QCOMPARE(counters[1], (QList<QByteArray>{"0.999000000", "2024-03-01T00:00:00.249000Z",
                                                 "cachestat", "accesses", "1.000000000", "0"}));
        QCOMPARE(counters[2][4], QByteArrayLiteral("1.000000001"));
        QCOMPARE(counters[2][5], QByteArrayLiteral("0.25"));   // 1 / 4
        QCOMPARE(counters[4][5], QByteArrayLiteral("2e-323")); // 4 x the smallest subnormal
        QCOMPARE(counters[5][5], QByteArrayLiteral("-4.5"));
        QCOMPARE(counters[6][5], QByteArrayLiteral("5000")); // an integer, not 5e+03
        QCOMPARE(counters[7][2], QByteArrayLiteral("block"));
        for (qsizetype i = 0; i < s.counters.size(); ++i) {
            const CounterSample &c = s.counters[i];
            const auto &row = counters[i + 1];
            QCOMPARE(row.size(), 6);
            QCOMPARE(QString::fromUtf8(row[2]), c.probeId);
            QCOMPARE(QString::fromUtf8(row[3]), c.name);
            // The text reads back as exactly the recorded double.
            bool ok = false;
            const double v = row[5].toDouble(&ok);
            QVERIFY2(ok && v == c.value, row[5].constData());
        }
    }

    void countersCsvSpecialValues()
    {
        // No traffic gives no ratio (NaN): an empty cell, not "nan" that tools misread.
        SessionData s;
        s.info = makeInfo();
        const double values[] = {std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 1e6,
                                 -0.0,
                                 9007199254740992.0, // 2^53: past the exact integers, shortest form
                                 2.0 / 3.0,
                                 std::numeric_limits<double>::denorm_min()};
        for (double v : values) {
            CounterSample c;
            c.probeId = QStringLiteral("cachestat");
            c.name = QStringLiteral("hit,\"ratio\"");
            c.timeNs = s.info.startMonotonicNs - 1500;
            c.intervalNs = 0;
            c.value = v;
            s.counters.append(c);
        }
        s.info.startWall = QDateTime();
        QTemporaryDir dir;
        QString error;
        QVERIFY2(!CsvExport::exportSession(s, dir.path(), {}, &error).isEmpty(), qPrintable(error));
        QFile f(dir.filePath(QStringLiteral("counters.csv")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.startsWith("time_s,time,probe_id,name,interval_s,value\r\n"));
        bool ok = false;
        const auto rows = parseCsv(text, &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), 1 + 8);
        QCOMPARE(rows[1], (QList<QByteArray>{"-0.000001500", "", "cachestat", "hit,\"ratio\"",
                                             "0.000000000", ""}));
        QList<QByteArray> got;
        for (const auto &row : rows.mid(1))
            got.append(row[5]);
        QCOMPARE(got, (QList<QByteArray>{"", "inf", "-inf", "1000000", "0", "9007199254740992",
                                         "0.6666666666666666", "5e-324"}));
    }

    void filtersByTimeAndProbe()
    {
        QTemporaryDir dir;
        const SessionData s = makeSession();
        CsvExportOptions o;
        o.startNs = s.info.startMonotonicNs + 1000000000ull; // batch 1 only
        o.endNs = s.info.startMonotonicNs + 2000000000ull;
        QString error;
        QStringList files = CsvExport::exportSession(s, dir.path(), o, &error);
        QCOMPARE(files.size(), 8);
        QCOMPARE(readCsv(dir.filePath(QStringLiteral("block.csv"))).size(), 1 + 40);
        QCOMPARE(readCsv(dir.filePath(QStringLiteral("stats.csv"))).size(), 1 + 4);
        const auto counters = readCsv(dir.filePath(QStringLiteral("counters.csv")));
        QCOMPARE(counters.size(), 1 + 7);
        for (const auto &row : counters.mid(1))
            QCOMPARE(row[0], QByteArrayLiteral("1.999000000"));
        const auto block = readCsv(dir.filePath(QStringLiteral("block.csv")));
        QCOMPARE(block[1][0], QByteArrayLiteral("1.000000000"));
        QCOMPARE(block[40][0], QByteArrayLiteral("1.000039000"));

        QTemporaryDir probeDir;
        o = {};
        o.probeId = QStringLiteral("block");
        files = CsvExport::exportSession(s, probeDir.path(), o, &error);
        QStringList names;
        for (const QString &f : files)
            names.append(QFileInfo(f).fileName());
        QCOMPARE(names, (QStringList{QStringLiteral("block.csv"), QStringLiteral("histograms.csv"),
                                     QStringLiteral("stats.csv"), QStringLiteral("counters.csv")}));
        for (const auto &row : readCsv(probeDir.filePath(QStringLiteral("histograms.csv"))).mid(1))
            QCOMPARE(row[0], QByteArrayLiteral("block"));
        QCOMPARE(readCsv(probeDir.filePath(QStringLiteral("stats.csv"))).size(), 1); // header
        const auto blockCounters = readCsv(probeDir.filePath(QStringLiteral("counters.csv")));
        QCOMPARE(blockCounters.size(), 1 + 3); // "inflight", once per batch
        for (const auto &row : blockCounters.mid(1))
            QCOMPARE(row[2], QByteArrayLiteral("block"));

        QTemporaryDir cacheDir;
        o = {};
        o.probeId = QStringLiteral("cachestat");
        files = CsvExport::exportSession(s, cacheDir.path(), o, &error);
        QCOMPARE(files.size(), 3); // no event file: cachestat produces none
        const auto cacheCounters = readCsv(cacheDir.filePath(QStringLiteral("counters.csv")));
        QCOMPARE(cacheCounters.size(), 1 + 3 * 6);
        for (const auto &row : cacheCounters.mid(1))
            QCOMPARE(row[2], QByteArrayLiteral("cachestat"));

        QTemporaryDir typeDir;
        o = {};
        o.eventType = EventType::FsSlow;
        files = CsvExport::exportSession(s, typeDir.path(), o, &error);
        QCOMPARE(files, QStringList{typeDir.filePath(QStringLiteral("fsslower.csv"))});
    }

    void refusesUnwritableDirectory()
    {
        QTemporaryDir dir;
        const SessionData s = makeSession();
        QString error;
        // A path through a regular file cannot be created, even by root.
        const QString file = dir.filePath(QStringLiteral("file"));
        QVERIFY(QFile(file).open(QIODevice::WriteOnly));
        QVERIFY(CsvExport::exportSession(s, file + QStringLiteral("/out"), {}, &error).isEmpty());
        QVERIFY2(error.startsWith(QStringLiteral("cannot export to")), qPrintable(error));

        // A read-only directory, tried as nobody so that root's override does not apply.
        const QString ro = dir.filePath(QStringLiteral("ro"));
        QVERIFY(QDir().mkpath(ro));
        chmod(QFile::encodeName(dir.path()).constData(), 0755);
        chmod(QFile::encodeName(ro).constData(), 0555);
        int fds[2];
        QVERIFY(pipe(fds) == 0);
        const pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
                _exit(2);
            QString e;
            const bool wrote = !CsvExport::exportSession(s, ro, {}, &e).isEmpty();
            const QByteArray out = wrote ? QByteArrayLiteral("wrote") : e.toUtf8();
            _exit(write(fds[1], out.constData(), size_t(out.size())) < 0 ? 3 : 0);
        }
        close(fds[1]);
        QByteArray out;
        char buf[1024];
        ssize_t n;
        while ((n = read(fds[0], buf, sizeof buf)) > 0)
            out.append(buf, n);
        close(fds[0]);
        waitpid(pid, nullptr, 0);
        QCOMPARE(QString::fromUtf8(out),
                 QStringLiteral("cannot export to %1: the directory is not writable").arg(ro));
        QVERIFY(QDir(ro).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }
    void exportsTpPairEvents()
    {
        QTemporaryDir dir;
        SessionData s;
        s.info = makeInfo();
        const quint64 t0 = s.info.startMonotonicNs;
        for (quint32 n = 0; n < 6; ++n)
            s.events.append(makeTpPair(t0 + 1000 * n + 1, n));
        QString error;
        const QStringList files = CsvExport::exportSession(s, dir.path(), {}, &error);
        QVERIFY2(files.contains(dir.filePath(QStringLiteral("tppair.csv"))), qPrintable(error));
        const auto rows = readCsv(dir.filePath(QStringLiteral("tppair.csv")));
        QCOMPARE(rows.size(), 1 + 6);
        QCOMPARE(rows.at(0), (QList<QByteArray>{"time_s", "time", "pid", "tid", "comm", "key",
                                                "latency_ns", "cgroup_id"}));
        const TpPairEvent e = makeTpPair(t0 + 1000 * 5 + 1, 5);
        QCOMPARE(rows.at(6).at(2), QByteArray::number(e.pid));
        QCOMPARE(rows.at(6).at(3), QByteArray::number(e.tid));
        QCOMPARE(CsvExport::unescapeBytes(rows.at(6).at(4)), e.comm);
        QCOMPARE(rows.at(6).at(5), QByteArray::number(e.key));
        QCOMPARE(rows.at(6).at(6), QByteArray::number(e.latencyNs)); // beyond 2^63, unsigned
        QCOMPARE(CsvExport::probeIdFor(EventType::TpPair), QStringLiteral("tppair"));

        // The probe filter selects it like any other event type.
        QTemporaryDir probeDir;
        CsvExportOptions only;
        only.probeId = QStringLiteral("tppair");
        const QStringList probeFiles = CsvExport::exportSession(s, probeDir.path(), only, &error);
        QVERIFY(probeFiles.contains(probeDir.filePath(QStringLiteral("tppair.csv"))));
    }

    void exportsSamplesAndTheirStacks()
    {
        QTemporaryDir dir;
        SessionData s;
        s.info = makeInfo();
        StackTable &t = s.stacks;
        QString error;
        const auto frame = [&](quint32 id, StackFrame f) {
            QVERIFY(t.add(FrameDefinition{id, f}, &error));
        };
        frame(1, {FrameKind::Kernel, 0xffffffff81a00010ull, "vmlinux", "", "do_syscall_64"});
        frame(2, {FrameKind::User, 0x2a40, "/opt/a b/app", "0a1b", "f(int; \"x\", char)"});
        frame(3, {FrameKind::User, 0x7f00dead0, "", "", ""});
        frame(4, {FrameKind::User, 0x1234, "/tmp/lib\xe9.so", "", "back\\slash"});
        QVERIFY(t.add(StackDefinition{1, 0, {1, 2, 3}}, &error));
        QVERIFY(t.add(StackDefinition{2, KernelStackTruncated | NoUserStack | 0x30, {1}}, &error));
        QVERIFY(t.add(StackDefinition{3, UserStackTruncated | UserFramePointers, {4, 4}}, &error));
        QVERIFY(t.add(StackDefinition{4, 0, {}}, &error));
        CpuSampleEvent sample;
        sample.timeNs = s.info.startMonotonicNs + 1500;
        sample.cpu = 3;
        sample.pid = sample.tid = 42;
        sample.stackId = 3;
        sample.comm = "app";
        s.events.append(sample);

        const QStringList files = CsvExport::exportSession(s, dir.path(), {}, &error);
        QVERIFY2(files.contains(dir.filePath(QStringLiteral("stacks.csv"))), qPrintable(error));
        QFile stacks(dir.filePath(QStringLiteral("stacks.csv")));
        QVERIFY(stacks.open(QIODevice::ReadOnly));
        QCOMPARE(
            stacks.readAll(),
            QByteArray("stack_id,flags,depth,frame_ids,frames\r\n"
                       "1,,3,3;2;1,\"[unknown] 0x7f00dead0;f(int\\x3B \"\"x\"\", "
                       "char);do_syscall_64\"\r\n"
                       "2,kernel_truncated no_user_stack 0x30,1,1,do_syscall_64\r\n"
                       "3,user_truncated user_frame_pointers,2,4;4,back\\\\slash;back\\\\slash\r\n"
                       "4,,0,,\r\n"));
        QFile frames(dir.filePath(QStringLiteral("stack_frames.csv")));
        QVERIFY(frames.open(QIODevice::ReadOnly));
        QCOMPARE(frames.readAll(),
                 QByteArray("frame_id,kind,module,build_id,address,symbol,file,line,inlined\r\n"
                            "1,kernel,vmlinux,,0xffffffff81a00010,do_syscall_64,,,0\r\n"
                            "2,user,/opt/a b/app,0a1b,0x2a40,\"f(int; \"\"x\"\", char)\",,,0\r\n"
                            "3,user,,,0x7f00dead0,,,,0\r\n"
                            "4,user,/tmp/lib\\xE9.so,,0x1234,back\\\\slash,,,0\r\n"));
        const auto rows = readCsv(dir.filePath(QStringLiteral("profile.csv")));
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(0), (QList<QByteArray>{"time_s", "time", "cpu", "pid", "tid", "comm",
                                                "stack_id", "cgroup_id"}));
        QCOMPARE(rows.at(1).at(6), QByteArray("3"));

        // Exports that leave the samples out leave their stacks out.
        QTemporaryDir otherDir;
        CsvExportOptions open;
        open.probeId = QStringLiteral("open");
        QVERIFY(CsvExport::exportSession(s, otherDir.path(), open, &error).size() == 3);
        QVERIFY(!QFile::exists(otherDir.filePath(QStringLiteral("stacks.csv"))));
    }

    void schema1And2ExportIdentically()
    {
        // The same recording written in both schemas must export to the same bytes: the file
        // format is an implementation detail users never see in their CSV.
        QTemporaryDir dir;
        QMap<int, QString> exports;
        for (int schema : {1, 2}) {
            const QString path = dir.filePath(QStringLiteral("s%1.bpflens").arg(schema));
            SessionWriter writer;
            writer.setSchemaVersion(schema);
            QString error;
            QVERIFY2(writer.create(path, makeInfo(), &error), qPrintable(error));
            for (quint32 b = 0; b < 4; ++b) {
                RecordBatch batch = makeBatch(makeInfo().startMonotonicNs, b, 300);
                std::reverse(batch.open.begin(), batch.open.end()); // out of order too
                QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
            }
            QVERIFY(writer.finish(makeInfo().startMonotonicNs + 10000000000ull, &error));
            SessionData data;
            QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
            QCOMPARE(data.info.schemaVersion, schema);
            const QString out = dir.filePath(QStringLiteral("csv%1").arg(schema));
            QVERIFY(QDir().mkpath(out));
            QVERIFY2(!CsvExport::exportSession(data, out, {}, &error).isEmpty(), qPrintable(error));
            exports.insert(schema, out);
        }
        const QStringList names = QDir(exports[1]).entryList(QDir::Files, QDir::Name);
        QCOMPARE(names, QDir(exports[2]).entryList(QDir::Files, QDir::Name));
        QCOMPARE(names.size(), 8);
        for (const QString &name : names) {
            QFile a(QDir(exports[1]).filePath(name)), b(QDir(exports[2]).filePath(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            const QByteArray bytesA = a.readAll();
            QVERIFY2(bytesA.size() > 100, qPrintable(name));
            QVERIFY2(bytesA == b.readAll(), qPrintable(name + QStringLiteral(" differs")));
        }
    }
};

QTEST_GUILESS_MAIN(TestCsvExport)
#include "tst_csvexport.moc"
