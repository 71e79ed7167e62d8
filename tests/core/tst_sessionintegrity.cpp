// Checksums against silent damage (docs/session-format.md, "Checksums"): a session holding
// every event type gets 20, 50 and 200 random bit flips after its first 8 KiB (fixed seeds),
// and what SessionReader then shows, salvaged or not, is compared with what was written, row
// by row. No row may differ from the one written at its time (a string lost to damage may show
// its "[lost string <id>]" placeholder, which says so), and at least 90 % of the events of the
// chunks whose pages the flips missed must be kept.

#include "core/eventchunk.h"
#include "core/sessionsalvage.h"
#include "core/sessionstore.h"
#include "tests/core/sessiontestdata.h"
#include "tests/everytype.h"

#include <QFile>
#include <QHash>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <cstring>
#include <map>
#include <vector>

using namespace bpflens;
using namespace bpflens::test;

namespace {

// Under ASan every open costs about four times as much: the sanitizer pass of CI damages half
// as many copies (the same flips, seeds and checks), the dev suite all of them.
#ifdef BPFLENS_ASAN_BUILD
constexpr int Thin = 2;
#else
constexpr int Thin = 1;
#endif

constexpr quint64 Start = 5000000000ull; // makeInfo()'s start
constexpr qint64 Untouched = 8192;       // the flips land after this

// Batch b: every type, from a few events a chunk to chunks that spill onto overflow pages,
// every event distinct (synthesizedEvent's values follow k), times unique per type.
RecordBatch integrityBatch(int b)
{
    RecordBatch batch;
    if (b == 0)
        synthesizedStacks().takeNewDefinitions(batch);
    const int n = 4 + (b * 37) % 150;
    const quint64 t0 = Start + quint64(b) * 1000000000ull;
    forEachEventType([&]<typename E>() {
        for (int k = 0; k < n; ++k)
            batch.events<E>().append(
                synthesizedEvent<E>(b * 1000 + k, t0 + quint64(k) * 1000 + quint8(eventTypeOf<E>)));
    });
    return batch;
}

QString writeSession(const QString &path, const QList<RecordBatch> &batches)
{
    SessionWriter writer;
    QString error;
    if (!writer.create(path, makeInfo(), &error))
        return error;
    for (const RecordBatch &b : batches) {
        if (!writer.writeBatch(b, &error))
            return error;
    }
    return writer.finish(Start + 1000000000000ull, &error) ? QString() : error;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile::remove(path);
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

bool isPlaceholder(const QByteArray &s)
{
    return s.startsWith("[lost string");
}

// got is want, but for strings lost to damage, which show their placeholder (*marked).
template<typename E>
bool sameOrMarked(const E &got, const E &want, bool *marked)
{
    bool same = true;
    forEachField<E>([&]<std::size_t I>() {
        using F = FieldAt<E, I>;
        constexpr auto m = F::member;
        if constexpr (F::kind == FieldKind::Bytes) {
            if (isPlaceholder(got.*m))
                *marked = true;
            else
                same = same && got.*m == want.*m;
        } else if constexpr (F::kind == FieldKind::BytesList) {
            if ((got.*m).size() != (want.*m).size()) {
                same = false;
                return;
            }
            for (qsizetype i = 0; i < (got.*m).size(); ++i) {
                if (isPlaceholder((got.*m)[i]))
                    *marked = true;
                else
                    same = same && (got.*m)[i] == (want.*m)[i];
            }
        } else {
            same = same && got.*m == want.*m;
        }
    });
    return same;
}

// Which pages (1-based) hold each chunk's row: its leaf page and its overflow pages, from
// SQLite's dbstat (paths "/00a/" for a page, "/00a/003+000000" for the overflow pages of
// cell 3 on it). Page 1 (the schema) and the interior pages of event_chunks (the way to every
// chunk) are the path: with it damaged, which chunks salvage can still reach is not provable.
struct ChunkPlace
{
    EventType type = EventType::Exec;
    qint64 events = 0;
    quint64 first = 0;
    quint64 last = 0;
    QSet<qint64> pages;
};

bool placeChunks(const QString &path, std::vector<ChunkPlace> *chunks, QSet<qint64> *pathPages)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr) !=
        SQLITE_OK)
        return false;
    sqlite3_stmt *st = nullptr;
    bool ok = sqlite3_prepare_v2(db,
                                 "SELECT type, count, first_ns, last_ns FROM event_chunks ORDER "
                                 "BY seq",
                                 -1, &st, nullptr) == SQLITE_OK;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        ChunkPlace c;
        c.type = EventType(sqlite3_column_int(st, 0));
        c.events = sqlite3_column_int64(st, 1);
        c.first = quint64(sqlite3_column_int64(st, 2));
        c.last = quint64(sqlite3_column_int64(st, 3));
        chunks->push_back(c);
    }
    sqlite3_finalize(st);
    ok = ok && sqlite3_prepare_v2(db,
                                  "SELECT path, pageno, pagetype, ncell FROM dbstat WHERE name = "
                                  "'event_chunks' ORDER BY path",
                                  -1, &st, nullptr) == SQLITE_OK;
    QHash<QByteArray, size_t> cellOf; // "<leaf path><cell>" -> chunk index
    size_t next = 0;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const QByteArray p(reinterpret_cast<const char *>(sqlite3_column_text(st, 0)));
        const qint64 page = sqlite3_column_int64(st, 1);
        const QByteArray type(reinterpret_cast<const char *>(sqlite3_column_text(st, 2)));
        if (type == "internal") {
            pathPages->insert(page);
        } else if (type == "leaf") {
            // Leaves in path order hold the rows in rowid order.
            for (int i = 0; i < sqlite3_column_int(st, 3) && next < chunks->size(); ++i, ++next) {
                (*chunks)[next].pages.insert(page);
                cellOf.insert(p + QByteArray::number(i, 16).rightJustified(3, '0'), next);
            }
        } else if (type == "overflow") {
            const auto it = cellOf.constFind(p.left(p.indexOf('+')));
            ok = it != cellOf.constEnd();
            if (ok)
                (*chunks)[it.value()].pages.insert(page);
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok && next == chunks->size();
}

