#include "outputfile.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace bpflens::cli {

namespace {

QFile &stdoutFile()
{
    static QFile file;
    if (!file.isOpen())
        file.open(STDOUT_FILENO, QIODevice::WriteOnly | QIODevice::Unbuffered,
                  QFileDevice::DontCloseHandle);
    return file;
}

} // namespace

QTextStream &standardOutput()
{
    static QTextStream stream(&stdoutFile());
    return stream;
}

bool standardOutputFailed()
{
    return standardOutput().status() != QTextStream::Ok;
}

int finishStandardOutput(int status)
{
    QTextStream &stream = standardOutput();
    stream.flush();
    QString why;
    if (stream.status() != QTextStream::Ok)
        why = stdoutFile().errorString();
    // Commands that write bytes through stdio (the folded stacks, JSON lines while recording)
    // flush as they go; what is left is checked here, and so is close(2), the last place a
    // file system may report that the data did not fit.
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        if (why.isEmpty())
            why = QString::fromLocal8Bit(std::strerror(errno ? errno : EIO));
    }
    errno = 0;
    if (::close(STDOUT_FILENO) != 0 && errno != EBADF && errno != EINTR && why.isEmpty())
        why = QString::fromLocal8Bit(std::strerror(errno));
    if (why.isEmpty())
        return status;
    QTextStream(stderr) << "bpflens-cli: cannot write to standard output: " << why << '\n';
    return status == 0 ? 1 : status;
}

bool mayWriteOver(const QString &path, bool force, QString *error)
{
    const QFileInfo info(path);
    if (force || !info.exists() || !(info.isFile() || info.isDir()))
        return true;
    if (error)
        *error = QStringLiteral("%1 already exists: choose another file, or --force").arg(path);
    return false;
}

} // namespace bpflens::cli
