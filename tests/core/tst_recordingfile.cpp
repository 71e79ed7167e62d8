// RecordingFile, the step from records to the session file that every bpflens-cli recording
// takes (in-process and through the helper): what it is given ends up in the file, written
// once a second (a crash loses at most that), sooner in a storm, and counted as the CLI's
// summary shows it.
#include "core/events.h"
#include "core/recordingfile.h"
#include "core/sessioninfo.h"
#include "core/sessionstore.h"

#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;

namespace {

constexpr quint64 Start = 5'000'000'000ull;
constexpr quint64 Ms = 1'000'000ull;

RecordBatch opens(int count, quint64 timeNs)
{
    RecordBatch b;
    for (int i = 0; i < count; ++i) {
        OpenEvent e;
        e.timeNs = timeNs;
        e.pid = 7;
        e.path = "/etc/hostname";
        b.open.append(e);
    }
    return b;
}

} // namespace

class TestRecordingFile : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    bool create(RecordingFile &file, const QString &name)
    {
        SessionInfo info = sessionInfoForThisHost({{QStringLiteral("open"), {}, {}}});
        info.startMonotonicNs = Start;
        QString error;
        if (!file.create(m_dir.filePath(name), info, &error)) {
            qWarning() << error;
            return false;
        }
        return true;
    }

private Q_SLOTS:
    // One event of each type in BPFLENS_EVENT_TYPES: a type added there reaches the file
    // without anyone touching the recorder.
    void everyEventTypeReachesTheFile()
    {
        RecordingFile file;
        QVERIFY(create(file, QStringLiteral("every.bpflens")));
        RecordBatch batch;
        forEachEventType([&]<typename E>() {
            E e;
            e.timeNs = Start + quint64(eventTypeOf<E>) * Ms;
            e.pid = 42;
            batch.events<E>().append(e);
        });
        QVERIFY(file.add(std::move(batch), Start + 100 * Ms));
        QString error;
        QVERIFY2(file.finish(Start + 2000 * Ms, &error), qPrintable(error));
        QCOMPARE(file.eventCount(), quint64(std::size(eventTypes)));

        SessionData data;
        QVERIFY2(
            SessionReader::open(m_dir.filePath(QStringLiteral("every.bpflens")), &data, &error),
            qPrintable(error));
        QCOMPARE(data.info.endMonotonicNs, Start + 2000 * Ms);
        for (const EventType type : eventTypes) {
            QVERIFY2(data.events.count(type) == 1, qPrintable(QString::number(int(type))));
            QCOMPARE(data.events.pid(type, 0), 42u);
        }
    }

    void writesOnceASecondOrInAStorm()
    {
        RecordingFile file;
        QVERIFY(create(file, QStringLiteral("pace.bpflens")));
        QVERIFY(file.add(opens(1, Start + 400 * Ms), Start + 500 * Ms));
        QCOMPARE(file.writes(), 0);
        QCOMPARE(file.eventCount(), 1u); // waiting, but counted for the progress line
        // A second after the start: written, even when nothing new came.
        QVERIFY(file.writeIfDue(Start + 1000 * Ms));
        QCOMPARE(file.writes(), 1);
        QVERIFY(file.add(opens(1, Start + 1400 * Ms), Start + 1500 * Ms));
        QCOMPARE(file.writes(), 1);
        // A storm is written as soon as MaxWaitingEvents wait.
        QVERIFY(file.add(opens(int(RecordingFile::MaxWaitingEvents) - 1, Start + 1550 * Ms),
                         Start + 1600 * Ms));
        QCOMPARE(file.writes(), 2);
        QVERIFY(file.writeIfDue(Start + 2500 * Ms));
        QCOMPARE(file.writes(), 2);
        QVERIFY(file.writeIfDue(Start + 2600 * Ms));
        QCOMPARE(file.writes(), 3);
        QString error;
        QVERIFY2(file.finish(Start + 3000 * Ms, &error), qPrintable(error));
        QCOMPARE(file.eventCount(), quint64(RecordingFile::MaxWaitingEvents) + 1);

        SessionData data;
        QVERIFY2(SessionReader::open(m_dir.filePath(QStringLiteral("pace.bpflens")), &data, &error),
                 qPrintable(error));
        QCOMPARE(data.events.count(EventType::Open), RecordingFile::MaxWaitingEvents + 1);
    }

    // Probes report lost events cumulatively: the summary adds each probe's latest count, as of
    // the last write, one number per cause.
    void lostIsEachProbesLatestCountAddedUp()
    {
        RecordingFile file;
        QVERIFY(create(file, QStringLiteral("lost.bpflens")));
        RecordBatch b;
        b.stats.append({QStringLiteral("open"), Start + 500 * Ms, 10, 5, 0, 0});
        b.stats.append({QStringLiteral("exec"), Start + 500 * Ms, 4, 3, 0, 0});
        QVERIFY(file.add(std::move(b), Start + 600 * Ms));
        QCOMPARE(file.lostCount(), 0u); // not written yet
        RecordBatch later;
        later.stats.append({QStringLiteral("open"), Start + 1000 * Ms, 20, 7, 0, 0});
        ProbeStats block;
        block.probeId = QStringLiteral("block");
        block.timeNs = Start + 1000 * Ms;
        block.eventsUnseen = 2;
        block.unfinished = 1;
        later.stats.append(block);
        QVERIFY(file.add(std::move(later), Start + 1100 * Ms));
        QCOMPARE(file.lostCount(), 7u + 3u); // open's latest and exec's
        QCOMPARE(file.unseenCount(), 2u);
        QCOMPARE(file.unfinishedCount(), 1u);
        QCOMPARE(file.lostSummary(), QStringLiteral("10 lost, 2 not seen, 1 unfinished"));
        QString error;
        QVERIFY2(file.finish(Start + 1200 * Ms, &error), qPrintable(error));
    }

    void refusesAnExistingFile()
    {
        RecordingFile first;
        QVERIFY(create(first, QStringLiteral("taken.bpflens")));
        RecordingFile second;
        SessionInfo info = sessionInfoForThisHost();
        info.startMonotonicNs = Start;
        QString error;
        QVERIFY(!second.create(m_dir.filePath(QStringLiteral("taken.bpflens")), info, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!second.isOpen());
    }
};

QTEST_GUILESS_MAIN(TestRecordingFile)
#include "tst_recordingfile.moc"
