#pragma once

// The tests' one reader of the CSV files CsvExport writes: strict RFC 4180 (CRLF records,
// quoted fields with doubled quotes), so a test also catches a file that is not.
#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>

namespace bpflens::test {

// *ok is false (and the rows read so far are returned) at the first thing RFC 4180 forbids.
inline QList<QList<QByteArray>> parseCsv(const QByteArray &text, bool *ok)
{
    QList<QList<QByteArray>> rows;
    QList<QByteArray> row;
    QByteArray field;
    *ok = true;
    qsizetype i = 0;
    while (i < text.size()) {
        if (text.at(i) == '"') {
            ++i;
            for (;;) {
                if (i >= text.size()) {
                    *ok = false;
                    return rows;
                }
                if (text.at(i) == '"') {
                    if (i + 1 < text.size() && text.at(i + 1) == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += text.at(i++);
            }
        }
        while (i < text.size() && text.at(i) != ',' && text.at(i) != '\r') {
            if (text.at(i) == '"' || text.at(i) == '\n')
                *ok = false;
            field += text.at(i++);
        }
        if (i < text.size() && text.at(i) == ',') {
            row.append(field);
            field.clear();
            ++i;
            continue;
        }
        if (i + 1 >= text.size() || text.at(i + 1) != '\n') {
            *ok = false;
            return rows;
        }
        row.append(field);
        field.clear();
        rows.append(row);
        row.clear();
        i += 2;
    }
    return rows;
}

// A file's rows; empty when it cannot be read or is not strict CSV.
inline QList<QList<QByteArray>> readCsv(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    bool ok = false;
    const auto rows = parseCsv(f.readAll(), &ok);
    return ok ? rows : QList<QList<QByteArray>>();
}

} // namespace bpflens::test
