#pragma once

#include "core/sessionstore.h"

#include <QDir>

// A small session with known events and histograms for the GUI tests: three one-second
// batches starting at 10 s, exec/open/block events at known times, block histograms for two
// disks and a runqlat histogram per batch.
namespace bpflens::test {

inline constexpr quint64 StartNs = 10'000'000'000ull;
inline constexpr quint64 SecondNs = 1'000'000'000ull;
inline constexpr int Batches = 3;
inline constexpr int ExecPerBatch = 5;
inline constexpr int OpenPerBatch = 40;
inline constexpr int BlockPerBatch = 30;
inline const QByteArray KnownPath = QByteArrayLiteral("/etc/bpflens/Known-File.conf");

inline quint64 execTime(int b, int i)
{
    return StartNs + quint64(b) * SecondNs + 100'000'000ull + quint64(i) * 150'000'000ull;
}
inline quint64 openTime(int b, int i)
{
    return StartNs + quint64(b) * SecondNs + 5'000'000ull + quint64(i) * 24'000'000ull;
}
inline quint64 blockTime(int b, int i)
{
    return StartNs + quint64(b) * SecondNs + 20'000'000ull + quint64(i) * 31'000'000ull;
}

inline HistogramSnapshot blockHistogram(int b, const QString &disk)
{
    HistogramSnapshot h;
    h.probeId = QStringLiteral("block");
    h.key = disk;
    h.timeNs = StartNs + quint64(b + 1) * SecondNs;
    h.intervalNs = SecondNs;
    h.histogram = Log2Histogram(HistogramUnit::Microseconds);
    const int shift = disk == QLatin1String("vda") ? 0 : 2;
    for (int s = 3 + shift; s < 9 + shift + b; ++s)
        h.histogram.addToSlot(s, quint64((s * 7 + b * 13) % 50 + 1));
    return h;
}

inline RecordBatch guiBatch(int b)
{
    RecordBatch batch;
    for (int i = 0; i < ExecPerBatch; ++i) {
        ExecEvent e;
        e.timeNs = execTime(b, i);
        e.pid = quint32(4000 + b * 10 + i);
        e.ppid = 1;
        e.comm = QByteArrayLiteral("bash");
        e.filename = QByteArrayLiteral("/usr/bin/tool") + QByteArray::number(b * 10 + i);
        e.argv = {QByteArrayLiteral("tool"), QByteArrayLiteral("--run"), QByteArray::number(i)};
        batch.exec.append(e);
    }
    for (int i = 0; i < OpenPerBatch; ++i) {
        OpenEvent e;
        e.timeNs = openTime(b, i);
        e.pid = quint32(300 + i % 4);
        e.tid = e.pid;
        e.flags = 0x80000;
        e.mode = 0644;
        e.ret = 3 + i % 5;
        e.comm = i % 2 ? QByteArrayLiteral("cat") : QByteArrayLiteral("vim");
        e.path = (b == 1 && i == 17)
                     ? KnownPath
                     : QByteArrayLiteral("/usr/lib/lib") + QByteArray::number(i) + ".so";
        batch.open.append(e);
    }
    for (int i = 0; i < BlockPerBatch; ++i) {
        BlockEvent e;
        e.timeNs = blockTime(b, i);
        e.dev = (253u << 20) | quint32(i % 2);
        e.cmdFlags = i % 3 ? 0x1 : 0x0;
        e.sector = quint64(i) * 8;
        e.bytes = 4096;
        e.pid = 77;
        e.queueNs = 200'000;
        e.deviceNs = 3'000'000 + quint64(i) * 400'000;
        e.disk = i % 2 ? QByteArrayLiteral("vdb") : QByteArrayLiteral("vda");
        e.op = i % 3 ? QByteArrayLiteral("Write") : QByteArrayLiteral("Read");
        e.comm = QByteArrayLiteral("kworker/0:1");
        batch.block.append(e);
    }
    batch.histograms << blockHistogram(b, QStringLiteral("vda"))
                     << blockHistogram(b, QStringLiteral("vdb"));
    HistogramSnapshot rq;
    rq.probeId = QStringLiteral("runqlat");
    rq.timeNs = StartNs + quint64(b + 1) * SecondNs;
    rq.intervalNs = SecondNs;
    rq.histogram.addToSlot(1, 10 + quint64(b));
    rq.histogram.addToSlot(4, 3);
    batch.histograms << rq;
    for (const char *probe : {"exec", "open", "block"}) {
        ProbeStats s;
        s.probeId = QString::fromLatin1(probe);
        s.timeNs = StartNs + quint64(b + 1) * SecondNs;
        s.eventsSeen = quint64(b + 1) * 100;
        s.eventsLost = QByteArray(probe) == "open" ? quint64(b) * 3 : 0;
        // block: completions the kernel never ran the program for, and, in the last (stop)
        // sample, requests still open
        s.eventsUnseen = QByteArray(probe) == "block" ? quint64(b) : 0;
        s.unfinished = QByteArray(probe) == "block" && b == Batches - 1 ? 1 : 0;
        batch.stats << s;
    }
    return batch;
}

inline SessionInfo guiInfo()
{
    SessionInfo info;
    info.appVersion = QStringLiteral("0.1.0");
    info.host = QStringLiteral("testhost");
    info.kernelRelease = QStringLiteral("6.18.0-test");
    info.startWall = QDateTime(QDate(2024, 3, 1), QTime(12, 0, 0), Qt::UTC);
    info.startMonotonicNs = StartNs;
    info.probes = {{QStringLiteral("exec"), {}, QStringLiteral("tp_btf/sched_process_exec")},
                   {QStringLiteral("open"),
                    {{QStringLiteral("failedOnly"), false}},
                    QStringLiteral("tp/syscalls/sys_enter_openat")},
                   {QStringLiteral("block"),
                    {{QStringLiteral("perDisk"), true}, {QStringLiteral("queued"), false}},
                    QStringLiteral("tp_btf/block_rq_complete")}};
    return info;
}

inline QString writeGuiSession(const QDir &dir, QString *error)
{
    const QString path = dir.filePath(QStringLiteral("gui.bpflens"));
    SessionWriter writer;
    if (!writer.create(path, guiInfo(), error))
        return {};
    for (int b = 0; b < Batches; ++b) {
        if (!writer.writeBatch(guiBatch(b), error))
            return {};
    }
    if (!writer.finish(StartNs + quint64(Batches) * SecondNs, error))
        return {};
    return path;
}

} // namespace bpflens::test
