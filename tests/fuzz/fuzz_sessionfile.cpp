// libFuzzer target for opening a session file (docs/session-format.md, "Damaged files"): the
// input is written to a temporary file and opened with SessionReader::open(), salvage allowed,
// so damaged inputs go through the salvage reader (core/sessionsalvage.cpp). Besides "never
// crashes, never reads out of bounds, never allocates without bound" (ASan, UBSan,
// -rss_limit_mb) it checks that a file that opens says consistently whether it was damaged.
// Seeds (tests/fuzz/corpus/sessionfile/) are a small session and damaged copies of it, written
// by BPFLENS_UPDATE_FUZZ_CORPUS=1 tst_sessionsalvage fuzzSeeds. Every input is also queried
// through each SQL table of core/sessionquery.h, which decodes the same chunks lazily.
#include "core/sessionquery.h"
#include "core/sessionstore.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using namespace bpflens;

namespace {

[[noreturn]] void fail(const char *what)
{
    fprintf(stderr, "%s\n", what);
    __builtin_trap();
}

QString tempPath()
{
    static const QString path = [] {
        char name[] = "/tmp/fuzz_sessionfile-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0)
            fail("mkstemp failed");
        close(fd);
        static char removeAtExit[sizeof name];
        memcpy(removeAtExit, name, sizeof name);
        atexit([] {
            unlink(removeAtExit);
            for (const char *suffix : {"-wal", "-shm", "-journal"})
                unlink((QByteArray(removeAtExit) + suffix).constData());
        });
        return QString::fromLocal8Bit(name);
    }();
    return path;
}

void removeCompanions(const QString &path)
{
    // A damaged header may claim WAL mode: SQLite then makes a -shm next to the file.
    QFile::remove(path + QStringLiteral("-wal"));
    QFile::remove(path + QStringLiteral("-shm"));
    QFile::remove(path + QStringLiteral("-journal"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString path = tempPath();
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            fail("cannot write the temporary file");
        if (f.write(reinterpret_cast<const char *>(data), qint64(size)) != qint64(size))
            fail("short write");
    }
    removeCompanions(path);
    SessionData session;
    QString error;
    const bool opened = SessionReader::open(path, &session, &error);
    if (opened && session.damage.isDamaged() && session.damage.lost.isEmpty())
        fail("salvaged without saying what was lost");
    if (!opened && error.isEmpty())
        fail("refused without a message");
    if (opened && !session.damage.isDamaged() && !error.isEmpty())
        fail("opened intact but left an error");
    removeCompanions(path);
    SessionQuery query;
    QString openError;
    if (query.open(path, &openError)) {
        for (const SessionQuery::Table &t : SessionQuery::virtualTables()) {
            QString queryError;
            if (!query.exec(
                    QStringLiteral("SELECT * FROM ") + t.name, nullptr,
                    [](const QVariantList &) { return true; }, &queryError) &&
                queryError.isEmpty())
                fail("a query failed without a message");
        }
    } else if (openError.isEmpty()) {
        fail("query refused without a message");
    }
    query.close();
    removeCompanions(path);
    return 0;
}
