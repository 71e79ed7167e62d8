#include "gui/sessionsave.h"

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
        // The definitions before the events that name them, as a recording writes them.
        data.stacks.appendAllDefinitions(first);
        first.histograms = data.histograms;
        first.stats = data.stats;
        first.counters = data.counters;
        if (!writer.writeBatch(first, &why))
            return fail(why);
        bool written = true;
        forEachEventType([&]<typename E>() {
            const qsizetype n = store.count(eventTypeOf<E>);
            for (qsizetype begin = 0; written && begin < n; begin += ChunkEvents) {
                RecordBatch b;
                const qsizetype end = std::min(n, begin + ChunkEvents);
                QList<E> &events = b.events<E>();
                events.reserve(end - begin);
                for (qsizetype i = begin; i < end; ++i)
                    events.append(store.event<E>(i));
                written = writer.writeBatch(b, &why);
            }
        });
        if (!written)
            return fail(why);
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
