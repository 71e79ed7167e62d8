#include "gui/querypage.h"

#include "core/sessionquery.h"
#include "gui/models/querymodel.h"
#include "gui/models/sessionmodel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <sqlite3.h>

#include <atomic>
#include <mutex>

namespace bpflens {

// One statement, shared by the page and the worker thread that runs it.
struct QueryJob
{
    QString path;
    QString sql;
    int limit = 0;
    std::atomic<bool> cancelled{false};
    bool stale = false; // the session changed while it ran: its result is dropped
    std::mutex mutex;   // guards db against the worker closing it while cancel() interrupts
    sqlite3 *db = nullptr;

    // Written by the worker, read by the page once the thread has ended.
    bool ok = false;
    bool truncated = false;
    QString error;
    QStringList columns;
    QList<QVariantList> rows;
    qint64 elapsedMs = 0;
};

namespace {

constexpr int NameRole = Qt::UserRole + 1; // what a double-click inserts

// A status line cut with "…" where the page is narrow (German, Chinese, a wide probe dock)
// instead of at an arbitrary letter; the tooltip has all of it.
class StatusLabel : public QLabel
{
public:
    using QLabel::QLabel;

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.setPen(palette().color(QPalette::WindowText));
        const QRect r = contentsRect();
        painter.drawText(r, Qt::AlignLeft | Qt::AlignVCenter,
                         fontMetrics().elidedText(text(), Qt::ElideRight, r.width()));
    }
};

void runJob(QueryJob *job)
{
    QElapsedTimer timer;
    timer.start();
    SessionQuery query;
    if (query.open(job->path, &job->error)) {
        {
            std::lock_guard lock(job->mutex);
            job->db = query.handle();
        }
        // sqlite3_interrupt only reaches statements already running: the progress handler
        // also stops one that starts after Cancel, and one that returns no rows for minutes.
        sqlite3_progress_handler(
            query.handle(), 10'000,
            [](void *p) { return static_cast<QueryJob *>(p)->cancelled.load() ? 1 : 0; }, job);
        job->ok = query.exec(
            job->sql, &job->columns,
            [job](const QVariantList &row) {
                if (job->rows.size() >= job->limit) {
                    job->truncated = true;
                    return false;
                }
                job->rows.append(row);
                return true;
            },
            &job->error);
        std::lock_guard lock(job->mutex);
        job->db = nullptr;
    }
    job->elapsedMs = timer.elapsed();
}

} // namespace

