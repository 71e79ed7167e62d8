#pragma once

#include "core/probecatalog.h"
#include "core/records.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QLabel;
class QScrollArea;
class QStringListModel;
class QVBoxLayout;

namespace bpflens {

// What to record: one checkbox per catalog probe, grouped like the catalog, each with its
// availability on this kernel and editors generated from its typed options. The selection and
// options persist in QSettings; configs() is what Record hands to the Recorder.
class ProbePanel : public QWidget
{
    Q_OBJECT
public:
    explicit ProbePanel(QWidget *parent = nullptr);
    // A panel over other probes than the catalog's (tests, probes a newer helper knows).
    ProbePanel(const QList<ProbeInfo> &probes, QWidget *parent = nullptr);

    // From the helper's ListProbes. Probes missing from the map show "availability unknown";
    // an unavailable probe cannot be selected and its reason is its tooltip.
    void setAvailability(const QHash<QString, ProbeAvailability> &availability);
    // Names offered while typing a tracepoint (tppair's start and end), from the helper later.
    void setTracepointNames(const QStringList &names);
    // The kernel the availability is about, shown above the probes.
    // host: the ssh destination whose kernel this is; empty: this computer's (the helper's).
    void setKernelRelease(const QString &release, const QString &host = QString());
    // Back to "not known until the helper answers": no kernel, every probe's availability
    // unknown.
    void clearAvailability();
    QLabel *kernelLabel() const { return m_kernel; }
    // Shows a backend's refusal (the helper's InvalidArgs) next to the probe until it changes.
    void showProbeError(const QString &probeId, const QString &message);

    // The checked, available probes with validated, normalized options. When one of them is
    // invalid: an empty list and the first error in *error (also shown next to that probe).
    QList<ProbeConfig> configs(QString *error = nullptr) const;
    QStringList selectedProbes() const;
    // A checked probe the kernel cannot run: configs() leaves it out, so Record says so.
    struct Skipped
    {
        QString id;
        QString title;  // translated
        QString reason; // the kernel side's, as the availability gave it
    };
    QList<Skipped> skippedProbes() const;
    // "Title (reason); Title (reason)" of skippedProbes(), for messages.
    QString skippedText() const;
    // Scrolls the first of skippedProbes() into view, with its "not available".
    void revealSkipped();
    void setProbeSelected(const QString &id, bool selected);

    QCheckBox *checkBox(const QString &probeId) const;
    // The editor of one option: QCheckBox, QDoubleSpinBox (whole numbers), QLineEdit or
    // QComboBox.
    QWidget *optionEditor(const QString &probeId, const QString &option) const;
    QLabel *statusLabel(const QString &probeId) const;
    QLabel *errorLabel(const QString &probeId) const;

    static QString groupTitle(ProbeGroup group);

    // As wide as its minimum: the descriptions wrap, and their own width hint (wider in Chinese,
    // whose lines QLabel cannot break at spaces) would take the timeline's room in the window.
    QSize sizeHint() const override;

Q_SIGNALS:
    // The selection or an option changed (validity may have changed with it).
    void changed();

protected:
    // The wheel over a spin box or combo box the user has not clicked into scrolls the panel:
    // scrolling past a field must not change a filter.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Row
    {
        const ProbeInfo *info = nullptr;
        QCheckBox *check = nullptr;
        QLabel *status = nullptr;
        QLabel *error = nullptr;
        QWidget *options = nullptr;
        QHash<QString, QWidget *> editors;
        bool available = true;
        QString unavailableReason;
    };
    void build();
    QWidget *createEditor(Row &row, const ProbeOption &option);
    QVariantMap rawOptions(const Row &row) const;
    void setEditorValue(QWidget *editor, const ProbeOption &option, const QVariant &value);
    bool validateRow(const Row &row, QVariantMap *normalized, QString *error) const;
    void onChanged(const QString &probeId);
    void updateRow(Row &row);
    // Why the probe's user-space target cannot be probed (uprobe), empty when it can.
    QString userFileProblem(const QString &probeId, const QVariantMap &options) const;
    QString hookProblem(const QString &probeId, const QVariantMap &options) const;
    void load();
    void save(const Row &row) const;

    QList<ProbeInfo> m_probes;
    QList<Row> m_rows;
    QVBoxLayout *m_layout = nullptr;
    QScrollArea *m_scroll = nullptr;
    QStringListModel *m_tracepoints = nullptr;
    QLabel *m_kernel = nullptr;
    QString m_kernelHost; // setKernelRelease()'s host
    bool m_loading = false;
    mutable QHash<QString, QString> m_targetProblems; // target + pid -> why not, "" if fine
};

} // namespace bpflens
