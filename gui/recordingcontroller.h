#pragma once

#include "core/probecatalog.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QStringList>

class QAction;
class QLabel;
class QMainWindow;
class QTimer;

namespace bpflens {

class ProbePanel;
class Recorder;
class SessionDocument;
class SessionModel;
struct SessionInfo;

// Recording control: the Record and Stop actions, starting a recording of the probe panel's
// probes through a Recorder (live batches go into the session), its end or failure, and the
// recording figures for the status bar (elapsed time, event rate, lost events, probe CPU).
// MainWindow places the actions and labels.
class RecordingController : public QObject
{
    Q_OBJECT
public:
    RecordingController(SessionModel *session, ProbePanel *probes, SessionDocument *document,
                        QMainWindow *window);

    // Records through recorder from now on (not owned; null: recording unavailable). Until a
    // backend is set the controller has one that says recording is unavailable.
    void setRecorder(Recorder *recorder);
    Recorder *recorder() const { return m_recorder; }
    ProbePanel *probePanel() const { return m_probes; }
    bool isAvailable() const;
    bool isRecording() const { return m_recording; }
    // start() called, started or failed not yet seen (e.g. waiting for polkit).
    bool isStarting() const { return m_starting; }
    // Stops a running recording whose data the user chose to discard.
    void discard();
    // Stops a running recording whose data is to be kept, and returns once the recorder has
    // reported its end (its last batches are then in the session). The event loop runs
    // meanwhile, without user input. False if it has not ended within timeoutMs: it is then
    // still stopping, and its data still arrives.
    bool stopAndWait(int timeoutMs);

    // The host the shown session was recorded on when it is not this computer, for the title and
    // the status bar: "HOST via TARGET" for a recording over ssh (live, unsaved or a file that
    // stored its ssh_target), else the session's own host name when it is another machine's
    // (an opened file). Empty for this computer's sessions.
    QString recordedOn() const;

    QAction *recordAction() const { return m_recordAction; }
    QAction *stopAction() const { return m_stopAction; }
    QLabel *elapsedLabel() const { return m_elapsedLabel; }
    QLabel *rateLabel() const { return m_rateLabel; }
    QLabel *lostLabel() const { return m_lostLabel; }
    QLabel *cpuLabel() const { return m_cpuLabel; }

    // Refreshes the recording figures (a timer does it every second while recording).
    void updateRecordingStatus();
    // Record, Stop and the probe panel enabled as the recorder and the document allow.
    void updateActions();

    // Shows another recorder's kernel and probe availability in the probe panel before the
    // window records through it (Record on Host's check); restoreProbes() puts back what the
    // current recorder listed. Neither changes the panel while recording.
    void previewProbes(const QString &kernel, const QHash<QString, ProbeAvailability> &availability,
                       const QString &host);
    void restoreProbes();

Q_SIGNALS:
    // A recording started or ended: the title and the actions change.
    void recordingChanged();
    // Starting, cancelled, failed to start, or the probe selection changed: the actions change.
    void actionsChanged();
    // The recorder's availability or notice changed (and on setRecorder).
    void availabilityChanged();

private:
    void startRecording();
    void stopRecording();
    void recordingStarted(const SessionInfo &info);
    void recordingEnded(const QString &reason, quint64 endNs);
    void recordingFailed(const QString &error);
    void showStatus(const QString &message, int timeoutMs = 0);

    SessionModel *m_session;
    ProbePanel *m_probes;
    SessionDocument *m_document;
    QMainWindow *m_window;
    Recorder *m_recorder = nullptr;
    Recorder *m_noBackend = nullptr;
    QAction *m_recordAction = nullptr;
    QAction *m_stopAction = nullptr;
    QLabel *m_elapsedLabel = nullptr;
    QLabel *m_rateLabel = nullptr;
    QLabel *m_lostLabel = nullptr;
    QLabel *m_cpuLabel = nullptr;
    QTimer *m_statusTimer = nullptr;
    QElapsedTimer m_recordClock;
    qint64 m_rateEvents = 0; // event count at the last rate sample
    qint64 m_rateAtMs = 0;   // m_recordClock time of that sample
    double m_eventsPerSecond = 0;
    QString m_recordedOverSsh;    // the recorder's remoteHost() when the last recording started
    QStringList m_skippedAtStart; // checked probes the kernel could not run, left out
    // The current recorder's last probesListed, for restoreProbes().
    bool m_listed = false;
    QString m_listedKernel;
    QHash<QString, ProbeAvailability> m_listedAvailability;
    bool m_recording = false;
    bool m_starting = false; // start() called, started/failed not yet seen
};

} // namespace bpflens
