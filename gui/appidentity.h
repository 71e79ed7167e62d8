#pragma once

#include <QString>
#include <QStringList>

namespace bpflens {

// The name the desktop knows the application by: the .desktop file's and the icon's base name
// (resources/io.github.bpflens.desktop, .svg).
inline constexpr char DesktopId[] = "io.github.bpflens";

// Organisation and application names, the desktop file name (so that Wayland compositors match
// the window to the launcher) and the window icon: the installed theme icon, else the copy built
// into the program.
void setApplicationIdentity();

// Why no window can be shown in this environment (no X11 or Wayland display and no Qt platform
// chosen), as the one line bpflens prints before exiting; empty when a display may be there.
// environment: KEY=VALUE entries, as QProcessEnvironment::toStringList() gives them.
QString missingDisplayReason(const QStringList &environment);

} // namespace bpflens
