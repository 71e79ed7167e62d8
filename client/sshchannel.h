#pragma once

#include <QString>
#include <QStringList>

#include <sys/types.h>

#include <functional>

namespace bpflens {

// Where record --host runs: [user@]host[:port], or [user@][v6-address]:port.
struct SshTarget
{
    QString user;
    QString host;
    int port = 0; // 0: ssh's default (or the ssh config's)

    // user@host as ssh takes it, without the port.
    QString destination() const;
    // As the user wrote it, for messages.
    QString display;

    static bool parse(const QString &text, SshTarget *target, QString *error);
};

// How ssh may ask the user. The CLI never asks (BatchMode=yes: keys and the agent only); the
// window asks through an askpass program (its own --askpass mode) for passwords and, only when
// the user chose so, whether to trust a host key ssh does not know yet.
struct SshPrompting
{
    // SSH_ASKPASS with SSH_ASKPASS_REQUIRE=force; empty: BatchMode=yes.
    QString askpass;
    // StrictHostKeyChecking=ask instead of yes: an unknown host key is shown through askpass
    // and added to known_hosts only when the answer is yes. A changed key is refused either way.
    bool confirmNewHostKey = false;
    // More environment for ssh (and so for askpass), NAME=value.
    QStringList environment;
};

// Quotes one argument for a POSIX shell on the remote side: ssh hands the remote command to
// the login shell as one string.
QString shellQuote(const QString &arg);

// The remote shell command record --host runs: it says whether bpflens-cli is there and which
// version, then becomes `bpflens-cli record --stream-fd 1 ...` with the stream on stdout.
QString remoteRecordCommand(const QStringList &recordArgs);
// The same check, then `bpflens-cli probes --json` on stdout: what the remote kernel can run.
QString remoteProbesCommand();

// The -o options start() adds so that a connection that dies silently ends ssh within a known
// time: ServerAliveInterval=5 (or $BPFLENS_SSH_ALIVE_SECONDS, for tests) with
// ServerAliveCountMax=3, and ConnectTimeout=15, each unless the user's ssh configuration or
// sshOptions already set it (`ssh -G`, the configuration ssh would use, says so).
QStringList livenessOptions(const QString &program, const SshTarget &target,
                            const QStringList &sshOptions);

// An ssh client running remoteRecordCommand(): its stdout is the stream, its stderr carries the
// remote's messages and ssh's own, its stdin stays open until stop() (the remote side stops
// when it reaches the end of its stdin).
class SshChannel
{
public:
    SshChannel() = default;
    SshChannel(const SshChannel &) = delete;
    SshChannel &operator=(const SshChannel &) = delete;
    ~SshChannel();

    // ssh -o BatchMode=yes -o StrictHostKeyChecking=yes [livenessOptions()] ... target command.
    // The ssh binary is $BPFLENS_SSH or "ssh" from PATH. sshOptions are passed as -o each, after
    // ours (ssh keeps the first value of an option, so they cannot turn host key checking off).
    bool start(const SshTarget &target, const QStringList &sshOptions, const QString &command,
               QString *error, const SshPrompting &prompting = {});
    // Called with each line the remote or ssh wrote to stderr that is not a marker; without
    // one, lines are printed to this process's stderr prefixed with the host.
    void setMessageHandler(std::function<void(const QString &line)> handler)
    {
        m_onMessage = std::move(handler);
    }
    int streamFd() const { return m_out; }
    int messageFd() const { return m_err; }
    pid_t pid() const { return m_pid; }
    // Reads what ssh wrote to stderr; complete lines from the remote are printed prefixed with
    // the host unless they are our markers. Call when messageFd() is readable.
    void readMessages();
    // Closes ssh's stdin: the remote bpflens-cli sees the end of its stdin and stops.
    void stop();
    bool stopSent() const { return m_in < 0; }
    // Waits for ssh to exit (killing it after timeoutMs); true when it exited by itself.
    bool wait(int timeoutMs);
    // Whether ssh has exited, without waiting (reaps it then).
    bool hasExited();
    void kill();
    int exitStatus() const { return m_exitStatus; }

    // What the remote side said before the stream (see remoteRecordCommand()).
    bool remoteMissing() const { return m_remoteMissing; }
    QString remoteVersion() const { return m_remoteVersion; }
    // Everything ssh and the remote wrote to stderr that was not a marker.
    QString messages() const { return m_messages.join(QLatin1Char('\n')); }
    bool hostKeyRefused() const;
    QString program() const { return m_program; }

private:
    void handleLine(const QString &line);

    QString m_program;
    QString m_display;
    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
    int m_err = -1;
    QByteArray m_pending;
    QStringList m_messages;
    bool m_remoteMissing = false;
    QString m_remoteVersion;
    int m_exitStatus = -1;
    std::function<void(const QString &)> m_onMessage;
};

} // namespace bpflens
