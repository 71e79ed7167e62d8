#include "gui/recordingcontroller.h"

#include "gui/detailspane.h"
#include "gui/errorbox.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/recorder.h"
#include "gui/sessiondocument.h"

#include <QAction>
#include <QApplication>
#include <QEventLoop>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QStatusBar>
#include <QSysInfo>
#include <QTimer>

#include <algorithm>

namespace bpflens {

RecordingController::RecordingController(SessionModel *session, ProbePanel *probes,
                                         SessionDocument *document, QMainWindow *window)
    : QObject(window)
    , m_session(session)
    , m_probes(probes)
    , m_document(document)
    , m_window(window)
{
    m_noBackend = new StreamRecorder(this);
    static_cast<StreamRecorder *>(m_noBackend)
        ->setUnavailableReason(
            tr("The BPF Lens helper (bpflens-helper) is not installed or not reachable on the "
               "system D-Bus. To record, install it as root with <code>cmake --install "
               "build/release</code>: it installs bpflens-helper, its D-Bus service and the "
               "polkit policy that lets you record without being root. Then start BPF Lens "
               "again."));

    m_recordAction = new QAction(tr("&Record"), window);
    m_recordAction->setShortcut(Qt::CTRL | Qt::Key_R);
    m_recordAction->setToolTip(tr("Record the selected probes (Ctrl+R)"));
    m_recordAction->setIcon(QIcon::fromTheme(QStringLiteral("media-record")));
    connect(m_recordAction, &QAction::triggered, this, &RecordingController::startRecording);
    m_stopAction = new QAction(tr("S&top"), window);
    m_stopAction->setShortcut(Qt::CTRL | Qt::Key_Period);
    m_stopAction->setToolTip(tr("Stop the recording (Ctrl+.)"));
    m_stopAction->setIcon(QIcon::fromTheme(QStringLiteral("media-playback-stop")));
    connect(m_stopAction, &QAction::triggered, this, &RecordingController::stopRecording);

    m_elapsedLabel = new QLabel(window);
    m_rateLabel = new QLabel(window);
    m_lostLabel = new QLabel(window);
    m_lostLabel->setMargin(2);
    m_cpuLabel = new QLabel(window);
    m_cpuLabel->setToolTip(tr("CPU time the probes' BPF programs took, per second of recording "
                              "(100 % = one CPU)"));
    m_statusTimer = new QTimer(this);
    m_statusTimer->setInterval(1000);
    connect(m_statusTimer, &QTimer::timeout, this, &RecordingController::updateRecordingStatus);
    connect(m_probes, &ProbePanel::changed, this, &RecordingController::actionsChanged);
}

bool RecordingController::isAvailable() const
{
    return m_recorder && m_recorder->isAvailable();
}

void RecordingController::showStatus(const QString &message, int timeoutMs)
{
    m_window->statusBar()->showMessage(message, timeoutMs);
}

void RecordingController::setRecorder(Recorder *recorder)
{
    if (m_recording)
        return; // the running recording's signals stay connected to the old one
    if (m_recorder)
        disconnect(m_recorder, nullptr, this, nullptr);
    m_recorder = recorder ? recorder : m_noBackend;
    connect(m_recorder, &Recorder::started, this, &RecordingController::recordingStarted);
    connect(m_recorder, &Recorder::batch, m_session, &SessionModel::append);
    connect(m_recorder, &Recorder::ended, this, &RecordingController::recordingEnded);
    connect(m_recorder, &Recorder::failed, this, &RecordingController::recordingFailed);
    connect(m_recorder, &Recorder::availabilityChanged, this,
            &RecordingController::availabilityChanged);
    connect(m_recorder, &Recorder::waiting, this, [this](const QString &message) {
        if (m_starting)
            showStatus(message);
    });
    connect(m_recorder, &Recorder::probeRejected, m_probes, &ProbePanel::showProbeError);
    m_listed = false;
    connect(m_recorder, &Recorder::probesListed, this,
            [this](const QString &kernel, const QHash<QString, ProbeAvailability> &availability) {
                m_listed = true;
                m_listedKernel = kernel;
                m_listedAvailability = availability;
                m_probes->setKernelRelease(kernel, m_recorder->remoteHost());
                m_probes->setAvailability(availability);
            });
    connect(m_recorder, &Recorder::tracepointsListed, m_probes, &ProbePanel::setTracepointNames);
    Q_EMIT availabilityChanged();
}

void RecordingController::previewProbes(const QString &kernel,
                                        const QHash<QString, ProbeAvailability> &availability,
                                        const QString &host)
{
    if (m_recording || m_starting)
        return;
    m_probes->setKernelRelease(kernel, host);
    m_probes->setAvailability(availability);
}

void RecordingController::restoreProbes()
{
    if (m_recording || m_starting)
        return;
    if (!m_listed) {
        m_probes->clearAvailability();
        return;
    }
    m_probes->setKernelRelease(m_listedKernel, m_recorder->remoteHost());
    m_probes->setAvailability(m_listedAvailability);
}

void RecordingController::updateActions()
{
    m_recordAction->setEnabled(isAvailable() && !m_recording && !m_starting &&
                               !m_document->isLoading());
    // While waiting for authorisation Stop cancels the start.
    m_stopAction->setEnabled(m_recording || m_starting);
    m_probes->setEnabled(!m_recording && !m_starting);
}

void RecordingController::startRecording()
{
    if (m_recording || !m_recorder)
        return;
    QString error;
    const QList<ProbeConfig> probes = m_probes->configs(&error);
    if (probes.isEmpty()) {
        showErrorBox(m_window, tr("Cannot record"), error);
        return;
    }
    if (!m_document->maybeKeepRecording())
        return;
    // Checked but not runnable on the recorder's kernel: left out, as the panel shows, and
    // said again when the recording starts.
    m_skippedAtStart.clear();
    for (const ProbePanel::Skipped &skipped : m_probes->skippedProbes())
        m_skippedAtStart << skipped.title;
    showStatus(tr("Starting the recording…"));
    m_starting = true;
    Q_EMIT actionsChanged();
    m_recorder->start(probes);
}

void RecordingController::stopRecording()
{
    if (!m_recorder)
        return;
    if (m_starting && !m_recording) {
        // Still waiting for polkit (or the helper): give up on this start.
        m_starting = false;
        m_recorder->stop();
        showStatus(tr("Recording cancelled"), 5000);
        Q_EMIT actionsChanged();
    } else if (m_recording) {
        m_recorder->stop();
    }
}

void RecordingController::discard()
{
    if (!m_recording)
        return;
    m_recorder->stop();
    m_recording = false;
    m_statusTimer->stop();
}

bool RecordingController::stopAndWait(int timeoutMs)
{
    if (!m_recording)
        return true;
    // The recorder sends what it still holds before it says it ended (ended or failed both
    // end the recording, keeping its data): returning earlier would drop that tail.
    QEventLoop loop;
    QTimer bound;
    bound.setSingleShot(true);
    connect(&bound, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &RecordingController::recordingChanged, &loop, &QEventLoop::quit);
    showStatus(tr("Stopping the recording…"));
    stopRecording();
    if (m_recording) {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        bound.start(timeoutMs);
        loop.exec(QEventLoop::ExcludeUserInputEvents);
        QApplication::restoreOverrideCursor();
    }
    return !m_recording;
}

void RecordingController::recordingStarted(const SessionInfo &info)
{
    m_starting = false;
    m_recording = true;
    m_document->setUnsavedRecording(false);
    SessionData data;
    data.info = info;
    // The stream names the remote machine; how it was reached is known only here, and is
    // saved with the session.
    data.info.sshTarget = m_recorder->remoteHost();
    m_session->setSession(std::move(data));
    m_recordClock.start();
    m_rateEvents = 0;
    m_rateAtMs = 0;
    m_eventsPerSecond = 0;
    m_statusTimer->start();
    m_recordedOverSsh = m_recorder->remoteHost();
    const QString skipped = m_skippedAtStart.join(QStringLiteral(", "));
    if (!skipped.isEmpty())
        showStatus(m_recordedOverSsh.isEmpty()
                       ? tr("Recording without %1: this kernel cannot run them").arg(skipped)
                       : tr("Recording on %1 without %2: its kernel cannot run them")
                             .arg(m_recordedOverSsh, skipped),
                   15000);
    else
        showStatus(m_recordedOverSsh.isEmpty() ? tr("Recording")
                                               : tr("Recording on %1").arg(m_recordedOverSsh),
                   3000);
    Q_EMIT recordingChanged();
    updateRecordingStatus();
}

void RecordingController::recordingEnded(const QString &reason, quint64 endNs)
{
    if (!m_recording)
        return;
    m_recording = false;
    m_statusTimer->stop();
    m_session->setEndTime(endNs);
    // Even an empty recording is kept: its probes and lost counts are worth saving.
    m_document->setUnsavedRecording(true);
    updateRecordingStatus();
    Q_EMIT recordingChanged();
    showStatus(reason, 8000);
}

void RecordingController::recordingFailed(const QString &error)
{
    if (m_recording) {
        // What arrived before the failure is kept and can be saved.
        recordingEnded(tr("Recording failed"), 0);
        showErrorBox(m_window, tr("Recording failed"),
                     tr("%1\n\nThe data recorded until then is kept.").arg(error));
        return;
    }
    if (!m_starting)
        return; // the end of a recording the user discarded
    m_starting = false;
    m_window->statusBar()->clearMessage();
    Q_EMIT actionsChanged();
    showErrorBox(m_window, tr("Cannot record"), error);
}

QString RecordingController::recordedOn() const
{
    // The live or unsaved recording: its ssh destination says how it was reached (empty for
    // the local helper, whose host is this computer).
    const SessionInfo &info = m_session->info();
    const auto hostVia = [](const QString &host, const QString &target) {
        if (host.isEmpty() || host == target)
            return target;
        return tr("%1 via %2").arg(host, target);
    };
    if (m_session->path().isEmpty() && (m_recording || m_document->hasUnsavedRecording()))
        return m_recordedOverSsh.isEmpty() ? QString() : hostVia(info.host, m_recordedOverSsh);
    // A session recorded over ssh says so even when the far end was this computer.
    if (!info.sshTarget.isEmpty())
        return hostVia(info.host, info.sshTarget);
    // A file made elsewhere names its machine.
    if (!info.host.isEmpty() && info.host != QSysInfo::machineHostName())
        return info.host;
    return {};
}

void RecordingController::updateRecordingStatus()
{
    const SessionData &data = m_session->data();
    // Stats are cumulative per probe: the last sample of each is the total.
    QHash<QString, ProbeStats> last;
    for (const ProbeStats &s : data.stats) {
        ProbeStats &l = last[s.probeId];
        if (s.timeNs >= l.timeNs)
            l = s;
    }
    quint64 lost = 0, unseen = 0, unfinished = 0, runNs = 0, lastStatsNs = 0;
    for (const ProbeStats &s : std::as_const(last)) {
        lost += s.eventsLost;
        unseen += s.eventsUnseen;
        unfinished += s.unfinished;
        runNs += s.runTimeNs;
        lastStatsNs = std::max(lastStatsNs, s.timeNs);
    }
    // No recording figures without a recording: "Duration 0:00:00, 0 events/s" before
    // anything was recorded or opened reads as a recording that did nothing.
    const bool none = !m_recording && !m_starting && m_session->path().isEmpty() &&
                      data.info.startMonotonicNs == 0 && m_session->isEmpty();
    for (QLabel *l : {m_elapsedLabel, m_rateLabel, m_lostLabel, m_cpuLabel})
        l->setVisible(!none);
    if (none)
        return;
    const quint64 origin = data.info.startMonotonicNs;
    const qint64 events = data.events.totalCount();
    double elapsedS = 0;
    if (m_recording) {
        const qint64 nowMs = m_recordClock.elapsed();
        elapsedS = double(nowMs) / 1000.0;
        if (nowMs - m_rateAtMs >= 900) {
            m_eventsPerSecond = double(events - m_rateEvents) * 1000.0 /
                                double(std::max<qint64>(1, nowMs - m_rateAtMs));
            m_rateEvents = events;
            m_rateAtMs = nowMs;
        }
    } else {
        const quint64 end =
            data.info.endMonotonicNs ? data.info.endMonotonicNs : m_session->endTimeNs();
        elapsedS = end > origin ? double(end - origin) / 1e9 : 0.0;
        m_eventsPerSecond = elapsedS > 0 ? double(events) / elapsedS : 0.0;
    }
    const qint64 secs = qint64(elapsedS);
    const QString clock = QStringLiteral("%1:%2:%3")
                              .arg(secs / 3600)
                              .arg(secs / 60 % 60, 2, 10, QLatin1Char('0'))
                              .arg(secs % 60, 2, 10, QLatin1Char('0'));
    // Where the events come from stays in sight while recording on another host and after.
    const QString host = recordedOn();
    if (host.isEmpty())
        m_elapsedLabel->setText(
            (m_recording ? tr("● Recording %1") : tr("Duration %1")).arg(clock));
    else
        m_elapsedLabel->setText(
            (m_recording ? tr("● Recording on %1 %2") : tr("Recorded on %1 · duration %2"))
                .arg(host, clock));
    m_rateLabel->setText(tr("%1 events/s").arg(QLocale().toString(m_eventsPerSecond, 'f', 0)));
    // Lost events are always shown, and stand out when there are any: the data is incomplete.
    // Each cause by its own name: "6 lost · 2 not seen · 1 unfinished" (lost always shown).
    QStringList parts{tr("%1 lost").arg(QLocale().toString(lost))};
    QStringList why;
    if (lost)
        why << tr("%1 lost: %2").arg(QLocale().toString(lost), SummaryPanel::lostExplanation());
    if (unseen) {
        parts << tr("%1 not seen").arg(QLocale().toString(unseen));
        why << tr("%1 not seen: %2")
                   .arg(QLocale().toString(unseen), SummaryPanel::unseenExplanation());
    }
    if (unfinished) {
        parts << tr("%1 unfinished").arg(QLocale().toString(unfinished));
        why << tr("%1 unfinished: %2")
                   .arg(QLocale().toString(unfinished), SummaryPanel::unfinishedExplanation());
    }
    m_lostLabel->setText(parts.join(QStringLiteral(" · ")));
    const bool missing = lost || unseen || unfinished;
    // Red for a full buffer only: "not seen" and "unfinished" are how the kernel ran the
    // probe, explained in the tooltip; 4 of 42,000 block completions are no alarm.
    m_lostLabel->setStyleSheet(lost ? QStringLiteral("background: #d0312d; color: white; "
                                                     "font-weight: bold; border-radius: 3px;")
                                    : QString());
    m_lostLabel->setToolTip(missing ? why.join(QStringLiteral("\n\n"))
                                    : tr("No events were lost."));
    // runTimeNs is the kernel's BPF run time; per second of (stats) time it is a CPU share.
    const double statsS = lastStatsNs > origin ? double(lastStatsNs - origin) / 1e9 : elapsedS;
    const double cpu = statsS > 0 ? 100.0 * double(runNs) / 1e9 / statsS : 0.0;
    m_cpuLabel->setText(tr("probes %1 % CPU").arg(QLocale().toString(cpu, 'f', 2)));
}

} // namespace bpflens
