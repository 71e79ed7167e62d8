#include "core/recordingfile.h"

#include <QtGlobal>

namespace bpflens {

bool RecordingFile::create(const QString &path, const SessionInfo &info, QString *error)
{
    m_lastWriteNs = info.startMonotonicNs;
    return m_writer.create(path, info, error);
}

bool RecordingFile::add(RecordBatch &&batch, quint64 nowNs)
{
    m_waiting.append(std::move(batch));
    return writeIfDue(nowNs);
}

bool RecordingFile::writeIfDue(quint64 nowNs)
{
    if (nowNs - m_lastWriteNs < WriteIntervalNs && m_waiting.eventCount() < MaxWaitingEvents)
        return !hasWriteError();
    m_lastWriteNs = nowNs;
    return flush();
}

bool RecordingFile::flush()
{
    m_events += quint64(m_waiting.eventCount());
    for (const ProbeStats &s : std::as_const(m_waiting.stats)) {
        ProbeStats &latest = m_latest[s.probeId];
        if (s.timeNs >= latest.timeNs)
            latest = s;
    }
    // After a failed write (a full disk) the file keeps what was written before.
    if (m_writer.isOpen() && !hasWriteError()) {
        QString error;
        if (!m_writer.writeBatch(m_waiting, &error))
            m_writeError = error;
    }
    m_waiting.clear();
    return !hasWriteError();
}

bool RecordingFile::finish(quint64 endMonotonicNs, QString *error)
{
    flush();
    return m_writer.finish(endMonotonicNs, error);
}

quint64 RecordingFile::latestSum(quint64 ProbeStats::*field) const
{
    quint64 n = 0;
    for (const ProbeStats &s : m_latest)
        n += s.*field;
    return n;
}

quint64 RecordingFile::lostCount() const
{
    return latestSum(&ProbeStats::eventsLost);
}

quint64 RecordingFile::unseenCount() const
{
    return latestSum(&ProbeStats::eventsUnseen);
}

quint64 RecordingFile::unfinishedCount() const
{
    return latestSum(&ProbeStats::unfinished);
}

QString RecordingFile::lostSummary() const
{
    QString text = QStringLiteral("%1 lost").arg(lostCount());
    if (const quint64 n = unseenCount())
        text += QStringLiteral(", %1 not seen").arg(n);
    if (const quint64 n = unfinishedCount())
        text += QStringLiteral(", %1 unfinished").arg(n);
    return text;
}

} // namespace bpflens
