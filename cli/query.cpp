#include "cli/commands.h"
#include "cli/common.h"

#include "cli/probespec.h"
#include "core/csvexport.h"
#include "core/eventschema.h"
#include "core/sessionquery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <cmath>

namespace bpflens::cli {

namespace {

// A JSON string literal (QJsonDocument would need the whole result in memory).
QByteArray jsonString(const QString &s)
{
    QByteArray out = "\"";
    for (const char c : s.toUtf8()) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (quint8(c) < 0x20) {
            out += "\\u00" + QByteArray::number(int(c), 16).rightJustified(2, '0');
        } else {
            out += c;
        }
    }
    return out + '"';
}

// A result value as text: numbers as SQLite prints them, BLOBs (the file's own tables) in the
// escaped form of kernel bytes, NULL as the empty string (table: "NULL").
QString cellText(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
        return QString();
    case QMetaType::Double:
        return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
    case QMetaType::QByteArray:
        return QString::fromUtf8(escapeKernelBytes(v.toByteArray()));
    default:
        return v.toString();
    }
}

QByteArray jsonValue(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
        return "null";
    case QMetaType::Double: {
        const double d = v.toDouble();
        return std::isfinite(d) ? QByteArray::number(d, 'g', QLocale::FloatingPointShortest)
                                : QByteArray("null");
    }
    case QMetaType::LongLong:
        return QByteArray::number(v.toLongLong());
    default:
        return jsonString(cellText(v));
    }
}

// Prints an aligned table. Widths come from the first rows; later, longer cells widen their
// row only, so a result of millions of rows streams instead of being held.
class TablePrinter
{
public:
    static constexpr int WidthRows = 1000;

    explicit TablePrinter(QTextStream &out)
        : m_out(out)
    {
    }
    void setColumns(const QStringList &columns) { m_columns = columns; }
    void add(const QVariantList &values)
    {
        QStringList cells;
        for (const QVariant &v : values)
            cells.append(v.isValid() ? cellText(v) : QStringLiteral("NULL"));
        if (m_rows.size() < WidthRows && !m_started) {
            if (m_numeric.isEmpty())
                m_numeric = QList<bool>(values.size(), true);
            for (qsizetype i = 0; i < values.size(); ++i) {
                const int t = values.at(i).typeId();
                if (values.at(i).isValid() && t != QMetaType::LongLong && t != QMetaType::Double)
                    m_numeric[i] = false;
            }
            m_rows.append(cells);
            return;
        }
        start();
        print(cells);
    }
    void finish()
    {
        start();
        m_out.flush();
    }
    qint64 rows() const { return m_count; }

private:
    void start()
    {
        if (m_started)
            return;
        m_started = true;
        m_widths = QList<qsizetype>(m_columns.size(), 0);
        if (m_numeric.size() != m_columns.size())
            m_numeric = QList<bool>(m_columns.size(), false);
        for (qsizetype i = 0; i < m_columns.size(); ++i)
            m_widths[i] = m_columns.at(i).size();
        for (const QStringList &r : std::as_const(m_rows))
            for (qsizetype i = 0; i < r.size() && i < m_widths.size(); ++i)
                m_widths[i] = std::max(m_widths[i], r.at(i).size());
        QStringList rule;
        for (qsizetype w : std::as_const(m_widths))
            rule.append(QString(w, u'-'));
        const QList<bool> numeric = m_numeric;
        m_numeric = QList<bool>(m_columns.size(), false); // headers are left-aligned
        print(m_columns, false);
        print(rule, false);
        m_numeric = numeric;
        for (const QStringList &r : std::as_const(m_rows))
            print(r);
        m_rows.clear();
    }
    void print(const QStringList &cells, bool count = true)
    {
        QString line;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            if (i > 0)
                line += QStringLiteral("  ");
            const qsizetype w = m_widths.value(i);
            const bool last = i == cells.size() - 1;
            if (m_numeric.value(i))
                line += cells.at(i).rightJustified(w);
            else
                line += last ? cells.at(i) : cells.at(i).leftJustified(w);
        }
        m_out << line << '\n';
        if (count)
            ++m_count;
    }

    QTextStream &m_out;
    QStringList m_columns;
    QList<QStringList> m_rows;
    QList<qsizetype> m_widths;
    QList<bool> m_numeric;
    bool m_started = false;
    qint64 m_count = 0;
};

int listTables(const SessionQuery &query, bool json)
{
    const QList<SessionQuery::Table> tables = query.tables();
    if (json) {
        QJsonArray list;
        for (const SessionQuery::Table &t : tables) {
            QJsonArray columns;
            for (const SessionQuery::TableColumn &c : t.columns)
                columns.append(QJsonObject{{QStringLiteral("name"), c.name},
                                           {QStringLiteral("type"), c.type}});
            list.append(QJsonObject{{QStringLiteral("name"), t.name},
                                    {QStringLiteral("kind"), t.kind},
                                    {QStringLiteral("description"), t.description},
                                    {QStringLiteral("columns"), columns}});
        }
        out() << QJsonDocument(list).toJson();
        return Ok;
    }
    for (const SessionQuery::Table &t : tables) {
        out() << t.name << " (" << t.kind;
        if (!t.description.isEmpty())
            out() << ": " << t.description;
        out() << ")\n";
        for (const SessionQuery::TableColumn &c : t.columns)
            out() << "  " << c.name << (c.type.isEmpty() ? QString() : u' ' + c.type) << '\n';
    }
    return Ok;
}

} // namespace

