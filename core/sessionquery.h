#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <atomic>
#include <functional>

struct sqlite3;

namespace bpflens {

struct QueryConnection;

// SQL over a session file (docs/sql.md). The file is opened read-only as untrusted input, and
// every event type gets an eponymous virtual table named like its CSV file ("block", "exec")
// whose columns follow the type's declaration (core/events/<type>.h): the chunks of
// event_chunks are decoded one at a time while a query runs, so a query never holds the whole
// session in memory and a new event type is queryable without code here. histogram_buckets
// and stack_entries give the histogram slots and stack frame lists as rows; the file's plain
// tables (meta, probes, counters, ...) are queryable as they are.
class SessionQuery
{
public:
    SessionQuery();
    ~SessionQuery();
    SessionQuery(const SessionQuery &) = delete;
    SessionQuery &operator=(const SessionQuery &) = delete;

    // Refuses anything but a schema 2 BPF Lens session, with a message naming the file.
    bool open(const QString &path, QString *error);
    void close();
    bool isOpen() const { return m_db != nullptr; }

    // Runs one read-only statement. columns gets the result's column names before the first
    // row; row is called per row (INTEGER as qint64, REAL as double, TEXT as QString, BLOB as
    // QByteArray, NULL as an invalid QVariant) and stops the query by returning false. A SQL
    // error, a damaged chunk or a statement that would write gives false and *error.
    using Row = std::function<bool(const QVariantList &values)>;
    bool exec(const QString &sql, QStringList *columns, const Row &row, QString *error);

    // Why the last exec() failed, for callers that answer each cause differently (the CLI's
    // exit status): the file is damaged, the statement ran out of time or was cancelled, or a
    // string or BLOB grew past maxLength(); Statement for everything else.
    enum class Failure
    {
        None,
        Statement,
        Damaged,
        TimedOut,
        Cancelled,
        TooBig
    };
    Failure lastFailure() const { return m_failure; }

    // exec() stops a statement that runs longer than this (0: no limit), with "the query ran
    // longer than N s". A recursive CTE otherwise runs until the process is killed.
    void setTimeLimit(qint64 ms) { m_timeLimitMs = ms; }
    // exec() stops as soon as *flag is true (set from a signal handler: Ctrl-C), checked every
    // few thousand SQLite instructions. Both install a progress handler: a caller with its own
    // (the GUI's Cancel) leaves them unset.
    void setCancelFlag(const std::atomic<bool> *flag) { m_cancel = flag; }
    // The longest string or BLOB a statement may make (SQLITE_LIMIT_LENGTH), set by open():
    // DefaultMaxLength, or more when a chunk of the file is longer. zeroblob(1e8) would
    // otherwise take hundreds of MB once printed.
    static constexpr int DefaultMaxLength = 64 << 20;
    int maxLength() const;

    struct TableColumn
    {
        QString name;
        QString type; // INTEGER, REAL, TEXT, BLOB or "" (any)
    };
    struct Table
    {
        QString name;
        QString kind; // "events", "virtual", "view" or "table"
        QString description;
        QList<TableColumn> columns;
    };
    // Every table a query can name: the event tables in the order of core/events.h, then the
    // other virtual tables, then the file's own tables.
    QList<Table> tables() const;
    // The event and virtual tables alone (they do not depend on a file).
    static QList<Table> virtualTables();

    sqlite3 *handle() const { return m_db; }

private:
    static int progress(void *self);

    sqlite3 *m_db = nullptr;
    QueryConnection *m_shared = nullptr;
    Failure m_failure = Failure::None;
    qint64 m_timeLimitMs = 0;
    const std::atomic<bool> *m_cancel = nullptr;
    QElapsedTimer m_running;
    bool m_timedOut = false;
};

} // namespace bpflens
