#pragma once

#include <QHash>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;

QT_BEGIN_NAMESPACE
class QChartView;
class QHorizontalStackedBarSeries;
class QStackedBarSeries;
QT_END_NAMESPACE

namespace bpflens {

class SessionModel;
class ViewState;

// One cell of the iostack probe's output (an operation in a layer), summed over the samples
// whose interval ends inside the visible range.
struct IoStackCell
{
    quint64 exclusiveNs = 0;
    quint64 totalNs = 0;
    quint64 count = 0;
};

// Where the time of read, write, open and fsync goes, layer by layer (the iostack probe's
// "<op>/<layer>/exclusive_ns" counters): one stacked bar per operation for the visible range,
// and one operation's layers stacked per interval over time. Layers the recording kernel
// could not measure never appear in the data; they are named as such, not drawn as zero.
class IoStackView : public QWidget
{
    Q_OBJECT
public:
    IoStackView(SessionModel *session, ViewState *state, QWidget *parent = nullptr);

    static const QStringList &operations(); // read, write, open, fsync, unattributed
    static const QStringList &layers();     // syscall, vfs, fs, block-queue, block-device
    static QString layerTitle(const QString &layer);
    static QString operationTitle(const QString &op);

    IoStackCell cell(const QString &op, const QString &layer) const;
    // Layers with no sample at all in the session: not measured on the recording kernel.
    QStringList unmeasuredLayers() const { return m_unmeasured; }
    bool hasData() const { return m_hasData; }
    // What hovering a segment shows: the layer's absolute exclusive time and its share.
    QString segmentText(const QString &op, const QString &layer) const;
    QString lastHoverText() const { return m_hoverText; }

    QChartView *summaryChart() const { return m_summary; }
    QChartView *timeChart() const { return m_time; }
    QHorizontalStackedBarSeries *summarySeries() const;
    QStackedBarSeries *timeSeries() const;
    QComboBox *operationBox() const { return m_opBox; }

public Q_SLOTS:
    void refresh();

protected:
    void changeEvent(QEvent *event) override;

private:
    void fillSummary();
    void fillTime();
    // The exclusive time of a cell; unattributed block time has only a total.
    static quint64 shownNs(const QString &op, const IoStackCell &c);

    SessionModel *m_session;
    ViewState *m_state;
    QLabel *m_placeholder;
    QLabel *m_note;
    QComboBox *m_opBox;
    QChartView *m_summary;
    QChartView *m_time;
    QHash<QString, IoStackCell> m_cells; // "op/layer"
    QStringList m_unmeasured;
    bool m_hasData = false;
    QString m_hoverText;
};

} // namespace bpflens
