#include "sessionsave.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUuid>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace bpflens {

namespace {

// Events per transaction: bounded memory for the copies, few enough commits to be fast.
constexpr qsizetype ChunkEvents = 50000;

} // namespace

bool saveSession(const SessionData &data, quint64 endMonotonicNs, const QString &path,
                 QString *error)
{
    const QFileInfo target(path);
    const QString temp = target.absoluteDir().filePath(
        QStringLiteral(".%1.%2.part")
            .arg(target.fileName(), QUuid::createUuid().toString(QUuid::WithoutBraces)));
    const SessionInfo &info = data.info;
    const quint64 endNs = data.info.endMonotonicNs ? data.info.endMonotonicNs : endMonotonicNs;

    auto fail = [&](const QString &why) {
        QFile::remove(temp);
        QFile::remove(temp + QStringLiteral("-wal"));
        QFile::remove(temp + QStringLiteral("-shm"));
        if (error)
            *error = QCoreApplication::translate("SessionSave", "Cannot save %1: %2")
                         .arg(QDir::toNativeSeparators(path), why);
        return false;
    };

    QString why;
    {
        SessionWriter writer;
        if (!writer.create(temp, info, &why))
            return fail(why);
        const EventStore &store = data.events;
        RecordBatch first;
        first.histograms = data.histograms;
        first.stats = data.stats;
        first.counters = data.counters;
        if (!writer.writeBatch(first, &why))
            return fail(why);
        for (EventType type : {EventType::Exec, EventType::Open, EventType::Block,
                               EventType::TcpConnect, EventType::FsSlow, EventType::TpPair}) {
            const qsizetype n = store.count(type);
            for (qsizetype begin = 0; begin < n; begin += ChunkEvents) {
                RecordBatch b;
                const qsizetype end = std::min(n, begin + ChunkEvents);
                for (qsizetype i = begin; i < end; ++i) {
                    switch (type) {
                    case EventType::Exec:
                        b.exec.append(store.exec(i));
                        break;
                    case EventType::Open:
                        b.open.append(store.open(i));
                        break;
                    case EventType::Block:
                        b.block.append(store.block(i));
                        break;
                    case EventType::TcpConnect:
                        b.tcpConnect.append(store.tcpConnect(i));
                        break;
                    case EventType::FsSlow:
                        b.fsSlow.append(store.fsSlow(i));
                        break;
                    case EventType::TpPair:
                        b.tpPair.append(store.tpPair(i));
                        break;
                    }
                }
                if (!writer.writeBatch(b, &why))
                    return fail(why);
            }
        }
        if (!writer.finish(endNs, &why))
            return fail(why);
        writer.close();
    }
    // rename() replaces an existing file atomically: a reader never sees half a session.
    if (std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(path).constData()) != 0)
        return fail(QString::fromLocal8Bit(std::strerror(errno)));
    return true;
}

} // namespace bpflens
