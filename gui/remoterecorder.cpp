#include "gui/remoterecorder.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace bpflens {

namespace {

// How long ssh may take to exit after its output ended (the remote sent everything).
constexpr int ReapTimeoutMs = 10000;

quint64 monotonicNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return quint64(ts.tv_sec) * 1000000000ULL + quint64(ts.tv_nsec);
}

QString lastMessage(const SshChannel &ssh)
{
    return ssh.messages().section(QLatin1Char('\n'), -1);
}

} // namespace

RemoteRecorder::RemoteRecorder(QObject *parent)
    : StreamRecorder(parent)
{
    setBackend([this](const QList<ProbeConfig> &probes,
                      QString *error) { return openStream(probes, error); },
               [this] {
                   if (m_ssh)
                       m_ssh->stop();
               });
    // Whichever way the recording ends, ssh goes with it.
    connect(this, &Recorder::ended, this, &RemoteRecorder::endSsh);
    connect(this, &Recorder::failed, this, &RemoteRecorder::endSsh);
    connect(this, &Recorder::started, this, [this] { m_streamStarted = true; });
}

RemoteRecorder::~RemoteRecorder()
{
    // ~SshChannel kills what still runs; the remote side sees the channel close and detaches.
    if (m_ssh)
        m_ssh->stop();
}

void RemoteRecorder::setTarget(const SshTarget &target)
{
    m_target = target;
    m_checked = false;
    m_remoteVersion.clear();
    m_kernel.clear();
    Q_EMIT availabilityChanged();
}

QString RemoteRecorder::unavailableReason() const
{
    if (isAvailable())
        return {};
    if (m_checkSsh)
        return tr("Connecting to <b>%1</b>…").arg(m_target.display.toHtmlEscaped());
    return tr("Not connected to a host: choose <b>Recording &gt; Record on Host…</b>.");
}

void RemoteRecorder::announceProbes()
{
    if (m_checked)
        Q_EMIT probesListed(m_kernel, m_availability);
}

pid_t RemoteRecorder::sshPid() const
{
    return m_ssh ? m_ssh->pid() : -1;
}

QString RemoteRecorder::localSsh()
{
    const QByteArray env = qgetenv("BPFLENS_SSH");
    const QString program = env.isEmpty() ? QStringLiteral("ssh") : QString::fromLocal8Bit(env);
    return QStandardPaths::findExecutable(program).isEmpty() && !QFile::exists(program) ? QString()
                                                                                        : program;
}

QString RemoteRecorder::connectFailureText(const SshTarget &target, SshChannel &ssh)
{
    const QString host = target.display;
    if (ssh.hostKeyRefused())
        return tr("ssh refused the host key of %1: it is not in your known hosts "
                  "(~/.ssh/known_hosts) or does not match it. BPF Lens never accepts a host key "
                  "silently: compare its fingerprint with the host's (ssh-keygen -lf "
                  "/etc/ssh/ssh_host_ed25519_key.pub there) and add it with ssh %2 in a "
                  "terminal, or tick \"Ask me whether to trust a new host key\".")
            .arg(host, target.port
                           ? QStringLiteral("-p %1 %2").arg(target.port).arg(target.destination())
                           : target.destination());
    if (ssh.remoteMissing())
        return tr("bpflens-cli is not installed on %1 (it is not in the PATH of the login "
                  "shell there). Install BPF Lens %2 on that host.")
            .arg(host, QStringLiteral(BPFLENS_VERSION));
    if (ssh.exitStatus() == 255 || ssh.remoteVersion().isEmpty())
        return tr("Cannot connect to %1 with %2 (exit status %3): %4")
            .arg(host, ssh.program())
            .arg(ssh.exitStatus())
            .arg(ssh.messages().isEmpty() ? tr("ssh said nothing") : lastMessage(ssh));
    return tr("bpflens-cli %1 on %2 did not start (exit status %3): %4")
        .arg(ssh.remoteVersion(), host)
        .arg(ssh.exitStatus())
        .arg(ssh.messages().isEmpty() ? tr("it said nothing") : lastMessage(ssh));
}

