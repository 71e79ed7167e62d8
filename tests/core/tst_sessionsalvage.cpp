// The salvage reader (core/sessionsalvage.cpp) on damaged copies of a real ~1 MB session:
// truncations, random bit flips and zeroed pages. For every copy the reader must not crash,
// must either open it with a damage report or refuse it with a message (only when page 1,
// the header and schema, is damaged), and must keep every event chunk it can be proven to
// reach: one whose page is untouched while page 1 and the interior pages of event_chunks are.

#include "core/eventchunk.h"
#include "core/sessionsalvage.h"
#include "core/sessionstore.h"
#include "tests/core/sessiontestdata.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

#include <map>
#include <vector>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 Base = 5000000000ull;

QString writeSession(const QString &path, int batches, int eventsPerType)
{
    SessionWriter writer;
    QString error;
    if (!writer.create(path, makeInfo(), &error))
        return error;
    for (int b = 0; b < batches; ++b) {
        if (!writer.writeBatch(makeBatch(Base, quint32(b), eventsPerType), &error))
            return error;
    }
    if (!writer.finish(Base + 1000000000000ull, &error))
        return error;
    return QString();
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

// One chunk of the original file: where its blob lies and which events it holds.
struct Chunk
{
    qint64 seq = 0;
    EventType type = EventType::Exec;
    qint64 offset = -1; // of its blob in the file; -1 when not on one page
    qint64 size = 0;
    std::vector<std::pair<quint64, quint32>> events; // time, pid
};

// What the original file looks like, page by page.
struct Layout
{
    int pageSize = 4096;
    std::vector<Chunk> chunks;
    QSet<qint64> chunkInteriorPages; // 1-based page numbers
    QSet<qint64> chunkLeafPages;
};

bool describe(const QString &path, const QByteArray &bytes, Layout *layout)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr) !=
        SQLITE_OK)
        return false;
    sqlite3_stmt *st = nullptr;
    bool ok = sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &st, nullptr) == SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        layout->pageSize = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    ok = ok && sqlite3_prepare_v2(db,
                                  "SELECT pageno, pagetype FROM dbstat WHERE name = "
                                  "'event_chunks'",
                                  -1, &st, nullptr) == SQLITE_OK;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const QByteArray type(reinterpret_cast<const char *>(sqlite3_column_text(st, 1)));
        (type == "internal" ? layout->chunkInteriorPages : layout->chunkLeafPages)
            .insert(sqlite3_column_int64(st, 0));
    }
    sqlite3_finalize(st);
    ok =
        ok && sqlite3_prepare_v2(db, "SELECT seq, type, count, data FROM event_chunks ORDER BY seq",
                                 -1, &st, nullptr) == SQLITE_OK;
    std::vector<quint32> noStrings(1 << 20, 0);
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        Chunk c;
        c.seq = sqlite3_column_int64(st, 0);
        c.type = EventType(sqlite3_column_int(st, 1));
        const qint64 count = sqlite3_column_int64(st, 2);
        const QByteArray blob(static_cast<const char *>(sqlite3_column_blob(st, 3)),
                              sqlite3_column_bytes(st, 3));
        c.size = blob.size();
        const qint64 at = bytes.indexOf(blob);
        // Only a blob found once, whole on one page, can be told untouched by its page.
        if (at >= 0 && bytes.indexOf(blob, at + 1) < 0 &&
            at / layout->pageSize == (at + blob.size() - 1) / layout->pageSize)
            c.offset = at;
        EventStore store;
        QString why;
        ok = EventChunkCodec::decode(c.type, blob, count, noStrings, &store, &why);
        for (qsizetype i = 0; ok && i < store.count(c.type); ++i)
            c.events.emplace_back(store.timeNs(c.type, i), store.pid(c.type, i));
        layout->chunks.push_back(std::move(c));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok && !layout->chunks.empty() && !layout->chunkLeafPages.isEmpty();
}

// Pages (1-based) whose bytes differ between original and damaged, or that are cut off.
QSet<qint64> damagedPages(const QByteArray &original, const QByteArray &damaged, int pageSize)
{
    QSet<qint64> pages;
    const qint64 n = (original.size() + pageSize - 1) / pageSize;
    for (qint64 p = 0; p < n; ++p) {
        const qint64 at = p * pageSize;
        const qint64 len = std::min<qint64>(pageSize, original.size() - at);
        if (damaged.size() < at + len ||
            std::memcmp(original.constData() + at, damaged.constData() + at, size_t(len)) != 0)
            pages.insert(p + 1);
    }
    return pages;
}

} // namespace

