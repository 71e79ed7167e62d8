#include "gui/appidentity.h"

#include <QApplication>
#include <QIcon>

namespace bpflens {

void setApplicationIdentity()
{
    QApplication::setOrganizationName(QStringLiteral("BPF Lens"));
    QApplication::setApplicationName(QStringLiteral("bpflens"));
    QApplication::setApplicationDisplayName(QStringLiteral("BPF Lens"));
    QApplication::setApplicationVersion(QStringLiteral(BPFLENS_VERSION));
    QGuiApplication::setDesktopFileName(QLatin1String(DesktopId));
    QApplication::setWindowIcon(QIcon::fromTheme(
        QLatin1String(DesktopId), QIcon(QStringLiteral(":/icons/io.github.bpflens.svg"))));
}

QString missingDisplayReason(const QStringList &environment)
{
    auto has = [&](const QString &key) {
        for (const QString &entry : environment) {
            if (entry.startsWith(key + QLatin1Char('=')) && entry.size() > key.size() + 1)
                return true;
        }
        return false;
    };
    // A chosen platform (offscreen, vnc, eglfs...) needs no display server.
    if (has(QStringLiteral("DISPLAY")) || has(QStringLiteral("WAYLAND_DISPLAY")) ||
        has(QStringLiteral("QT_QPA_PLATFORM")))
        return QString();
    return QStringLiteral("bpflens: needs a graphical session (neither DISPLAY nor "
                          "WAYLAND_DISPLAY is set); to look at a session file here, use "
                          "bpflens-cli show FILE");
}

} // namespace bpflens
