#include "gui/exportcontroller.h"

#include "core/csvexport.h"
#include "core/traceexport.h"
#include "gui/errorbox.h"
#include "gui/heatmapview.h"
#include "gui/models/eventmodels.h"
#include "gui/models/profilemodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QImageWriter>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPainter>
#include <QSaveFile>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include <algorithm>

namespace bpflens {

namespace {

// Sized to its contents, a small dialog is narrower than its title, and the window manager cuts
// the title ("Export O…BPF Lens"). The title bar shows the application's name after the title
// (as Qt's xcb and wayland plugins set it) in the application's font, bold in most themes;
// beside it sit the window icon and up to three buttons, about a line height each with their
// padding.
int widthForTitle(const QWidget *dialog)
{
    QString title = dialog->windowTitle();
    const QString name = QGuiApplication::applicationDisplayName();
    if (!name.isEmpty() && !title.endsWith(name))
        title += QStringLiteral(" \u2014 ") + name;
    QFont font = dialog->font();
    font.setBold(true);
    const QFontMetrics metrics(font);
    return metrics.horizontalAdvance(title) + 8 * metrics.height();
}

} // namespace

ExportController::ExportController(SessionModel *session, ViewState *state, QMainWindow *window,
                                   std::function<QWidget *()> chartWidget)
    : QObject(window)
    , m_session(session)
    , m_state(state)
    , m_window(window)
    , m_chartWidget(std::move(chartWidget))
{
    m_csvMenu = new QMenu(tr("&Export CSV"), window);
    m_csvMenu->addAction(tr("&Whole Session…"), this,
                         [this] { chooseExportCsv(Scope::WholeSession); });
    m_csvMenu->addAction(tr("&Visible Time Range…"), this,
                         [this] { chooseExportCsv(Scope::VisibleRange); });
    m_csvMenu->addAction(tr("One &Probe…"), this, [this] { chooseExportCsv(Scope::Probe); });
    m_imageAction = new QAction(tr("Export &Chart as Image…"), window);
    connect(m_imageAction, &QAction::triggered, this, &ExportController::chooseExportImage);
    m_traceAction = new QAction(tr("Export &Trace…"), window);
    m_traceAction->setToolTip(tr("The session as a trace for Perfetto UI and chrome://tracing"));
    connect(m_traceAction, &QAction::triggered, this, &ExportController::chooseExportTrace);
    m_pprofMenu = new QMenu(tr("Export &pprof Profile"), window);
    m_pprofMenu->setToolTipsVisible(true);
    m_pprofOnCpu = m_pprofMenu->addAction(tr("&On-CPU Samples…"), this,
                                          [this] { chooseExportPprof(PprofKind::OnCpu); });
    m_pprofOffCpu = m_pprofMenu->addAction(tr("O&ff-CPU Waits…"), this,
                                           [this] { chooseExportPprof(PprofKind::OffCpu); });
    for (QAction *a : {m_pprofOnCpu, m_pprofOffCpu})
        a->setToolTip(tr("The profile of the visible time range under the filter, for go tool "
                         "pprof, Parca and Pyroscope"));
    m_offWakeAction = new QAction(tr("Export Off-&Wake Stacks…"), window);
    m_offWakeAction->setToolTip(tr("The off-wake flame graph's stacks of the visible time range "
                                   "under the filter, folded for flamegraph.pl and speedscope"));
    connect(m_offWakeAction, &QAction::triggered, this, &ExportController::chooseExportOffWake);
    connect(m_session, &SessionModel::reset, this, &ExportController::updateActions);
    // A live recording fills the session without a reset.
    connect(m_session, &SessionModel::appended, this, &ExportController::updateActions);
    updateActions();
}

void ExportController::updateActions()
{
    const bool has = !m_session->isEmpty();
    m_csvMenu->menuAction()->setEnabled(has);
    m_imageAction->setEnabled(has);
    m_traceAction->setEnabled(has);
    const QList<PprofKind> kinds = PprofExport::kindsIn(m_session->data());
    m_pprofOnCpu->setEnabled(kinds.contains(PprofKind::OnCpu));
    m_pprofOffCpu->setEnabled(kinds.contains(PprofKind::OffCpu));
    m_pprofMenu->menuAction()->setEnabled(!kinds.isEmpty());
    m_offWakeAction->setEnabled(m_session->events().count(EventType::OffWake) > 0);
}

bool ExportController::exportOffWakeFolded(const QString &path, QString *error) const
{
    ProfileQuery q;
    q.kind = ProfileKind::OffWake;
    q.startNs = m_state->startNs();
    q.endNs = m_state->endNs();
    if (q.endNs >= m_session->endTimeNs())
        q.endNs = ~quint64(0); // as the profile page: the last waits end the session
    q.pid = m_state->filter().pid;
    q.comm = m_state->filter().comm;
    const QByteArray folded = offWakeFoldedStacks(m_session->stacks(), offWakeSpans(*m_session, q));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(folded) != folded.size() || !file.commit()) {
        if (error)
            *error =
                tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

void ExportController::chooseExportOffWake()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export Off-Wake Stacks"), QString(),
                                                tr("Folded stacks (*.folded *.txt)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1String(".folded");
    QString error;
    if (!exportOffWakeFolded(path, &error)) {
        showErrorBox(m_window, tr("Export failed"), error);
        return;
    }
    m_window->statusBar()->showMessage(
        tr("Exported the off-wake stacks to %1").arg(QDir::toNativeSeparators(path)), 8000);
}

bool ExportController::exportPprof(const QString &path, PprofKind kind, QString *error) const
{
    PprofOptions options;
    options.kind = kind;
    options.startNs = m_state->startNs();
    options.endNs = m_state->endNs();
    options.filter = m_state->filter();
    // Untranslated: the comments are the profile's, read by whoever opens it.
    const quint64 origin = m_session->info().startMonotonicNs;
    QStringList what{
        QStringLiteral("BPF Lens window, %1 s to %2 s")
            .arg(double(options.startNs - std::min(options.startNs, origin)) / 1e9, 0, 'f', 3)
            .arg(double(options.endNs - std::min(options.endNs, origin)) / 1e9, 0, 'f', 3)};
    const EventFilter &f = options.filter;
    if (f.pid >= 0)
        what << QStringLiteral("pid %1").arg(f.pid);
    if (!f.comm.isEmpty())
        what << QStringLiteral("comm %1").arg(QString::fromUtf8(f.comm));
    if (!f.text.isEmpty())
        what << QStringLiteral("text filter \"%1\"").arg(QString::fromUtf8(f.text));
    options.comments << what.join(QStringLiteral(", "));
    return PprofExport::exportSession(m_session->data(), path, options, error);
}

void ExportController::chooseExportPprof(PprofKind kind)
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export pprof Profile"), QString(),
                                                tr("pprof profile (*.pb.gz)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1String(".pb.gz");
    QString error;
    if (!exportPprof(path, kind, &error)) {
        showErrorBox(m_window, tr("Export failed"), error);
        return;
    }
    m_window->statusBar()->showMessage(
        tr("Exported the profile to %1").arg(QDir::toNativeSeparators(path)), 8000);
}

bool ExportController::exportTrace(const QString &path, QString *error) const
{
    return TraceExport::exportSession(m_session->data(), path, {}, error);
}

void ExportController::chooseExportTrace()
{
    QString path = QFileDialog::getSaveFileName(m_window, tr("Export Trace"), QString(),
                                                tr("Trace Event JSON (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1String(".json");
    QString error;
    if (!exportTrace(path, &error)) {
        showErrorBox(m_window, tr("Export failed"), error);
        return;
    }
    m_window->statusBar()->showMessage(
        tr("Exported the trace to %1").arg(QDir::toNativeSeparators(path)), 8000);
}

QStringList ExportController::exportCsv(const QString &directory, Scope scope,
                                        const QString &probeId, QString *error) const
{
    CsvExportOptions options;
    if (scope == Scope::VisibleRange) {
        options.startNs = m_state->startNs();
        options.endNs = m_state->endNs();
    } else if (scope == Scope::Probe) {
        options.probeId = probeId;
    }
    return CsvExport::exportSession(m_session->data(), directory, options, error);
}

void ExportController::chooseExportCsv(Scope scope)
{
    QString probeId;
    if (scope == Scope::Probe) {
        QStringList ids;
        for (const ProbeConfig &p : m_session->info().probes)
            ids << p.id;
        for (const HistogramSnapshot &h : m_session->data().histograms) {
            if (!ids.contains(h.probeId))
                ids << h.probeId;
        }
        for (EventType t : SessionModel::eventTypes()) {
            if (m_session->events().count(t) && !ids.contains(CsvExport::probeIdFor(t)))
                ids << CsvExport::probeIdFor(t);
        }
        // A dialog of its own rather than QInputDialog, whose layout fixes the window's size
        // to its contents and so overrides a minimum width.
        QDialog dialog(m_window);
        dialog.setObjectName(QStringLiteral("exportProbeDialog"));
        dialog.setWindowTitle(tr("Export One Probe"));
        auto *label = new QLabel(tr("Probe:"), &dialog);
        auto *probes = new QComboBox(&dialog);
        probes->addItems(ids);
        probes->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        label->setBuddy(probes);
        auto *buttons =
            new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
        connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
        auto *layout = new QVBoxLayout(&dialog);
        layout->addWidget(label);
        layout->addWidget(probes);
        layout->addWidget(buttons);
        dialog.setMinimumWidth(widthForTitle(&dialog));
        if (dialog.exec() != QDialog::Accepted)
            return;
        probeId = probes->currentText();
        if (probeId.isEmpty())
            return;
    }
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Export CSV Into"));
    if (dir.isEmpty())
        return;
    QString error;
    const QStringList files = exportCsv(dir, scope, probeId, &error);
    if (files.isEmpty()) {
        showErrorBox(m_window, tr("Export failed"), error);
        return;
    }
    m_window->statusBar()->showMessage(tr("Exported %n file(s) to %1", nullptr, int(files.size()))
                                           .arg(QDir::toNativeSeparators(dir)),
                                       8000);
}

QWidget *ExportController::chartOf(QWidget *view)
{
    // The source and scale boxes and the selection buttons are controls, not the picture.
    if (auto *heatmap = qobject_cast<HeatmapView *>(view))
        return heatmap->plot();
    return view;
}

QString ExportController::chartTitle(QWidget *chart) const
{
    QString what = chart->accessibleName();
    for (QWidget *w = chart; w; w = w->parentWidget()) {
        if (auto *heatmap = qobject_cast<HeatmapView *>(w)) {
            const int source = heatmap->currentSource();
            if (source >= 0 && source < heatmap->sources().size())
                what = tr("Latency heatmap: %1")
                           .arg(HeatmapModel::sourceName(heatmap->sources().at(source)));
            break;
        }
    }
    if (what.isEmpty())
        what = tr("Histograms");
    const quint64 origin = m_session->info().startMonotonicNs;
    const QString session = m_session->path().isEmpty() ? tr("live recording")
                                                        : QFileInfo(m_session->path()).fileName();
    return tr("%1 — %2 — %3 to %4")
        .arg(what, session, EventTableModel::formatTime(m_state->startNs(), origin),
             EventTableModel::formatTime(m_state->endNs(), origin));
}

bool ExportController::exportChart(const QString &path, QString *error) const
{
    QWidget *view = m_chartWidget();
    QWidget *chart = view ? chartOf(view) : nullptr;
    return exportImage(chart, path, error, chart ? chartTitle(chart) : QString());
}

bool ExportController::exportImage(QWidget *widget, const QString &path, QString *error,
                                   const QString &title)
{
    if (!widget) {
        if (error)
            *error = tr("there is no chart to export");
        return false;
    }
    // The title band: one bold line in the chart's font and colours, as wide as the chart.
    QFont titleFont = widget->font();
    titleFont.setBold(true);
    const QFontMetrics titleMetrics(titleFont);
    const int band = title.isEmpty() ? 0 : titleMetrics.height() + 12;
    const QSize size(widget->width(), widget->height() + band);
    auto paintTitle = [&](QPainter &p) {
        if (!band)
            return;
        p.fillRect(QRect(0, 0, size.width(), band), widget->palette().color(QPalette::Base));
        p.setFont(titleFont);
        p.setPen(widget->palette().color(QPalette::Text));
        p.drawText(QRect(8, 0, size.width() - 16, band), Qt::AlignLeft | Qt::AlignVCenter,
                   titleMetrics.elidedText(title, Qt::ElideMiddle, size.width() - 16));
    };
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title.isEmpty() ? widget->accessibleName() : title);
        svg.setDescription(tr("Exported by BPF Lens"));
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error)
                *error = tr("cannot write %1").arg(QDir::toNativeSeparators(path));
            return false;
        }
        paintTitle(painter);
        widget->render(&painter, QPoint(0, band));
        painter.end();
        if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0) {
            if (error)
                *error = tr("cannot write %1").arg(QDir::toNativeSeparators(path));
            return false;
        }
        return true;
    }
    const QByteArray suffix = QFileInfo(path).suffix().toLower().toLatin1();
    if (suffix.isEmpty() || !QImageWriter::supportedImageFormats().contains(suffix)) {
        if (error)
            *error = tr("%1 has no image format BPF Lens can write: end the name with .png or .svg")
                         .arg(QDir::toNativeSeparators(path));
        return false;
    }
    QImage image = widget->grab().toImage();
    if (band) {
        const qreal dpr = image.devicePixelRatio();
        QImage titled(size * dpr, QImage::Format_ARGB32_Premultiplied);
        titled.setDevicePixelRatio(dpr);
        QPainter p(&titled);
        paintTitle(p);
        p.drawImage(QPoint(0, band), image);
        p.end();
        image = titled;
    }
    if (!image.save(path)) {
        if (error)
            *error = tr("cannot write %1").arg(QDir::toNativeSeparators(path));
        return false;
    }
    return true;
}

QString ExportController::imagePath(const QString &chosen, const QString &selectedFilter)
{
    if (chosen.isEmpty() || !QFileInfo(chosen).suffix().isEmpty())
        return chosen;
    return chosen + (selectedFilter.contains(QLatin1String("*.svg")) ? QLatin1String(".svg")
                                                                     : QLatin1String(".png"));
}

void ExportController::chooseExportImage()
{
    QString filter;
    const QString path =
        imagePath(QFileDialog::getSaveFileName(m_window, tr("Export Chart"), QString(),
                                               tr("PNG image (*.png);;SVG image (*.svg)"), &filter),
                  filter);
    if (path.isEmpty())
        return;
    QString error;
    if (!exportChart(path, &error))
        showErrorBox(m_window, tr("Export failed"), error);
}

} // namespace bpflens
