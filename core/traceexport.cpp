#include "core/traceexport.h"

#include "core/jsonlexport.h"

#include <QHash>

#include <tuple>
#include <type_traits>

namespace bpflens {

namespace {

// Whether a type's recorded time is where its latency starts. Every other type with a latency
// records its end (a block request's completion, a call's return, a connection's close), and
// the slice starts latency before it; an off-CPU wait is recorded when the thread is switched
// out (offcpu's and offwake's). The declarations do not say which: the exceptions are named here.
template<typename E>
inline constexpr bool timeIsStart =
    std::is_same_v<E, OffCpuEvent> || std::is_same_v<E, OffWakeEvent> ||
    std::is_same_v<E, ThreadStateEvent>;

template<typename E>
inline constexpr bool hasTid = requires(const E &e)
{
    e.tid;
};

// The first thread id of the tracks slices are put on, above any a kernel gives (pid_max is at
// most 2^22), so they never meet a real thread's.
constexpr quint32 FirstSliceTid = 1u << 30;

class Writer
{
public:
    Writer(const SessionData &session, QIODevice *device)
        : m_session(session)
        , m_device(device)
        , m_startNs(session.info.startMonotonicNs)
    {
    }

    // Starts one element of traceEvents.
    QByteArray &next()
    {
        m_buffer += m_first ? "\n" : ",\n";
        m_first = false;
        return m_buffer;
    }
    QByteArray &buffer() { return m_buffer; }
    void maybeFlush()
    {
        if (m_buffer.size() > (1 << 20))
            flush();
    }
    bool flush()
    {
        if (!m_buffer.isEmpty() && m_device->write(m_buffer) != m_buffer.size())
            m_failed = true;
        m_buffer.clear();
        return !m_failed;
    }

    template<typename E>
    void events(qsizetype from, qsizetype to)
    {
        const EventStore &store = m_session.events;
        for (qsizetype i = from; i < to; ++i) {
            if constexpr (std::is_same_v<E, ThreadStateEvent>)
                threadState(store.event<E>(i));
            else
                event(store.event<E>(i), hasLatency<E> ? store.latencyNs<E>(i) : 0);
            maybeFlush();
        }
    }

    // A thread state is a slice on the thread's own track, named by its state ("Sleeping
    // (pipe)"), as Perfetto draws the states it records itself: a thread's states never
    // overlap, so they never cross there. A wait a thread ended is joined to it by a flow
    // event from the waker's track (its running slice) to the wakee's next slice (the
    // runnable one that starts at the wakeup).
    void threadState(const ThreadStateEvent &e)
    {
        using T = ThreadStateEvent;
        nameProcess(e.pid, e.tid, e.comm);
        m_threadNames.insert(quint64(e.pid) << 32 | e.tid, e.comm);
        QByteArray name = T::stateTitle(e.state);
        if (name.isEmpty())
            name = QByteArray::number(e.state);
        if (e.reason)
            name += " (" + T::reasonName(e.reason).toLatin1() + ')';
        QByteArray &out = next();
        out += "{\"name\":";
        json::appendString(out, name);
        out += ",\"cat\":\"threadstate\",\"ph\":\"X\",\"ts\":";
        json::appendMicros(out, json::relativeNs(e.timeNs, m_startNs));
        out += ",\"dur\":";
        json::appendMicros(out, qint64(e.durNs));
        out += ",\"pid\":" + QByteArray::number(e.pid);
        out += ",\"tid\":" + QByteArray::number(e.tid);
        out += ",\"args\":{";
        json::appendColumns(out, e, m_startNs, true);
        out += ",\"stack\":";
        out += stackText(e.stackId);
        out += "}}";
        if (!e.blocked() || !e.wakerTid || e.wakerTid == e.tid)
            return;
        const quint64 id = ++m_flows;
        const qint64 at = json::relativeNs(e.timeNs + e.durNs, m_startNs);
        for (const auto &[phase, pid, tid] :
             {std::tuple{"s", e.wakerPid, e.wakerTid}, std::tuple{"f", e.pid, e.tid}}) {
            QByteArray &flow = next();
            flow += "{\"name\":\"wakeup\",\"cat\":\"threadstate\",\"ph\":\"";
            flow += phase;
            flow += "\",\"id\":" + QByteArray::number(id) + ",\"ts\":";
            json::appendMicros(flow, at);
            flow += ",\"pid\":" + QByteArray::number(pid);
            flow += ",\"tid\":" + QByteArray::number(tid) + '}';
        }
    }

