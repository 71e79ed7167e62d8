#include "gui/recordpage.h"

#include "gui/probepanel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace bpflens {

RecordPage::RecordPage(ProbePanel *probes, QAction *record, QWidget *parent)
    : QWidget(parent)
    , m_probes(probes)
{
    setObjectName(QStringLiteral("recordPage"));
    auto *heading = new QLabel(tr("<b>New recording</b>"), this);
    auto *hint = new QLabel(tr("Tick the probes to run and set their options, then Record. "
                               "The views fill while it runs; Stop ends it."),
                            this);
    hint->setWordWrap(true);

    m_record = new QPushButton(record->icon(), record->text(), this);
    m_record->setObjectName(QStringLiteral("recordPageRecord"));
    m_record->setDefault(true);
    auto sync = [this, record] {
        m_record->setEnabled(record->isEnabled());
        m_record->setToolTip(record->toolTip());
    };
    sync();
    connect(record, &QAction::changed, m_record, sync);
    connect(m_record, &QPushButton::clicked, record, &QAction::trigger);
    m_back = new QPushButton(tr("Back to the Session"), this);
    m_back->setObjectName(QStringLiteral("recordPageBack"));
    m_back->hide();
    connect(m_back, &QPushButton::clicked, this, &RecordPage::backRequested);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_record);
    buttons->addWidget(m_back);
    buttons->addStretch(1);

    // A column of readable width in the middle of a wide window, all of it on a small one.
    auto *column = new QWidget(this);
    column->setMaximumWidth(960);
    auto *columnLayout = new QVBoxLayout(column);
    columnLayout->addWidget(heading);
    columnLayout->addWidget(hint);
    columnLayout->addWidget(probes, 1);
    columnLayout->addLayout(buttons);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addStretch(1);
    layout->addWidget(column, 100);
    layout->addStretch(1);
}

void RecordPage::setCanGoBack(bool canGoBack)
{
    m_back->setVisible(canGoBack);
}

} // namespace bpflens
