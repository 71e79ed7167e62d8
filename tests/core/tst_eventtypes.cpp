// Every declared event type through every path that carries events: the stream protocol, a
// session file written and read back, CSV export. The events come from the declarations
// (everytype.h), so a new type is covered here the day it is declared; a path that forgets a
// type fails with the type's name.
#include "core/csvexport.h"
#include "core/protocol.h"
#include "core/sessionstore.h"
#include "tests/everytype.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int Count = 5;
constexpr quint64 Start = 1'000'000'000;

SessionInfo sessionInfo()
{
    SessionInfo info;
    info.schemaVersion = SessionSchemaVersion;
    info.appVersion = QStringLiteral("test");
    info.host = QStringLiteral("host");
    info.kernelRelease = QStringLiteral("6.18");
    info.startWall = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    info.startMonotonicNs = Start;
    return info;
}

QString typeName(EventType t)
{
    return QString::fromLatin1(probeIdOf(t));
}

// Splits one CSV line into fields (RFC 4180 quoting).
QList<QByteArray> csvFields(const QByteArray &line)
{
    QList<QByteArray> fields{QByteArray()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line.at(i);
        if (quoted && c == '"' && i + 1 < line.size() && line.at(i + 1) == '"') {
            fields.last() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.append(QByteArray());
        } else {
            fields.last() += c;
        }
    }
    return fields;
}

} // namespace

class TestEventTypes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyTypeIsDeclaredCompletely()
    {
        forEachEventType([&]<typename E>() {
            const QString name = typeName(eventTypeOf<E>);
            QVERIFY2(isEventType(int(eventTypeOf<E>)), qPrintable(name));
            QVERIFY2(!name.isEmpty(), "a type without a probe id");
            QCOMPARE(CsvExport::fileNameFor(eventTypeOf<E>), name + QStringLiteral(".csv"));
            QVERIFY2(EventTraits<E>::title && EventTraits<E>::wireName, qPrintable(name));
            int table = 0, csv = 0;
            for (const Column<E> &c : EventTraits<E>::columns) {
                QVERIFY2(!(c.show & InCsv) || c.csvName, qPrintable(name));
                QVERIFY2(!(c.show & (InTable | InDetails)) || c.title, qPrintable(name));
                table += (c.show & InTable) != 0;
                csv += (c.show & InCsv) != 0;
            }
            QVERIFY2(table > 0 && csv > 0, qPrintable(name + QStringLiteral(" shows nothing")));
        });
        QVERIFY(!isEventType(0));
        QVERIFY(!isEventType(200));
    }

    void everyTypeThroughTheStream()
    {
        const RecordBatch batch = everyTypeBatch(Count, Start);
        StreamWriter writer;
        QVERIFY(writer.writeHello(sessionInfo()));
        QString error;
        QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        writer.writeEnd({});
        StreamReader reader;
        reader.feed(writer.takePending());
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        RecordBatch received;
        while (reader.hasMessage()) {
            StreamMessage m = reader.takeMessage();
            if (m.type == StreamFrameType::Batch)
                received.append(std::move(m.batch));
        }
        forEachEventType([&]<typename E>() {
            const QString name = typeName(eventTypeOf<E>);
            QVERIFY2(received.events<E>().size() == Count, qPrintable(name));
            QVERIFY2(received.events<E>() == batch.events<E>(), qPrintable(name));
        });
        QCOMPARE(received.eventCount(), batch.eventCount());
        // The stacks the samples name came along, ahead of them.
        QVERIFY(!batch.stacks.isEmpty());
        QVERIFY(received.frames == batch.frames);
        QVERIFY(received.stacks == batch.stacks);
    }

    void everyTypeThroughASessionFileAndCsv()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("every.bpflens"));
        const RecordBatch batch = everyTypeBatch(Count, Start);
        {
            SessionWriter writer;
            QString error;
            QVERIFY2(writer.create(path, sessionInfo(), &error), qPrintable(error));
            // Two batches, so every type has two chunks to join.
            const auto [first, second] = splitBatch(batch, 2);
            QVERIFY2(writer.writeBatch(first, &error), qPrintable(error));
            QVERIFY2(writer.writeBatch(second, &error), qPrintable(error));
            QVERIFY2(writer.finish(Start + 10'000'000, &error), qPrintable(error));
        }
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        forEachEventType([&]<typename E>() {
            const QString name = typeName(eventTypeOf<E>);
            QVERIFY2(data.events.count(eventTypeOf<E>) == Count, qPrintable(name));
            for (int i = 0; i < Count; ++i)
                QVERIFY2(data.events.event<E>(i) == batch.events<E>().at(i), qPrintable(name));
            if constexpr (hasStackId<E>) {
                for (int i = 0; i < Count; ++i)
                    QVERIFY2(data.stacks.hasStack(data.events.event<E>(i).stackId),
                             qPrintable(name));
            }
        });
        RecordBatch loaded;
        data.stacks.appendAllDefinitions(loaded);
        QVERIFY(loaded.frames == batch.frames);
        QVERIFY(loaded.stacks == batch.stacks);

        const QStringList files =
            CsvExport::exportSession(data, dir.filePath(QStringLiteral("csv")), {}, &error);
        QVERIFY2(!files.isEmpty(), qPrintable(error));
        forEachEventType([&]<typename E>() {
            const QString name = typeName(eventTypeOf<E>);
            QFile f(dir.filePath(QStringLiteral("csv/")) + CsvExport::fileNameFor(eventTypeOf<E>));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(name + QStringLiteral(".csv")));
            const QList<QByteArray> lines = f.readAll().split('\n');
            // Header, Count rows, and the empty piece after the last line break.
            QVERIFY2(lines.size() == Count + 2, qPrintable(name));
            const qsizetype columns = csvFields(lines.at(0).trimmed()).size();
            qsizetype declared = 2;
            for (const Column<E> &c : EventTraits<E>::columns)
                declared += (c.show & InCsv) != 0;
            QVERIFY2(columns == declared, qPrintable(name));
            for (int i = 1; i <= Count; ++i)
                QVERIFY2(csvFields(lines.at(i).trimmed()).size() == columns, qPrintable(name));
            // The pid column (every type has one) holds the event's pid.
            const qsizetype pidColumn = csvFields(lines.at(0).trimmed()).indexOf("pid");
            QVERIFY2(pidColumn >= 0, qPrintable(name));
            QCOMPARE(csvFields(lines.at(1).trimmed()).at(pidColumn),
                     QByteArray::number(batch.events<E>().at(0).pid));
        });
        // The stacks, one row each after the header.
        for (const auto &[file, rows] : {std::pair{"stacks.csv", batch.stacks.size()},
                                         std::pair{"stack_frames.csv", batch.frames.size()}}) {
            QFile f(dir.filePath(QStringLiteral("csv/") + QLatin1String(file)));
            QVERIFY2(f.open(QIODevice::ReadOnly), file);
            QCOMPARE(f.readAll().count("\r\n"), rows + 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestEventTypes)
#include "tst_eventtypes.moc"
