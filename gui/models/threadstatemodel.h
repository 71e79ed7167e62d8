#pragma once

#include "core/criticalpath.h"
#include "core/eventfilter.h"

#include <QAbstractTableModel>
#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>

#include <vector>

namespace bpflens {

class SessionModel;
class ViewState;

// The Threads view's lanes (issue #33): the recorded threads' thread-state spans
// (ThreadStateIndex) as a list of rows, a header per process and under it a lane per thread,
// for ViewState's filter and visible range. A thread has a lane when one of its spans passes
// the filter (pid, command, text and the others, as the event tables apply it) and it has a
// span in the visible range; a process's threads follow its header unless it is collapsed.
// Processes and their threads come busiest first (time running over the whole session), so
// the threads that matter are at the top of a system-wide recording.
//
// laneStates() merges the spans of a lane per pixel column: each column gets the state that
// covers the most of it, so a 10M-span session draws as many rectangles as there are pixels.
class ThreadStateModel : public QObject
{
    Q_OBJECT
public:
    ThreadStateModel(SessionModel *session, ViewState *state, QObject *parent = nullptr);

    struct Row
    {
        bool isProcess = false;
        quint32 pid = 0;
        quint32 tid = 0; // 0 for a process header
        QByteArray comm; // the thread's (its last span's), or the process's main thread's
        int threads = 0; // a process header: its threads with a lane
        quint64 runningNs = 0;
    };

    // Whether the session holds thread states at all.
    bool isEmpty() const;
    const QList<Row> &rows() const;
    // The row of a thread's lane (-1: none, filtered out or collapsed) or process header.
    int rowOfThread(quint32 tid) const;
    int rowOfProcess(quint32 pid) const;
    // "comm tid", "comm pid" for a header; as the lanes' labels say them.
    static QString rowLabel(const Row &row);

    void setCollapsed(quint32 pid, bool collapsed);
    bool isCollapsed(quint32 pid) const { return m_collapsed.contains(pid); }

    // The spans of every thread, built on first use after the session changed.
    const ThreadStateIndex &index() const;
    // Bumped whenever rows() or the spans change: the view's caches compare it.
    quint64 version() const { return m_version; }

    // The span of tid holding timeNs (start <= timeNs < end), or -1.
    qsizetype spanAt(quint32 tid, quint64 timeNs) const;
    // Per pixel column of [startNs, endNs) over width columns: the ThreadStateEvent::State that
    // covers most of the column, 0 where no span does.
    std::vector<quint8> laneStates(quint32 tid, quint64 startNs, quint64 endNs, int width) const;

Q_SIGNALS:
    void rowsChanged();

private:
    struct Thread
    {
        quint32 pid = 0;
        quint32 tid = 0;
        QByteArray comm;
        QByteArray processComm; // its main thread's, whether that has a lane or not
        quint64 firstNs = 0;    // its first span's start
        quint64 lastNs = 0;     // its last span's end
        quint64 runningNs = 0;
    };
    // A busy thread's spans summed into buckets, for ranges where a pixel holds many spans:
    // level 0 has about a bucket per 4 spans, each next level half as many, each bucket the
    // share of its time (of 65535) in each state. A lane then costs a few buckets per pixel
    // column instead of every span in it.
    struct Summary
    {
        quint64 origin = 0;
        quint64 width0 = 1;                 // ns per level-0 bucket
        QList<std::vector<quint16>> levels; // StateCount shares per bucket
    };
    static constexpr int StateCount = 5; // Running .. Stopped
    static constexpr qsizetype SummaryMinSpans = 4096;
    void buildSummary(const Thread &t) const;
    bool laneStatesFromSummary(const Summary &summary, quint64 startNs, quint64 endNs,
                               std::vector<quint8> &out) const;
    void ensureThreads() const;
    void updateRows() const;
    void invalidate();
    bool threadAccepted(const Thread &t) const;

    SessionModel *m_session;
    ViewState *m_state;
    mutable bool m_built = false;
    mutable ThreadStateIndex m_index;
    mutable QList<Thread> m_threads; // processes and threads busiest first
    mutable QHash<quint32, Summary> m_summaries;
    mutable bool m_rowsValid = false;
    mutable QList<Row> m_rows;
    mutable QHash<quint32, int> m_threadRows;
    mutable QHash<quint32, int> m_processRows;
    // The filter the accepted threads were computed with, and the result per tid.
    mutable EventFilter m_acceptedFilter;
    mutable bool m_acceptedValid = false;
    mutable QSet<quint32> m_accepted;
    QSet<quint32> m_collapsed;
    quint64 m_version = 1;
};

} // namespace bpflens