QueryPage::QueryPage(SessionModel *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
{
    setAccessibleName(tr("SQL query"));

    m_tables = new QTreeWidget(this);
    m_tables->setObjectName(QStringLiteral("queryTables"));
    m_tables->setHeaderHidden(true);
    m_tables->setAccessibleName(tr("Tables and columns"));
    m_tables->setToolTip(tr("Double-click a table or column to insert its name"));
    m_tables->setMinimumWidth(120);
    // Long names (histogram_buckets) scroll rather than elide: they are what gets inserted.
    m_tables->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tables->header()->setStretchLastSection(false);
    connect(m_tables, &QTreeWidget::itemDoubleClicked, this, &QueryPage::insertName);

    m_editor = new QPlainTextEdit(this);
    m_editor->setObjectName(QStringLiteral("queryEditor"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setAccessibleName(tr("SQL statement"));
    m_editor->setPlaceholderText(tr("SELECT … FROM exec"));
    m_editor->setTabChangesFocus(true);
    m_editor->setMinimumHeight(m_editor->fontMetrics().lineSpacing() * 3);

    m_run = new QPushButton(tr("&Run"), this);
    m_run->setToolTip(tr("Run the statement (Ctrl+Return)"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop the running statement"));
    m_export = new QPushButton(tr("&Export CSV…"), this);
    m_export->setToolTip(tr("Save the rows shown as a CSV file"));
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Query Result"),
            QFileInfo(m_path).dir().filePath(QStringLiteral("query.csv")), tr("CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        QString error;
        if (exportCsv(path, &error))
            setStatus(tr("Saved %Ln rows to %1", nullptr, m_model->rowCount())
                          .arg(QDir::toNativeSeparators(path)),
                      false);
        else
            setStatus(tr("Cannot export: %1").arg(error), true);
    });
    m_status = new StatusLabel(this);
    m_status->setObjectName(QStringLiteral("queryStatus"));
    m_status->setTextFormat(Qt::PlainText);
    // A long SQL error must not widen the window: it gets the room there is, and a tooltip.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    connect(m_run, &QPushButton::clicked, this, &QueryPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &QueryPage::cancel);
    for (const QKeySequence &keys :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &QueryPage::run);
    }

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_run);
    bar->addWidget(m_cancel);
    bar->addWidget(m_export);
    bar->addWidget(m_status, 1);

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_editor, 1);
    topLayout->addLayout(bar);

    m_model = new QueryModel(this);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("queryResult"));
    m_view->setAccessibleName(tr("Query result"));
    m_view->setModel(m_model);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    // Fixed row heights: the view never asks 100 000 rows for their size.
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // No sort indicator at first: the rows keep the statement's ORDER BY until a header click.
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->setSortingEnabled(true);

    auto *right = new QSplitter(Qt::Vertical, this);
    right->setObjectName(QStringLiteral("querySplitter"));
    right->addWidget(top);
    right->addWidget(m_view);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 3);
    right->setChildrenCollapsible(false);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tables);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    split->setChildrenCollapsible(false);
    // Room for the longest table name with its count; the editor and result get the rest.
    const int listWidth =
        m_tables->fontMetrics().horizontalAdvance(QStringLiteral("histogram_buckets (00,000)")) +
        3 * m_tables->indentation();
    split->setSizes({listWidth, 3 * listWidth});

    m_empty = new QLabel(this);
    m_empty->setObjectName(QStringLiteral("queryEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(split);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_stack);

    connect(m_session, &SessionModel::reset, this, &QueryPage::sessionChanged);
    // A recording starts empty: its first data changes what the empty tab says.
    connect(m_session, &SessionModel::appended, this, [this] {
        if (m_path.isEmpty())
            updateEmptyText();
    });
    sessionChanged();
}

QueryPage::~QueryPage()
{
    cancel();
    m_worker.stopAndWait();
}

bool QueryPage::isAvailable() const
{
    return !m_path.isEmpty() && m_unavailable.isEmpty();
}

QString QueryPage::emptyText() const
{
    return isAvailable() ? QString() : m_empty->text();
}

QString QueryPage::defaultQuery() const
{
    EventType busiest{};
    qsizetype most = 0;
    for (EventType t : SessionModel::eventTypes()) {
        const qsizetype n = m_session->events().count(t);
        if (n > most) {
            most = n;
            busiest = t;
        }
    }
    if (!most)
        return QStringLiteral("SELECT * FROM meta");
    return QStringLiteral("SELECT comm, count(*) FROM %1\nGROUP BY comm\nORDER BY 2 DESC\nLIMIT 20")
        .arg(QLatin1String(probeIdOf(busiest)));
}

void QueryPage::sessionChanged()
{
    const QString path = m_session->path();
    if (path == m_path && !m_path.isEmpty())
        return; // saved again under the same name: the tables are the same
    if (m_job) {
        m_job->stale = true;
        cancel();
    }
    m_path = path;
    m_unavailable.clear();
    m_model->clear();
    setStatus(tr("Ctrl+Return runs the statement."), false);
    if (!m_path.isEmpty())
        fillTables();
    updateEmptyText();
    m_stack->setCurrentIndex(isAvailable() ? 1 : 0);
    // The editor keeps what the user wrote; only the previous default follows the session.
    if (isAvailable() &&
        (m_editor->toPlainText().trimmed().isEmpty() || m_editor->toPlainText() == m_lastDefault)) {
        m_lastDefault = defaultQuery();
        m_editor->setPlainText(m_lastDefault);
    }
    updateButtons();
}

void QueryPage::updateEmptyText()
{
    if (!m_unavailable.isEmpty())
        m_empty->setText(tr("This session cannot be queried: %1").arg(m_unavailable));
    else if (m_path.isEmpty() && m_session->isEmpty())
        m_empty->setText(tr("Open a session to query its events with SQL."));
    else if (m_path.isEmpty())
        // A recording lives in memory until it is saved; SessionQuery reads files only.
        m_empty->setText(tr("SQL queries become available once the recording is saved "
                            "(File > Save)."));
}

void QueryPage::fillTables()
{
    m_tables->clear();
    SessionQuery query;
    if (!query.open(m_path, &m_unavailable))
        return;
    auto *events = new QTreeWidgetItem(m_tables, {tr("Event tables")});
    auto *views = new QTreeWidgetItem(m_tables, {tr("Other virtual tables")});
    auto *file = new QTreeWidgetItem(m_tables, {tr("Tables of the file")});
    QHash<QString, qsizetype> counts;
    for (EventType t : SessionModel::eventTypes())
        counts.insert(QLatin1String(probeIdOf(t)), m_session->events().count(t));
    for (const SessionQuery::Table &table : query.tables()) {
        QTreeWidgetItem *group = table.kind == QLatin1String("events")    ? events
                                 : table.kind == QLatin1String("virtual") ? views
                                                                          : file;
        const qsizetype n = counts.value(table.name, -1);
        auto *item = new QTreeWidgetItem(
            group, {n >= 0 ? tr("%1 (%2)").arg(table.name, QLocale().toString(n)) : table.name});
        item->setData(0, NameRole, table.name);
        item->setToolTip(0, table.description.isEmpty() ? table.name : table.description);
        for (const SessionQuery::TableColumn &c : table.columns) {
            auto *column = new QTreeWidgetItem(
                item, {c.type.isEmpty() ? c.name : QStringLiteral("%1  %2").arg(c.name, c.type)});
            column->setData(0, NameRole, c.name);
        }
    }
    events->setExpanded(true);
    views->setExpanded(true);
    file->setExpanded(true);
    for (QTreeWidgetItem *group : {events, views, file})
        group->setFlags(Qt::ItemIsEnabled);
}

void QueryPage::insertName(QTreeWidgetItem *item)
{
    const QString name = item ? item->data(0, NameRole).toString() : QString();
    if (name.isEmpty())
        return;
    m_editor->insertPlainText(name);
    m_editor->setFocus();
}

void QueryPage::run()
{
    if (isRunning() || !isAvailable())
        return;
    const QString sql = m_editor->toPlainText();
    if (sql.trimmed().isEmpty())
        return;
    auto job = std::make_shared<QueryJob>();
    job->path = m_path;
    job->sql = sql;
    job->limit = m_rowLimit;
    m_job = job;
    m_worker.run([job](const JobToken &) { runJob(job.get()); }, [this, job] { finish(job); });
    setStatus(tr("Running…"), false);
    updateButtons();
}

void QueryPage::cancel()
{
    if (!m_job)
        return;
    m_job->cancelled = true;
    std::lock_guard lock(m_job->mutex);
    if (m_job->db)
        sqlite3_interrupt(m_job->db);
}

void QueryPage::finish(const std::shared_ptr<QueryJob> &job)
{
    if (job != m_job)
        return;
    m_job.reset();
    updateButtons();
    if (job->stale) {
        Q_EMIT finished();
        return;
    }
    const QString ms = QLocale().toString(job->elapsedMs);
    if (!job->ok) {
        // One line: SQLite's messages are, a damaged chunk's may name several things.
        const QString error = job->error.simplified();
        setStatus(job->cancelled ? tr("Cancelled after %1 ms: %2").arg(ms, error)
                                 : tr("Error: %1").arg(error),
                  true);
        Q_EMIT finished();
        return;
    }
    m_model->setResult(job->columns, std::move(job->rows));
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->resizeColumnsToContents();
    // A long cell (argv, a path) must not push the other columns out of sight.
    const int cap = m_view->fontMetrics().horizontalAdvance(QString(40, QLatin1Char('x')));
    for (int c = 0; c + 1 < m_model->columnCount(); ++c) {
        if (m_view->columnWidth(c) > cap)
            m_view->setColumnWidth(c, cap);
    }
    updateButtons();
    const int rows = m_model->rowCount();
    setStatus(
        job->truncated
            ? tr("First %Ln rows shown (the result has more), in %1 ms", nullptr, rows).arg(ms)
            : tr("%Ln rows in %1 ms", nullptr, rows).arg(ms),
        false);
    Q_EMIT finished();
}

bool QueryPage::exportCsv(const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !m_model->writeCsv(&file) || !file.commit()) {
        *error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void QueryPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setToolTip(text);
    QPalette p = palette();
    if (error) {
        const bool dark = p.color(QPalette::Window).lightness() < 128;
        p.setColor(QPalette::WindowText,
                   dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x1c, 0x12));
    }
    m_status->setPalette(p);
}

void QueryPage::updateButtons()
{
    m_run->setEnabled(isAvailable() && !isRunning());
    m_cancel->setEnabled(isRunning());
    m_export->setEnabled(m_model->columnCount() > 0);
}

} // namespace bpflens