    template<typename E>
    void event(const E &e, quint64 latencyNs)
    {
        const quint32 pid = e.pid;
        quint32 tid = pid;
        if constexpr (hasTid<E>)
            tid = e.tid;
        nameProcess(pid, tid, e.comm);
        quint64 startNs = e.timeNs;
        if constexpr (hasLatency<E>) {
            if constexpr (!timeIsStart<E>)
                startNs = e.timeNs - latencyNs;
            tid = sliceTrack(pid, tid, quint8(eventTypeOf<E>), EventTraits<E>::probeId, e.comm,
                             startNs, startNs + latencyNs);
        } else {
            m_threadNames.insert(quint64(pid) << 32 | tid, e.comm);
        }
        QByteArray &out = next();
        out += "{\"name\":\"";
        out += EventTraits<E>::probeId;
        out += "\",\"cat\":\"";
        out += EventTraits<E>::probeId;
        if constexpr (hasLatency<E>) {
            out += "\",\"ph\":\"X\",\"ts\":";
            json::appendMicros(out, json::relativeNs(startNs, m_startNs));
            out += ",\"dur\":";
            json::appendMicros(out, qint64(latencyNs));
        } else {
            out += "\",\"ph\":\"i\",\"s\":\"t\",\"ts\":";
            json::appendMicros(out, json::relativeNs(e.timeNs, m_startNs));
        }
        out += ",\"pid\":" + QByteArray::number(pid);
        out += ",\"tid\":" + QByteArray::number(tid);
        out += ",\"args\":{";
        json::appendColumns(out, e, m_startNs, true);
        if constexpr (hasStackId<E>) {
            // The frames root first, as flame graphs read them; every sample of a stack shares
            // the text, made once.
            out += ",\"stack\":";
            out += stackText(e.stackId);
        }
        out += "}}";
    }

    void counters(const TraceExportOptions &options)
    {
        for (const CounterSample &c : m_session.counters) {
            if (c.timeNs < options.startNs || c.timeNs >= options.endNs || !std::isfinite(c.value))
                continue;
            // A counter's value holds over its interval, which ends at timeNs.
            const quint64 from = c.timeNs - std::min(c.timeNs, c.intervalNs);
            QByteArray &out = next();
            out += "{\"name\":";
            json::appendString(out, (c.probeId + u' ' + c.name).toUtf8());
            out += ",\"cat\":";
            json::appendString(out, c.probeId.toUtf8());
            out += ",\"ph\":\"C\",\"ts\":";
            json::appendMicros(out, json::relativeNs(from, m_startNs));
            out += ",\"pid\":0,\"tid\":0,\"args\":{\"value\":";
            json::appendDouble(out, c.value);
            out += "}}";
            maybeFlush();
            // Process 0 holds the counters; where no event names it (block's requests of
            // unknown submitter, the idle task's samples), it is named for them.
            if (!m_processNames.contains(0))
                m_processNames.insert(0, "counters");
        }
    }

    // The process and thread names, from the comm each was last seen with.
    void names()
    {
        for (auto it = m_processNames.cbegin(); it != m_processNames.cend(); ++it) {
            QByteArray &out = next();
            out += "{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":";
            out += QByteArray::number(it.key()) + ",\"tid\":" + QByteArray::number(it.key());
            out += ",\"args\":{\"name\":";
            json::appendString(out, escapeKernelBytes(it.value()));
            out += "}}";
        }
        for (auto it = m_threadNames.cbegin(); it != m_threadNames.cend(); ++it) {
            QByteArray &out = next();
            out += "{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":";
            out += QByteArray::number(it.key() >> 32) +
                   ",\"tid\":" + QByteArray::number(quint32(it.key()));
            out += ",\"args\":{\"name\":";
            json::appendString(out, escapeKernelBytes(it.value()));
            out += "}}";
        }
    }

private:
    void nameProcess(quint32 pid, quint32 tid, const QByteArray &comm)
    {
        // A process is named after its main thread, else after the first thread seen.
        if (tid == pid || !m_processNames.contains(pid))
            m_processNames.insert(pid, comm);
    }

