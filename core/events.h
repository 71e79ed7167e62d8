#pragma once

#include <QByteArray>
#include <QList>

#include <array>
#include <cstdint>

namespace bpflens {

// Timestamps are CLOCK_MONOTONIC nanoseconds (bpf_ktime_get_ns); SessionInfo maps them to
// wall-clock time. Strings that come from the kernel (comm, paths, argv) are bytes, not text:
// file names need not be UTF-8.

enum class EventType : quint8
{
    Exec = 1,
    Open = 2,
    Block = 3,
    TcpConnect = 4,
    FsSlow = 5,
    TpPair = 6,
};

struct ExecEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 ppid = 0;
    quint32 uid = 0;
    qint32 retval = 0; // 0 or -errno
    QByteArray comm;
    QByteArray filename;
    QList<QByteArray> argv;
    bool argvTruncated = false;
    bool operator==(const ExecEvent &) const = default;
};

struct OpenEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    quint32 uid = 0;
    qint32 flags = 0;
    quint32 mode = 0;
    qint32 ret = 0; // fd, or -errno
    QByteArray comm;
    QByteArray path;
    bool operator==(const OpenEvent &) const = default;
};

struct BlockEvent
{
    quint64 timeNs = 0;   // completion time
    quint32 dev = 0;      // major << 20 | minor, as the kernel's dev_t
    quint32 cmdFlags = 0; // raw req->cmd_flags
    quint64 sector = 0;
    quint32 bytes = 0;
    quint32 pid = 0;      // the task that issued (or queued) the request
    quint64 queueNs = 0;  // insert -> issue, 0 when not queued through the scheduler
    quint64 deviceNs = 0; // issue -> complete
    QByteArray disk;      // "vda"
    QByteArray op;        // decoded like biolatency -F: "Sync-Write"
    QByteArray comm;
    static quint32 major(quint32 dev) { return dev >> 20; }
    static quint32 minor(quint32 dev) { return dev & ((1u << 20) - 1); }
    bool operator==(const BlockEvent &) const = default;
};

struct TcpConnectEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 uid = 0;
    quint8 family = 4; // 4 or 6
    std::array<quint8, 16> saddr{};
    std::array<quint8, 16> daddr{};
    quint16 sport = 0;
    quint16 dport = 0;
    qint32 ret = 0;
    QByteArray comm;
    bool operator==(const TcpConnectEvent &) const = default;
};

// A slow file-system operation (fsslower), or any single operation with a latency.
struct FsSlowEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint8 op = 0; // 'R', 'W', 'O', 'F'
    quint64 bytes = 0;
    quint64 offset = 0;
    quint64 latencyNs = 0;
    QByteArray fs; // "ext4"
    QByteArray comm;
    QByteArray filename;
    bool operator==(const FsSlowEvent &) const = default;
};

// Two tracepoints paired by a key (the tppair probe), recorded when the pair was slow enough.
// The identity is the start side's, where the pid/comm filters apply.
struct TpPairEvent
{
    quint64 timeNs = 0; // the end tracepoint
    quint32 pid = 0;
    quint32 tid = 0;
    quint64 key = 0; // the value both sides were paired by (a tid, a pointer, an id)
    quint64 latencyNs = 0;
    QByteArray comm;
    bool operator==(const TpPairEvent &) const = default;
};

} // namespace bpflens
