#include "gui/errorbox.h"

#include <QMessageBox>

namespace bpflens {

void showErrorBox(QWidget *parent, const QString &title, const QString &message)
{
    auto *box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("errorBox"));
    box->open();
}

} // namespace bpflens
