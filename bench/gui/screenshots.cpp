// Renders the README/AppStream screenshots (docs/screenshots/) from a synthetic but plausible
// 20-second session: a build job's execs and opens, block I/O on two disks with
// biolatency-style histograms, and an iostack breakdown. Usage: bpflens_screenshots OUTDIR
#include "core/sessionstore.h"
#include "gui/histogramview.h"
#include "gui/iostackview.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/profilepage.h"
#include "gui/resultspage.h"
#include "gui/translations.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QRandomGenerator>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <cmath>

using namespace bpflens;

namespace {

constexpr quint64 Start = 5'000'000'000'000ull;
constexpr quint64 Second = 1'000'000'000ull;
constexpr int Seconds = 20;

SessionData makeSession()
{
    QRandomGenerator rng(42);
    SessionData d;
    d.info.schemaVersion = 1;
    d.info.appVersion = QStringLiteral("0.1.0");
    d.info.host = QStringLiteral("buildbox");
    d.info.kernelRelease = QStringLiteral("6.18.0-1-amd64");
    d.info.startWall = QDateTime(QDate(2024, 3, 1), QTime(9, 30, 0), Qt::UTC);
    d.info.startMonotonicNs = Start;
    d.info.endMonotonicNs = Start + Seconds * Second;
    d.info.probes = {{QStringLiteral("exec"), {}, QStringLiteral("tp_btf/sched_process_exec")},
                     {QStringLiteral("open"), {}, QStringLiteral("tp/syscalls/sys_enter_openat")},
                     {QStringLiteral("block"), {}, QStringLiteral("tp_btf/block_rq_complete")},
                     {QStringLiteral("iostack"), {}, QStringLiteral("tp_btf/sys_enter")}};
    const QList<QByteArray> tools = {"cc1plus", "ld", "as", "make", "ninja", "git"};
    const QList<QByteArray> files = {"/usr/include/c++/12/vector",
                                     "/usr/include/stdio.h",
                                     "/home/dev/src/engine.cpp",
                                     "/home/dev/build/engine.o",
                                     "/usr/lib/x86_64-linux-gnu/libQt6Core.so.6",
                                     "/etc/ld.so.cache",
                                     "/home/dev/src/main.cpp"};
    for (int s = 0; s < Seconds; ++s) {
        // A build that speeds up in the middle: more work between 6 s and 14 s.
        const double load = 0.5 + 0.5 * std::sin(double(s) / Seconds * 3.14159);
        const int execs = int(6 + 20 * load), opens = int(150 + 600 * load),
                  blocks = int(40 + 160 * load);
        for (int i = 0; i < execs; ++i) {
            ExecEvent e;
            e.timeNs = Start + quint64(s) * Second + rng.bounded(Second);
            e.pid = 20000 + quint32(s * 40 + i);
            e.ppid = 19990;
            e.comm = tools[int(rng.bounded(tools.size()))];
            e.filename = "/usr/bin/" + e.comm;
            e.argv = {e.comm, "-O2", "-c", files[2]};
            d.events.append(e);
        }
        for (int i = 0; i < opens; ++i) {
            OpenEvent e;
            e.timeNs = Start + quint64(s) * Second + rng.bounded(Second);
            e.pid = 20000 + quint32(rng.bounded(800));
            e.tid = e.pid;
            e.comm = tools[int(rng.bounded(tools.size()))];
            e.path = files[int(rng.bounded(files.size()))];
            e.ret = rng.bounded(20) ? 3 + int(rng.bounded(30)) : -2;
            d.events.append(e);
        }
        Log2Histogram h[2] = {Log2Histogram(HistogramUnit::Microseconds),
                              Log2Histogram(HistogramUnit::Microseconds)};
        for (int i = 0; i < blocks; ++i) {
            BlockEvent e;
            e.timeNs = Start + quint64(s) * Second + rng.bounded(Second);
            const int disk = rng.bounded(3) ? 0 : 1;
            e.disk = disk ? "nvme0n1" : "vda";
            e.dev = disk ? (259u << 20) : (253u << 20);
            const bool write = rng.bounded(3) == 0;
            e.op = write ? "Write" : "Read";
            e.cmdFlags = write ? 1 : 0;
            e.bytes = 4096u << rng.bounded(5);
            e.sector = rng.bounded(1u << 30);
            e.comm = write ? QByteArray("kworker/u8:2") : tools[int(rng.bounded(tools.size()))];
            e.pid = 20000 + quint32(rng.bounded(800));
            e.queueNs = 2000 + rng.bounded(40000);
            // Log-normal-ish device times: most 100-800 µs, a tail into milliseconds.
            const double us = std::exp(5.3 + 0.9 *
                                                 (rng.generateDouble() + rng.generateDouble() +
                                                  rng.generateDouble() - 1.5) *
                                                 1.6) *
                              (disk ? 0.4 : 1.0);
            e.deviceNs = quint64(us * 1000);
            h[disk].add(e.deviceNs / 1000);
            d.events.append(e);
        }
        for (int disk = 0; disk < 2; ++disk) {
            HistogramSnapshot snap;
            snap.probeId = QStringLiteral("block");
            snap.key = disk ? QStringLiteral("nvme0n1") : QStringLiteral("vda");
            snap.timeNs = Start + quint64(s + 1) * Second;
            snap.intervalNs = Second;
            snap.histogram = h[disk];
            d.histograms << snap;
        }
        const quint64 t = Start + quint64(s + 1) * Second;
        auto counter = [&](const char *op, const char *layer, const char *metric, double v) {
            d.counters << CounterSample{
                QStringLiteral("iostack"), t, Second,
                QStringLiteral("%1/%2/%3")
                    .arg(QLatin1String(op), QLatin1String(layer), QLatin1String(metric)),
                v};
        };
        const double jitter = 0.8 + 0.4 * rng.generateDouble();
        counter("read", "syscall", "exclusive_ns", 9e6 * load * jitter);
        counter("read", "block-device", "exclusive_ns", 38e6 * load * jitter);
        counter("read", "syscall", "count", 4000 * load);
        counter("write", "syscall", "exclusive_ns", 14e6 * load * jitter);
        counter("write", "block-device", "exclusive_ns", 6e6 * load);
        counter("open", "syscall", "exclusive_ns", 11e6 * load * jitter);
        counter("fsync", "syscall", "exclusive_ns", 4e6 * jitter);
        counter("fsync", "fs", "exclusive_ns", 22e6 * jitter);
        counter("fsync", "block-device", "exclusive_ns", 41e6 * jitter);
        counter("unattributed", "block-device", "total_ns", 25e6 * load);
        for (const char *probe : {"exec", "open", "block", "iostack"}) {
            ProbeStats st;
            st.probeId = QString::fromLatin1(probe);
            st.timeNs = t;
            st.eventsSeen = quint64(s + 1) * 500;
            st.runTimeNs = quint64(s + 1) * 3'000'000;
            d.stats << st;
        }
    }
    return d;
}

// A build machine's CPU profile: the compiler parsing and optimising (with page faults and
// file reads in the kernel), a Python service that wakes up between 8 s and 12 s, a kernel
// writeback worker, some compiler stacks the unwinder could not finish; off-CPU: the service
// waiting in poll, the compiler in reads and the linker on a futex.
SessionData makeProfileSession()
{
    QRandomGenerator rng(13);
    SessionData d;
    d.info.schemaVersion = 1;
    d.info.appVersion = QStringLiteral("0.1.0");
    d.info.host = QStringLiteral("buildbox");
    d.info.kernelRelease = QStringLiteral("6.18.0-1-amd64");
    d.info.startWall = QDateTime(QDate(2024, 3, 1), QTime(9, 30, 0), Qt::UTC);
    d.info.startMonotonicNs = Start;
    d.info.endMonotonicNs = Start + Seconds * Second;
    d.info.probes = {{QStringLiteral("profile"), {}, QStringLiteral("perf_event/cpu-clock")},
                     {QStringLiteral("offcpu"), {}, QStringLiteral("tp_btf/sched_switch")},
                     {QStringLiteral("exec"), {}, QStringLiteral("tp_btf/sched_process_exec")}};
    const QByteArray cc1 = "/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus";
    const QByteArray libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
    const QByteArray py = "/usr/bin/python3.11";
    QHash<QByteArray, quint32> ids;
    QString error;
    auto frame = [&](const QByteArray &name) {
        auto it = ids.constFind(name);
        if (it != ids.constEnd())
            return *it;
        StackFrame f;
        const bool kernel = name.startsWith("k:");
        f.kind = kernel ? FrameKind::Kernel : FrameKind::User;
        f.symbol = kernel ? name.mid(2) : name;
        f.module = kernel ? QByteArray("vmlinux")
                   : name.startsWith("Py") || name.startsWith("_Py") || name.contains("json") ? py
                   : name == "malloc" || name == "read" || name == "poll" ||
                           name == "_int_malloc" || name == "__libc_start_call_main" ||
                           name == "memcpy"
                       ? libc
                       : cc1;
        f.address = 0x1000 + quint64(ids.size()) * 0x40;
        const quint32 id = quint32(ids.size() + 1);
        d.stacks.add(FrameDefinition{id, f}, &error);
        ids.insert(name, id);
        return id;
    };
    int stackCount = 0;
    auto stack = [&](const QByteArray &rootFirst, quint8 flags = 0) {
        QList<quint32> frames;
        for (const QByteArray &n : rootFirst.split(';'))
            frames.prepend(frame(n));
        d.stacks.add(StackDefinition{quint32(++stackCount), flags, frames}, &error);
        return quint32(stackCount);
    };
    const QByteArray parse = "_start;__libc_start_call_main;main;toplev::main;do_compile;"
                             "compile_file;c_common_parse_file;c_parse_file;"
                             "cp_parser_translation_unit;cp_parser_declaration_seq_opt;"
                             "cp_parser_declaration;";
    const QByteArray opt = "_start;__libc_start_call_main;main;toplev::main;do_compile;"
                           "compile_file;symbol_table::finalize_compilation_unit;"
                           "symbol_table::compile;expand_all_functions;cgraph_node::expand;"
                           "execute_pass_list;execute_one_pass;";
    const QByteArray fault = "k:asm_exc_page_fault;k:exc_page_fault;k:do_user_addr_fault;"
                             "k:handle_mm_fault;k:__handle_mm_fault;k:do_anonymous_page;"
                             "k:clear_page_erms";
    const QByteArray readk = "k:entry_SYSCALL_64;k:do_syscall_64;k:__x64_sys_read;k:ksys_read;"
                             "k:vfs_read;k:ext4_file_read_iter;k:filemap_read;"
                             "k:copy_page_to_iter;k:rep_movs_alternative";
    const QByteArray pyBase = "_start;__libc_start_call_main;Py_BytesMain;Py_RunMain;"
                              "pymain_run_python;_PyRun_SimpleFileObject;run_mod;run_eval_code_obj;"
                              "PyEval_EvalCode;_PyEval_EvalFrameDefault;";
    struct Weighted
    {
        quint32 stack;
        int weight;
        QByteArray comm;
        quint32 pid;
    };
    const QList<Weighted> cc = {
        {stack(parse + "cp_parser_function_definition;cp_parser_compound_statement;"
                       "cp_parser_statement;cp_parser_expression;cp_lexer_peek_token"),
         90, "cc1plus", 20110},
        {stack(parse + "cp_parser_function_definition;cp_parser_compound_statement;"
                       "cp_parser_statement;cp_parser_expression;build_new_function_call;"
                       "perform_overload_resolution;add_candidates;add_function_candidate"),
         140, "cc1plus", 20110},
        {stack(parse + "cp_parser_class_specifier;cp_parser_member_declaration;"
                       "grokfield;cp_finish_decl"),
         60, "cc1plus", 20110},
        {stack(parse +
               "cp_parser_class_specifier;cp_parser_member_declaration;"
               "ggc_internal_alloc;malloc;_int_malloc;" +
               fault),
         35, "cc1plus", 20110},
        {stack(parse + "cp_parser_template_declaration;instantiate_pending_templates;"
                       "instantiate_decl;tsubst_expr;tsubst_copy_and_build;lookup_name"),
         110, "cc1plus", 20110},
        {stack(opt + "pass_build_ssa::execute;rewrite_into_ssa;mark_def_sites"), 45, "cc1plus",
         20110},
        {stack(opt + "rest_of_handle_df_initialize;df_analyze;df_lr_local_compute;"
                     "bitmap_set_bit"),
         70, "cc1plus", 20110},
        {stack(opt + "pass_ira::execute;ira;ira_build;create_loop_tree_nodes"), 40, "cc1plus",
         20110},
        {stack("_start;__libc_start_call_main;main;toplev::main;do_compile;"
               "c_common_init;cpp_read_main_file;_cpp_find_file;read_file;read;" +
               readk),
         30, "cc1plus", 20110},
        {stack("htab_find_slot_with_hash;iterative_hash_expr", UserStackTruncated), 25, "cc1plus",
         20110},
        {stack("_start;__libc_start_call_main;main;lto_main;memcpy"), 20, "ld", 20230},
    };
    const QList<Weighted> service = {
        {stack(pyBase + "_PyEval_EvalFrameDefault;json_encode;encoder_listencode_obj;"
                        "encoder_listencode_dict;PyUnicode_New"),
         60, "python3", 1822},
        {stack(pyBase + "_PyEval_EvalFrameDefault;PyObject_Call;_PyObject_MakeTpCall;"
                        "PyDict_GetItem"),
         50, "python3", 1822},
        {stack(pyBase + "_PyObject_Malloc;malloc;" + fault), 15, "python3", 1822},
    };
    const quint32 writeback =
        stack("k:ret_from_fork;k:kthread;k:worker_thread;k:process_one_work;k:wb_workfn;"
              "k:wb_writeback;k:writeback_sb_inodes;k:__writeback_single_inode;"
              "k:do_writepages;k:ext4_writepages;k:mpage_prepare_extent_to_map",
              NoUserStack);
    auto pick = [&](const QList<Weighted> &list) -> const Weighted & {
        int total = 0;
        for (const Weighted &w : list)
            total += w.weight;
        int r = int(rng.bounded(total));
        for (const Weighted &w : list) {
            if ((r -= w.weight) < 0)
                return w;
        }
        return list.last();
    };
    // 99 Hz on 4 CPUs for 20 s.
    const quint64 tick = Second / 99;
    for (quint64 t = Start; t < Start + Seconds * Second; t += tick) {
        const double sec = double(t - Start) / Second;
        for (quint32 cpu = 0; cpu < 4; ++cpu) {
            CpuSampleEvent e;
            e.timeNs = t + cpu * 1000;
            e.cpu = cpu;
            const double u = rng.generateDouble();
            const Weighted *w = nullptr;
            if (cpu < 2 && u < 0.92)
                w = &pick(cc);
            else if (sec > 8 && sec < 12 && u < 0.85)
                w = &pick(service);
            else if (cpu == 3 && u < 0.12)
                w = nullptr;
            else
                continue; // idle
            if (w) {
                e.pid = e.tid = w->pid;
                e.comm = w->comm;
                e.stackId = w->stack;
            } else {
                e.pid = e.tid = 88;
                e.comm = "kworker/u8:2";
                e.stackId = writeback;
            }
            d.events.append(e);
        }
    }
    const quint32 pollWait =
        stack(pyBase + "select_poll;poll;k:entry_SYSCALL_64;k:do_syscall_64;k:__x64_sys_poll;"
                       "k:do_sys_poll;k:schedule_hrtimeout_range;k:schedule;k:__schedule");
    const quint32 readWait =
        stack("_start;__libc_start_call_main;main;toplev::main;do_compile;c_common_init;"
              "cpp_read_main_file;_cpp_find_file;read_file;read;k:entry_SYSCALL_64;"
              "k:do_syscall_64;k:__x64_sys_read;k:ksys_read;k:vfs_read;k:ext4_file_read_iter;"
              "k:filemap_read;k:folio_wait_bit_common;k:io_schedule;k:schedule;k:__schedule");
    for (quint64 t = Start; t < Start + Seconds * Second; t += Second / 4) {
        OffCpuEvent e;
        e.timeNs = t;
        e.offNs = 150'000'000 + rng.bounded(100'000'000);
        e.pid = e.tid = 1822;
        e.comm = "python3";
        e.stackId = pollWait;
        d.events.append(e);
        if (rng.bounded(3) == 0) {
            OffCpuEvent r = e;
            r.timeNs = t + 1000;
            r.offNs = 2'000'000 + rng.bounded(20'000'000);
            r.pid = r.tid = 20110;
            r.comm = "cc1plus";
            r.stackId = readWait;
            d.events.append(r);
        }
    }
    return d;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BPF Lens Screenshots"));
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    QDir().mkpath(out);
    // LANG=de_DE.UTF-8 and others: the same pictures translated, for looking at layouts.
    installTranslations(QLocale::system());
    if (argc > 3 && QByteArray(argv[2]) == "--details") {
        // A real session's CPU sample in the event details, the first whose leaf is an inlined
        // function (or the first sample): its frames with their source lines and inlined marks.
        //   bpflens_screenshots OUTDIR --details SESSION [WxH] [SUFFIX]
        const QString path = QString::fromLocal8Bit(argv[3]);
        SessionData data;
        QString error;
        if (!SessionReader::open(path, &data, &error)) {
            qWarning("%s", qPrintable(error));
            return 1;
        }
        qsizetype pick = data.events.count(EventType::CpuSample) ? 0 : -1;
        for (qsizetype i = 0; i < data.events.count(EventType::CpuSample); ++i) {
            const quint32 stack = data.events.value<&CpuSampleEvent::stackId>(i);
            if (data.stacks.hasStack(stack) && !data.stacks.stack(stack).frames.isEmpty() &&
                data.stacks.frame(data.stacks.stack(stack).frames.first()).inlined) {
                pick = i;
                break;
            }
        }
        auto *w = new MainWindow;
        w->resize(argc > 4 ? QByteArray(argv[4]).split('x').value(0).toInt() : 1366,
                  argc > 4 ? QByteArray(argv[4]).split('x').value(1).toInt() : 768);
        w->session()->setSession(std::move(data), path);
        w->show();
        w->results()->showView(w->results()->tableView(EventType::CpuSample));
        w->viewState()->setSelectedEvent({EventType::CpuSample, pick});
        const QString suffix = argc > 5 ? QString::fromLocal8Bit(argv[5]) : QString();
        QTimer::singleShot(600, w, [w, out, suffix] {
            QApplication::processEvents();
            w->grab().save(out + QStringLiteral("/details%1.png").arg(suffix));
            QApplication::quit();
        });
        return app.exec();
    }
    if (argc > 2 && QByteArray(argv[2]) == "--cpu-profile") {
        // Only the CPU profile page, at a laptop's size, with a search and a pick.
        auto *w = new MainWindow;
        w->resize(argc > 3 ? QByteArray(argv[3]).split('x').value(0).toInt() : 1366,
                  argc > 3 ? QByteArray(argv[3]).split('x').value(1).toInt() : 768);
        w->session()->setSession(makeProfileSession(), QStringLiteral("build-profile.bpflens"));
        w->show();
        w->results()->showView(w->results()->profilePage());
        const QString suffix = argc > 4 ? QString::fromLocal8Bit(argv[4]) : QString();
        QTimer::singleShot(400, w, [w, out, suffix] {
            w->results()->profilePage()->refresh();
            QApplication::processEvents();
            w->grab().save(out + QStringLiteral("/cpu-profile%1.png").arg(suffix));
            w->results()->profilePage()->searchEdit()->setText(QStringLiteral("malloc"));
            w->results()->profilePage()->selectFrame(0);
            QApplication::processEvents();
            w->grab().save(out + QStringLiteral("/cpu-profile%1-search.png").arg(suffix));
            w->results()->profilePage()->searchEdit()->clear();
            w->results()->profilePage()->setKind(ProfileKind::OffCpu);
            w->results()->profilePage()->refresh();
            QApplication::processEvents();
            w->grab().save(out + QStringLiteral("/cpu-profile%1-offcpu.png").arg(suffix));
            w->session()->setSession(SessionData{});
            w->results()->profilePage()->refresh();
            QApplication::processEvents();
            w->grab().save(out + QStringLiteral("/cpu-profile%1-empty.png").arg(suffix));
            QApplication::quit();
        });
        return app.exec();
    }
    MainWindow w;
    w.resize(1400, 900);
    for (const char *id : {"exec", "open", "block"})
        w.probePanel()->setProbeSelected(QString::fromLatin1(id), true);
    w.session()->setSession(makeSession(), QStringLiteral("build.bpflens"));
    w.show();
    w.results()->showView(w.results()->histogramView());
    QApplication::processEvents();
    QTimer::singleShot(300, &w, [&] {
        w.grab().save(out + QStringLiteral("/main-window.png"));
        w.results()->showView(w.results()->ioStackView());
        QApplication::processEvents();
        QTimer::singleShot(300, &w, [&] {
            w.grab().save(out + QStringLiteral("/io-stack.png"));
            QApplication::quit();
        });
    });
    return app.exec();
}