int query(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs one read-only SQL statement over a session file. Every event type "
                       "is a table named like its probe (block, exec, open, ...), with the "
                       "columns of its CSV file; docs/sql.md lists them."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .bpflens session file."));
    parser.addPositionalArgument(
        QStringLiteral("sql"),
        QStringLiteral("The statement, e.g. \"SELECT comm, count(*) FROM block GROUP BY comm\"."));
    parser.addOption({QStringLiteral("format"),
                      QStringLiteral("table (default, aligned), csv or json."),
                      QStringLiteral("format"), QStringLiteral("table")});
    parser.addOption({QStringLiteral("tables"),
                      QStringLiteral("List the tables and their columns instead (the FILE's own "
                                     "tables too when one is given).")});
    parser.addOption({QStringLiteral("timeout"),
                      QStringLiteral("Stop the statement after this long (500ms, 30s, 5m; 0: no "
                                     "limit). Default 60s; Ctrl-C stops it at once."),
                      QStringLiteral("duration"), QStringLiteral("60s")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("query"), args, &status))
        return status;
    qint64 timeoutMs = 0;
    if (const QString timeout = parser.value(QStringLiteral("timeout"));
        timeout.trimmed() != QLatin1String("0")) {
        QString why;
        const auto ns = parseDuration(timeout, &why);
        if (!ns)
            return fail(QStringLiteral("--timeout: %1").arg(why), Usage);
        timeoutMs = std::max<qint64>(1, qint64(*ns / 1000000));
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("table") && format != QLatin1String("csv") &&
        format != QLatin1String("json"))
        return fail(QStringLiteral("unknown --format \"%1\" (table, csv or json)").arg(format),
                    Usage);
    const QStringList positional = parser.positionalArguments();
    const bool listing = parser.isSet(QStringLiteral("tables"));
    if (listing ? positional.size() > 1 : positional.size() != 2)
        return fail(listing ? QStringLiteral("query --tables takes at most one session file")
                            : QStringLiteral("query takes a session file and one SQL statement"),
                    Usage);
    SessionQuery query;
    QString error;
    if (!positional.isEmpty() && !query.open(positional.first(), &error))
        return fail(error, NoSession);
    if (listing)
        return listTables(query, format == QLatin1String("json"));
    query.setTimeLimit(timeoutMs);
    // Ctrl-C (and SIGTERM) only set a flag, which SQLite's progress handler checks: the
    // statement ends within a thousand instructions and the command says it was cancelled.
    installStopHandlers();
    query.setCancelFlag(&g_stopRequested);

    QStringList columns;
    TablePrinter table(out());
    bool first = true;
    const bool csv = format == QLatin1String("csv");
    const bool json = format == QLatin1String("json");
    auto header = [&] {
        if (!first)
            return;
        first = false;
        if (csv) {
            QByteArray line;
            for (qsizetype i = 0; i < columns.size(); ++i)
                line += (i ? "," : "") + CsvExport::quoteField(columns.at(i).toUtf8());
            out() << line << "\r\n";
        } else if (json) {
            out() << "[";
        } else {
            table.setColumns(columns);
        }
    };
    qint64 rows = 0;
    const bool ok = query.exec(
        positional.at(1), &columns,
        [&](const QVariantList &values) {
            header();
            if (csv) {
                QByteArray line;
                for (qsizetype i = 0; i < values.size(); ++i)
                    line += (i ? "," : "") + CsvExport::quoteField(cellText(values.at(i)).toUtf8());
                out() << line << "\r\n";
            } else if (json) {
                QByteArray object = rows ? ",\n{" : "\n{";
                for (qsizetype i = 0; i < values.size(); ++i)
                    object += (i ? ", " : "") + jsonString(columns.at(i)) + ": " +
                              jsonValue(values.at(i));
                out() << object << '}';
            } else {
                table.add(values);
            }
            ++rows;
            // Output nobody can read is not worth computing: main() reports the failure.
            return !standardOutputFailed() && !g_stopRequested;
        },
        &error);
    if (!ok) {
        out().flush();
        switch (query.lastFailure()) {
        case SessionQuery::Failure::Damaged:
            return fail(error.simplified(), NoSession);
        case SessionQuery::Failure::TimedOut:
            return fail(error.simplified() + QStringLiteral(" (--timeout; 0 for none)"));
        case SessionQuery::Failure::Cancelled:
            return fail(error.simplified(), Interrupted);
        default:
            return fail(error.simplified());
        }
    }
    // A Ctrl-C between two rows ends the statement through the row callback's caller, which
    // then looks like a clean end: it is not one.
    if (g_stopRequested)
        return fail(QStringLiteral("the query was cancelled"), Interrupted);
    header();
    if (json)
        out() << (rows ? "\n]\n" : "]\n");
    else if (!csv)
        table.finish();
    out().flush();
    return Ok;
}

} // namespace bpflens::cli
