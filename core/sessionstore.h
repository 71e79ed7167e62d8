#pragma once

#include "core/cgroups.h"
#include "core/eventstore.h"
#include "core/records.h"
#include "core/sessioninfo.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>

struct sqlite3;

namespace bpflens {

// PRAGMA application_id of every session file: "BPFL".
inline constexpr qint32 SessionApplicationId = 0x4250464c;

// What a damaged session file lost, when SessionReader could only salvage it
// (core/sessionsalvage.h, docs/session-format.md "Damaged files"). Empty for an intact file.
struct SessionDamage
{
    QString reason;   // why it could not be read whole: "database disk image is malformed"
    QStringList lost; // one sentence per loss, the same the GUI's banner and `show` print
    qint64 chunksKept = 0;
    qint64 chunksLost = 0;     // undecodable chunks plus chunk rows that could not be read
    qint64 eventsLost = 0;     // the events the lost chunks' readable rows counted
    qint64 unreadableRows = 0; // rows of all tables (chunks too) that could not be read
    qint64 stringsLost = 0;    // shown as "[lost string <id>]" where events name them
    // The file has no checksums (schema 2): an altered value that still decodes was kept,
    // since it cannot be told from a real one. `lost` says so too.
    bool unverified = false;

    bool isDamaged() const { return !reason.isEmpty(); }
};

// A whole session in memory, as SessionReader loads it.
struct SessionData
{
    SessionInfo info;
    SessionDamage damage;
    EventStore events;
    StackTable stacks;   // the stacks CpuSample and OffCpu events refer to
    CgroupTable cgroups; // what the events' cgroup ids name (schema 4)
    QList<HistogramSnapshot> histograms;
    QList<ProbeStats> stats;
    QList<CounterSample> counters;
};

// Records a session into a *.bpflens SQLite file (docs/session-format.md). Each writeBatch()
// is one transaction in WAL mode, so a crash of the recorder loses at most the batch being
// written; finish() folds the WAL back into the file so the result is one self-contained file.
class SessionWriter
{
public:
    SessionWriter() = default;
    ~SessionWriter(); // closes without finish(): the file stays valid, endMonotonicNs 0
    SessionWriter(const SessionWriter &) = delete;
    SessionWriter &operator=(const SessionWriter &) = delete;

    // The schema create() writes: SessionSchemaVersion (default); 2, the same without
    // checksums; or 1, the row-per-event layout. The older ones are kept for compatibility
    // tests and benchmark baselines. Schema 1 has no place for tppair events, the event types
    // after them or stacks: writeBatch() refuses a batch holding any.
    void setSchemaVersion(int version) { m_schema = version; }
    int schemaVersion() const { return m_schema; }

    // Refuses to overwrite an existing file.
    bool create(const QString &path, const SessionInfo &info, QString *error);
    // Also refuses (writing nothing) a batch whose frame and stack definitions do not continue
    // those written so far in order (core/stacks.h), which no reader would accept.
    bool writeBatch(const RecordBatch &batch, QString *error);
    bool finish(quint64 endMonotonicNs, QString *error = nullptr);
    void close();

    bool isOpen() const { return m_db != nullptr; }
    QString path() const { return m_path; }
    qint64 batchesWritten() const { return m_batches; }
    // Caps the file at pages * page size (4096), as a quota; tests use it to simulate a full
    // disk. 0 restores SQLite's default.
    bool setMaxPageCount(qint64 pages);

private:
    bool exec(const char *sql, QString *error);
    QString failure(const QString &what) const;
    bool writeRows(const RecordBatch &batch);
    bool writeSchema1Events(const RecordBatch &batch);
    bool writeChunks(const RecordBatch &batch);
    bool writeStacks(const RecordBatch &batch);
    QString checkDefinitions(const RecordBatch &batch) const;
    quint32 stringId(const QByteArray &bytes);
    struct Statements;

    sqlite3 *m_db = nullptr;
    Statements *m_stmts = nullptr;
    QString m_path;
    qint64 m_batches = 0;
    int m_schema = SessionSchemaVersion;
    quint32 m_frameCount = 0; // definitions committed to the file
    quint32 m_stackCount = 0;
    // Strings already in the file; entries added by a batch that rolls back are removed again.
    QHash<QByteArray, quint32> m_stringIds;
    QList<QByteArray> m_newStrings;
};

// Loads a session file, opened read-only. Works on a file in a read-only directory, on a
// finished session and on one a writer is still recording (it then sees the batches committed
// so far). Every refusal has its own message; see docs/session-format.md.
class SessionReader
{
public:
    // done/total count events and rows of the other tables; returning false cancels the load
    // (error "cancelled").
    using Progress = std::function<bool(qint64 done, qint64 total)>;

    // A damaged file (SQLite reports corruption, or a row or chunk is malformed) is handed to
    // the salvage reader, which loads what can be read and fills data->damage, unless salvage
    // is Salvage::Refuse. Only a file whose header or schema is gone is then refused.
    enum class Salvage
    {
        Allow,
        Refuse
    };
    static bool open(const QString &path, SessionData *data, QString *error,
                     const Progress &progress = {}, Salvage salvage = Salvage::Allow);

    // The chunks of a schema 2+ file are decoded by worker threads while the loading thread
    // reads the rows and joins the decoded chunks in order; the result is the same for any
    // number of workers. threads: how many (-1, the default: one per core, at most 4; 0: the
    // loading thread decodes alone). For tests and benchmarks that compare them.
    static void setDecodeThreads(int threads);
};

} // namespace bpflens
