#include "client/sshchannel.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

namespace bpflens {

namespace {

const QLatin1String MarkerMissing("bpflens-remote: not-installed");
const QLatin1String MarkerVersion("bpflens-remote: version ");

// A connection that dies silently (a cable pulled, Wi-Fi gone, a NAT forgetting it) sends no
// reset: without keepalives ssh would wait for TCP to give up, many minutes in which the window
// shows a live recording that receives nothing. The stream sends frames a few times a second, so
// a link that works never needs these; a dead one ends ssh (exit status 255, "Timeout, server
// ... not responding") after 3 unanswered keepalives 5 s apart, at most 20 s after the last
// data (measured: 19.8 s).
// That rides out a short outage (TCP retransmits the keepalive) without leaving the user
// watching a dead recording for long.
constexpr int AliveIntervalSeconds = 5;
constexpr int AliveCountMax = 3;
// Reaching the host and its first handshake, instead of the system's TCP timeout (minutes).
constexpr int ConnectTimeoutSeconds = 15;

int aliveIntervalSeconds()
{
    // Tests freeze a connection and need its end in a second or two, not 15 s.
    bool ok = false;
    const int seconds = qEnvironmentVariableIntValue("BPFLENS_SSH_ALIVE_SECONDS", &ok);
    return ok && seconds > 0 && seconds <= 3600 ? seconds : AliveIntervalSeconds;
}

} // namespace

QStringList livenessOptions(const QString &program, const SshTarget &target,
                            const QStringList &sshOptions)
{
    // ssh -G prints the configuration it would use (the user's ~/.ssh/config, the system's and
    // the -o options) and connects nowhere: about 10 ms.
    QStringList args{QStringLiteral("-G")};
    if (target.port)
        args << QStringLiteral("-p") << QString::number(target.port);
    for (const QString &o : sshOptions)
        args << QStringLiteral("-o") << o;
    args << QStringLiteral("--") << target.destination();
    QProcess ssh;
    ssh.setStandardInputFile(QProcess::nullDevice());
    ssh.setStandardErrorFile(QProcess::nullDevice());
    ssh.start(program, args);
    QString interval, timeout;
    if (ssh.waitForFinished(5000) && ssh.exitStatus() == QProcess::NormalExit &&
        ssh.exitCode() == 0) {
        const QStringList lines = QString::fromLocal8Bit(ssh.readAllStandardOutput())
                                      .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const QString &line : lines) {
            const QString key = line.section(QLatin1Char(' '), 0, 0);
            const QString value = line.section(QLatin1Char(' '), 1).trimmed();
            if (key == QLatin1String("serveraliveinterval"))
                interval = value;
            else if (key == QLatin1String("connecttimeout"))
                timeout = value;
        }
    } else {
        ssh.kill();
        ssh.waitForFinished(1000);
    }
    // ssh's defaults ("0": no keepalives, "none": the system's TCP timeout) are replaced; a
    // value the user chose (config file or --ssh-option) is theirs to keep. ssh -G cannot tell a
    // configured ServerAliveCountMax from its default, so it is set with our interval only.
    QStringList options;
    if (interval.isEmpty() || interval == QLatin1String("0"))
        options << QStringLiteral("ServerAliveInterval=%1").arg(aliveIntervalSeconds())
                << QStringLiteral("ServerAliveCountMax=%1").arg(AliveCountMax);
    if (timeout.isEmpty() || timeout == QLatin1String("none"))
        options << QStringLiteral("ConnectTimeout=%1").arg(ConnectTimeoutSeconds);
    return options;
}

QString SshTarget::destination() const
{
    return user.isEmpty() ? host : user + QLatin1Char('@') + host;
}

