#include "gui/models/threadstatemodel.h"

#include "core/eventstore.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace bpflens {

namespace {

using E = ThreadStateEvent;
constexpr int StateSlots = 6; // State values 1..5, slot 0 unused

} // namespace

ThreadStateModel::ThreadStateModel(SessionModel *session, ViewState *state, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_state(state)
{
    connect(m_session, &SessionModel::reset, this, [this] {
        m_collapsed.clear();
        invalidate();
    });
    connect(m_session, &SessionModel::appended, this, [this] { invalidate(); });
    connect(m_state, &ViewState::filterChanged, this, [this] {
        m_rowsValid = false;
        ++m_version;
        Q_EMIT rowsChanged();
    });
    connect(m_state, &ViewState::rangeChanged, this, [this] {
        // Zooming in drops the threads without a span in sight; only a changed set is news.
        // Nothing is built before the view asks: a session opened elsewhere pays nothing.
        if (!m_built) {
            m_rowsValid = false;
            return;
        }
        const QList<Row> before = m_rows;
        m_rowsValid = false;
        updateRows();
        bool same = before.size() == m_rows.size();
        for (qsizetype i = 0; same && i < before.size(); ++i)
            same = before[i].tid == m_rows[i].tid && before[i].pid == m_rows[i].pid;
        if (!same) {
            ++m_version;
            Q_EMIT rowsChanged();
        }
    });
}

void ThreadStateModel::invalidate()
{
    m_built = false;
    m_rowsValid = false;
    m_acceptedValid = false;
    ++m_version;
    Q_EMIT rowsChanged();
}

bool ThreadStateModel::isEmpty() const
{
    return m_session->events().count(EventType::ThreadState) == 0;
}

const ThreadStateIndex &ThreadStateModel::index() const
{
    ensureThreads();
    return m_index;
}

void ThreadStateModel::ensureThreads() const
{
    if (m_built)
        return;
    m_built = true;
    const EventStore &store = m_session->events();
    m_index = ThreadStateIndex(store);
    m_threads.clear();
    m_summaries.clear();
    QHash<quint32, quint64> processRunning;
    for (quint32 tid : m_index.tids()) {
        const QList<qsizetype> &spans = m_index.spans(tid);
        Thread t;
        t.tid = tid;
        t.pid = store.value<&E::pid>(spans.last());
        t.comm = store.value<&E::comm>(spans.last());
        t.firstNs = store.value<&E::timeNs>(spans.first());
        for (qsizetype i : spans) {
            const quint64 end = store.value<&E::timeNs>(i) + store.value<&E::durNs>(i);
            t.lastNs = std::max(t.lastNs, end);
            if (store.value<&E::state>(i) == E::Running)
                t.runningNs += store.value<&E::durNs>(i);
        }
        processRunning[t.pid] += t.runningNs;
        if (spans.size() >= SummaryMinSpans)
            buildSummary(t);
        m_threads.append(std::move(t));
    }
    QHash<quint32, QByteArray> processComm;
    for (const Thread &t : std::as_const(m_threads)) {
        if (t.tid == t.pid || !processComm.contains(t.pid))
            processComm[t.pid] = t.comm;
    }
    for (Thread &t : m_threads)
        t.processComm = processComm.value(t.pid);
    // Busiest process first, in it the busiest thread; ties by pid and tid, so the order is
    // stable between loads.
    std::sort(m_threads.begin(), m_threads.end(), [&](const Thread &a, const Thread &b) {
        const quint64 pa = processRunning.value(a.pid), pb = processRunning.value(b.pid);
        if (a.pid != b.pid)
            return pa != pb ? pa > pb : a.pid < b.pid;
        return a.runningNs != b.runningNs ? a.runningNs > b.runningNs : a.tid < b.tid;
    });
}

bool ThreadStateModel::threadAccepted(const Thread &t) const
{
    const EventFilter &f = m_state->filter();
    if (f.isEmpty())
        return true;
    if (f.pid >= 0 && qint64(t.pid) != f.pid)
        return false; // a thread never changes its process: no span can pass
    if (!m_acceptedValid || !(m_acceptedFilter == f)) {
        // Once per filter: the threads one of whose spans passes, as the event table would
        // list them.
        m_acceptedFilter = f;
        m_acceptedValid = true;
        m_accepted.clear();
        const EventMatcher matcher(f);
        const EventStore &store = m_session->events();
        for (const Thread &other : std::as_const(m_threads)) {
            if (f.pid >= 0 && qint64(other.pid) != f.pid)
                continue;
            const QList<qsizetype> &spans = m_index.spans(other.tid);
            if (std::any_of(spans.cbegin(), spans.cend(),
                            [&](qsizetype i) { return matcher.accepts<E>(store, i); }))
                m_accepted.insert(other.tid);
        }
    }
    return m_accepted.contains(t.tid);
}

void ThreadStateModel::updateRows() const
{
    if (m_rowsValid)
        return;
    ensureThreads();
    m_rowsValid = true;
    m_rows.clear();
    m_threadRows.clear();
    m_processRows.clear();
    const quint64 start = m_state->startNs(), end = m_state->endNs();
    int header = -1;
    for (const Thread &t : std::as_const(m_threads)) {
        if (t.lastNs <= start || t.firstNs >= end || !threadAccepted(t))
            continue;
        if (header < 0 || m_rows[header].pid != t.pid) {
            Row h;
            h.isProcess = true;
            h.pid = t.pid;
            h.comm = t.processComm;
            header = int(m_rows.size());
            m_processRows.insert(t.pid, header);
            m_rows.append(h);
        }
        Row &h = m_rows[header];
        ++h.threads;
        h.runningNs += t.runningNs;
        if (m_collapsed.contains(t.pid))
            continue;
        Row r;
        r.pid = t.pid;
        r.tid = t.tid;
        r.comm = t.comm;
        r.runningNs = t.runningNs;
        m_threadRows.insert(t.tid, int(m_rows.size()));
        m_rows.append(r);
    }
}

const QList<ThreadStateModel::Row> &ThreadStateModel::rows() const
{
    updateRows();
    return m_rows;
}

int ThreadStateModel::rowOfThread(quint32 tid) const
{
    updateRows();
    return m_threadRows.value(tid, -1);
}

int ThreadStateModel::rowOfProcess(quint32 pid) const
{
    updateRows();
    return m_processRows.value(pid, -1);
}

QString ThreadStateModel::rowLabel(const Row &row)
{
    return QStringLiteral("%1 %2").arg(EventTableModel::displayBytes(row.comm),
                                       QString::number(row.isProcess ? row.pid : row.tid));
}

void ThreadStateModel::setCollapsed(quint32 pid, bool collapsed)
{
    if (collapsed == m_collapsed.contains(pid))
        return;
    if (collapsed)
        m_collapsed.insert(pid);
    else
        m_collapsed.remove(pid);
    m_rowsValid = false;
    ++m_version;
    Q_EMIT rowsChanged();
}

void ThreadStateModel::buildSummary(const Thread &t) const
{
    const QList<qsizetype> &spans = m_index.spans(t.tid);
    const EventStore &store = m_session->events();
    qsizetype buckets = 512;
    while (buckets < spans.size() / 4 && buckets < (qsizetype(1) << 15))
        buckets *= 2;
    Summary summary;
    summary.origin = t.firstNs;
    const quint64 length = std::max<quint64>(1, t.lastNs - t.firstNs);
    summary.width0 = std::max<quint64>(1, (length + quint64(buckets) - 1) / quint64(buckets));
    buckets = qsizetype((length + summary.width0 - 1) / summary.width0);
    std::vector<double> ns(size_t(buckets) * StateCount, 0.0);
    const quint64 w = summary.width0;
    for (qsizetype i : spans) {
        const quint8 state = store.value<&E::state>(i);
        if (state < 1 || state > StateCount)
            continue;
        const quint64 s = store.value<&E::timeNs>(i) - t.firstNs;
        const quint64 e = s + store.value<&E::durNs>(i);
        const qsizetype b1 = std::min(buckets - 1, qsizetype((std::max(e, s + 1) - 1) / w));
        for (qsizetype b = qsizetype(s / w); b <= b1; ++b) {
            const quint64 from = std::max(s, quint64(b) * w);
            const quint64 to = std::min(e, quint64(b + 1) * w);
            if (to > from)
                ns[size_t(b) * StateCount + state - 1] += double(to - from);
        }
    }
    std::vector<quint16> level(ns.size());
    for (size_t k = 0; k < ns.size(); ++k)
        level[k] = quint16(std::lround(std::min(1.0, ns[k] / double(w)) * 65535.0));
    summary.levels.append(std::move(level));
    // Each next level halves the buckets, down to a few hundred.
    while (summary.levels.last().size() / StateCount > 256) {
        const std::vector<quint16> &fine = summary.levels.last();
        const size_t n = fine.size() / StateCount;
        std::vector<quint16> coarse(((n + 1) / 2) * StateCount);
        for (size_t b = 0; b < n; ++b) {
            for (int s = 0; s < StateCount; ++s)
                coarse[b / 2 * StateCount + size_t(s)] += fine[b * StateCount + size_t(s)] / 2;
        }
        summary.levels.append(std::move(coarse));
    }
    m_summaries.insert(t.tid, std::move(summary));
}

bool ThreadStateModel::laneStatesFromSummary(const Summary &summary, quint64 startNs, quint64 endNs,
                                             std::vector<quint8> &out) const
{
    const int width = int(out.size());
    const double nsPerPx = double(endNs - startNs) / width;
    // The coarsest level with a bucket or more per pixel; none: the spans themselves.
    int level = -1;
    for (int l = 0; l < summary.levels.size(); ++l) {
        if (double(summary.width0 << l) <= nsPerPx)
            level = l;
    }
    if (level < 0)
        return false;
    const quint64 w = summary.width0 << level;
    const std::vector<quint16> &shares = summary.levels[level];
    const qsizetype buckets = qsizetype(shares.size() / StateCount);
    qsizetype b = startNs > summary.origin ? qsizetype((startNs - summary.origin) / w) : 0;
    std::array<double, StateCount> cover{};
    int column = -1;
    auto flush = [&] {
        if (column < 0 || column >= width)
            return;
        int best = 0;
        for (int s = 1; s < StateCount; ++s) {
            if (cover[size_t(s)] > cover[size_t(best)])
                best = s;
        }
        if (cover[size_t(best)] > 0)
            out[size_t(column)] = quint8(best + 1);
        cover.fill(0);
    };
    // A bucket counts for the column its middle is in: at a bucket per pixel or more, the
    // error is at most a bucket at each column's edge.
    for (; b < buckets; ++b) {
        const quint64 mid = summary.origin + quint64(b) * w + w / 2;
        if (mid < startNs)
            continue;
        if (mid >= endNs)
            break;
        const int c = int(double(mid - startNs) / nsPerPx);
        if (c != column) {
            flush();
            column = c;
        }
        const quint16 *share = &shares[size_t(b) * StateCount];
        for (int s = 0; s < StateCount; ++s)
            cover[size_t(s)] += share[s];
    }
    flush();
    return true;
}

qsizetype ThreadStateModel::spanAt(quint32 tid, quint64 timeNs) const
{
    const qsizetype i = index().spanBefore(tid, timeNs + 1);
    if (i < 0)
        return -1;
    const EventStore &store = m_session->events();
    const quint64 s = store.value<&E::timeNs>(i);
    return timeNs >= s && timeNs < s + std::max<quint64>(1, store.value<&E::durNs>(i)) ? i : -1;
}

std::vector<quint8> ThreadStateModel::laneStates(quint32 tid, quint64 startNs, quint64 endNs,
                                                 int width) const
{
    std::vector<quint8> out(size_t(std::max(0, width)), 0);
    if (width <= 0 || endNs <= startNs)
        return out;
    const QList<qsizetype> &spans = index().spans(tid);
    if (spans.isEmpty())
        return out;
    if (const auto it = m_summaries.constFind(tid);
        it != m_summaries.cend() && laneStatesFromSummary(*it, startNs, endNs, out))
        return out;
    const EventStore &store = m_session->events();
    const double nsPerPx = double(endNs - startNs) / width;
    // The first span ending after startNs: spans are in time order and do not overlap.
    auto it = std::partition_point(spans.cbegin(), spans.cend(), [&](qsizetype i) {
        return store.value<&E::timeNs>(i) + store.value<&E::durNs>(i) <= startNs;
    });
    // Coverage per state of the column being filled; a span wider than the rest of its column
    // fills the columns it covers whole directly.
    std::array<double, StateSlots> cover{};
    int column = -1; // the column cover[] is for
    auto flush = [&] {
        if (column < 0 || column >= width)
            return;
        int best = 0;
        for (int s = 1; s < StateSlots; ++s) {
            if (cover[size_t(s)] > cover[size_t(best)])
                best = s;
        }
        if (cover[size_t(best)] > 0)
            out[size_t(column)] = quint8(best);
        cover.fill(0);
    };
    for (; it != spans.cend(); ++it) {
        const qsizetype i = *it;
        const quint64 s = store.value<&E::timeNs>(i);
        if (s >= endNs)
            break;
        const quint64 e = s + store.value<&E::durNs>(i);
        const quint8 state = store.value<&E::state>(i);
        if (state >= StateSlots)
            continue;
        const double x0 = double(std::max(s, startNs) - startNs) / nsPerPx;
        const double x1 = double(std::min(e, endNs) - startNs) / nsPerPx;
        const int c0 = std::min(width - 1, int(x0));
        const int c1 = std::min(width - 1, int(x1));
        if (c0 != column) {
            flush();
            column = c0;
        }
        if (c1 == c0) {
            cover[state] += std::max(x1 - x0, 1e-9);
            continue;
        }
        cover[state] += double(c0 + 1) - x0;
        flush();
        for (int c = c0 + 1; c < c1; ++c)
            out[size_t(c)] = state;
        column = c1;
        cover[state] += x1 - double(c1);
    }
    flush();
    return out;
}

} // namespace bpflens
