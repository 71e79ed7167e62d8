#pragma once

#include "core/pprofexport.h"

#include <QObject>
#include <QStringList>

#include <functional>

class QAction;
class QMainWindow;
class QMenu;
class QWidget;

namespace bpflens {

class SessionModel;
class ViewState;

// File > Export: the session as CSV files (whole, the visible time range or one probe), as a
// trace for Perfetto and chrome://tracing, its CPU profile as pprof (go tool pprof, Parca,
// Pyroscope), and a chart as an image. The menu and the actions are
// enabled only with a session open; MainWindow places them.
class ExportController : public QObject
{
    Q_OBJECT
public:
    enum class Scope
    {
        WholeSession,
        VisibleRange,
        Probe
    };
    // chartWidget: the widget "Export chart" saves (the current tab's charts, else the timeline).
    ExportController(SessionModel *session, ViewState *state, QMainWindow *window,
                     std::function<QWidget *()> chartWidget);

    QMenu *csvMenu() const { return m_csvMenu; }
    QAction *imageAction() const { return m_imageAction; }
    QAction *traceAction() const { return m_traceAction; }
    // Export pprof Profile > On-CPU Samples… / Off-CPU Waits…, each enabled when the session has
    // such events.
    QMenu *pprofMenu() const { return m_pprofMenu; }
    // Export Off-Wake Stacks: enabled when the session has offwake events.
    QAction *offWakeAction() const { return m_offWakeAction; }

    // What File > Export CSV does once a directory is chosen: the same files as
    // `bpflens-cli export` (CsvExport), limited to the scope.
    QStringList exportCsv(const QString &directory, Scope scope, const QString &probeId,
                          QString *error) const;
    // What File > Export Trace does once a file is chosen: the same trace as `bpflens-cli export
    // --trace` (TraceExport, docs/trace-export.md), of the whole session.
    bool exportTrace(const QString &path, QString *error) const;
    // What Export pprof Profile does once a file is chosen: the same profile as `bpflens-cli
    // export --pprof` (PprofExport, docs/profiling.md), of the visible time range under the
    // filter bar's filter.
    bool exportPprof(const QString &path, PprofKind kind, QString *error) const;
    // What Export Off-Wake Stacks does once a file is chosen: the folded stacks of `bpflens-cli
    // export --folded --off-wake` (offWakeFoldedStacks, `offwaketime -f`'s form, microseconds)
    // of the visible time range under the filter bar's process and command filter, which the
    // off-wake flame graph shows.
    bool exportOffWakeFolded(const QString &path, QString *error) const;
    // A chart or the timeline as PNG (or any raster format Qt knows by suffix) or SVG; with a
    // title, the title in a band above it.
    static bool exportImage(QWidget *widget, const QString &path, QString *error,
                            const QString &title = {});
    // What Export Chart does once a file is chosen: the current chart alone (a heatmap without
    // its controls), titled with what it shows, the session and the range (chartTitle()).
    bool exportChart(const QString &path, QString *error) const;
    // "Latency heatmap: Block I/O — demo.bpflens — 2.000000 s to 3.500000 s".
    QString chartTitle(QWidget *chart) const;
    // The part of a view that is its chart: a heatmap's map, else the widget itself.
    static QWidget *chartOf(QWidget *view);
    // The file Export Chart writes for a name chosen in the dialog: a name without a suffix gets
    // the chosen format's (.png or .svg); a name with one keeps it.
    static QString imagePath(const QString &chosen, const QString &selectedFilter);

private:
    void updateActions();
    void chooseExportCsv(Scope scope);
    void chooseExportImage();
    void chooseExportTrace();
    void chooseExportPprof(PprofKind kind);
    void chooseExportOffWake();

    SessionModel *m_session;
    ViewState *m_state;
    QMainWindow *m_window;
    std::function<QWidget *()> m_chartWidget;
    QMenu *m_csvMenu = nullptr;
    QAction *m_imageAction = nullptr;
    QAction *m_traceAction = nullptr;
    QMenu *m_pprofMenu = nullptr;
    QAction *m_pprofOnCpu = nullptr;
    QAction *m_pprofOffCpu = nullptr;
    QAction *m_offWakeAction = nullptr;
};

} // namespace bpflens
