#pragma once

#include "gui/models/backgroundjob.h"
#include "gui/models/heatmapmodel.h"

#include <QColor>
#include <QImage>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QPushButton;

namespace bpflens {

class HeatmapHistogram;
class HeatmapPlot;
class SessionModel;
class ViewState;

// The latency heatmap tab: x = time over ViewState's range, y = log2 latency buckets, colour =
// count (a viridis-like map, linear or logarithmic), for one source at a time (HeatmapModel).
// Clicking a cell or dragging a rectangle selects cells: the visible range becomes their time
// span and, for events, the filter's latency window their buckets, so every event view shows
// exactly the selected events; the histogram of the selection is drawn below the map.
class HeatmapView : public QWidget
{
    Q_OBJECT
public:
    HeatmapView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~HeatmapView() override;

    const QList<HeatmapSource> &sources() const { return m_sources; }
    void setCurrentSource(int index);
    int currentSource() const;
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    const HeatmapBins &bins() const { return m_bins; }

    // The colour of a cell with count n when the fullest cell holds max; invalid for n == 0
    // (empty cells show the background).
    static QColor cellColor(quint32 n, quint32 max, bool log);
    // The map's perceptual colour scale at t in [0, 1] (dark violet -> yellow).
    static QColor colorMap(double t);

    // Where the cell (column, slot) is drawn in plot() coordinates; empty when not shown.
    QRect cellRect(int column, int slot) const;
    QWidget *plot() const;
    // What hovering the cell says: its time span, latency bucket and count.
    QString cellToolTip(int column, int slot) const;
    // Selects the cells [c0, c1] x [s0, s1] of the current bins, as a click or drag does.
    void selectCells(int c0, int c1, int s0, int s1);
    void clearSelection();
    bool hasSelection() const { return m_selected; }
    // The selected events' log2 histogram (in bins().unit), over the range the selection set.
    const Log2Histogram &selectionHistogram() const { return m_selectionHistogram; }
    QString selectionText() const;
    // The bar chart of the selection under the map, and the texts its last paint wrote (axis
    // titles, counts, bucket edges).
    QWidget *selectionHistogramWidget() const;
    QStringList selectionHistogramTexts() const;
    QString emptyText() const;
    // Explain… (ViewState::requestExplainOf the source's type): enabled while event cells are
    // selected.
    QPushButton *explainButton() const { return m_explainButton; }

    // Whether bins for the current range are being built on the worker thread.
    bool isComputing() const { return m_computing; }
    // Ranges with more events than this are binned on a worker thread (about 10 ms of binning
    // on the GUI thread at most); smaller ones at once.
    static constexpr qsizetype WorkerThreshold = 100'000;

protected:
    void showEvent(QShowEvent *event) override;

Q_SIGNALS:
    // The bins and the picture are those of the current range, filter and source.
    void refreshed();

public Q_SLOTS:
    // Rebuilds the bins for the current range, filter, source and width: now, or on the worker
    // thread when the range holds more than WorkerThreshold events (refreshed() says when).
    void refresh();

private:
    friend class HeatmapPlot;
    friend class HeatmapHistogram;
    void scheduleRefresh();
    void reloadSources();
    void rebuildImage();
    void updateSelectionHistogram();
    void applyBins(HeatmapBins bins);
    // Cancels and waits for a build on the worker: before the session's store changes.
    void stopBuild();

    SessionModel *m_session;
    ViewState *m_state;
    QComboBox *m_sourceBox;
    QComboBox *m_scaleBox;
    QPushButton *m_clearButton;
    QPushButton *m_explainButton;
    QLabel *m_selectionLabel;
    HeatmapPlot *m_plot;
    HeatmapHistogram *m_histogram;
    QList<HeatmapSource> m_sources;
    HeatmapBins m_bins;
    QImage m_image; // one pixel per shown cell, scaled up by the painter
    bool m_log = true;
    // Builds too big for the GUI thread; the next refresh() drops an older build's result.
    BackgroundJob m_job;
    bool m_computing = false;
    // Of the last type binned on the worker; dropped when the store's indices move.
    std::shared_ptr<const HeatmapStrides> m_strides;

    // The selection as the state holds it after selectCells(): the latency rows and the range
    // and window it set; it ends when the state moves away from them.
    bool m_selected = false;
    // Changes seen while the tab was hidden; the map is rebuilt when it is shown.
    bool m_stale = false;
    bool deferWhileHidden();
    int m_selSlot0 = 0;
    int m_selSlot1 = 0;
    quint64 m_selStartNs = 0;
    quint64 m_selEndNs = 0;
    quint64 m_beforeStartNs = 0; // the range to go back to when the selection is cleared
    quint64 m_beforeEndNs = 0;
    Log2Histogram m_selectionHistogram;
};

} // namespace bpflens
