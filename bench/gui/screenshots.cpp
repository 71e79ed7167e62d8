// Renders the README/AppStream screenshots (docs/screenshots/) from a synthetic but plausible
// 20-second session: a build job's execs and opens, block I/O on two disks with
// biolatency-style histograms, and an iostack breakdown. Usage: bpflens_screenshots OUTDIR
#include "histogramview.h"
#include "iostackview.h"
#include "mainwindow.h"
#include "probepanel.h"
#include "sessionmodel.h"

#include <QApplication>
#include <QDir>
#include <QRandomGenerator>
#include <QTabWidget>
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
        Log2Histogram h[2] = {Log2Histogram(TimeUnit::Microseconds),
                              Log2Histogram(TimeUnit::Microseconds)};
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

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BPF Lens Screenshots"));
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    QDir().mkpath(out);
    MainWindow w;
    w.resize(1400, 900);
    for (const char *id : {"exec", "open", "block"})
        w.probePanel()->setProbeSelected(QString::fromLatin1(id), true);
    w.session()->setSession(makeSession(), QStringLiteral("build.bpflens"));
    w.show();
    w.tabs()->setCurrentWidget(w.histogramView());
    QApplication::processEvents();
    QTimer::singleShot(300, &w, [&] {
        w.grab().save(out + QStringLiteral("/main-window.png"));
        w.tabs()->setCurrentWidget(w.ioStackView());
        QApplication::processEvents();
        QTimer::singleShot(300, &w, [&] {
            w.grab().save(out + QStringLiteral("/io-stack.png"));
            QApplication::quit();
        });
    });
    return app.exec();
}
