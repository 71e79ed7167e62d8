#pragma once

#include "viewstate.h"

#include <QHash>
#include <QMainWindow>

class QLabel;
class QLineEdit;
class QDoubleSpinBox;
class QMenu;
class QTabWidget;
class QTableView;

namespace bpflens {

class CountersView;
class DetailsPane;
class EventFilterModel;
class EventTableModel;
class HistogramView;
class SessionModel;
class SummaryPanel;
class TimelineWidget;

// The session viewer: timeline on top, histograms, counters, one table per event type and the
// session summary in tabs below, the selected event's fields in a dock.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads a session (with a cancellable progress dialog for long loads). On failure the
    // reader's message is shown in a message box (not blocking the caller), the current
    // session stays open, and false is returned with the message in *error.
    bool openFile(const QString &path, QString *error = nullptr);

    enum class ExportScope
    {
        WholeSession,
        VisibleRange,
        Probe
    };
    // What File > Export CSV does once a directory is chosen: the same files as
    // `bpflens-cli export` (CsvExport), limited to the scope.
    QStringList exportCsv(const QString &directory, ExportScope scope, const QString &probeId,
                          QString *error);
    // A chart or the timeline as PNG (or any raster format Qt knows by suffix) or SVG.
    static bool exportImage(QWidget *widget, const QString &path, QString *error);
    // The widget "Export chart" saves: the current tab's charts, else the timeline.
    QWidget *currentChartWidget() const;

    SessionModel *session() const { return m_session; }
    ViewState *viewState() const { return m_state; }
    TimelineWidget *timeline() const { return m_timeline; }
    HistogramView *histogramView() const { return m_histograms; }
    CountersView *countersView() const { return m_counters; }
    DetailsPane *detailsPane() const { return m_details; }
    SummaryPanel *summaryPanel() const { return m_summary; }
    QTabWidget *tabs() const { return m_tabs; }
    EventTableModel *tableModel(EventType type) const;
    EventFilterModel *filterModel(EventType type) const;
    QTableView *tableView(EventType type) const;
    QLineEdit *textFilterEdit() const { return m_textFilter; }
    QStringList recentFiles() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    QWidget *createFilterBar();
    void applyFilter();
    void sessionReset();
    void updateRangeLabel();
    void selectInTable(const EventRef &ref, bool followTab = true);
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void showError(const QString &title, const QString &message);
    void chooseExportCsv(ExportScope scope);
    void chooseExportImage();
    void chooseOpen();

    SessionModel *m_session;
    ViewState *m_state;
    QHash<int, EventTableModel *> m_tableModels;
    QHash<int, EventFilterModel *> m_filterModels;
    QHash<int, QTableView *> m_tables;
    TimelineWidget *m_timeline = nullptr;
    HistogramView *m_histograms = nullptr;
    CountersView *m_counters = nullptr;
    DetailsPane *m_details = nullptr;
    SummaryPanel *m_summary = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLineEdit *m_textFilter = nullptr;
    QLineEdit *m_pidFilter = nullptr;
    QLineEdit *m_commFilter = nullptr;
    QDoubleSpinBox *m_latencyFilter = nullptr;
    QLabel *m_rangeLabel = nullptr;
    QMenu *m_recentMenu = nullptr;
    QList<QAction *> m_sessionActions; // enabled only with a session open
    bool m_loading = false;
    bool m_syncingSelection = false;
};

} // namespace bpflens
