// bpflens-helper: the privileged half of BPF Lens, on the system bus (docs/dbus-api.md).
#include "dbusapi/helperapi.h"
#include "helper/helperservice.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDBusConnection>
#include <QSocketNotifier>
#include <QTextStream>

#include <csignal>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <sys/socket.h>
#include <unistd.h>

namespace {

int g_signalFd = -1;

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_signalFd, &c, 1);
}

int fail(const QString &message)
{
    QTextStream(stderr) << "bpflens-helper: " << message << '\n';
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
#if defined(__GLIBC__)
    // One heap for every thread. Each session's thread got an arena of its own, and what it freed
    // stayed resident there: malloc_trim() gave back the main heap's free pages but not 11 MB
    // of an ended session's arena (bench/run --only helper, #35). The helper's threads allocate
    // little at a time (a session's batches, D-Bus messages); sharing one heap costs them nothing
    // measurable.
    mallopt(M_ARENA_MAX, 1);
#endif
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bpflens-helper"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BPFLENS_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("BPF Lens privileged helper: runs eBPF probes for callers that polkit "
                       "authorises (io.github.bpflens.trace). Started by D-Bus activation."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({QStringLiteral("idle-timeout"),
                      QStringLiteral("Exit after this many seconds without sessions or calls "
                                     "(default 30; env BPFLENS_HELPER_IDLE_TIMEOUT)."),
                      QStringLiteral("seconds")});
    parser.process(app);

    bpflens::HelperService::Limits limits;
    QString idle = qEnvironmentVariable("BPFLENS_HELPER_IDLE_TIMEOUT");
    if (parser.isSet(QStringLiteral("idle-timeout")))
        idle = parser.value(QStringLiteral("idle-timeout"));
    if (!idle.isEmpty()) {
        bool ok = false;
        const double seconds = idle.toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 86400)
            return fail(
                QStringLiteral("idle timeout \"%1\" is not a number of seconds between 0 and 86400")
                    .arg(idle.left(64)));
        limits.idleTimeoutMs = int(seconds * 1000);
    }
    if (geteuid() != 0)
        return fail(QStringLiteral("must run as root (it loads BPF programs); D-Bus starts it"));

    // Signals end sessions cleanly (end frame HelperShutdown) through the event loop.
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return fail(QStringLiteral("cannot create the signal socket"));
    g_signalFd = fds[0];
    QSocketNotifier notifier(fds[1], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &app,
                     [] { QCoreApplication::quit(); });
    struct sigaction sa
    {
    };
    sa.sa_handler = onSignal;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);
    signal(SIGPIPE, SIG_IGN);

    // Before the first connection exists (see PolkitAuthority::registerTypes).
    bpflens::helperapi::registerTypes();
    bpflens::PolkitAuthority::registerTypes();
    bpflens::HelperService service(QDBusConnection::systemBus(), limits);
    QString error;
    if (!service.registerOnBus(&error))
        return fail(error);
    QObject::connect(&service, &bpflens::HelperService::idle, &app, [] {
        QTextStream(stderr) << "bpflens-helper: idle, exiting\n";
        QCoreApplication::quit();
    });
    const int status = app.exec();
    service.shutdown();
    return status;
}