QSet<qint64> damagedPages(const QByteArray &original, const QByteArray &damaged, int pageSize)
{
    QSet<qint64> pages;
    for (qint64 at = 0; at < original.size(); at += pageSize) {
        const qint64 len = std::min<qint64>(pageSize, original.size() - at);
        if (std::memcmp(original.constData() + at, damaged.constData() + at, size_t(len)) != 0)
            pages.insert(at / pageSize + 1);
    }
    return pages;
}

// What one damaged copy kept.
struct Tally
{
    qint64 rows = 0;    // events shown
    qint64 altered = 0; // shown but never written so
    qint64 marked = 0;  // as written but for a "[lost string <id>]"
    qint64 intact = 0;  // events of the chunks whose pages and path the flips missed
    qint64 intactKept = 0;
    qint64 ownPagesIntact = 0; // events of the chunks whose own pages the flips missed
    qint64 ownPagesKept = 0;
    int pathDamaged = 0; // copies whose page 1 or event_chunks interior pages were hit
    QStringList examples;
};

} // namespace

class TestSessionIntegrity : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QList<RecordBatch> m_batches;
    RecordBatch m_all;
    // Per type, event time -> index into m_all's events of that type.
    std::map<EventType, QHash<quint64, qsizetype>> m_index;

    // Compares every event data shows with the one written at its time; counts the events of
    // the intact chunks among them.
    Tally tally(const SessionData &data, const std::vector<ChunkPlace> &chunks,
                const QSet<qint64> &path, const QSet<qint64> &bad)
    {
        Tally t;
        const bool pathIntact = !bad.contains(1) && !bad.intersects(path);
        t.pathDamaged = !pathIntact;
        std::map<EventType, QSet<quint64>> good; // times of the events shown unaltered
        forEachEventType([&]<typename E>() {
            const EventType type = eventTypeOf<E>;
            const QHash<quint64, qsizetype> &index = m_index[type];
            const QList<E> &written = m_all.events<E>();
            for (qsizetype i = 0; i < data.events.count(type); ++i) {
                ++t.rows;
                const E got = data.events.event<E>(i);
                const auto it = index.constFind(got.timeNs);
                bool marked = false;
                if (it == index.constEnd() || !sameOrMarked(got, written[it.value()], &marked)) {
                    ++t.altered;
                    if (t.examples.size() < 3)
                        t.examples << QStringLiteral("%1 event at %2 ns")
                                          .arg(QLatin1String(probeIdOf(type)))
                                          .arg(got.timeNs);
                    continue;
                }
                t.marked += marked;
                good[type].insert(got.timeNs);
            }
        });
        for (const ChunkPlace &c : chunks) {
            if (std::any_of(c.pages.cbegin(), c.pages.cend(),
                            [&](qint64 p) { return bad.contains(p); }))
                continue;
            // The chunk's events are the written ones of its type in [first, last] of its batch.
            const QSet<quint64> &shown = good[c.type];
            qint64 kept = 0;
            for (const auto &[time, i] : m_index[c.type].asKeyValueRange()) {
                Q_UNUSED(i);
                kept += time >= c.first && time <= c.last && shown.contains(time);
            }
            t.ownPagesIntact += c.events;
            t.ownPagesKept += kept;
            if (pathIntact) {
                t.intact += c.events;
                t.intactKept += kept;
            }
        }
        return t;
    }

    // flips random bits after the first 8 KiB of copies of the session at path; returns the
    // sums over the copies.
    Tally damage(const QString &path, int flips, int copies, quint32 seed, int *refused)
    {
        const QByteArray bytes = readAll(path);
        std::vector<ChunkPlace> chunks;
        QSet<qint64> chunkPath;
        if (!placeChunks(path, &chunks, &chunkPath))
            return {};
        QRandomGenerator random(seed);
        Tally sum;
        for (int copy = 0; copy < copies; copy += Thin) {
            QByteArray damaged = bytes;
            for (int i = 0; i < flips; ++i) {
                const qint64 at =
                    Untouched + qint64(random.bounded(quint32(damaged.size() - Untouched)));
                damaged[at] = char(damaged[at] ^ char(1 << random.bounded(8)));
            }
            const QString copyPath = m_dir.filePath(QStringLiteral("damaged.bpflens"));
            if (!writeAll(copyPath, damaged))
                return {};
            SessionData data;
            QString error;
            if (!SessionReader::open(copyPath, &data, &error)) {
                ++*refused;
                continue;
            }
            const Tally t = tally(data, chunks, chunkPath, damagedPages(bytes, damaged, 4096));
            sum.rows += t.rows;
            sum.altered += t.altered;
            sum.marked += t.marked;
            sum.intact += t.intact;
            sum.intactKept += t.intactKept;
            sum.ownPagesIntact += t.ownPagesIntact;
            sum.ownPagesKept += t.ownPagesKept;
            sum.pathDamaged += t.pathDamaged;
            sum.examples += t.examples;
        }
        return sum;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (int b = 0; b < 40; ++b)
            m_batches.append(integrityBatch(b));
        forEachEventType([&]<typename E>() {
            QList<E> &all = m_all.events<E>();
            for (const RecordBatch &b : std::as_const(m_batches))
                all += b.events<E>();
            QHash<quint64, qsizetype> &index = m_index[eventTypeOf<E>];
            for (qsizetype i = 0; i < all.size(); ++i)
                index.insert(all[i].timeNs, i);
            QCOMPARE(index.size(), all.size()); // times are unique per type
        });
    }

    void noAlteredRowSurvivesBitFlips_data()
    {
        QTest::addColumn<int>("flips");
        QTest::addColumn<int>("copies");
        QTest::newRow("20 flips") << 20 << 6;
        QTest::newRow("50 flips") << 50 << 6;
        QTest::newRow("200 flips") << 200 << 6;
    }

    void noAlteredRowSurvivesBitFlips()
    {
        QFETCH(int, flips);
        QFETCH(int, copies);
        const QString path = m_dir.filePath(QStringLiteral("whole.bpflens"));
        if (!QFile::exists(path))
            QCOMPARE(writeSession(path, m_batches), QString());
        SessionData whole;
        QString error;
        QVERIFY2(SessionReader::open(path, &whole, &error), qPrintable(error));
        QCOMPARE(whole.events.totalCount(), m_all.eventCount());
        QCOMPARE(tally(whole, {}, {}, {}).altered, 0);

        int refused = 0;
        const Tally t = damage(path, flips, copies, quint32(4000 + flips), &refused);
        const double kept = t.intact ? 100.0 * double(t.intactKept) / double(t.intact) : 0;
        qInfo("schema 3, %d flips x %d copies: %lld rows shown, %lld altered, %lld with a lost "
              "string marked; %lld of %lld events of intact chunks kept (%.1f %%); %d refused; "
              "counting the %d copies whose page 1 or event_chunks interior pages were hit too, "
              "%lld of %lld events of the chunks whose own pages were missed (%.1f %%)",
              flips, (copies + Thin - 1) / Thin, t.rows, t.altered, t.marked, t.intactKept,
              t.intact, kept, refused, t.pathDamaged, t.ownPagesKept, t.ownPagesIntact,
              t.ownPagesIntact ? 100.0 * double(t.ownPagesKept) / double(t.ownPagesIntact) : 0);
        QVERIFY2(t.altered == 0, qPrintable(t.examples.join(QStringLiteral("; "))));
        QVERIFY(t.intact > 0);
        QVERIFY2(kept >= 90.0, qPrintable(QString::number(kept)));
    }
};

QTEST_GUILESS_MAIN(TestSessionIntegrity)
#include "tst_sessionintegrity.moc"
