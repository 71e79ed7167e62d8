#include "cli/outputfile.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace bpflens::cli {

namespace {

// File descriptor 1 as a QIODevice that keeps the errno of a failed write. QFile reports a
// short write (a file system that fills up in the middle of a block) as no error at all.
class StandardOutputDevice : public QIODevice
{
public:
    StandardOutputDevice() { open(QIODevice::WriteOnly | QIODevice::Unbuffered); }
    QString reason() const
    {
        return QString::fromLocal8Bit(std::strerror(m_errno ? m_errno : EIO));
    }
    bool failed() const { return m_errno != 0; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 len) override
    {
        qint64 done = 0;
        while (done < len) {
            const ssize_t n = ::write(STDOUT_FILENO, data + done, size_t(len - done));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                m_errno = n < 0 ? errno : EIO;
                return -1;
            }
            done += n;
        }
        return done;
    }

private:
    int m_errno = 0;
};

StandardOutputDevice &device()
{
    static StandardOutputDevice d;
    return d;
}

} // namespace

QTextStream &standardOutput()
{
    static QTextStream stream(&device());
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
    if (stream.status() != QTextStream::Ok || device().failed())
        why = device().reason();
    // Commands that write bytes through stdio (the folded stacks, JSON lines) flush and check
    // as they go; what is left is checked here, and so is close(2), the last place a file
    // system may report that the data did not fit.
    errno = 0;
    if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && why.isEmpty())
        why = errno ? QString::fromLocal8Bit(std::strerror(errno)) : QStringLiteral("write error");
    errno = 0;
    if (::close(STDOUT_FILENO) != 0 && errno != EBADF && errno != EINTR && why.isEmpty())
        why = QString::fromLocal8Bit(std::strerror(errno));
    // A command that failed has said why already (a write it checked itself among them).
    if (why.isEmpty() || status != 0)
        return status;
    QTextStream(stderr) << "bpflens-cli: cannot write to standard output: " << why << '\n';
    return 1;
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
