// Every declared event type through the desktop application's paths: appended live to the
// session model, shown in its table with every declared column, in the details pane, matched by
// the text filter, and saved to a file that reads back the same. The events come from the
// declarations (everytype.h), so a new type is covered here the day it is declared.
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/sessionsave.h"
#include "tests/everytype.h"

#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

class TestGuiEveryType : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyTypeLiveAndSaved()
    {
        constexpr int Count = 4;
        constexpr quint64 Start = 5'000'000'000;
        SessionModel session;
        SessionData empty;
        empty.info.schemaVersion = SessionSchemaVersion;
        empty.info.startMonotonicNs = Start;
        session.setSession(std::move(empty));
        const RecordBatch batch = everyTypeBatch(Count, Start);
        // Live: the batch arrives in two appends, as a recording delivers it.
        const auto [first, second] = splitBatch(batch, 1);
        session.append(first);
        session.append(second);

        forEachEventType([&]<typename E>() {
            const EventType type = eventTypeOf<E>;
            const QString name = SessionModel::typeName(type);
            QVERIFY2(SessionModel::eventTypes().contains(type), qPrintable(name));
            QVERIFY2(name != QStringLiteral("Other"), "a type without a title");
            EventTableModel table(&session, type);
            QVERIFY2(table.rowCount() == Count, qPrintable(name));
            int shown = 1;
            for (const Column<E> &c : EventTraits<E>::columns)
                shown += (c.show & InTable) != 0;
            QVERIFY2(table.columnCount() == shown, qPrintable(name));
            for (int col = 0; col < table.columnCount(); ++col) {
                const QString header = table.headerData(col, Qt::Horizontal).toString();
                QVERIFY2(!header.isEmpty(), qPrintable(name));
                const QString cell = table.index(Count - 1, col).data().toString();
                QVERIFY2(!cell.isEmpty(), qPrintable(name + QLatin1Char('/') + header));
            }
            QCOMPARE(table.index(0, 0).data(EventTableModel::PidRole).toUInt(),
                     batch.events<E>().at(0).pid);
            QCOMPARE(table.index(0, 0).data(EventTableModel::LatencyNsRole).isValid(),
                     hasLatency<E>);

            // The details pane lists the time rows and one row per declared detail at least.
            const auto fields = EventTableModel::eventFields(session, {type, 1});
            int details = 0;
            for (const Column<E> &c : EventTraits<E>::columns)
                details += (c.show & InDetails) != 0;
            QVERIFY2(fields.size() >= details + 3, qPrintable(name));

            // The text filter finds an event by its command (every type has one).
            EventFilter filter;
            filter.text = batch.events<E>().at(1).comm.left(3);
            QVERIFY2(EventMatcher(filter).accepts(session.events(), type, 1), qPrintable(name));
            filter.text = "no such text anywhere";
            QVERIFY2(!EventMatcher(filter).accepts(session.events(), type, 1), qPrintable(name));
        });

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("live.bpflens"));
        QString error;
        QVERIFY2(saveSession(session.data(), Start + 1'000'000'000, path, &error),
                 qPrintable(error));
        SessionData saved;
        QVERIFY2(SessionReader::open(path, &saved, &error), qPrintable(error));
        forEachEventType([&]<typename E>() {
            const QString name = SessionModel::typeName(eventTypeOf<E>);
            QVERIFY2(saved.events.count(eventTypeOf<E>) == Count, qPrintable(name));
            for (int i = 0; i < Count; ++i)
                QVERIFY2(saved.events.event<E>(i) == batch.events<E>().at(i), qPrintable(name));
        });
        // The stacks the samples name, live and saved.
        RecordBatch live, reloaded;
        session.stacks().appendAllDefinitions(live);
        saved.stacks.appendAllDefinitions(reloaded);
        QVERIFY(!batch.stacks.isEmpty());
        QVERIFY(live.frames == batch.frames && live.stacks == batch.stacks);
        QVERIFY(reloaded.frames == batch.frames && reloaded.stacks == batch.stacks);
    }
};

QTEST_MAIN(TestGuiEveryType)
#include "tst_guieverytype.moc"
