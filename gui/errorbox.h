#pragma once

class QString;
class QWidget;

namespace bpflens {

// An error in a window-modal message box (object name "errorBox") that is opened, not
// exec()'d: the caller (a drop, the command line, a test) goes on.
void showErrorBox(QWidget *parent, const QString &title, const QString &message);

} // namespace bpflens
