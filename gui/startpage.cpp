#include "gui/startpage.h"

#include "gui/theme.h"

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

namespace bpflens {

namespace {

// A button that does what its action does and follows its enabled state and tool tip.
void mirror(QPushButton *button, QAction *action)
{
    auto sync = [button, action] {
        button->setEnabled(action->isEnabled());
        button->setToolTip(action->toolTip());
    };
    sync();
    QObject::connect(action, &QAction::changed, button, sync);
    QObject::connect(button, &QPushButton::clicked, action, &QAction::trigger);
}

} // namespace

StartPage::StartPage(QAction *record, QAction *open, QAction *documentation, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("startPage"));
    setAutoFillBackground(true);

    auto *icon = new QLabel(this);
    icon->setPixmap(QIcon(QStringLiteral(":/icons/io.github.bpflens.svg")).pixmap(64, 64));
    auto *title = new QLabel(QStringLiteral("BPF Lens"), this);
    title->setObjectName(QStringLiteral("startTitle"));
    auto *tagline =
        new QLabel(tr("Record what the kernel sees, then zoom into every event."), this);
    tagline->setWordWrap(true);
    m_headings << title;
    m_hints << tagline;

    auto heading = [this](const QString &text) {
        auto *l = new QLabel(text, this);
        m_headings << l;
        return l;
    };
    auto hint = [this](const QString &text) {
        auto *l = new QLabel(text, this);
        l->setWordWrap(true);
        m_hints << l;
        return l;
    };

    m_record = new QPushButton(record->icon(), tr("Record…"), this);
    m_record->setObjectName(QStringLiteral("startRecord"));
    mirror(m_record, record);
    m_open = new QPushButton(open->icon(), tr("Open a Session…"), this);
    m_open->setObjectName(QStringLiteral("startOpen"));
    mirror(m_open, open);
    m_example = new QPushButton(tr("Open the Example Recording"), this);
    m_example->setObjectName(QStringLiteral("startExample"));
    const QString example = examplePath();
    m_example->setVisible(!example.isEmpty());
    m_example->setToolTip(QDir::toNativeSeparators(example));
    connect(m_example, &QPushButton::clicked, this, [this] {
        const QString path = examplePath();
        if (!path.isEmpty())
            Q_EMIT openRequested(path);
    });
    m_docs = new QPushButton(tr("Documentation"), this);
    m_docs->setObjectName(QStringLiteral("startDocs"));
    mirror(m_docs, documentation);

    m_recent = new QListWidget(this);
    m_recent->setObjectName(QStringLiteral("startRecent"));
    m_recent->setAccessibleName(tr("Recent sessions"));
    m_recent->setTextElideMode(Qt::ElideMiddle);
    m_recent->setUniformItemSizes(true);
    // One click opens, as on Qt Creator's and hotspot's start pages; Enter too. A style that
    // activates on a single click reports that click twice: open once.
    auto openItem = [this](QListWidgetItem *item) {
        if (m_opening)
            return;
        m_opening = true;
        QTimer::singleShot(0, this, [this] { m_opening = false; });
        Q_EMIT openRequested(item->data(Qt::UserRole).toString());
    };
    connect(m_recent, &QListWidget::itemClicked, this, openItem);
    connect(m_recent, &QListWidget::itemActivated, this, openItem);
    m_noRecent = hint(tr("Sessions you open or save appear here."));

    auto *start = new QVBoxLayout;
    start->addWidget(heading(tr("Start")));
    start->addWidget(m_record);
    start->addWidget(hint(tr("Record… opens the recording page: tick the probes to run there, then "
                             "Record. BPF Lens asks for permission once per recording.")));
    start->addSpacing(8);
    start->addWidget(m_open);
    start->addWidget(m_example);
    start->addWidget(hint(tr("Session files (*.bpflens) can also be dropped on the window.")));
    start->addSpacing(8);
    start->addWidget(m_docs);
    start->addStretch(1);

    auto *recent = new QVBoxLayout;
    recent->addWidget(heading(tr("Recent Sessions")));
    recent->addWidget(m_recent, 100);
    recent->addWidget(m_noRecent);
    // Keeps the heading and the empty list's hint at the top.
    recent->addStretch(1);

    auto *header = new QGridLayout;
    header->addWidget(icon, 0, 0, 2, 1, Qt::AlignTop);
    header->addWidget(title, 0, 1);
    header->addWidget(tagline, 1, 1);
    header->setColumnStretch(1, 1);
    header->setHorizontalSpacing(16);

    auto *columns = new QHBoxLayout;
    columns->addLayout(start, 2);
    columns->addSpacing(32);
    columns->addLayout(recent, 3);

    // A column of readable width in the middle of a wide window, all of it on a small one.
    auto *content = new QWidget(this);
    content->setMaximumWidth(880);
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->addLayout(header);
    contentLayout->addSpacing(24);
    contentLayout->addLayout(columns, 1);

    auto *outer = new QHBoxLayout(this);
    outer->setContentsMargins(24, 24, 24, 24);
    outer->addStretch(1);
    outer->addWidget(content, 6);
    outer->addStretch(1);

    restyle();
    setRecentFiles({});
}

QString StartPage::examplePath()
{
    // Installed next to the package's other data; from the build tree, the source's copy.
    const QString relative = QStringLiteral("bpflens/examples/example.bpflens");
    QString path = QStandardPaths::locate(QStandardPaths::GenericDataLocation, relative);
    if (path.isEmpty()) {
        const QString besideBinary =
            QCoreApplication::applicationDirPath() + QStringLiteral("/../share/") + relative;
        if (QFileInfo::exists(besideBinary))
            path = QFileInfo(besideBinary).canonicalFilePath();
    }
#ifdef BPFLENS_SOURCE_DIR
    if (path.isEmpty()) {
        const QString source =
            QStringLiteral(BPFLENS_SOURCE_DIR "/resources/examples/example.bpflens");
        if (QFileInfo::exists(source))
            path = source;
    }
#endif
    return path;
}

void StartPage::setRecentFiles(const QStringList &paths)
{
    m_recent->clear();
    for (const QString &path : paths) {
        if (!QFileInfo::exists(path))
            continue;
        auto *item = new QListWidgetItem(QFileInfo(path).fileName(), m_recent);
        item->setToolTip(QDir::toNativeSeparators(path));
        item->setData(Qt::UserRole, path);
        item->setData(Qt::AccessibleDescriptionRole, QDir::toNativeSeparators(path));
    }
    m_recent->setVisible(m_recent->count() > 0);
    m_noRecent->setVisible(m_recent->count() == 0);
}

void StartPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        restyle();
}

void StartPage::restyle()
{
    // Sizes from the user's font, colours from the palette: readable in every theme.
    const QColor accent = Theme::accent(palette());
    QColor muted = palette().color(QPalette::PlaceholderText);
    for (QLabel *l : std::as_const(m_headings)) {
        QFont f = font();
        const bool title = l->objectName() == QLatin1String("startTitle");
        f.setPointSizeF(f.pointSizeF() * (title ? 2.0 : 1.25));
        f.setWeight(title ? QFont::Bold : QFont::DemiBold);
        l->setFont(f);
        QPalette p = l->palette();
        p.setColor(QPalette::WindowText, title ? palette().color(QPalette::WindowText) : accent);
        l->setPalette(p);
    }
    for (QLabel *l : std::as_const(m_hints)) {
        QPalette p = l->palette();
        p.setColor(QPalette::WindowText, muted);
        l->setPalette(p);
    }
}

} // namespace bpflens
