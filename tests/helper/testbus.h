#pragma once

#include <QDBusConnection>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QTemporaryDir>

namespace bpflens::test {

// A private system bus for the helper tests: a dbus-daemon with a system-like configuration
// (the helper's bus policy, polkit's, activation of the built bpflens-helper from a generated
// .service file) and the real polkitd, in a private mount namespace where the test's polkit
// action and rules files are bind-mounted over the system's. Nothing on the machine changes;
// the destructor ends every process it started (helper included).
class TestBus
{
public:
    struct Options
    {
        QString helperIdleTimeout = QStringLiteral("120"); // seconds; --idle-timeout
        bool grantDaemon = true; // a rules.d file that lets the user "daemon" trace
    };

    TestBus();
    ~TestBus();
    TestBus(const TestBus &) = delete;
    TestBus &operator=(const TestBus &) = delete;

    bool start(const Options &options, QString *error);
    bool start(QString *error) { return start(Options{}, error); }
    void stop();

    QString address() const { return m_address; }
    // A world-readable scratch directory (unprivileged callers can read and run what is in it).
    QString dir() const { return m_dir.path(); }
    // DBUS_SYSTEM_BUS_ADDRESS pointing at this bus, on top of the test's environment.
    QProcessEnvironment environment() const;
    // A fresh connection to the bus, as root.
    QDBusConnection connect(const QString &name) const;
    // Copies a binary into dir() so users like nobody can execute it; returns the copy's path.
    QString publicCopy(const QString &binary) const;

    // Pid of the process that owns io.github.bpflens.Helper1, 0 when none.
    qint64 helperPid() const;
    // Sends the running helper SIGTERM and waits until its exit is recorded.
    bool stopHelper(int timeoutMs);
    // Helpers that exited with a status other than 0 (LeakSanitizer exits with 23, a crash or
    // SIGKILL shows as 128 + signal) and sanitizer reports in the log; empty when all is well.
    QString helperExitProblems();
    // Waits until no process owns the helper's name.
    bool waitForHelperGone(int timeoutMs) const;
    // What dbus-daemon, polkitd and the activated helper printed (stderr), kept in files.
    QString log();

private:
    QString exitsFile() const;

    QTemporaryDir m_dir;
    QString m_address;
    QProcess m_daemon;
    QProcess m_polkit;
    mutable QList<qint64> m_helperPids;
};

// BPF objects (programs, links, maps) that a process holds file descriptors of.
struct BpfObjects
{
    int programs = 0;
    int links = 0;
    int maps = 0;
    QList<quint32> programIds; // kernel ids, from /proc/PID/fdinfo
    QList<quint32> mapIds;
    QList<quint32> linkIds;
    int total() const { return programs + links + maps; }
};
BpfObjects bpfObjectsOf(qint64 pid);
// Whether a program with this id is still loaded in the kernel.
bool programLoaded(quint32 id);
bool mapLoaded(quint32 id);
bool linkLoaded(quint32 id);

} // namespace bpflens::test
