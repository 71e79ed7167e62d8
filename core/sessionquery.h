#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

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

    struct TableColumn
    {
        QString name;
        QString type; // INTEGER, REAL, TEXT, BLOB or "" (any)
    };
    struct Table
    {
        QString name;
        QString kind; // "events", "virtual" or "table"
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
    sqlite3 *m_db = nullptr;
    QueryConnection *m_shared = nullptr;
};

} // namespace bpflens
