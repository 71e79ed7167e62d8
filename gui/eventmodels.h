#pragma once

#include "viewstate.h"

#include <QAbstractProxyModel>
#include <QAbstractTableModel>
#include <QHash>

#include <vector>

namespace bpflens {

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
    static QString formatDuration(quint64 ns);            // "1.25 ms"
    static QString displayBytes(const QByteArray &bytes); // invalid UTF-8 shown as \xNN
    // Every field of one event, in the order of the details pane: (title, value).
    static QList<QPair<QString, QString>> eventFields(const SessionModel &session,
                                                      const EventRef &ref);

private:
    QVariant cell(qsizetype row, int column, int role) const;
    QStringList headers() const;
    bool isTextColumn(int column) const;

    SessionModel *m_session;
    EventType m_type;
    int m_columns = 0;
    int m_rows = 0; // cached: views must see the old count until endInsertRows()
    bool m_appendOutOfOrder = false;
};

// The rows of an EventTableModel that pass ViewState's filter and lie in its time range.
// Filtering scans the store once per filter change, keeping only 4-byte row numbers (strings
// are compared in place, and each interned string is matched once); a range change is two
// binary searches, so zooming millions of rows is instant.
class EventFilterModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    EventFilterModel(EventTableModel *source, ViewState *state, QObject *parent = nullptr);

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
    bool filterActive() const { return m_filtering; }
    // Proxy row showing this store index, or -1 if it is filtered out or outside the range.
    int rowForEvent(qsizetype storeIndex) const;
    quint64 version() const { return m_version; }

Q_SIGNALS:
    void acceptedChanged();

private:
    void refilter();
    void updateRange();
    bool accepts(qsizetype i) const;
    bool textMatches(const QByteArray &bytes) const;
    void sourceRowsInserted(int first, int last);

    EventTableModel *m_source;
    ViewState *m_state;
    bool m_filtering = false;
    std::vector<quint32> m_accepted; // store indices, only while m_filtering
    qsizetype m_first = 0;           // [m_first, m_last) of the accepted sequence is shown
    qsizetype m_last = 0;
    EventFilter m_filter;
    QByteArray m_needle;                            // lower-cased text filter
    mutable QHash<const char *, bool> m_matchCache; // interned bytes -> matched
    quint64 m_version = 0;
};

} // namespace bpflens