// Under ASan every open costs about five times as much: the sanitizer pass of CI reads a
// third of the copies (every kind of damage still, at fewer offsets and seeds).
#ifdef BPFLENS_ASAN_BUILD
constexpr int Thin = 3;
#else
constexpr int Thin = 1;
#endif

class TestSessionSalvage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;
    QByteArray m_bytes;
    Layout m_layout;
    SessionData m_original;
    int m_checked = 0;
    int m_refused = 0;

    // Opens a damaged copy and checks what the file header makes provable.
    void check(const QByteArray &damaged, const QString &what)
    {
        const QString path = m_dir.filePath(QStringLiteral("damaged.bpflens"));
        QVERIFY(writeAll(path, damaged));
        SessionData data;
        QString error;
        const bool opened = SessionReader::open(path, &data, &error);
        ++m_checked;
        const QSet<qint64> bad = damagedPages(m_bytes, damaged, m_layout.pageSize);
        if (!opened) {
            ++m_refused;
            QVERIFY2(!error.isEmpty(), qPrintable(what));
            // Only a file whose header or schema is gone is refused.
            QVERIFY2(bad.contains(1) || damaged.size() < 100,
                     qPrintable(what + QStringLiteral(": ") + error));
            QVERIFY2(error.contains(QStringLiteral(" is damaged")) ||
                         error.startsWith(QStringLiteral("not a BPF Lens session")) ||
                         error.startsWith(QStringLiteral("cannot open")),
                     qPrintable(error));
            return;
        }
        if (data.damage.isDamaged())
            QVERIFY2(!data.damage.lost.isEmpty(), qPrintable(what));
        // Events of each type by time, to find each provably intact chunk's events.
        std::map<EventType, QHash<quint64, quint32>> byTime;
        forEachEventType([&]<typename E>() {
            const EventType t = eventTypeOf<E>;
            auto &m = byTime[t];
            for (qsizetype i = 0; i < data.events.count(t); ++i)
                m.insert(data.events.timeNs(t, i), data.events.pid(t, i));
        });
        const bool pathIntact =
            !bad.contains(1) &&
            std::none_of(m_layout.chunkInteriorPages.cbegin(), m_layout.chunkInteriorPages.cend(),
                         [&](qint64 p) { return bad.contains(p); });
        if (!pathIntact)
            return;
        int required = 0;
        for (const Chunk &c : m_layout.chunks) {
            if (c.offset < 0 || bad.contains(c.offset / m_layout.pageSize + 1))
                continue;
            ++required;
            const auto &m = byTime[c.type];
            for (const auto &[time, pid] : c.events) {
                const auto it = m.constFind(time);
                QVERIFY2(it != m.constEnd() && it.value() == pid,
                         qPrintable(QStringLiteral("%1: chunk %2 (%3 events, page %4) is intact "
                                                   "but its event at %5 is missing; lost: %6")
                                        .arg(what)
                                        .arg(c.seq)
                                        .arg(c.events.size())
                                        .arg(c.offset / m_layout.pageSize + 1)
                                        .arg(time)
                                        .arg(data.damage.lost.join(QStringLiteral("; ")))));
            }
        }
        QVERIFY(required >= 0);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("whole.bpflens"));
        // 10 events per type per batch keep each chunk on one page (no overflow pages), so
        // whether a chunk is untouched can be told from its page.
        QCOMPARE(writeSession(m_path, 400, 10), QString());
        m_bytes = readAll(m_path);
        QVERIFY2(m_bytes.size() > 900 * 1024, qPrintable(QString::number(m_bytes.size())));
        QVERIFY(describe(m_path, m_bytes, &m_layout));
        QString error;
        QVERIFY2(SessionReader::open(m_path, &m_original, &error), qPrintable(error));
        QVERIFY(!m_original.damage.isDamaged());
        qsizetype onOnePage = 0;
        for (const Chunk &c : m_layout.chunks)
            onOnePage += c.offset >= 0;
        // Nearly every chunk can be located, or the checks below would prove little.
        QVERIFY2(onOnePage * 10 >= qsizetype(m_layout.chunks.size()) * 9,
                 qPrintable(QStringLiteral("%1 of %2").arg(onOnePage).arg(m_layout.chunks.size())));
    }

    void truncations()
    {
        const int page = m_layout.pageSize;
        QList<qint64> sizes;
        // Every page boundary of the first 64 pages (schema, strings, first chunks), then
        // every other one: about 150 copies.
        for (qint64 at = page; at < m_bytes.size(); at += (at < 64 * page ? page : 2 * page) * Thin)
            sizes << at;
        for (qint64 at :
             {qint64(0), qint64(50), qint64(99), qint64(100), qint64(1000), qint64(page + 7),
              qint64(m_bytes.size() / 3 + 13), qint64(m_bytes.size() - 1)})
            sizes << at;
        for (qint64 size : sizes) {
            check(m_bytes.left(size), QStringLiteral("truncated at %1").arg(size));
            if (QTest::currentTestFailed())
                return;
        }
    }

    void bitFlips_data()
    {
        QTest::addColumn<int>("flips");
        QTest::addColumn<int>("copies");
        QTest::newRow("1") << 1 << 30;
        QTest::newRow("10") << 10 << 25;
        QTest::newRow("50") << 50 << 25;
    }

    void bitFlips()
    {
        QFETCH(int, flips);
        QFETCH(int, copies);
        QRandomGenerator random(quint32(1234 + flips));
        for (int copy = 0; copy < copies; copy += Thin) {
            QByteArray damaged = m_bytes;
            for (int i = 0; i < flips; ++i) {
                const qint64 at = qint64(random.bounded(quint32(damaged.size())));
                damaged[at] = char(damaged[at] ^ char(1 << random.bounded(8)));
            }
            check(damaged, QStringLiteral("%1 flips, copy %2").arg(flips).arg(copy));
            if (QTest::currentTestFailed())
                return;
        }
    }

    void zeroedPages()
    {
        const int page = m_layout.pageSize;
        const qint64 pages = m_bytes.size() / page;
        for (qint64 p = 1; p <= pages; p += 11) {
            QByteArray damaged = m_bytes;
            std::memset(damaged.data() + (p - 1) * page, 0, size_t(page));
            check(damaged, QStringLiteral("page %1 zeroed").arg(p));
            if (QTest::currentTestFailed())
                return;
        }
    }

    void zeroedChunkPageLosesOnlyItsChunks()
    {
        // A leaf page of event_chunks in the middle: only its chunks go, with their times.
        QList<qint64> leaves(m_layout.chunkLeafPages.cbegin(), m_layout.chunkLeafPages.cend());
        std::sort(leaves.begin(), leaves.end());
        const qint64 victim = leaves.at(leaves.size() / 2);
        QByteArray damaged = m_bytes;
        std::memset(damaged.data() + (victim - 1) * m_layout.pageSize, 0,
                    size_t(m_layout.pageSize));
        const QString path = m_dir.filePath(QStringLiteral("zeroed.bpflens"));
        QVERIFY(writeAll(path, damaged));
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QVERIFY(data.damage.isDamaged());
        qint64 onVictim = 0;
        qint64 eventsOnVictim = 0;
        for (const Chunk &c : m_layout.chunks) {
            if (c.offset >= 0 && c.offset / m_layout.pageSize + 1 == victim) {
                ++onVictim;
                eventsOnVictim += qint64(c.events.size());
            }
        }
        QVERIFY(onVictim > 0);
        const QString lost = data.damage.lost.join(QLatin1Char('\n'));
        QCOMPARE(data.damage.chunksLost, onVictim);
        QCOMPARE(data.damage.chunksKept, qint64(m_layout.chunks.size()) - onVictim);
        QCOMPARE(data.events.totalCount(), m_original.events.totalCount() - eventsOnVictim);
        QVERIFY2(
            lost.contains(QStringLiteral("event_chunks: %1 could not be read")
                              .arg(onVictim == 1 ? QStringLiteral("1 chunk row")
                                                 : QStringLiteral("%1 chunk rows").arg(onVictim))),
            qPrintable(lost));
        QVERIFY2(lost.contains(QStringLiteral(" s and ")), qPrintable(lost)); // between .. and
        // Every other table is untouched and whole.
        QCOMPARE(data.histograms, m_original.histograms);
        QCOMPARE(data.stats, m_original.stats);
        QCOMPARE(data.counters.size(), m_original.counters.size());
        QCOMPARE(data.info.host, m_original.info.host);
        QCOMPARE(data.info.probes.size(), m_original.info.probes.size());
        QCOMPARE(data.damage.stringsLost, 0);

        // The recovered copy opens clean and holds the same.
        const QString copy = m_dir.filePath(QStringLiteral("recovered.bpflens"));
        QVERIFY2(writeSessionCopy(data, copy, &error), qPrintable(error));
        QVERIFY(!writeSessionCopy(data, copy, &error)); // refuses to overwrite
        SessionData again;
        QVERIFY2(SessionReader::open(copy, &again, &error, {}, SessionReader::Salvage::Refuse),
                 qPrintable(error));
        QVERIFY(!again.damage.isDamaged());
        QCOMPARE(again.events.totalCount(), data.events.totalCount());
        QCOMPARE(again.histograms, data.histograms);
        QCOMPARE(again.stats, data.stats);
    }

    void strayCellPointerLosesOnlyItsRow()
    {
        // One bit of a leaf's cell pointer array flipped (what a 50-flip copy hit): that cell
        // now starts inside another cell's bytes and its key reads as one past the table's
        // end, so a seek for the row it held lands there. With a zeroed leaf further on, which
        // stops a walk back from the end, the rows between the two pages must still be kept.
        QList<qint64> leaves(m_layout.chunkLeafPages.cbegin(), m_layout.chunkLeafPages.cend());
        std::sort(leaves.begin(), leaves.end());
        const int page = m_layout.pageSize;
        const qint64 strayPage = leaves.at(leaves.size() / 4);
        const qint64 zeroedPage = leaves.at(leaves.size() / 2);
        const qint64 maxSeq = m_layout.chunks.back().seq;
        const QString path = m_dir.filePath(QStringLiteral("stray.bpflens"));
        QByteArray damaged;
        qint64 strayKey = 0; // the key whose cell pointer went astray
        const auto be16 = [](const char *p) { return (uchar(p[0]) << 8) | uchar(p[1]); };
        const auto varint = [](const char *p, const char *end, qint64 *v) {
            quint64 x = 0;
            for (int i = 0; i < 9 && p < end; ++i, ++p) {
                if (i == 8) {
                    *v = qint64((x << 8) | uchar(*p));
                    return p + 1;
                }
                x = (x << 7) | (uchar(*p) & 0x7f);
                if (!(uchar(*p) & 0x80)) {
                    *v = qint64(x);
                    return p + 1;
                }
            }
            return static_cast<const char *>(nullptr);
        };
        const char *leaf = m_bytes.constData() + (strayPage - 1) * page;
        QCOMPARE(int(uchar(leaf[0])), 13); // a table leaf
        const int cells = be16(leaf + 3);
        for (int cell = 1; cell + 1 < cells && !strayKey; ++cell) {
            for (int bit = 0; bit < 8 && !strayKey; ++bit) {
                const int ptr = 8 + 2 * cell;
                const int original = be16(leaf + ptr);
                const int stray = original ^ (1 << bit);
                qint64 payload = 0, key = 0, ownKey = 0;
                const char *end = leaf + page;
                const char *p = stray + 2 < page ? varint(leaf + stray, end, &payload) : nullptr;
                if (!p || !varint(p, end, &key) || key <= maxSeq)
                    continue;
                varint(varint(leaf + original, end, &payload), end, &ownKey);
                damaged = m_bytes;
                damaged[(strayPage - 1) * page + ptr + 1] = char(stray & 0xff);
                // Only a stray cell whose row cannot be read stops the forward scan there.
                QVERIFY(writeAll(path, damaged));
                sqlite3 *db = nullptr;
                sqlite3_stmt *st = nullptr;
                if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY,
                                    nullptr) == SQLITE_OK &&
                    sqlite3_prepare_v2(db,
                                       "SELECT rowid, data FROM event_chunks WHERE rowid >= ?1 "
                                       "ORDER BY rowid",
                                       -1, &st, nullptr) == SQLITE_OK) {
                    sqlite3_bind_int64(st, 1, ownKey - 1);
                    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_step(st) != SQLITE_ROW)
                        strayKey = ownKey;
                }
                sqlite3_finalize(st);
                sqlite3_close(db);
            }
        }
        QVERIFY2(strayKey, "no flip of that leaf's cell pointers makes a key past the end");
        std::memset(damaged.data() + (zeroedPage - 1) * page, 0, size_t(page));
        QVERIFY(writeAll(path, damaged));
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QVERIFY(data.damage.isDamaged());
        std::map<EventType, QSet<quint64>> times;
        forEachEventType([&]<typename E>() {
            for (qsizetype i = 0; i < data.events.count(eventTypeOf<E>); ++i)
                times[eventTypeOf<E>].insert(data.events.timeNs(eventTypeOf<E>, i));
        });
        qint64 onZeroed = 0;
        for (const Chunk &c : m_layout.chunks) {
            const qint64 at = c.offset < 0 ? -1 : c.offset / page + 1;
            onZeroed += at == zeroedPage;
            if (c.seq == strayKey || at == zeroedPage || c.offset < 0)
                continue;
            for (const auto &[time, pid] : c.events)
                QVERIFY2(times[c.type].contains(time),
                         qPrintable(QStringLiteral("chunk %1 (page %2) lost: %3")
                                        .arg(c.seq)
                                        .arg(at)
                                        .arg(data.damage.lost.join(QStringLiteral("; ")))));
        }
        // The stray cell's own row and the zeroed page's, nothing else.
        QCOMPARE(data.damage.chunksLost, onZeroed + 1);
    }

    void refusesWithoutHeader()
    {
        QByteArray damaged = m_bytes;
        std::memset(damaged.data(), 0, size_t(m_layout.pageSize));
        const QString path = m_dir.filePath(QStringLiteral("noheader.bpflens"));
        QVERIFY(writeAll(path, damaged));
        SessionData data;
        QString error;
        QVERIFY(!SessionReader::open(path, &data, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
    }

    // The fuzz_sessionfile seeds: a session under 96 KiB (every event type adds to it) and damaged
    // copies of it. With BPFLENS_UPDATE_FUZZ_CORPUS=1 they are rewritten into
    // tests/fuzz/corpus/sessionfile/; otherwise each committed seed must open (salvaged or not) or
    // be refused with a message.
    void fuzzSeeds()
    {
        const QDir corpus(QStringLiteral(BPFLENS_SOURCE_DIR "/tests/fuzz/corpus/sessionfile"));
        if (qEnvironmentVariableIntValue("BPFLENS_UPDATE_FUZZ_CORPUS")) {
            const QString path = m_dir.filePath(QStringLiteral("seed.bpflens"));
            QCOMPARE(writeSession(path, 20, 4), QString());
            const QByteArray whole = readAll(path);
            QVERIFY2(whole.size() < 96 * 1024, qPrintable(QString::number(whole.size())));
            QByteArray flipped = whole;
            QRandomGenerator random(7);
            for (int i = 0; i < 10; ++i) {
                const qint64 at = 100 + qint64(random.bounded(quint32(whole.size() - 100)));
                flipped[at] = char(flipped[at] ^ char(1 << random.bounded(8)));
            }
            QByteArray zeroed = whole;
            std::memset(zeroed.data() + zeroed.size() / 2 / 4096 * 4096, 0, 4096);
            QVERIFY(corpus.mkpath(QStringLiteral(".")));
            const std::pair<const char *, QByteArray> seeds[] = {
                {"whole", whole},
                {"truncated-half", whole.left(whole.size() / 2 / 4096 * 4096)},
                {"truncated-odd", whole.left(whole.size() * 2 / 3 + 77)},
                {"flipped-10", flipped},
                {"zeroed-page", zeroed},
            };
            for (const auto &[name, bytes] : seeds)
                QVERIFY(writeAll(corpus.filePath(QLatin1String(name)), bytes));
        }
        const QStringList seeds = corpus.entryList(QDir::Files);
        QVERIFY2(seeds.size() >= 5, qPrintable(corpus.path()));
        int salvaged = 0;
        for (const QString &name : seeds) {
            const QString path = m_dir.filePath(QStringLiteral("seed-copy.bpflens"));
            QVERIFY(writeAll(path, readAll(corpus.filePath(name))));
            SessionData data;
            QString error;
            if (SessionReader::open(path, &data, &error))
                salvaged += data.damage.isDamaged();
            else
                QVERIFY2(!error.isEmpty(), qPrintable(name));
        }
        QVERIFY(salvaged >= 3);
    }

    void cleanupTestCase() { qInfo("%d damaged copies checked, %d refused", m_checked, m_refused); }
};

QTEST_GUILESS_MAIN(TestSessionSalvage)
#include "tst_sessionsalvage.moc"
