#pragma once

#include "gui/models/backgroundjob.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTreeWidget;
class QTreeWidgetItem;

namespace bpflens {

class QueryModel;
class SessionModel;
struct QueryJob;

// The "Query" tab: SQL over the open session's file (SessionQuery, docs/sql.md). A statement
// runs in a worker thread on a connection of its own, so the window stays responsive and
// Cancel interrupts it; the result keeps at most rowLimit() rows. A session that has no file
// (a recording not saved yet) cannot be queried: the tab says so.
class QueryPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int DefaultRowLimit = 100'000;

    explicit QueryPage(SessionModel *session, QWidget *parent = nullptr);
    ~QueryPage() override;

    // Rereads the session's file path (opened, saved, a recording started).
    void sessionChanged();
    // Runs the editor's statement unless one is running or there is no file.
    void run();
    void cancel();
    bool isRunning() const { return m_worker.isRunning(); }
    bool isAvailable() const;
    void setRowLimit(int rows) { m_rowLimit = rows; }
    int rowLimit() const { return m_rowLimit; }
    // "SELECT comm, count(*) FROM <the table with most events> ...".
    QString defaultQuery() const;
    QString emptyText() const;
    // Writes the result as shown (sorted or not) as CSV; Export CSV asks for the path.
    bool exportCsv(const QString &path, QString *error);

    QPlainTextEdit *editor() const { return m_editor; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *exportButton() const { return m_export; }
    QTableView *resultView() const { return m_view; }
    QueryModel *model() const { return m_model; }
    QLabel *statusLabel() const { return m_status; }
    QTreeWidget *tableList() const { return m_tables; }

Q_SIGNALS:
    // A statement ended: a result, an error or a cancel is in the status line.
    void finished();

private:
    void finish(const std::shared_ptr<QueryJob> &job);
    void setStatus(const QString &text, bool error);
    void updateButtons();
    void updateEmptyText();
    void fillTables();
    void insertName(QTreeWidgetItem *item);

    SessionModel *m_session;
    QString m_path; // the file queries open; empty: none
    QString m_unavailable;
    QString m_lastDefault;
    int m_rowLimit = DefaultRowLimit;
    std::shared_ptr<QueryJob> m_job;
    // Never superseded: a cancelled statement's result says so in the status line.
    BackgroundJob m_worker;

    QStackedWidget *m_stack;
    QLabel *m_empty;
    QTreeWidget *m_tables;
    QPlainTextEdit *m_editor;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QPushButton *m_export;
    QLabel *m_status;
    QTableView *m_view;
    QueryModel *m_model;
};

} // namespace bpflens
