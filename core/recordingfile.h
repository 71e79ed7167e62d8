#pragma once

#include "core/records.h"
#include "core/sessionstore.h"

#include <QHash>
#include <QString>

namespace bpflens {

// A session file being recorded: batches in, as they come from the engine or the helper's
// stream, written one transaction a second. bpflens-cli records in-process and through the
// helper with this, so both write the same file from the same records:
//   RecordingFile f;  f.create(path, info, &error);
//   while (recording) f.add(std::move(batch), nowNs);
//   f.finish(endNs, &error);
class RecordingFile
{
public:
    // A crash loses at most the last second.
    static constexpr quint64 WriteIntervalNs = 1'000'000'000ull;
    // In a storm, a write per this many events: a second of 50 000 opens held in memory was
    // most of the recorder's peak memory, and a transaction costs little next to its rows.
    static constexpr qsizetype MaxWaitingEvents = 16384;

    // Refuses to overwrite an existing file. info.startMonotonicNs starts the first second.
    bool create(const QString &path, const SessionInfo &info, QString *error);
    bool isOpen() const { return m_writer.isOpen(); }

    // Takes batch's records, and writes everything taken so far once WriteIntervalNs have
    // passed since the last write or MaxWaitingEvents wait. False once a write has failed
    // (writeError()); later records are still counted, but nothing more is written.
    bool add(RecordBatch &&batch, quint64 nowNs);
    // add() without records: writes what waits if it is time to.
    bool writeIfDue(quint64 nowNs);
    // Writes whatever waits, now.
    bool flush();
    // Writes whatever waits and the end time; the file is complete afterwards.
    bool finish(quint64 endMonotonicNs, QString *error);

    // Events taken so far, written or waiting.
    quint64 eventCount() const { return m_events + quint64(m_waiting.eventCount()); }
    // The probes' lost events (ProbeStats' three causes), summed over the probes' latest
    // (cumulative) stats, as of the last write.
    quint64 lostCount() const;
    quint64 unseenCount() const;
    quint64 unfinishedCount() const;
    // "12 lost, 3 not seen, 2 unfinished", leaving out the causes with none; "0 lost" if none.
    QString lostSummary() const;
    // Transactions written so far.
    qint64 writes() const { return m_writer.batchesWritten(); }
    bool hasWriteError() const { return !m_writeError.isEmpty(); }
    QString writeError() const { return m_writeError; }

private:
    // One ProbeStats field added up over the probes' latest stats.
    quint64 latestSum(quint64 ProbeStats::*field) const;

    SessionWriter m_writer;
    RecordBatch m_waiting;
    quint64 m_lastWriteNs = 0;
    quint64 m_events = 0;
    QHash<QString, ProbeStats> m_latest; // per probe
    QString m_writeError;
};

} // namespace bpflens
