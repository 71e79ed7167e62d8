#pragma once

#include "core/sessionstore.h"

#include <QObject>

namespace bpflens {

// The document every view reads: one session's data, loaded from a file today and grown by
// RecordBatch from a live recording later. Views never hold copies of events; they read the
// EventStore on demand and react to the signals below.
class SessionModel : public QObject
{
    Q_OBJECT
public:
    explicit SessionModel(QObject *parent = nullptr);
    ~SessionModel() override;

    // Replaces the document (e.g. after SessionReader::open()).
    void setSession(SessionData data, const QString &path = {});
    void clear();
    // Appends live data. Events keep the EventStore's time order; if an append landed out of
    // order the row indices of later events shift, so views rebuild instead of inserting.
    void append(const RecordBatch &batch);
    // Ends a live recording at endNs (never before its last data); signals appended(false).
    void setEndTime(quint64 endNs);
    // After a Save As: the document now is that file.
    void setPath(const QString &path) { m_path = path; }

    const SessionData &data() const { return m_data; }
    const EventStore &events() const { return m_data.events; }
    const StackTable &stacks() const { return m_data.stacks; }
    const SessionInfo &info() const { return m_data.info; }
    // cachestat-style per-interval counters (only from append(): schema 1 files hold none).
    const QList<CounterSample> &counters() const { return m_data.counters; }
    QString path() const { return m_path; }
    bool isEmpty() const;

    // The whole session's time span [first, end): covers the session start, every event and
    // every histogram/stats/counter sample, so "reset zoom" shows everything.
    quint64 firstTimeNs() const { return m_firstNs; }
    quint64 endTimeNs() const { return m_endNs; }
    // The longest block request (queue + device), so a range query can find requests that
    // started inside a range but completed after it.
    quint64 maxBlockSpanNs() const { return m_maxBlockSpanNs; }
    // Bumped on every change; caches compare it.
    quint64 version() const { return m_version; }

    // The event types the GUI shows lanes and tables for.
    static QList<EventType> eventTypes();
    static QString typeName(EventType type); // translated, "Exec"
    // Whether the session holds events of type or recorded the probe that makes them (a session
    // that names no probes, an old file, counts as recording all): the views leave out the
    // types of probes nobody asked for.
    bool showsType(EventType type) const;

Q_SIGNALS:
    void aboutToReset();
    void reset();
    // Events were appended; outOfOrder means indices of earlier rows may have moved.
    void aboutToAppend();
    void appended(bool outOfOrder);
    // The store is about to go: a worker thread still reading it must stop now. (A window's
    // children are deleted in creation order, the session model before the pages whose
    // workers read it.)
    void aboutToBeDestroyed();

private:
    void updateSpan();

    SessionData m_data;
    QString m_path;
    quint64 m_firstNs = 0;
    quint64 m_endNs = 0;
    quint64 m_maxBlockSpanNs = 0;
    quint64 m_version = 0;
};

} // namespace bpflens
