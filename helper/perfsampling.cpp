#include "helper/perfsampling.h"

#include <linux/types.h>

#include "bpf/samplestack.h"
#include "helper/stackresolver.h"

#include <bpf/libbpf.h>

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/syscall.h>
#include <unistd.h>

namespace bpflens {

QList<int> onlineCpus()
{
    QList<int> cpus;
    QFile f(QStringLiteral("/sys/devices/system/cpu/online"));
    if (!f.open(QIODevice::ReadOnly))
        return cpus;
    for (const QByteArray &range : f.readAll().trimmed().split(',')) {
        const qsizetype dash = range.indexOf('-');
        bool ok1 = false, ok2 = false;
        const int first = range.left(dash < 0 ? range.size() : dash).toInt(&ok1);
        const int last = dash < 0 ? first : range.mid(dash + 1).toInt(&ok2);
        if (!ok1 || (dash >= 0 && !ok2))
            continue;
        for (int c = first; c <= last && c < 65536; ++c)
            cpus.append(c);
    }
    return cpus;
}

int openCpuPerfEvent(const perf_event_attr &attr, int cpu)
{
    perf_event_attr a = attr;
    a.size = sizeof(a);
    return int(syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

bool PerfEventSet::open(const perf_event_attr &attr, bpf_program *program, const char *name,
                        QString *error)
{
    for (int cpu : onlineCpus()) {
        const int fd = openCpuPerfEvent(attr, cpu);
        if (fd < 0) {
            if (errno == ENODEV) // went offline since the list was read
                continue;
            *error = QStringLiteral("perf_event_open(%1, CPU %2): %3")
                         .arg(QLatin1String(name))
                         .arg(cpu)
                         .arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        m_fds.append(fd);
        bpf_link *link = bpf_program__attach_perf_event(program, fd);
        if (!link) {
            const int err = errno;
            char buf[128];
            libbpf_strerror(-err, buf, sizeof buf);
            *error = QStringLiteral("cannot attach to the %1 event of CPU %2: %3")
                         .arg(QLatin1String(name))
                         .arg(cpu)
                         .arg(QString::fromLocal8Bit(buf));
            return false;
        }
        m_links.append(link);
    }
    return true;
}

void PerfEventSet::close()
{
    for (bpf_link *link : std::as_const(m_links))
        bpf_link__destroy(link);
    m_links.clear();
    for (int fd : std::as_const(m_fds))
        ::close(fd);
    m_fds.clear();
}

bool SampledStacks::addPacked(StackResolver *r, quint32 pid, quint32 tid, sample_stacks st,
                              const char *tail)
{
    if (st.kstack_len > SAMPLE_MAX_FRAMES || st.ustack_len > SAMPLE_MAX_FRAMES ||
        st.stack_size > USER_STACK_MAX_COPY)
        return false;
    const char *frames = tail + st.stack_size;
    memcpy(st.kstack, frames, size_t(st.kstack_len) * 8);
    memcpy(st.ustack, frames + size_t(st.kstack_len) * 8, size_t(st.ustack_len) * 8);
    return add(r, pid, tid, st, tail, false);
}

bool SampledStacks::add(StackResolver *r, quint32 pid, quint32 tid, const sample_stacks &st,
                        const char *stackCopy, bool noUser)
{
    if (st.kstack_len > SAMPLE_MAX_FRAMES || st.ustack_len > SAMPLE_MAX_FRAMES ||
        st.stack_size > USER_STACK_MAX_COPY)
        return false;
    Pending p;
    p.kernel.reserve(st.kstack_len);
    for (int i = 0; i < st.kstack_len; ++i)
        p.kernel.append(st.kstack[i]);
    p.sampledInKernel = !(st.flags & SAMPLE_IN_USER);
    p.kernelTruncated = st.kstack_len == SAMPLE_MAX_FRAMES;
    if (!noUser && !(st.flags & SAMPLE_NO_USER)) {
        UserSample u;
        u.pid = pid;
        u.tid = tid;
        u.regs.valid = st.flags & SAMPLE_USER_REGS;
        if (u.regs.valid)
            std::copy(std::begin(st.regs), std::end(st.regs), u.regs.dwarf.begin());
        u.stack = QByteArray(stackCopy, int(st.stack_size));
        u.framePointerIps.reserve(st.ustack_len);
        for (int i = 0; i < st.ustack_len; ++i)
            u.framePointerIps.append(st.ustack[i]);
        r->capture(pid);
        p.user = m_users.size();
        m_users.append(std::move(u));
    }
    m_pending.push_back(std::move(p));
    return true;
}

QList<quint32> SampledStacks::resolve(StackResolver *r)
{
    QList<quint32> ids;
    if (m_pending.empty())
        return ids;
    ids.reserve(qsizetype(m_pending.size()));
    const QList<SymbolizedStack> resolved =
        m_users.isEmpty() ? QList<SymbolizedStack>() : r->resolve(m_users);
    for (const Pending &p : m_pending) {
        QList<quint32> frames;
        quint8 flags = 0;
        for (qsizetype i = 0; i < p.kernel.size(); ++i)
            frames.append(r->kernelFrame(p.kernel[i], i > 0 || !p.sampledInKernel));
        if (p.kernelTruncated)
            flags |= KernelStackTruncated;
        if (p.user < 0) {
            flags |= NoUserStack;
        } else if (p.user < resolved.size() && (!resolved[p.user].frames.isEmpty() ||
                                                m_users[p.user].framePointerIps.isEmpty())) {
            const SymbolizedStack &s = resolved[p.user];
            for (const SymbolizedFrame &f : s.frames)
                frames.append(r->userFrame(f));
            if (s.truncated)
                flags |= UserStackTruncated;
            if (s.usedFramePointers)
                flags |= UserFramePointers;
        } else {
            // No symbolizer, or nothing it could unwind from (no registers): the frame-pointer
            // chain, as absolute addresses.
            const UserSample &u = m_users[p.user];
            for (quint64 ip : u.framePointerIps)
                frames.append(r->unknownUserFrame(ip));
            flags |= UserFramePointers;
            if (u.framePointerIps.size() >= SAMPLE_MAX_FRAMES)
                flags |= UserStackTruncated;
        }
        ids.append(r->stack(flags, frames));
    }
    clear();
    return ids;
}

void SampledStacks::clear()
{
    m_pending.clear();
    m_users.clear();
}

} // namespace bpflens