void RemoteRecorder::check()
{
    if (m_checkSsh || isRecording())
        return;
    m_checked = false;
    if (localSsh().isEmpty()) {
        Q_EMIT checked(false, tr("ssh is not installed on this computer: install the "
                                 "OpenSSH client (Debian: openssh-client)."));
        return;
    }
    m_checkSsh = std::make_unique<SshChannel>();
    m_checkSsh->setMessageHandler([](const QString &) {});
    m_checkOutput.clear();
    QString error;
    if (!m_checkSsh->start(m_target, m_sshOptions, remoteProbesCommand(), &error, m_prompting)) {
        m_checkSsh.reset();
        Q_EMIT checked(false, error);
        return;
    }
    Q_EMIT availabilityChanged();
    ::fcntl(m_checkSsh->streamFd(), F_SETFL, ::fcntl(m_checkSsh->streamFd(), F_GETFL) | O_NONBLOCK);
    m_checkOut = new QSocketNotifier(m_checkSsh->streamFd(), QSocketNotifier::Read, this);
    connect(m_checkOut, &QSocketNotifier::activated, this, &RemoteRecorder::readCheckOutput);
    m_checkErr = new QSocketNotifier(m_checkSsh->messageFd(), QSocketNotifier::Read, this);
    connect(m_checkErr, &QSocketNotifier::activated, this, [this] {
        m_checkSsh->readMessages();
        if (m_checkSsh->messageFd() < 0)
            m_checkErr->setEnabled(false);
    });
}

