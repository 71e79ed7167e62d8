#pragma once

#include <QDialog>
#include <QObject>
#include <QPointer>
#include <QStringList>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QPushButton;

namespace bpflens {

class ProbePanel;
class Recorder;
class RecordingController;
class RemoteRecorder;

// Record on Host's Recent Hosts, newest first, in QSettings ("remote/recentHosts").
namespace recenthosts {
inline constexpr int Max = 10;
QStringList load();
// Puts host first (once) and keeps at most Max.
void remember(const QString &host);
} // namespace recenthosts

// Record > Record on Host: where ([user@]host[:port]) and whether to be asked about a host key
// ssh does not know yet. Connect checks the host (RemoteRecorder::check()) and says what it
// found, including the checked probes its kernel cannot run; Record is enabled once the host
// entered is the one that passed.
class RemoteHostDialog : public QDialog
{
    Q_OBJECT
public:
    RemoteHostDialog(RemoteRecorder *recorder, QWidget *parent = nullptr);

    void setHost(const QString &host);
    QString host() const;
    // The window's probe panel: after a check it shows the host's availability, scrolled to the
    // first checked probe that kernel cannot run, and the status names them all (Record leaves
    // them out).
    void setProbePanel(ProbePanel *probes) { m_probes = probes; }
    // Connects to host() (what Connect does).
    void connectToHost();

private:
    void hostEdited();
    void checked(bool ok, const QString &message);
    void showStatus(const QString &message, bool error);

    RemoteRecorder *m_recorder;
    ProbePanel *m_probes = nullptr;
    QComboBox *m_host;
    QCheckBox *m_confirmKey;
    QLabel *m_status;
    QLabel *m_statusIcon;
    QPushButton *m_connect;
    QPushButton *m_record;
    QString m_passed; // the host text whose check passed
};

// The Recording menu's remote part: Record on Host…, Recent Hosts and Record on This Computer.
// It owns the RemoteRecorder and switches the RecordingController between it and the local
// recorder the window started with. A successful check shows the host's probes in the probe
// panel at once; a dialog cancelled (or a check failed) before switching puts back this
// computer's.
class RemoteHostController : public QObject
{
    Q_OBJECT
public:
    explicit RemoteHostController(RecordingController *recording, QWidget *window);

    QAction *recordOnHostAction() const { return m_onHost; }
    QMenu *recentMenu() const { return m_recent; }
    QAction *recordLocallyAction() const { return m_local; }
    RemoteRecorder *remoteRecorder() const { return m_remote; }

    // Opens the dialog (with host filled in and connecting, if given). Returns the dialog's
    // result; on Record, the window records on that host from now on and starts recording.
    int chooseHost(const QString &host = QString());
    // What the dialog's Record does: remember host, record through the remote recorder.
    void useRemote();
    void useLocal();
    // Whether the window currently records on a host.
    bool isRemote() const;

Q_SIGNALS:
    // chooseHost() is about to show its dialog: the window shows the probe panel, where the
    // host's probes appear once the check passes.
    void choosingHost();

private:
    void updateMenu();

    RecordingController *m_recording;
    QWidget *m_window;
    RemoteRecorder *m_remote;
    QPointer<Recorder> m_localRecorder; // the recorder before the first switch
    QAction *m_onHost;
    QMenu *m_recent;
    QAction *m_local;
};

} // namespace bpflens
