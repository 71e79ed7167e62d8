#pragma once

#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QTimer>

#include <functional>

namespace bpflens::test {

// Acts on the next modal dialog of type Dialog once it is up: exec() blocks the test until then.
// Gives up after about tries x 10 ms, so a dialog that never comes fails the test, not the next.
template<typename Dialog>
void whenModal(std::function<void(Dialog *)> act, int tries = 1000)
{
    QTimer::singleShot(10, [act = std::move(act), tries]() mutable {
        auto *dialog = qobject_cast<Dialog *>(QApplication::activeModalWidget());
        if (dialog && dialog->isVisible())
            act(dialog);
        else if (tries > 0)
            whenModal<Dialog>(std::move(act), tries - 1);
    });
}

// Answers a (Qt, not native) file dialog with path as a user does: typed into its file name
// field, then accepted. selectFile() leaves that field alone once it has the focus, which it
// had by then under load (a parallel ctest): accept() found no file, the dialog stayed open and
// exec() never returned. Retried every 50 ms until the dialog closes; rejected after about 10 s
// so the test fails instead of hanging.
inline void answerFileDialog(QFileDialog *dialog, const QString &path, int tries = 200)
{
    if (auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit")))
        name->setText(path);
    else
        dialog->selectFile(path);
    static_cast<QDialog *>(dialog)->accept(); // (QFileDialog's own, as its button does)
    if (dialog->isVisible() && tries > 0)
        QTimer::singleShot(50, dialog,
                           [dialog, path, tries] { answerFileDialog(dialog, path, tries - 1); });
    else if (dialog->isVisible())
        dialog->reject();
}

} // namespace bpflens::test
