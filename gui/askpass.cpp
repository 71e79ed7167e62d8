#include "gui/askpass.h"

#include <QAbstractButton>
#include <QApplication>
#include <QInputDialog>
#include <QMessageBox>
#include <QTextStream>

namespace bpflens {

bool isAskpassConfirmation(const QString &prompt)
{
    return prompt.contains(QLatin1String("(yes/no"));
}

std::optional<QString> askpassAnswer(const QString &prompt, QWidget *parent)
{
    const QString text = prompt.trimmed();
    if (isAskpassConfirmation(text)) {
        // ssh's own words carry the fingerprint to compare; ours say what Yes does.
        QMessageBox box(
            QMessageBox::Warning, QApplication::translate("askpass", "Unknown Host Key"),
            QApplication::translate("askpass", "This computer does not know the host key of the "
                                               "host yet. Trust it only if the fingerprint is "
                                               "the one of that host."),
            QMessageBox::Yes | QMessageBox::No, parent);
        box.setObjectName(QStringLiteral("askpassQuestion"));
        box.setInformativeText(text);
        box.setDefaultButton(QMessageBox::No);
        box.button(QMessageBox::Yes)
            ->setText(QApplication::translate("askpass", "Trust and Connect"));
        box.button(QMessageBox::No)->setText(QApplication::translate("askpass", "Refuse"));
        const int answer = box.exec();
        return answer == QMessageBox::Yes ? QStringLiteral("yes") : QStringLiteral("no");
    }
    QInputDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("askpassInput"));
    dialog.setWindowTitle(QApplication::translate("askpass", "SSH Authentication"));
    dialog.setLabelText(text);
    dialog.setTextEchoMode(QLineEdit::Password);
    dialog.setInputMode(QInputDialog::TextInput);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return dialog.textValue();
}

int runAskpass(const QString &prompt, QTextStream &out)
{
    const std::optional<QString> answer = askpassAnswer(prompt);
    if (!answer)
        return 1;
    out << *answer << '\n';
    out.flush();
    return 0;
}

} // namespace bpflens
