#pragma once

#include "client/sshchannel.h"
#include "gui/recorder.h"

#include <QElapsedTimer>

#include <memory>

class QSocketNotifier;
class QTimer;

namespace bpflens {

// Records on another host (Record > Record on Host, docs/remote.md): ssh, with the user's own
// configuration, keys and agent, runs `bpflens-cli record --stream-fd 1` there, and the stream
// that comes back is read exactly as the helper's (StreamRecorder). The ssh client is the one
// `bpflens-cli record --host` uses (SshChannel). check() first connects once to see that
// bpflens-cli is there and what the remote kernel can run; Stop closes ssh's stdin, which ends
// the remote recording; a lost connection ends it here with what arrived kept.
class RemoteRecorder : public StreamRecorder
{
    Q_OBJECT
public:
    explicit RemoteRecorder(QObject *parent = nullptr);
    ~RemoteRecorder() override;

    // A new target needs a new check(): not available until then.
    void setTarget(const SshTarget &target);
    const SshTarget &target() const { return m_target; }
    QString remoteHost() const override { return m_target.display; }
    // ssh -o options after the built-in ones (tests: their own keys and known_hosts).
    void setSshOptions(const QStringList &options) { m_sshOptions = options; }
    // How ssh may ask for passwords and host keys (default: never, BatchMode).
    void setPrompting(const SshPrompting &prompting) { m_prompting = prompting; }
    const SshPrompting &prompting() const { return m_prompting; }

    // Connects without blocking: checks that ssh is here, that bpflens-cli is on the host and
    // which version, and lists the probes its kernel can run. checked() follows, and on success
    // probesListed() and availabilityChanged().
    void check();
    bool isChecking() const { return bool(m_checkSsh); }
    bool isChecked() const { return m_checked; }
    QString remoteVersion() const { return m_remoteVersion; }
    QString kernelRelease() const { return m_kernel; }
    // probesListed() again with what the last check() found (for a window that starts
    // listening now).
    void announceProbes();

    bool isAvailable() const override { return m_checked && !m_checkSsh; }
    QString unavailableReason() const override;

    // The running ssh client (recording), -1 if none.
    pid_t sshPid() const;

    // What went wrong before anything was recorded, from what ssh and the remote said.
    static QString connectFailureText(const SshTarget &target, SshChannel &ssh);
    // ssh as this computer runs it: $BPFLENS_SSH or ssh; empty if it is not installed.
    static QString localSsh();

Q_SIGNALS:
    // check() ended: ok, and what the user reads (the version and kernel, or what is wrong).
    void checked(bool ok, const QString &message);

protected:
    QString brokenStreamMessage(const QString &why) const override;

private:
    int openStream(const QList<ProbeConfig> &probes, QString *error);
    void readCheckOutput();
    void finishCheck();
    void endSsh();

    SshTarget m_target;
    QStringList m_sshOptions;
    SshPrompting m_prompting;
    bool m_checked = false;
    QString m_remoteVersion;
    QString m_kernel;
    QHash<QString, ProbeAvailability> m_availability;

    std::unique_ptr<SshChannel> m_checkSsh;
    QByteArray m_checkOutput;
    QSocketNotifier *m_checkOut = nullptr;
    QSocketNotifier *m_checkErr = nullptr;
    QTimer *m_checkReaper = nullptr;
    QElapsedTimer m_checkClock;

    std::unique_ptr<SshChannel> m_ssh; // recording
    QSocketNotifier *m_sshErr = nullptr;
    bool m_streamStarted = false;
    quint64 m_startedAtNs = 0;
};

} // namespace bpflens