bool SshTarget::parse(const QString &text, SshTarget *target, QString *error)
{
    // Host names and addresses only: a leading '-' would be an ssh option, blanks or quotes
    // a different command line.
    static const QRegularExpression re(QStringLiteral(
        R"(^(?:([A-Za-z0-9._][A-Za-z0-9._-]*)@)?(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._][A-Za-z0-9._-]*))(?::([0-9]{1,5}))?$)"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch()) {
        *error = QStringLiteral("--host %1: expected [user@]host[:port]").arg(text.left(64));
        return false;
    }
    SshTarget t;
    t.user = m.captured(1);
    t.host = m.captured(2).isEmpty() ? m.captured(3) : m.captured(2);
    if (!m.captured(4).isEmpty()) {
        t.port = m.captured(4).toInt();
        if (t.port < 1 || t.port > 65535) {
            *error = QStringLiteral("--host %1: port %2 is not between 1 and 65535")
                         .arg(text.left(64), m.captured(4));
            return false;
        }
    }
    t.display = text;
    *target = t;
    return true;
}

QString shellQuote(const QString &arg)
{
    QString quoted = arg;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

namespace {

// POSIX sh, run by the remote login shell as one string: says whether bpflens-cli is there and
// which version (markers on stderr), then runs command.
QString checkedRemoteCommand(const QString &command)
{
    return QStringLiteral("command -v bpflens-cli >/dev/null 2>&1 || { echo '%1' >&2; exit 127; "
                          "}; echo \"%2$(bpflens-cli --version 2>&1)\" >&2; %3")
        .arg(MarkerMissing, MarkerVersion, command);
}

} // namespace

QString remoteProbesCommand()
{
    return checkedRemoteCommand(QStringLiteral("exec bpflens-cli probes --json"));
}

QString remoteRecordCommand(const QStringList &recordArgs)
{
    QStringList args{QStringLiteral("exec"),   QStringLiteral("bpflens-cli"),
                     QStringLiteral("record"), QStringLiteral("--stream-fd"),
                     QStringLiteral("1"),      QStringLiteral("--stop-on-stdin-eof"),
                     QStringLiteral("--quiet")};
    for (const QString &a : recordArgs)
        args << shellQuote(a);
    return checkedRemoteCommand(args.join(QLatin1Char(' ')));
}

SshChannel::~SshChannel()
{
    if (m_pid > 0) {
        kill();
        wait(0);
    }
    for (int fd : {m_in, m_out, m_err})
        if (fd >= 0)
            ::close(fd);
}

bool SshChannel::start(const SshTarget &target, const QStringList &sshOptions,
                       const QString &command, QString *error, const SshPrompting &prompting)
{
    const QByteArray envSsh = qgetenv("BPFLENS_SSH");
    m_program = envSsh.isEmpty() ? QStringLiteral("ssh") : QString::fromLocal8Bit(envSsh);
    m_display = target.display;
    const bool asking = !prompting.askpass.isEmpty();
    QStringList args{m_program,
                     QStringLiteral("-T"),
                     QStringLiteral("-o"),
                     asking ? QStringLiteral("BatchMode=no") : QStringLiteral("BatchMode=yes"),
                     QStringLiteral("-o"),
                     asking && prompting.confirmNewHostKey
                         ? QStringLiteral("StrictHostKeyChecking=ask")
                         : QStringLiteral("StrictHostKeyChecking=yes")};
    if (target.port)
        args << QStringLiteral("-p") << QString::number(target.port);
    for (const QString &o : livenessOptions(m_program, target, sshOptions) + sshOptions)
        args << QStringLiteral("-o") << o;
    args << QStringLiteral("--") << target.destination() << command;

    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 ||
        ::pipe2(err, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot create pipes for ssh: %1")
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    std::vector<QByteArray> argBytes;
    for (const QString &a : std::as_const(args))
        argBytes.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : argBytes)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    // The environment is built before fork: the child only calls exec.
    QList<QByteArray> envBytes;
    if (asking)
        envBytes << "SSH_ASKPASS=" + QFile::encodeName(prompting.askpass)
                 << QByteArrayLiteral("SSH_ASKPASS_REQUIRE=force");
    for (const QString &e : prompting.environment)
        envBytes << e.toLocal8Bit();
    for (char **e = environ; *e; ++e) {
        const QByteArray entry(*e);
        const QByteArray name = entry.left(entry.indexOf('=') + 1);
        if (std::none_of(envBytes.cbegin(), envBytes.cend(),
                         [&](const QByteArray &b) { return b.startsWith(name); }))
            envBytes << entry;
    }
    std::vector<char *> envp;
    for (QByteArray &e : envBytes)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        *error = QStringLiteral("cannot start ssh: %1")
                     .arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (pid == 0) {
        // A group of its own: Ctrl-C on the terminal reaches this process only, which then
        // stops the remote side and finishes the file instead of ssh dying mid-stream.
        ::setpgid(0, 0);
        ::dup2(in[0], 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::signal(SIGPIPE, SIG_DFL);
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        ::execvpe(argv[0], argv.data(), envp.data());
        const char msg[] = "bpflens-remote: cannot run ssh\n";
        (void)!::write(2, msg, sizeof msg - 1);
        ::_exit(127);
    }
    m_pid = pid;
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    m_in = in[1];
    m_out = out[0];
    m_err = err[0];
    // Room for bursts while this process writes the file (see recordToStream()).
    ::fcntl(m_out, F_SETPIPE_SZ, 1 << 20);
    ::fcntl(m_err, F_SETFL, O_NONBLOCK);
    // ssh may go away before reading its stdin: a write error, not a signal.
    ::signal(SIGPIPE, SIG_IGN);
    return true;
}

void SshChannel::readMessages()
{
    if (m_err < 0)
        return;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(m_err, buf, sizeof buf);
        if (n > 0) {
            m_pending.append(buf, n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            ::close(m_err);
            m_err = -1;
            if (!m_pending.isEmpty())
                m_pending.append('\n');
        }
        break;
    }
    qsizetype nl;
    while ((nl = m_pending.indexOf('\n')) >= 0) {
        const QString line = QString::fromLocal8Bit(m_pending.left(nl)).trimmed();
        m_pending.remove(0, nl + 1);
        if (!line.isEmpty())
            handleLine(line);
    }
}

void SshChannel::handleLine(const QString &line)
{
    if (line == MarkerMissing) {
        m_remoteMissing = true;
        return;
    }
    if (line.startsWith(MarkerVersion)) {
        m_remoteVersion = line.mid(MarkerVersion.size()).section(QLatin1Char(' '), -1);
        return;
    }
    m_messages << line;
    if (m_onMessage) {
        m_onMessage(line);
        return;
    }
    // The remote's own messages ("bpflens-cli: ...") as they come, marked with where they
    // come from; ssh's are judged once it exits.
    QTextStream(stderr) << m_display << ": " << line << '\n';
}

void SshChannel::stop()
{
    if (m_in >= 0) {
        ::close(m_in);
        m_in = -1;
    }
}

bool SshChannel::wait(int timeoutMs)
{
    if (m_pid <= 0)
        return m_exitStatus >= 0;
    for (int waited = 0;; waited += 20) {
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid) {
            m_pid = -1;
            m_exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            readMessages();
            return true;
        }
        if (r < 0 && errno != EINTR) {
            m_pid = -1;
            return false;
        }
        readMessages();
        if (waited >= timeoutMs)
            break;
        const timespec ts{0, 20 * 1000 * 1000};
        ::nanosleep(&ts, nullptr);
    }
    kill();
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_pid = -1;
    m_exitStatus = 128 + SIGKILL;
    readMessages();
    return false;
}

bool SshChannel::hasExited()
{
    if (m_pid <= 0)
        return true;
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r != m_pid)
        return false;
    m_pid = -1;
    m_exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    readMessages();
    return true;
}

void SshChannel::kill()
{
    if (m_pid > 0)
        ::kill(m_pid, SIGKILL);
}

bool SshChannel::hostKeyRefused() const
{
    return m_messages.filter(QStringLiteral("Host key verification failed")).size() > 0 ||
           m_messages.filter(QStringLiteral("REMOTE HOST IDENTIFICATION HAS CHANGED")).size() > 0;
}

} // namespace bpflens