    // The track a slice [startNs, endNs) of a thread goes on. Perfetto drops (or, in newer
    // versions, moves aside) a complete event that starts inside another on its track and ends
    // after it, and such crossings are common: a task with several block requests in flight,
    // a block request and the off-CPU wait for it. So each thread's slices of one type go on
    // tracks of their own in its process, "comm tid probe", as many as its slices overlap
    // ("comm tid probe 2", ...): no two slices of a track overlap. Events come in the order of
    // their recorded time, so the last slice of a lane ends the latest.
    quint32 sliceTrack(quint32 pid, quint32 tid, quint8 type, const char *probeId,
                       const QByteArray &comm, quint64 startNs, quint64 endNs)
    {
        std::vector<Lane> &lanes = m_lanes[LaneKey{pid, tid, type}];
        for (Lane &lane : lanes) {
            if (lane.endNs <= startNs) {
                lane.endNs = endNs;
                return lane.tid;
            }
        }
        const quint32 laneTid = m_nextSliceTid++;
        QByteArray name = comm + ' ' + QByteArray::number(tid) + ' ' + probeId;
        if (!lanes.empty())
            name += ' ' + QByteArray::number(lanes.size() + 1);
        m_threadNames.insert(quint64(pid) << 32 | laneTid, name);
        lanes.push_back({endNs, laneTid});
        return laneTid;
    }

    const QByteArray &stackText(quint32 id)
    {
        if (m_stackTexts.empty())
            m_stackTexts.resize(std::size_t(m_session.stacks.stackCount()) + 1);
        if (id >= m_stackTexts.size())
            id = 0; // names no stack of the session: "" like a sample without one
        QByteArray &text = m_stackTexts[id];
        if (text.isEmpty()) {
            QByteArray joined;
            if (m_session.stacks.hasStack(id)) {
                const StackDefinition &s = m_session.stacks.stack(id);
                for (qsizetype i = s.frames.size() - 1; i >= 0; --i) {
                    if (i != s.frames.size() - 1)
                        joined += ';';
                    // A ';' in a name is written \x3B, as stacks.csv does, so the split is exact.
                    joined += escapeKernelBytes(m_session.stacks.frameName(s.frames[i]).toUtf8())
                                  .replace(';', "\\x3B");
                }
            }
            json::appendString(text, joined);
        }
        return text;
    }

    const SessionData &m_session;
    QIODevice *m_device;
    const quint64 m_startNs;
    QByteArray m_buffer;
    bool m_first = true;
    bool m_failed = false;
    QHash<quint32, QByteArray> m_processNames;
    QHash<quint64, QByteArray> m_threadNames; // by pid << 32 | tid, as kernel bytes
    struct LaneKey
    {
        quint32 pid;
        quint32 tid;
        quint8 type;
        bool operator==(const LaneKey &) const = default;
        friend size_t qHash(const LaneKey &k, size_t seed = 0)
        {
            return qHashMulti(seed, k.pid, k.tid, k.type);
        }
    };
    struct Lane
    {
        quint64 endNs;
        quint32 tid;
    };
    QHash<LaneKey, std::vector<Lane>> m_lanes;
    quint32 m_nextSliceTid = FirstSliceTid;
    quint64 m_flows = 0;
    std::vector<QByteArray> m_stackTexts; // by stack id, as JSON strings
};

QByteArray metadata(const SessionInfo &info)
{
    QByteArray out = "{\"source\":\"BPF Lens\",";
    json::appendSessionFields(out, info);
    out += "}";
    return out;
}

} // namespace

bool TraceExport::write(const SessionData &session, QIODevice *device,
                        const TraceExportOptions &options, QString *error)
{
    Writer w(session, device);
    w.buffer() += "{\"traceEvents\":[";
    const EventStore &store = session.events;
    // Type by type: the format does not need the events in time order (viewers sort them).
    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        const qsizetype from = store.lowerBound(type, options.startNs);
        const qsizetype to = std::max(from, store.lowerBound(type, options.endNs));
        w.events<E>(from, to);
    });
    if (options.counters)
        w.counters(options);
    w.names();
    w.buffer() += "\n],\n\"displayTimeUnit\":\"ns\",\n\"metadata\":";
    w.buffer() += metadata(session.info);
    w.buffer() += "}\n";
    if (!w.flush()) {
        if (error)
            *error = QStringLiteral("cannot write the trace: %1").arg(device->errorString());
        return false;
    }
    return true;
}

bool TraceExport::exportSession(const SessionData &session, const QString &path,
                                const TraceExportOptions &options, QString *error)
{
    return json::saveFile(
        path, error, [&](QIODevice *device) { return write(session, device, options, nullptr); });
}

} // namespace bpflens
