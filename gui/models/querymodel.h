#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QStringList>
#include <QVariant>

class QIODevice;

namespace bpflens {

// The result of one SQL query over a session (SessionQuery, docs/sql.md) as a table: the
// result's column names as headers, values as SQLite typed them. It holds the rows it is given
// (the Query tab caps them), and sorts them in memory by a header click; column -1 is the
// query's own order again.
class QueryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles
    {
        ValueRole = Qt::UserRole + 1, // the value as SessionQuery gave it (invalid for NULL)
    };

    explicit QueryModel(QObject *parent = nullptr);

    void setResult(const QStringList &columns, QList<QVariantList> rows);
    void clear();
    QStringList columns() const { return m_columns; }

    // A cell as the table shows it, and as `bpflens-cli query` prints it: NULL as "NULL",
    // numbers without group separators (a copied value can go back into SQL), a BLOB in the
    // CSV files' escaped text form.
    static QString displayText(const QVariant &value);
    // The rows in their current order as RFC 4180 CSV with a header line, like `bpflens-cli
    // query --format csv`: CRLF, NULL as an empty cell.
    bool writeCsv(QIODevice *device) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    QStringList m_columns;
    QList<QVariantList> m_rows;
    QList<int> m_order; // view row -> row of the result as the query returned it
};

} // namespace bpflens