void RemoteRecorder::readCheckOutput()
{
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(m_checkSsh->streamFd(), buf, sizeof buf);
        if (n > 0) {
            m_checkOutput.append(buf, n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        break; // the end: ssh is exiting
    }
    m_checkOut->setEnabled(false);
    // ssh exits right after its output ends; the reaper waits for that without blocking.
    m_checkReaper = new QTimer(this);
    m_checkClock.start();
    connect(m_checkReaper, &QTimer::timeout, this, [this] {
        if (!m_checkSsh->hasExited()) {
            if (m_checkClock.elapsed() < ReapTimeoutMs)
                return;
            m_checkSsh->wait(0); // kills it
        }
        finishCheck();
    });
    m_checkReaper->start(20);
}

void RemoteRecorder::finishCheck()
{
    for (QObject *o : {static_cast<QObject *>(m_checkOut), static_cast<QObject *>(m_checkErr),
                       static_cast<QObject *>(m_checkReaper)})
        if (o)
            o->deleteLater();
    m_checkOut = nullptr;
    m_checkErr = nullptr;
    m_checkReaper->stop();
    m_checkReaper = nullptr;
    const std::unique_ptr<SshChannel> ssh = std::move(m_checkSsh);
    const QJsonObject json = QJsonDocument::fromJson(m_checkOutput).object();
    if (ssh->exitStatus() != 0 || !json.contains(QLatin1String("probes"))) {
        const QString why =
            ssh->exitStatus() == 0
                ? tr("bpflens-cli probes --json on %1 gave no probe list").arg(m_target.display)
                : connectFailureText(m_target, *ssh);
        Q_EMIT availabilityChanged();
        Q_EMIT checked(false, why);
        return;
    }
    m_remoteVersion = ssh->remoteVersion();
    m_kernel = json.value(QLatin1String("kernel")).toString();
    QHash<QString, ProbeAvailability> availability;
    int available = 0;
    const QJsonArray probes = json.value(QLatin1String("probes")).toArray();
    for (const QJsonValue &v : probes) {
        const QJsonObject p = v.toObject();
        ProbeAvailability a;
        a.available = p.value(QLatin1String("available")).toBool();
        a.attachPath = p.value(QLatin1String("attachPath")).toString();
        a.reason = p.value(QLatin1String("reason")).toString();
        available += a.available;
        availability.insert(p.value(QLatin1String("id")).toString(), a);
    }
    m_checked = true;
    m_availability = availability;
    Q_EMIT availabilityChanged();
    Q_EMIT probesListed(m_kernel, availability);
    QString message = tr("bpflens-cli %1 on %2, kernel %3: %4 of %Ln probe(s) can run there.",
                         nullptr, int(probes.size()))
                          .arg(m_remoteVersion, m_target.display, m_kernel)
                          .arg(available);
    if (m_remoteVersion != QLatin1String(BPFLENS_VERSION))
        message += QLatin1Char(' ') + tr("This computer has version %1: the recording may fail "
                                         "unless both are the same.")
                                          .arg(QStringLiteral(BPFLENS_VERSION));
    Q_EMIT checked(true, message);
}

int RemoteRecorder::openStream(const QList<ProbeConfig> &probes, QString *error)
{
    if (!m_checked) {
        *error = unavailableReason();
        return -1;
    }
    QStringList remoteArgs;
    // JSON keeps every option value intact, as record --host sends them.
    for (const ProbeConfig &p : probes) {
        const QJsonObject o{{QStringLiteral("id"), p.id},
                            {QStringLiteral("options"), QJsonObject::fromVariantMap(p.options)}};
        remoteArgs << QStringLiteral("--probe-json")
                   << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }
    m_ssh = std::make_unique<SshChannel>();
    m_ssh->setMessageHandler([](const QString &) {});
    if (!m_ssh->start(m_target, m_sshOptions, remoteRecordCommand(remoteArgs), error,
                      m_prompting)) {
        m_ssh.reset();
        return -1;
    }
    m_streamStarted = false;
    m_startedAtNs = monotonicNs();
    m_sshErr = new QSocketNotifier(m_ssh->messageFd(), QSocketNotifier::Read, this);
    connect(m_sshErr, &QSocketNotifier::activated, this, [this] {
        m_ssh->readMessages();
        if (m_ssh->messageFd() < 0)
            m_sshErr->setEnabled(false);
    });
    Q_EMIT waiting(tr("Connecting to %1…").arg(m_target.display));
    // StreamRecorder owns and closes its fd; the channel keeps (and closes) its own.
    const int fd = ::fcntl(m_ssh->streamFd(), F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        *error = tr("Cannot read ssh's output: %1").arg(QString::fromLocal8Bit(strerror(errno)));
    return fd;
}

QString RemoteRecorder::brokenStreamMessage(const QString &why) const
{
    if (!m_ssh)
        return StreamRecorder::brokenStreamMessage(why);
    // The stream ended early: ssh has exited or is about to; its status and last words say why.
    m_ssh->wait(2000);
    if (!m_streamStarted)
        return connectFailureText(m_target, *m_ssh);
    const double seconds = double(monotonicNs() - m_startedAtNs) / 1e9;
    const QString detail =
        m_ssh->messages().isEmpty()
            ? tr("ssh exit status %1").arg(m_ssh->exitStatus())
            : tr("ssh exit status %1: %2").arg(m_ssh->exitStatus()).arg(lastMessage(*m_ssh));
    return tr("The connection to %1 was lost after %2 s (%3). Everything received until then "
              "is kept.")
        .arg(m_target.display)
        .arg(seconds, 0, 'f', 1)
        .arg(detail);
}

void RemoteRecorder::endSsh()
{
    if (m_sshErr) {
        m_sshErr->setEnabled(false);
        m_sshErr->deleteLater();
        m_sshErr = nullptr;
    }
    if (!m_ssh)
        return;
    m_ssh->stop();
    // After the End frame the channel closes at once; a stuck ssh is killed.
    m_ssh->wait(3000);
    m_ssh.reset();
}

} // namespace bpflens
