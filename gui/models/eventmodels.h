#pragma once

#include "gui/models/backgroundjob.h"
#include "gui/models/viewstate.h"

#include <QAbstractProxyModel>
#include <QAbstractTableModel>
#include <QHash>

#include <vector>

namespace bpflens {

class EventStore;
class SessionModel;

// All events of one type as a virtual table: cells are read from the EventStore on demand, so
// millions of rows cost nothing until they scroll into view.
class EventTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles
    {
        EventIndexRole = Qt::UserRole + 1, // qsizetype index in the EventStore
        TimeNsRole,                        // quint64 CLOCK_MONOTONIC ns
        PidRole,                           // quint32
        CommRole,                          // QByteArray as recorded
        LatencyNsRole,                     // quint64 for block and fsslow, else invalid
        RawValueRole,                      // the column's value unformatted (numbers, bytes)
    };
    Q_ENUM(Roles)

    EventTableModel(SessionModel *session, EventType type, QObject *parent = nullptr);

    EventType type() const { return m_type; }
    SessionModel *session() const { return m_session; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "12.345678 s" after the session start; shared by the details pane and the timeline.
    static QString formatTime(quint64 timeNs, quint64 sessionStartNs);
    // "09:30:02.000123", the local time of day (execsnoop -T), or "" when the session has no
    // wall clock start.
    static QString formatTimeOfDay(quint64 timeNs, const SessionModel &session);
    // The Time column as the time of day instead of seconds since the start.
    void setTimeOfDay(bool on);
    bool timeOfDay() const { return m_timeOfDay; }
    static QString formatDuration(quint64 ns);            // "1.25 ms"
    static QString displayBytes(const QByteArray &bytes); // invalid UTF-8 shown as \xNN
    // The title of a type's stack column, which shows one function of the stack: "Function",
    // "Blocked in".
    static QString stackTitle(EventType type);
    // Every field of one event, in the order of the details pane: (title, value).
    static QList<QPair<QString, QString>> eventFields(const SessionModel &session,
                                                      const EventRef &ref);

private:
    QVariant cell(qsizetype row, int column, int role) const;
    // A stack column's cell: the function the event is named by, with its module in the tool
    // tip.
    template<typename E>
    QString stackText(const E &e, bool toolTip) const;
    // The waker's stack column of an off-wake wait: the waker's function, empty when the
    // wakeup was not seen.
    QString wakerStackText(quint32 stackId, bool toolTip) const;
    QStringList headers() const;
    bool isTextColumn(int column) const;

    SessionModel *m_session;
    EventType m_type;
    int m_columns = 0;
    // The Container and Unit columns, after Command: shown when the session's cgroups tell
    // events apart (more than one cgroup; a container for Container), which on a machine
    // without containers or services would only repeat "-.slice" on every row.
    enum CgroupColumn
    {
        ContainerColumn,
        UnitColumn
    };
    // What each column after Time shows: the type's own table column `own`, or (own < 0) a
    // cgroup column.
    struct Slot
    {
        int own = -1;
        CgroupColumn cgroup = UnitColumn;
    };
    QList<Slot> m_slots;
    void updateColumns();
    // The slot of a column after Time; nullptr for Time and past the end.
    const Slot *slot(int column) const
    {
        return column >= 1 && column <= m_slots.size() ? &m_slots.at(column - 1) : nullptr;
    }
    QVariant cgroupCell(qsizetype row, CgroupColumn which, int role) const;
    int m_rows = 0; // cached: views must see the old count until endInsertRows()
    bool m_appendOutOfOrder = false;
    bool m_timeOfDay = false;
};

// The rows of an EventTableModel that pass ViewState's filter and lie in its time range.
// Filtering scans the store once per filter change, keeping only 4-byte row numbers; a range
// change is two binary searches, so zooming millions of rows is instant.
//
// On tables of asyncThreshold() rows or more the scan runs in a worker thread, so typing into
// the filter never freezes the window: each change cancels the running scan and starts
// another, the rows of the previous filter stay shown meanwhile (filterPending() is true), and
// the finished result replaces them in one model reset. Before the store changes (a reset, or
// live data appended) a running scan is cancelled and waited for (it checks every few thousand
// rows), then started again on the new data.
class EventFilterModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    EventFilterModel(EventTableModel *source, ViewState *state, QObject *parent = nullptr);
    ~EventFilterModel() override;

    EventTableModel *eventModel() const { return m_source; }
    EventType type() const { return m_source->type(); }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The accepted sequence over the whole session (ignoring the time range), time-sorted:
    // the timeline bins it per pixel with acceptedLowerBound().
    qsizetype acceptedCount() const;
    qsizetype acceptedAt(qsizetype k) const; // store index
    qsizetype acceptedLowerBound(quint64 timeNs) const;
    // acceptedAt() as an array for hot loops: null while no filter is active (then accepted
    // position k is store index k). Valid until acceptedChanged().
    const quint32 *acceptedIndices() const { return m_filtering ? m_accepted.data() : nullptr; }
    bool filterActive() const { return m_filtering; }
    // Proxy row showing this store index, or -1 if it is filtered out or outside the range.
    int rowForEvent(qsizetype storeIndex) const;
    quint64 version() const { return m_version; }

    // A worker is computing the rows of the current filter; the rows shown are the previous
    // filter's until it is done.
    bool filterPending() const { return m_pending; }
    // Tables with at least this many rows are filtered in a worker (default 200000: below
    // that a scan takes a few milliseconds and showing "filtering…" would only flicker).
    void setAsyncThreshold(qsizetype rows) { m_asyncThreshold = rows; }
    qsizetype asyncThreshold() const { return m_asyncThreshold; }

Q_SIGNALS:
    void acceptedChanged();
    void filterPendingChanged(bool pending);

private:
    void refilter();
    bool useWorker() const;
    void startScan();
    void finishScan(std::vector<quint32> accepted);
    void stopScan(); // cancel and wait: the store is about to change
    void setPending(bool pending);
    void updateRange();
    void sourceRowsInserted(int first, int last);

    EventTableModel *m_source;
    ViewState *m_state;
    bool m_filtering = false;
    std::vector<quint32> m_accepted; // store indices, only while m_filtering
    qsizetype m_first = 0;           // [m_first, m_last) of the accepted sequence is shown
    qsizetype m_last = 0;
    EventMatcher m_matcher; // the filter m_accepted was computed with
    quint64 m_version = 0;

    // One worker per model: a cancelled scan ends within a few thousand rows, so the next
    // one starts almost at once, and waiting for it is waiting for at most one scan.
    BackgroundJob m_scan;
    bool m_pending = false;
    bool m_restartAfterChange = false;
    qsizetype m_asyncThreshold = 200000;
};

} // namespace bpflens
