#include "core/specialfile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <sys/stat.h>

namespace bpflens {

bool isOpenableSessionPath(const QString &path, QString *error)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return true; // missing or unreachable: the caller's open reports it
    const char *kind = nullptr;
    if (S_ISFIFO(st.st_mode))
        kind = "a FIFO (named pipe)";
    else if (S_ISSOCK(st.st_mode))
        kind = "a socket";
    else if (S_ISCHR(st.st_mode))
        kind = "a character device";
    else if (S_ISBLK(st.st_mode))
        kind = "a block device";
    if (!kind)
        return true;
    if (error)
        *error = QStringLiteral("not a BPF Lens session: %1 is %2").arg(path, QLatin1String(kind));
    return false;
}

bool writeWholeFile(const QString &path, const std::function<bool(QIODevice *)> &write,
                    QString *error)
{
    auto refuse = [&](const QString &reason) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, reason);
        return false;
    };
    const QFileInfo info(path);
    if (info.exists() && !info.isFile() && !info.isDir()) {
        // QSaveFile would write a temporary file beside the device and rename it over it.
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            return refuse(file.errorString());
        if (!write(&file) || file.error() != QFileDevice::NoError)
            return refuse(file.errorString());
        file.close();
        if (file.error() != QFileDevice::NoError)
            return refuse(file.errorString());
        return true;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !write(&file) || !file.commit())
        return refuse(file.errorString());
    return true;
}

} // namespace bpflens
