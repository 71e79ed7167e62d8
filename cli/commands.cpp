#include "commands.h"

#include "diffreport.h"
#include "explainreport.h"
#include "topreport.h"

#include "eventlisting.h"

#include "csvexport.h"
#include "engine.h"
#include "enginestream.h"
#include "helperapi.h"
#include "helperclient.h"
#include "jsonlexport.h"
#include "outputfile.h"
#include "probe.h"
#include "probespec.h"
#include "probetargets.h"
#include "profilereport.h"
#include "protocol.h"
#include "recordingfile.h"
#include "sessioninfo.h"
#include "sessionquery.h"
#include "sessionsalvage.h"
#include "sessionstore.h"
#include "specialfile.h"
#include "sshchannel.h"
#include "traceexport.h"
#include "units.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <QLocale>
#include <QRegularExpression>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <optional>
#include <poll.h>
#include <unistd.h>

namespace bpflens::cli {

namespace {

// The time of the newest record of a session, or its start when it holds none.
quint64 lastDataNs(const SessionData &data)
{
    quint64 last = data.info.startMonotonicNs;
    if (!data.events.isEmpty())
        last = std::max(last, data.events.lastTimeNs());
    for (const HistogramSnapshot &h : data.histograms)
        last = std::max(last, h.timeNs);
    for (const ProbeStats &st : data.stats)
        last = std::max(last, st.timeNs);
    for (const CounterSample &c : data.counters)
        last = std::max(last, c.timeNs);
    return last;
}

int fail(const QString &message, int status = Failure)
{
    QTextStream(stderr) << "bpflens-cli: " << message << '\n';
    return status;
}

QTextStream &out()
{
    return standardOutput();
}

// Parses args for a subcommand; on a usage error prints one line and returns false.
bool parse(QCommandLineParser &parser, const QString &command, const QStringList &args, int *status)
{
    parser.addHelpOption();
    if (!parser.parse(QStringList{QStringLiteral("bpflens-cli ") + command} + args)) {
        *status = fail(parser.errorText(), Usage);
        return false;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out() << parser.helpText();
        *status = Ok;
        return false;
    }
    return true;
}

QString groupName(ProbeGroup g)
{
    static const char *const names[] = {"Processes", "Files",     "Block I/O",
                                        "I/O stack", "Scheduler", "Network",
                                        "Memory",    "Custom",    "CPU"};
    return QString::fromLatin1(names[int(g)]);
}

std::atomic<bool> g_stopRequested{false};

void requestStop(int)
{
    g_stopRequested = true;
}

QString formatRate(double perSecond)
{
    return perSecond >= 10000 ? QStringLiteral("%1k/s").arg(perSecond / 1000, 0, 'f', 1)
                              : QStringLiteral("%1/s").arg(perSecond, 0, 'f', 0);
}

// The line a recording keeps rewriting on a terminal, twice a second.
class ProgressLine
{
public:
    explicit ProgressLine(bool enabled)
        : m_enabled(enabled)
    {
    }
    // The recording started at startNs (its first second); the rate counts from nowNs.
    void start(quint64 startNs, quint64 nowNs)
    {
        m_startNs = startNs;
        m_lastNs = nowNs;
    }
    void update(quint64 nowNs, const RecordingFile &file)
    {
        if (!m_enabled || nowNs - m_lastNs < 500000000ull)
            return;
        const quint64 seen = file.eventCount();
        const double rate = double(seen - m_eventsAtLast) * 1e9 / double(nowNs - m_lastNs);
        m_eventsAtLast = seen;
        m_lastNs = nowNs;
        m_err << QStringLiteral("\r%1s  events %2  %3  %4   ")
                     .arg(double(nowNs - m_startNs) / 1e9, 0, 'f', 1)
                     .arg(seen)
                     .arg(file.lostSummary())
                     .arg(formatRate(rate));
        m_err.flush();
    }
    // Leaves the last line standing.
    void end()
    {
        if (m_enabled)
            m_err << '\n';
        m_err.flush();
    }

private:
    QTextStream m_err{stderr};
    const bool m_enabled;
    quint64 m_startNs = 0;
    quint64 m_lastNs = 0;
    quint64 m_eventsAtLast = 0;
};

// record --jsonl: each batch's events as JSON lines as they arrive (docs/jsonl.md), flushed per
// batch so that a script reading a pipe sees them within the engine's poll interval. A reader
// that goes away (`| head`) stops the recording, which then ends with a complete file.
class JsonlSink
{
public:
    ~JsonlSink()
    {
        if (m_file && m_file != stdout)
            std::fclose(m_file);
    }
    bool open(const QString &target, QString *error)
    {
        if (target == QLatin1String("-")) {
            m_file = stdout;
        } else {
            m_file = std::fopen(QFile::encodeName(target).constData(), "w");
            if (!m_file) {
                *error = QStringLiteral("cannot write %1: %2")
                             .arg(target, QString::fromLocal8Bit(std::strerror(errno)));
                return false;
            }
        }
        m_target = target == QLatin1String("-") ? QStringLiteral("standard output") : target;
        // A closed pipe is a write error to handle, not a signal that kills the recorder before
        // it finishes its file.
        signal(SIGPIPE, SIG_IGN);
        return true;
    }
    bool isOpen() const { return m_file != nullptr; }
    void start(const SessionInfo &info)
    {
        if (!m_file)
            return;
        m_stream.emplace(info);
        write(m_stream->header());
    }
    void add(const RecordBatch &batch)
    {
        if (m_stream && !m_failed)
            write(m_stream->format(batch));
    }
    bool failed() const { return m_failed; }
    QString target() const { return m_target; }

private:
    void write(const QByteArray &lines)
    {
        if (lines.isEmpty() || m_failed)
            return;
        if (std::fwrite(lines.constData(), 1, size_t(lines.size()), m_file) !=
                size_t(lines.size()) ||
            std::fflush(m_file) != 0) {
            m_failed = true;
            g_stopRequested = true;
        }
    }

    FILE *m_file = nullptr;
    QString m_target;
    std::optional<JsonlStream> m_stream;
    bool m_failed = false;
};

QString defaultOutputName()
{
    return QStringLiteral("bpflens-%1.bpflens")
        .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
}

// The facts of a salvaged file's damage, as `show` and `recover` print them.
void printDamage(QTextStream &s, const SessionDamage &d, const QString &indent)
{
    s << indent << "Cause: " << d.reason << '\n';
    s << indent
      << QStringLiteral("Kept %1 event chunks; lost %2 chunks (%3 events counted), %4 "
                        "unreadable rows, %5 strings")
             .arg(d.chunksKept)
             .arg(d.chunksLost)
             .arg(d.eventsLost)
             .arg(d.unreadableRows)
             .arg(d.stringsLost)
      << '\n';
    for (const QString &line : d.lost)
        s << indent << "Lost: " << line << '\n';
}

// A damaged file opens with what could be salvaged; unless quiet, stderr says so.
bool loadSession(const QString &path, SessionData *data, int *status, bool quiet = false)
{
    QString error;
    if (!SessionReader::open(path, data, &error)) {
        *status = fail(error, NoSession);
        return false;
    }
    if (data->damage.isDamaged() && !quiet) {
        QTextStream err(stderr);
        err << "bpflens-cli: " << path
            << " is damaged; using what could be read (see bpflens-cli show):\n";
        printDamage(err, data->damage, QStringLiteral("  "));
    }
    return true;
}

// The system bus, closed before the command returns: a connection still open while the
// process exits can get a message after Qt's type registry is gone, and print warnings.
struct SystemBus
{
    // Types first: the connection's thread may look them up as soon as it exists.
    const bool typesRegistered = (helperapi::registerTypes(), true);
    QDBusConnection connection =
        QDBusConnection::connectToBus(QDBusConnection::SystemBus, QStringLiteral("bpflens-cli"));
    ~SystemBus() { QDBusConnection::disconnectFromBus(QStringLiteral("bpflens-cli")); }
};

void installStopHandlers()
{
    g_stopRequested = false;
    struct sigaction sa
    {
    };
    sa.sa_handler = requestStop;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

// What readStreamToFile() saw, for the caller to put into words.
struct StreamOutcome
{
    bool ended = false; // the End frame arrived
    StreamEnd end;
    QString createError;
    bool readerFailed = false;
    QString readerError;
    quint64 startNs = 0;
    quint64 lastDataNs = 0; // when the last bytes arrived
};

// The stream's source: how to stop it, and what else to watch while reading it.
struct StreamSource
{
    int fd = -1;
    std::function<void()> stop;
    int extraFd = -1; // readable: call onExtra (ssh's stderr)
    std::function<void()> onExtra;
    QString sshTarget; // record --host: stored in the session's metadata
};

// Reads a recording stream (docs/protocol.md) from source.fd and writes the session file, one
// transaction a second, as the in-process recorder does: the helper's stream and a remote
// bpflens-cli's over ssh alike. A file that cannot be created or written (a full disk) stops
// the source; what was written stays in the file.
StreamOutcome readStreamToFile(const StreamSource &source, RecordingFile &file,
                               const QString &output, quint64 durationNs, bool progress,
                               JsonlSink &jsonl)
{
    StreamOutcome o;
    StreamReader reader;
    ProgressLine progressLine(progress);
    bool stopSent = false;
    o.startNs = Engine::monotonicNowNs();
    o.lastDataNs = o.startNs;
    auto stopOnce = [&] {
        if (!stopSent) {
            source.stop();
            stopSent = true;
        }
    };
    while (true) {
        pollfd p[2] = {{source.fd, POLLIN, 0}, {source.extraFd, POLLIN, 0}};
        if (::poll(p, source.extraFd >= 0 ? 2 : 1, 200) > 0) {
            if (p[0].revents) {
                const StreamReader::ReadResult r = reader.readFrom(source.fd);
                if (r == StreamReader::ReadResult::Data)
                    o.lastDataNs = Engine::monotonicNowNs();
                if (r == StreamReader::ReadResult::Failed && reader.errorString().isEmpty())
                    o.readerError = QStringLiteral("cannot read the stream");
            }
            if (source.extraFd >= 0 && p[1].revents)
                source.onExtra();
        }
        while (reader.hasMessage()) {
            StreamMessage m = reader.takeMessage();
            if (m.type == StreamFrameType::Hello) {
                o.startNs = m.info.startMonotonicNs;
                progressLine.start(o.startNs, Engine::monotonicNowNs());
                if (!source.sshTarget.isEmpty())
                    m.info.sshTarget = source.sshTarget;
                if (!file.create(output, m.info, &o.createError))
                    stopOnce();
                jsonl.start(m.info);
            } else if (m.type == StreamFrameType::Batch) {
                jsonl.add(m.batch);
                if (!file.add(std::move(m.batch), Engine::monotonicNowNs()))
                    stopOnce();
            } else {
                o.end = m.end;
                o.ended = true;
            }
        }
        const quint64 now = Engine::monotonicNowNs();
        if (!file.writeIfDue(now))
            stopOnce();
        if (g_stopRequested || (durationNs && now - o.startNs >= durationNs))
            stopOnce();
        if (o.ended || reader.hasError())
            break;
        if (file.isOpen())
            progressLine.update(now, file);
    }
    file.flush();
    progressLine.end();
    o.readerFailed = reader.hasError();
    if (o.readerFailed)
        o.readerError = reader.errorString();
    return o;
}

// The helper records; this process reads the stream from the fd it hands over.
int recordThroughHelper(const HelperClient &helper, const QList<ProbeConfig> &requests,
                        const QString &output, quint64 durationNs, bool progress, JsonlSink &jsonl)
{
    HelperClient::Session session;
    if (const int status =
            startHelperSession(helper, requests, &session, QStringLiteral("recording")))
        return status;
    installStopHandlers();
    QString error;
    StreamSource source;
    source.fd = session.fd;
    source.stop = [&] {
        HelperClient::Error stopError;
        if (!helper.stopSession(session.path, &stopError))
            error =
                QStringLiteral("the helper did not stop the recording: %1").arg(stopError.message);
    };
    RecordingFile file;
    const StreamOutcome o = readStreamToFile(source, file, output, durationNs, progress, jsonl);
    ::close(session.fd);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const StreamEnd &end = o.end;
    const QString &createError = o.createError;
    QString finishError;
    const bool finished =
        file.isOpen() &&
        file.finish(o.ended ? end.endMonotonicNs : Engine::monotonicNowNs(), &finishError);
    if (!createError.isEmpty() || file.hasWriteError())
        return fail(QStringLiteral("recording stopped: %1")
                        .arg(createError.isEmpty() ? file.writeError() : createError));
    if (o.readerFailed)
        return fail(
            QStringLiteral("the helper's stream broke off: %1 (what arrived before is in %2)")
                .arg(o.readerError, output));
    if (!o.readerError.isEmpty() && error.isEmpty())
        error = o.readerError;
    if (end.reason == StreamEndReason::Error || end.reason == StreamEndReason::HelperShutdown)
        return fail(
            QStringLiteral("the helper ended the recording: %1 (what was recorded is in %2)")
                .arg(end.message, output));
    if (!error.isEmpty())
        return fail(error);
    if (!finished)
        return fail(finishError);
    if (jsonl.failed())
        return fail(QStringLiteral("cannot write the JSON lines to %1: the recording stopped "
                                   "(what was recorded is in %2)")
                        .arg(jsonl.target(), output));
    QTextStream(stderr) << QStringLiteral("Recorded %1 events (%2) into %3\n")
                               .arg(file.eventCount())
                               .arg(file.lostSummary())
                               .arg(output);
    return Ok;
}

// record --host: ssh runs bpflens-cli record --stream-fd 1 on the host (docs/remote.md) and
// this process writes the session file from the stream, as from the helper's.
int recordOverSsh(const SshTarget &target, const QStringList &sshOptions,
                  const QList<ProbeConfig> &requests, const QString &output, quint64 durationNs,
                  bool progress, JsonlSink &jsonl)
{
    QStringList remoteArgs;
    // JSON keeps every option value intact (a --probe spec cannot hold a comma).
    for (const ProbeConfig &p : requests) {
        const QJsonObject o{{QStringLiteral("id"), p.id},
                            {QStringLiteral("options"), QJsonObject::fromVariantMap(p.options)}};
        remoteArgs << QStringLiteral("--probe-json")
                   << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }
    // Before ssh starts: Ctrl-C then stops the remote side and finishes the file.
    installStopHandlers();
    SshChannel ssh;
    QString error;
    if (!ssh.start(target, sshOptions, remoteRecordCommand(remoteArgs), &error))
        return fail(error);
    StreamSource source;
    source.fd = ssh.streamFd();
    source.stop = [&] { ssh.stop(); };
    source.extraFd = ssh.messageFd();
    source.onExtra = [&] { ssh.readMessages(); };
    source.sshTarget = target.display;
    RecordingFile file;
    const quint64 startedNs = Engine::monotonicNowNs();
    const StreamOutcome o = readStreamToFile(source, file, output, durationNs, progress, jsonl);
    ssh.stop();
    // The remote side sent its end (or the stream broke): ssh exits as soon as the channel
    // closes; one that does not within seconds is ended.
    ssh.wait(o.ended ? 10000 : 2000);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const bool created = file.isOpen();
    QString finishError;
    const bool finished =
        created && file.finish(o.ended ? o.end.endMonotonicNs : o.lastDataNs, &finishError);
    if (!o.createError.isEmpty() || file.hasWriteError())
        return fail(QStringLiteral("recording stopped: %1")
                        .arg(o.createError.isEmpty() ? file.writeError() : o.createError));
    const QString host = target.display;
    if (!created) {
        // Nothing arrived: say why the remote side never started.
        if (ssh.hostKeyRefused())
            return fail(
                QStringLiteral("ssh refused the host key of %1: it is not in known_hosts "
                               "(~/.ssh/known_hosts, or the UserKnownHostsFile given) or "
                               "does not match it. BPF Lens never accepts an unknown host "
                               "key: check the key and add it (ssh %2 once, or "
                               "ssh-keyscan), then record again")
                    .arg(host,
                         target.port
                             ? QStringLiteral("-p %1 %2").arg(target.port).arg(target.destination())
                             : target.destination()));
        if (ssh.remoteMissing())
            return fail(QStringLiteral("bpflens-cli is not installed on %1 (not in the PATH of "
                                       "its login shell): install BPF Lens %2 there")
                            .arg(host, QStringLiteral(BPFLENS_VERSION)));
        if (!ssh.remoteVersion().isEmpty() && ssh.remoteVersion() != QLatin1String(BPFLENS_VERSION))
            return fail(QStringLiteral("bpflens-cli on %1 is version %2, this one is %3, and it "
                                       "did not record (see its message above): install the same "
                                       "version on both")
                            .arg(host, ssh.remoteVersion(), QStringLiteral(BPFLENS_VERSION)));
        if (ssh.exitStatus() == 255 || ssh.remoteVersion().isEmpty())
            return fail(QStringLiteral("cannot connect to %1 with %2 (exit status %3%4)")
                            .arg(host, ssh.program())
                            .arg(ssh.exitStatus())
                            .arg(ssh.messages().isEmpty()
                                     ? QString()
                                     : QStringLiteral(": ") +
                                           ssh.messages().section(QLatin1Char('\n'), -1)),
                        RemoteFailed);
        return fail(QStringLiteral("bpflens-cli on %1 did not record (exit status %2; its "
                                   "message is above)")
                        .arg(host)
                        .arg(ssh.exitStatus()),
                    RemoteFailed);
    }
    if (!o.ended) {
        const double seconds = double(o.lastDataNs - std::min(o.lastDataNs, startedNs)) / 1e9;
        QTextStream(stderr) << QStringLiteral("Recorded %1 events (%2) into %3\n")
                                   .arg(file.eventCount())
                                   .arg(file.lostSummary())
                                   .arg(output);
        return fail(QStringLiteral("connection to %1 lost after %2 s (%3); the session %4 "
                                   "holds everything received")
                        .arg(host)
                        .arg(seconds, 0, 'f', 1)
                        .arg(o.readerFailed && !o.readerError.isEmpty()
                                 ? o.readerError
                                 : QStringLiteral("ssh exit status %1").arg(ssh.exitStatus()))
                        .arg(output),
                    ConnectionLost);
    }
    if (o.end.reason == StreamEndReason::Error || o.end.reason == StreamEndReason::HelperShutdown)
        return fail(QStringLiteral("bpflens-cli on %1 ended the recording: %2 (what was recorded "
                                   "is in %3)")
                        .arg(host, o.end.message, output),
                    RemoteFailed);
    if (!finished)
        return fail(finishError);
    if (jsonl.failed())
        return fail(QStringLiteral("cannot write the JSON lines to %1: the recording stopped "
                                   "(what was recorded is in %2)")
                        .arg(jsonl.target(), output));
    QTextStream(stderr) << QStringLiteral("Recorded %1 events (%2) on %3 into %4\n")
                               .arg(file.eventCount())
                               .arg(file.lostSummary())
                               .arg(host, output);
    return Ok;
}

} // namespace

int startHelperSession(const HelperClient &helper, const QList<ProbeConfig> &requests,
                       HelperClient::Session *session, const QString &what)
{
    HelperClient::Error error;
    if (helper.startSession(requests, session, &error))
        return Ok;
    if (error.name == helperapi::ErrorNotAuthorized)
        return fail(QStringLiteral("not authorised: polkit denied %1").arg(helperapi::PolkitAction),
                    NotAuthorized);
    if (error.name == helperapi::ErrorInvalidArgs)
        return fail(error.message, Usage);
    return fail(
        QStringLiteral("the BPF Lens helper could not start the %1: %2").arg(what, error.message));
}

int probes(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Lists the probes and whether this kernel can run them."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Machine-readable output.")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("probes"), args, &status))
        return status;
    QString kernelRelease;
    QList<HelperClient::ProbeEntry> list;
    const SystemBus bus;
    HelperClient helper(bus.connection);
    QString unreachable;
    if (helper.isReachable(&unreachable)) {
        HelperClient::Error error;
        if (!helper.listProbes(&kernelRelease, &list, &error))
            return fail(QStringLiteral("the BPF Lens helper could not list the probes: %1")
                            .arg(error.message));
    } else if (geteuid() == 0) {
        Engine engine;
        kernelRelease = engine.kernel().release();
        for (const ProbeStatus &s : engine.probes())
            list.append({s.info, s.availability});
    } else {
        return fail(QStringLiteral("checking what this kernel supports needs root or the BPF Lens "
                                   "helper, which is not reachable (%1): run as root")
                        .arg(unreachable),
                    NotAuthorized);
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray array;
        for (const HelperClient::ProbeEntry &s : std::as_const(list)) {
            QJsonArray options;
            for (const ProbeOption &o : s.info.options) {
                if (o.internal)
                    continue;
                options.append(QJsonObject{
                    {QStringLiteral("name"), o.name},
                    {QStringLiteral("default"), QJsonValue::fromVariant(o.defaultValue)},
                    {QStringLiteral("description"), o.description}});
            }
            array.append(QJsonObject{{QStringLiteral("id"), s.info.id},
                                     {QStringLiteral("group"), groupName(s.info.group)},
                                     {QStringLiteral("title"), s.info.title},
                                     {QStringLiteral("available"), s.availability.available},
                                     {QStringLiteral("attachPath"), s.availability.attachPath},
                                     {QStringLiteral("reason"), s.availability.reason},
                                     {QStringLiteral("options"), options}});
        }
        out() << QJsonDocument(QJsonObject{{QStringLiteral("kernel"), kernelRelease},
                                           {QStringLiteral("probes"), array}})
                     .toJson();
        return Ok;
    }
    out() << "Probes on kernel " << kernelRelease << ":\n";
    for (const HelperClient::ProbeEntry &s : std::as_const(list)) {
        out() << QStringLiteral("  %1 %2 %3\n")
                     .arg(s.info.id.leftJustified(11),
                          s.availability.available ? QStringLiteral("yes") : QStringLiteral("no "),
                          s.info.title);
        if (!s.availability.attachPath.isEmpty())
            out() << "              via " << s.availability.attachPath << '\n';
        if (!s.availability.reason.isEmpty())
            out() << "              " << s.availability.reason << '\n';
        QStringList names;
        for (const ProbeOption &o : s.info.options) {
            if (!o.internal)
                names << o.name;
        }
        out() << "              options: " << names.join(QStringLiteral(", ")) << '\n';
    }
    return Ok;
}

// record --stream-fd as a user who is not root (the remote side of record --host logged in as
// an ordinary user): the helper records, with polkit's consent, and its stream is passed on to
// fd byte for byte, so the reader sees exactly the helper's frames. Stop (stdin's end, Ctrl-C,
// --duration) asks the helper to stop; its End frame then ends the relay.
int relayHelperStream(const HelperClient &helper, const QList<ProbeConfig> &requests, int fd,
                      quint64 durationNs, bool stopOnStdinEof)
{
    HelperClient::Session session;
    if (const int status =
            startHelperSession(helper, requests, &session, QStringLiteral("recording")))
        return status;
    installStopHandlers();
    // A reader that went away (ssh's channel closed) is a failed write, not a fatal signal.
    signal(SIGPIPE, SIG_IGN);
    ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
    const quint64 startNs = Engine::monotonicNowNs();
    bool stopSent = false;
    bool stdinOpen = stopOnStdinEof;
    QString error;
    auto stopOnce = [&] {
        if (stopSent)
            return;
        stopSent = true;
        HelperClient::Error stopError;
        if (!helper.stopSession(session.path, &stopError))
            error =
                QStringLiteral("the helper did not stop the recording: %1").arg(stopError.message);
    };
    bool readerGone = false;
    QByteArray buffer(1 << 16, Qt::Uninitialized);
    while (true) {
        pollfd p[2] = {{session.fd, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        const int ready = ::poll(p, stdinOpen ? 2 : 1, 200);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready > 0 && p[0].revents) {
            const ssize_t n = ::read(session.fd, buffer.data(), size_t(buffer.size()));
            if (n == 0)
                break; // the helper ended the stream (after its End frame)
            if (n < 0 && errno != EINTR && errno != EAGAIN)
                break;
            for (ssize_t done = 0; n > 0 && done < n;) {
                const ssize_t w = ::write(fd, buffer.constData() + done, size_t(n - done));
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    readerGone = true;
                    break;
                }
                done += w;
            }
            if (readerGone)
                break;
        }
        if (stdinOpen && ready > 0 && p[1].revents) {
            char ignored[256];
            const ssize_t n = ::read(STDIN_FILENO, ignored, sizeof ignored);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                stdinOpen = false;
                stopOnce();
            }
        }
        if (g_stopRequested || (durationNs && Engine::monotonicNowNs() - startNs >= durationNs))
            stopOnce();
    }
    // The helper detaches as soon as it is told, or sees its stream's reader gone.
    stopOnce();
    ::close(session.fd);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (readerGone)
        return fail(QStringLiteral("the reader of the stream went away"));
    if (!error.isEmpty())
        return fail(error);
    ::close(fd);
    return Ok;
}

// The desktop application's recorder when it runs as root and no helper is reachable: the
// stream the helper would send (docs/protocol.md), written into an inherited fd, so the window
// reads both the same way and never links libbpf. SIGTERM/SIGINT end it with an End frame; a
// reader that closes its end ends it too (nobody is left to tell).
//
// With stopOnStdinEof (record --host runs it so over ssh) the end of stdin stops it cleanly:
// the local side closes ssh's stdin to stop. A killed ssh client makes sshd close both pipes,
// and the hang-up of the stream fd ends it within a poll interval.
int recordToStream(QList<ProbeConfig> &requests, int fd, quint64 durationNs, bool stopOnStdinEof)
{
    installStopHandlers();
    Engine engine;
    QString error;
    if (!engine.start(requests, &error))
        return fail(error);
    // A pipe (ssh's channel for record --host, the window's) gets room for a few frames, so a
    // reader that stalls for a moment (sshd encrypting, the network) does not stall the engine
    // and let the ring buffer fill. Not every pipe may grow: the default is kept then.
    ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
    // The reader sets the pace: the window reads as fast as it can, and what the kernel
    // cannot hand over meanwhile is counted as lost, as in any recording.
    EngineStream stream(engine, fd, EngineStream::Pace::Reader);
    if (!stream.begin(sessionInfoForThisHost(requests))) {
        engine.stop();
        return fail(QStringLiteral("cannot write the stream: %1").arg(stream.errorString()));
    }
    auto stdinEnded = [&] {
        if (!stopOnStdinEof)
            return false;
        pollfd p{STDIN_FILENO, POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0)
            return false;
        char buf[256];
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        return n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN);
    };
    const bool readerStayed = stream.run([&] {
        return g_stopRequested || stdinEnded() ||
               (durationNs && Engine::monotonicNowNs() - engine.startMonotonicNs() >= durationNs);
    });
    // Detach first, then finish the stream.
    stream.stopEngine();
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (!readerStayed)
        return fail(QStringLiteral("the reader of the stream went away"));
    if (!stream.finish({StreamEndReason::Stopped, QString(), Engine::monotonicNowNs()}))
        return fail(
            QStringLiteral("cannot write the end of the stream: %1").arg(stream.errorString()));
    ::close(fd);
    return Ok;
}

int record(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Records probes into a session file until the duration ends or Ctrl-C."));
    parser.addOption(
        {QStringLiteral("probe"),
         QStringLiteral(
             "A probe to record, with options: exec, block:disk=vda,perDisk. Repeatable."),
         QStringLiteral("ID[:opt=value,...]")});
    parser.addOption({QStringLiteral("duration"),
                      QStringLiteral("Stop after this long (10s, 2m, ...)."),
                      QStringLiteral("time")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("Session file to write (default bpflens-DATE-TIME.bpflens)."),
                      QStringLiteral("file")});
    parser.addOption(
        {QStringLiteral("direct"),
         QStringLiteral(
             "Run the probes in this process (root only) instead of through the helper.")});
    parser.addOption(
        {QStringLiteral("force"), QStringLiteral("Replace the output file if it exists.")});
    parser.addOption({QStringLiteral("quiet"), QStringLiteral("No progress line.")});
    parser.addOption({QStringLiteral("probe-json"),
                      QStringLiteral("A probe as JSON, {\"id\": \"exec\", \"options\": {...}}, for "
                                     "option values a --probe spec cannot hold. Repeatable."),
                      QStringLiteral("json")});
    parser.addOption({QStringLiteral("stream-fd"),
                      QStringLiteral("Root only, in this process: write the recording as the "
                                     "helper's stream (docs/protocol.md) into this inherited fd "
                                     "instead of a session file; SIGTERM ends it."),
                      QStringLiteral("fd")});
    parser.addOption({QStringLiteral("stop-on-stdin-eof"),
                      QStringLiteral("With --stream-fd: stop when standard input ends (how "
                                     "--host stops the remote side).")});
    parser.addOption({QStringLiteral("host"),
                      QStringLiteral("Record on this machine over ssh (docs/remote.md): runs "
                                     "bpflens-cli there, writes the session file here."),
                      QStringLiteral("[user@]host[:port]")});
    parser.addOption({QStringLiteral("ssh-option"),
                      QStringLiteral("With --host: an ssh option, as ssh -o takes it "
                                     "(IdentityFile=~/.ssh/id_lab). Repeatable."),
                      QStringLiteral("option")});
    parser.addOption({QStringLiteral("jsonl"),
                      QStringLiteral("Also write the events as JSON lines while recording, a "
                                     "batch at a time, into this file (\"-\": standard output; "
                                     "docs/jsonl.md)."),
                      QStringLiteral("file")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("record"), args, &status))
        return status;

    QList<ProbeConfig> requests;
    for (const QString &spec : parser.values(QStringLiteral("probe"))) {
        QString error;
        const auto config = parseProbeSpec(spec, &error);
        if (!config)
            return fail(error, Usage);
        requests.append(*config);
    }
    for (const QString &json : parser.values(QStringLiteral("probe-json"))) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &parseError);
        const QJsonObject o = doc.object();
        if (!doc.isObject() || !o.value(QStringLiteral("id")).isString() ||
            !(o.value(QStringLiteral("options")).isObject() ||
              o.value(QStringLiteral("options")).isUndefined()))
            return fail(QStringLiteral("--probe-json %1: expected {\"id\": \"...\", \"options\": "
                                       "{...}}")
                            .arg(json.left(64)),
                        Usage);
        ProbeConfig config;
        config.id = o.value(QStringLiteral("id")).toString();
        config.options = o.value(QStringLiteral("options")).toObject().toVariantMap();
        requests.append(config);
    }
    if (requests.isEmpty())
        return fail(
            QStringLiteral("nothing to record: name at least one --probe (see bpflens-cli probes)"),
            Usage);
    // Catch bad probes and options before anything is loaded or written.
    for (const ProbeConfig &r : std::as_const(requests)) {
        QVariantMap normalized;
        QString error;
        if (!ProbeCatalog::validate(r.id, r.options, &normalized, &error))
            return fail(error, Usage);
    }
    std::optional<SshTarget> remote;
    if (parser.isSet(QStringLiteral("host"))) {
        SshTarget target;
        QString error;
        if (!SshTarget::parse(parser.value(QStringLiteral("host")), &target, &error))
            return fail(error, Usage);
        for (const char *local : {"stream-fd", "direct"})
            if (parser.isSet(QString::fromLatin1(local)))
                return fail(
                    QStringLiteral("--host and --%1 exclude each other").arg(QLatin1String(local)),
                    Usage);
        remote = target;
    } else if (parser.isSet(QStringLiteral("ssh-option"))) {
        return fail(QStringLiteral("--ssh-option goes with --host"), Usage);
    }
    // The functions uprobes attach to: resolved and their files opened by this process, with
    // the permissions of whoever runs it, whichever way the probes then run. On another host
    // its own bpflens-cli resolves them.
    if (!remote) {
        QString error;
        if (!resolveProbeTargets(requests, &error))
            return fail(error, Usage);
    }
    quint64 durationNs = 0;
    if (parser.isSet(QStringLiteral("duration"))) {
        QString error;
        const auto d = parseDuration(parser.value(QStringLiteral("duration")), &error);
        if (!d)
            return fail(QStringLiteral("--duration: ") + error, Usage);
        durationNs = *d;
    }
    if (parser.isSet(QStringLiteral("stream-fd"))) {
        bool ok = false;
        const int fd = parser.value(QStringLiteral("stream-fd")).toInt(&ok);
        if (!ok || fd < 0 || ::fcntl(fd, F_GETFD) < 0)
            return fail(QStringLiteral("--stream-fd %1 is not an open file descriptor")
                            .arg(parser.value(QStringLiteral("stream-fd")).left(32)),
                        Usage);
        if (parser.isSet(QStringLiteral("output")))
            return fail(QStringLiteral("--stream-fd and --output exclude each other"), Usage);
        if (parser.isSet(QStringLiteral("jsonl")))
            return fail(QStringLiteral("--stream-fd and --jsonl exclude each other"), Usage);
        const bool stopOnStdinEof = parser.isSet(QStringLiteral("stop-on-stdin-eof"));
        if (geteuid() != 0) {
            // Not root (record --host as an ordinary user): through this host's helper.
            const SystemBus bus;
            HelperClient helper(bus.connection);
            QString unreachable;
            if (parser.isSet(QStringLiteral("direct")) || !helper.isReachable(&unreachable))
                return fail(
                    QStringLiteral("--stream-fd needs root or the BPF Lens helper, which "
                                   "is not reachable (%1)")
                        .arg(unreachable.isEmpty() ? QStringLiteral("--direct") : unreachable),
                    NotAuthorized);
            return relayHelperStream(helper, requests, fd, durationNs, stopOnStdinEof);
        }
        return recordToStream(requests, fd, durationNs, stopOnStdinEof);
    }
    const bool direct = parser.isSet(QStringLiteral("direct"));
    const SystemBus bus;
    HelperClient helper(bus.connection);
    QString unreachable;
    const bool viaHelper = !remote && !direct && helper.isReachable(&unreachable);
    if (!remote && !viaHelper && geteuid() != 0) {
        if (direct)
            return fail(
                QStringLiteral("--direct runs the probes in this process, which needs root"),
                NotAuthorized);
        return fail(QStringLiteral("recording needs root or the BPF Lens helper, which is not "
                                   "reachable (%1): run as root, or install bpflens-helper")
                        .arg(unreachable),
                    NotAuthorized);
    }
    const QString output = parser.isSet(QStringLiteral("output"))
                               ? parser.value(QStringLiteral("output"))
                               : defaultOutputName();
    const QFileInfo outInfo(output);
    if (!QFileInfo(outInfo.absolutePath()).isDir())
        return fail(QStringLiteral("cannot write %1: the directory %2 does not exist")
                        .arg(output, outInfo.absolutePath()));
    // Before anything is attached: a recording nobody can save is not worth starting.
    if (!QFileInfo(outInfo.absolutePath()).isWritable())
        return fail(QStringLiteral("cannot write %1: the directory %2 is not writable")
                        .arg(output, outInfo.absolutePath()));
    if (outInfo.exists()) {
        if (!parser.isSet(QStringLiteral("force")))
            return fail(QStringLiteral("%1 already exists: choose another --output, or --force")
                            .arg(output));
        for (const char *suffix : {"", "-wal", "-shm"})
            QFile::remove(output + QLatin1String(suffix));
    }

    const bool progress = !parser.isSet(QStringLiteral("quiet")) && isatty(STDERR_FILENO);
    JsonlSink jsonl;
    if (parser.isSet(QStringLiteral("jsonl"))) {
        QString error;
        if (!jsonl.open(parser.value(QStringLiteral("jsonl")), &error))
            return fail(error);
    }
    if (remote)
        return recordOverSsh(*remote, parser.values(QStringLiteral("ssh-option")), requests, output,
                             durationNs, progress, jsonl);
    if (viaHelper)
        return recordThroughHelper(helper, requests, output, durationNs, progress, jsonl);

    // Before the session file appears: a Ctrl-C as soon as it is there (loading the probes and
    // creating the file take seconds on a slow machine) must still end with a complete file.
    installStopHandlers();

    Engine engine;
    QString error;
    if (!engine.start(requests, &error))
        return fail(error);
    SessionInfo info = sessionInfoForThisHost(requests);
    info.startMonotonicNs = engine.startMonotonicNs();
    RecordingFile file;
    if (!file.create(output, info, &error)) {
        engine.stop();
        return fail(error);
    }

    ProgressLine progressLine(progress);
    progressLine.start(engine.startMonotonicNs(), engine.startMonotonicNs());
    jsonl.start(info);
    RecordBatch batch;
    while (!g_stopRequested && !file.hasWriteError()) {
        engine.poll(200, batch);
        const quint64 now = Engine::monotonicNowNs();
        if (durationNs && now - engine.startMonotonicNs() >= durationNs)
            break;
        jsonl.add(batch);
        file.add(std::move(batch), now);
        batch.clear();
        progressLine.update(now, file);
    }
    engine.stop(&batch);
    jsonl.add(batch);
    file.add(std::move(batch), Engine::monotonicNowNs());
    QString finishError;
    const bool finished = file.finish(Engine::monotonicNowNs(), &finishError);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    progressLine.end();
    if (file.hasWriteError())
        return fail(QStringLiteral("recording stopped: %1 (what was written before is in %2)")
                        .arg(file.writeError(), output));
    if (!finished)
        return fail(finishError);
    if (jsonl.failed())
        return fail(QStringLiteral("cannot write the JSON lines to %1: the recording stopped "
                                   "(what was recorded is in %2)")
                        .arg(jsonl.target(), output));
    QTextStream(stderr) << QStringLiteral("Recorded %1 events (%2) into %3\n")
                               .arg(file.eventCount())
                               .arg(file.lostSummary())
                               .arg(output);
    return Ok;
}

int show(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Summarises a session and prints its histograms."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .bpflens session file."));
    parser.addOption(
        {QStringLiteral("probe"), QStringLiteral("Only this probe."), QStringLiteral("id")});
    parser.addOption({QStringLiteral("top"),
                      QStringLiteral("Functions listed per profile (CPU samples, off-CPU "
                                     "waits); 0 lists all. Default 20."),
                      QStringLiteral("n"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("events"),
                      QStringLiteral("Print the events, a line each, instead of the summary.")});
    parser.addOption({QStringLiteral("limit"),
                      QStringLiteral("With --events: the first n events of each type; 0 for "
                                     "all (the default)."),
                      QStringLiteral("n"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("time"),
                      QStringLiteral("With --events: \"relative\" (seconds since the start, "
                                     "like execsnoop -t; the default) or \"clock\" (local "
                                     "time, like execsnoop -T)."),
                      QStringLiteral("style"), QStringLiteral("relative")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("show"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("show takes one session file"), Usage);
    EventListing listing;
    bool limitOk = false;
    listing.limit = parser.value(QStringLiteral("limit")).toLongLong(&limitOk);
    if (!limitOk || listing.limit < 0)
        return fail(QStringLiteral("--limit %1: expected a number of events, 0 for all")
                        .arg(parser.value(QStringLiteral("limit")).left(32)),
                    Usage);
    const QString timeStyle = parser.value(QStringLiteral("time"));
    if (timeStyle == QLatin1String("clock"))
        listing.time = EventListing::TimeStyle::Clock;
    else if (timeStyle != QLatin1String("relative"))
        return fail(QStringLiteral("--time %1: expected relative or clock").arg(timeStyle.left(32)),
                    Usage);
    bool topOk = false;
    const int top = parser.value(QStringLiteral("top")).toInt(&topOk);
    if (!topOk || top < 0)
        return fail(QStringLiteral("--top %1: expected a number of functions, 0 for all")
                        .arg(parser.value(QStringLiteral("top")).left(32)),
                    Usage);
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status, true))
        return status;
    const QString only = parser.value(QStringLiteral("probe"));
    if (parser.isSet(QStringLiteral("events"))) {
        listing.probe = only;
        listing.print(out(), data);
        return Ok;
    }

    const SessionInfo &info = data.info;
    // A recorder that was killed never wrote its end: the session lasted at least until the
    // last data it committed.
    const quint64 endNs = info.endMonotonicNs ? info.endMonotonicNs : lastDataNs(data);
    out() << "Session   " << parser.positionalArguments().first() << '\n'
          << "Host      " << info.host << " (kernel " << info.kernelRelease << ")\n";
    if (!info.sshTarget.isEmpty())
        out() << "Via       ssh " << info.sshTarget << '\n';
    out() << "Started   " << info.startWall.toString(Qt::ISODate) << '\n'
          << "Duration  "
          << QString::number(double(endNs - std::min(endNs, info.startMonotonicNs)) / 1e9, 'f', 1)
          << (info.endMonotonicNs ? "s\n" : "s (recording did not finish: up to its last data)\n")
          << "Recorded by BPF Lens " << info.appVersion << '\n';
    if (data.damage.isDamaged()) {
        out() << "\nDamaged:\n";
        printDamage(out(), data.damage, QStringLiteral("  "));
    }

    // Latest cumulative stats per probe.
    QHash<QString, ProbeStats> stats;
    for (const ProbeStats &s : std::as_const(data.stats))
        stats[s.probeId] = s;
    // What the kernel could not count or attribute, summed over the session's intervals.
    QHash<QString, quint64> histogramFull, histogramKeys, unfinished;
    // The losses a probe declares (core/probes/<id>.h) are listed under it, or under its table
    // of keys when it has one.
    auto lossesBelowProbe = [](const QString &probeId) {
        const ProbeInfo *probe = ProbeCatalog::find(probeId);
        return probe && !probe->keyed.tableTitle ? probe->lossCounters() : QStringList();
    };
    QHash<QString, QHash<QString, quint64>> declaredLosses;
    for (const CounterSample &c : std::as_const(data.counters)) {
        if (c.name == Probe::histogramMapFullCounter())
            histogramFull[c.probeId] += quint64(c.value);
        else if (c.name == Probe::histogramKeysCounter())
            histogramKeys[c.probeId] = qMax(histogramKeys[c.probeId], quint64(c.value));
        else if (lossesBelowProbe(c.probeId).contains(c.name))
            declaredLosses[c.probeId][c.name] += quint64(c.value);
        else if (c.name == QLatin1String("unfinished"))
            unfinished[c.probeId] += quint64(c.value); // files written before ProbeStats had it
    }
    // Statistics come once per snapshot interval, events with every batch: a recording that
    // stopped between the two (a full disk, a kill) holds more events than its last statistics
    // say. The events in the file are then the better count, where they are one probe's.
    QHash<QString, quint64> eventsInFile;
    for (EventType t : eventTypes)
        eventsInFile[QLatin1String(probeIdOf(t))] += quint64(data.events.count(t));
    QHash<QString, int> probesWithId;
    for (const ProbeConfig &p : info.probes)
        ++probesWithId[p.id];
    out() << "\nProbes\n";
    for (const ProbeConfig &p : info.probes) {
        if (!only.isEmpty() && p.id != only)
            continue;
        const ProbeStats s = stats.value(p.id);
        const quint64 seen = probesWithId.value(p.id) == 1
                                 ? std::max(s.eventsSeen, eventsInFile.value(p.id))
                                 : s.eventsSeen;
        out() << QStringLiteral("  %1 events %2, lost %3, BPF runs %4 costing %5 ms\n")
                     .arg(p.id.leftJustified(11))
                     .arg(seen)
                     .arg(s.eventsLost)
                     .arg(s.runCount)
                     .arg(double(s.runTimeNs) / 1e6, 0, 'f', 1);
        out() << "              via " << p.attachPath << '\n';
        // Each cause of a missing event on a line of its own: they mean different things.
        if (s.eventsLost)
            out() << QStringLiteral("              %1 events lost: no room (the ring buffer or a "
                                    "tracking map was full)\n")
                         .arg(s.eventsLost);
        if (s.eventsUnseen)
            out() << QStringLiteral("              %1 events not seen: the kernel did not run "
                                    "the program for a stage (a completion)\n")
                         .arg(s.eventsUnseen);
        if (s.unfinished)
            unfinished[p.id] = s.unfinished;
        if (const quint64 n = histogramFull.value(p.id))
            out() << QStringLiteral("              %1 samples not counted: histogram map full (%2 "
                                    "keys)\n")
                         .arg(n)
                         .arg(histogramKeys.value(p.id));
        for (const QString &name : lossesBelowProbe(p.id)) {
            if (const quint64 n = declaredLosses.value(p.id).value(name))
                out() << QStringLiteral("              ")
                      << ProbeCatalog::find(p.id)->counter(name)->text.arg(n) << '\n';
        }
        if (const quint64 n = unfinished.value(p.id))
            out() << QStringLiteral("              %1 requests unfinished at the stop (in "
                                    "flight, or ended without the kernel running the completion "
                                    "program)\n")
                         .arg(n);
    }

    // Histograms: the whole session per probe and key, in biolatency's layout.
    QMap<QPair<QString, QString>, Log2Histogram> totals;
    for (const HistogramSnapshot &h : std::as_const(data.histograms)) {
        if (!only.isEmpty() && h.probeId != only)
            continue;
        auto it = totals.find({h.probeId, h.key});
        if (it == totals.end())
            it = totals.insert({h.probeId, h.key}, Log2Histogram(h.histogram.unit()));
        it->merge(h.histogram);
    }
    for (auto it = totals.cbegin(); it != totals.cend(); ++it) {
        out() << '\n' << it.key().first;
        if (!it.key().second.isEmpty())
            out() << " " << it.key().second;
        out() << QStringLiteral(": %1 samples, mean %2 %3, p50 %4, p99 %5\n")
                     .arg(it->count())
                     .arg(it->mean(), 0, 'f', 1)
                     .arg(histogramUnitName(it->unit()))
                     .arg(it->percentile(0.5), 0, 'f', 1)
                     .arg(it->percentile(0.99), 0, 'f', 1);
        out() << it->toText();
    }

    // Counts per key over the session, busiest first, as strlen_count prints them: uprobe's
    // calls, usdt's and tpcount's hits (the probes whose declarations give a table). Their loss
    // counters are no keys: each gets a line of its own below the table.
    QList<const ProbeInfo *> tabled;
    for (const ProbeInfo &probe : ProbeCatalog::probes()) {
        if (probe.keyed.tableTitle)
            tabled.append(&probe);
    }
    std::stable_sort(tabled.begin(), tabled.end(), [](const ProbeInfo *a, const ProbeInfo *b) {
        return a->keyed.rank < b->keyed.rank;
    });
    for (const ProbeInfo *k : std::as_const(tabled)) {
        if (!only.isEmpty() && only != k->id)
            continue;
        const QString &probeId = k->id;
        const QStringList lossNames = k->lossCounters();
        QHash<QString, double> calls;
        QHash<QString, quint64> losses;
        for (const CounterSample &c : std::as_const(data.counters)) {
            if (c.probeId != probeId)
                continue;
            if (lossNames.contains(c.name))
                losses[c.name] += quint64(c.value);
            else
                calls[c.name] += c.value;
        }
        const bool lost = std::any_of(lossNames.cbegin(), lossNames.cend(),
                                      [&](const QString &n) { return losses.value(n) > 0; });
        if (calls.isEmpty() && !lost)
            continue;
        QList<QPair<double, QString>> rows;
        for (auto it = calls.cbegin(); it != calls.cend(); ++it)
            rows.append({it.value(), it.key()});
        std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        // --top, as for the profiles' functions: 0 for all.
        const qsizetype shown = top > 0 ? qMin<qsizetype>(top, rows.size()) : rows.size();
        out() << QStringLiteral("\n%1 (%2 keys%3)\n")
                     .arg(QLatin1String(k->keyed.tableTitle))
                     .arg(rows.size())
                     .arg(shown < rows.size() ? QStringLiteral(", the %1 busiest").arg(shown)
                                              : QString());
        out() << QStringLiteral("%1  KEY\n").arg(QStringLiteral("COUNT"), 12);
        for (qsizetype i = 0; i < shown; ++i)
            out() << QStringLiteral("%1  %2\n").arg(qint64(rows[i].first), 12).arg(rows[i].second);
        for (const QString &name : lossNames) {
            if (const quint64 n = losses.value(name))
                out() << k->counter(name)->text.arg(n) << '\n';
        }
    }

    // Profiles: where the CPU time went, and where threads waited.
    if ((only.isEmpty() || only == QLatin1String(EventTraits<CpuSampleEvent>::probeId)) &&
        data.events.count(EventType::CpuSample))
        out() << cli::topFunctionsText(data, ProfileKind::OnCpu, top);
    if ((only.isEmpty() || only == QLatin1String(EventTraits<OffCpuEvent>::probeId)) &&
        data.events.count(EventType::OffCpu))
        out() << cli::topFunctionsText(data, ProfileKind::OffCpu, top);
    return Ok;
}

namespace {

// export --folded: one profile as folded stacks, into a file or onto stdout.
int exportFolded(const QCommandLineParser &parser)
{
    const bool userOnly = parser.isSet(QStringLiteral("user-only"));
    const bool kernelOnly = parser.isSet(QStringLiteral("kernel-only"));
    if (userOnly && kernelOnly)
        return fail(QStringLiteral("--user-only and --kernel-only exclude each other"), Usage);
    for (const char *csvOnly : {"probe", "json"}) {
        if (parser.isSet(QLatin1String(csvOnly)))
            return fail(QStringLiteral("--%1 applies to --csv; --folded exports the CPU samples, "
                                       "or the off-CPU waits with --off-cpu")
                            .arg(QLatin1String(csvOnly)),
                        Usage);
    }
    const QString path = parser.positionalArguments().first();
    if (const QString output = parser.value(QStringLiteral("output"));
        output != QLatin1String("-")) {
        if (QString why; !mayWriteOver(output, parser.isSet(QStringLiteral("force")), &why))
            return fail(why);
    }
    SessionData data;
    int status = Ok;
    if (!loadSession(path, &data, &status))
        return status;
    const bool offCpu = parser.isSet(QStringLiteral("off-cpu"));
    const ProfileKind kind = offCpu ? ProfileKind::OffCpu : ProfileKind::OnCpu;
    if (!data.events.count(offCpu ? EventType::OffCpu : EventType::CpuSample))
        return fail(offCpu ? QStringLiteral("%1 has no off-CPU waits: record them "
                                            "with --probe offcpu")
                                 .arg(path)
                           : QStringLiteral("%1 has no CPU samples: record them with --probe "
                                            "profile (or export the off-CPU waits with --off-cpu)")
                                 .arg(path));
    const StackPart part = userOnly     ? StackPart::UserOnly
                           : kernelOnly ? StackPart::KernelOnly
                                        : StackPart::Both;
    const QByteArray folded =
        cli::foldedProfile(data, kind, part, parser.isSet(QStringLiteral("by-process")));
    const QString output = parser.value(QStringLiteral("output"));
    if (output.isEmpty() || output == QLatin1String("-")) {
        out().flush();
        if (std::fwrite(folded.constData(), 1, size_t(folded.size()), stdout) !=
                size_t(folded.size()) ||
            std::fflush(stdout) != 0)
            return fail(QStringLiteral("cannot write the folded stacks to standard output"));
        return Ok;
    }
    // Whole or not at all: a flame graph made from half a file would look plausible.
    QString error;
    if (!writeWholeFile(
            output, [&](QIODevice *file) { return file->write(folded) == folded.size(); }, &error))
        return fail(error);
    return Ok;
}

// export --trace FILE and --jsonl [-o FILE]: one file, or standard output for "-".
int exportJson(const QCommandLineParser &parser, bool trace)
{
    for (const char *other :
         {"probe", "json", "off-cpu", "user-only", "kernel-only", "by-process"}) {
        if (parser.isSet(QLatin1String(other)))
            return fail(QStringLiteral("--%1 does not apply to --%2")
                            .arg(QLatin1String(other),
                                 trace ? QStringLiteral("trace") : QStringLiteral("jsonl")),
                        Usage);
    }
    if (trace && parser.isSet(QStringLiteral("output")))
        return fail(QStringLiteral("--trace takes the file to write: --trace out.json"), Usage);
    const QString output =
        trace ? parser.value(QStringLiteral("trace")) : parser.value(QStringLiteral("output"));
    if (output != QLatin1String("-")) {
        if (QString why; !mayWriteOver(output, parser.isSet(QStringLiteral("force")), &why))
            return fail(why);
    }
    SessionData data;
    int status = Ok;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    QString error;
    if (output.isEmpty() || output == QLatin1String("-")) {
        out().flush();
        QFile stdoutFile;
        if (!stdoutFile.open(stdout, QIODevice::WriteOnly))
            return fail(QStringLiteral("cannot write to standard output"));
        const bool ok = trace ? TraceExport::write(data, &stdoutFile, {}, &error)
                              : JsonlExport::write(data, &stdoutFile, {}, &error);
        stdoutFile.close();
        if (!ok || std::fflush(stdout) != 0)
            return fail(error.isEmpty() ? QStringLiteral("cannot write to standard output")
                                        : error);
        return Ok;
    }
    const bool ok = trace ? TraceExport::exportSession(data, output, {}, &error)
                          : JsonlExport::exportSession(data, output, {}, &error);
    return ok ? Ok : fail(error);
}

} // namespace

int exportSession(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Exports a session as CSV files, as a trace for Perfetto and "
                       "chrome://tracing, as JSON lines, or its profile as folded stacks "
                       "(flamegraph.pl, inferno, speedscope: \"main;f;g 12\" per line)."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .bpflens session file."));
    parser.addOption({QStringLiteral("csv"),
                      QStringLiteral("Directory to write the CSV files into."),
                      QStringLiteral("dir")});
    parser.addOption(
        {QStringLiteral("probe"), QStringLiteral("Only this probe (CSV)."), QStringLiteral("id")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the files written as JSON.")});
    parser.addOption({QStringLiteral("folded"),
                      QStringLiteral("Write the CPU samples as folded stacks, one line per "
                                     "distinct stack with its number of samples.")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("Write the folded stacks or the JSON lines into this file "
                                     "(\"-\" or none: standard output)."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("off-cpu"),
                      QStringLiteral("Fold the off-CPU waits instead, weighted by microseconds "
                                     "off the CPU.")});
    parser.addOption(
        {QStringLiteral("user-only"), QStringLiteral("Only the user-space frames of each stack.")});
    parser.addOption(
        {QStringLiteral("kernel-only"), QStringLiteral("Only the kernel frames of each stack.")});
    parser.addOption({QStringLiteral("by-process"),
                      QStringLiteral("Start each stack with the command (comm) it was taken in.")});
    parser.addOption({QStringLiteral("trace"),
                      QStringLiteral("Write a Chrome/Perfetto trace (Trace Event Format JSON) into "
                                     "this file (\"-\": standard output)."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("jsonl"),
                      QStringLiteral("Write the events as JSON lines, one object per event in "
                                     "time order, into -o FILE (\"-\" or none: standard "
                                     "output).")});
    parser.addOption({QStringLiteral("force"),
                      QStringLiteral("Replace the output file, or the CSV files in the "
                                     "directory, if they exist (without it export refuses).")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("export"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("export takes one session file"), Usage);
    const bool folded = parser.isSet(QStringLiteral("folded"));
    QStringList modes;
    for (const char *mode : {"csv", "folded", "trace", "jsonl"}) {
        if (parser.isSet(QLatin1String(mode)))
            modes << QStringLiteral("--") + QLatin1String(mode);
    }
    if (modes.size() > 1)
        return fail(QStringLiteral("%1 exclude each other: export one at a time")
                        .arg(modes.join(QStringLiteral(" and "))),
                    Usage);
    if (folded)
        return exportFolded(parser);
    if (parser.isSet(QStringLiteral("trace")) || parser.isSet(QStringLiteral("jsonl")))
        return exportJson(parser, parser.isSet(QStringLiteral("trace")));
    for (const char *foldedOnly : {"output", "off-cpu", "user-only", "kernel-only", "by-process"}) {
        if (parser.isSet(QLatin1String(foldedOnly)))
            return fail(QStringLiteral("--%1 applies to --folded").arg(QLatin1String(foldedOnly)),
                        Usage);
    }
    if (!parser.isSet(QStringLiteral("csv")))
        return fail(QStringLiteral("export needs --csv DIR, --folded, --trace FILE or --jsonl"),
                    Usage);
    const QString dir = parser.value(QStringLiteral("csv"));
    if (!parser.isSet(QStringLiteral("force"))) {
        // Any file an export can write, not only those this session fills: files of two
        // exports side by side would read as one.
        QStringList names{QStringLiteral("stacks.csv"), QStringLiteral("stack_frames.csv"),
                          QStringLiteral("histograms.csv"), QStringLiteral("stats.csv"),
                          QStringLiteral("counters.csv")};
        for (EventType t : eventTypes)
            names.append(CsvExport::fileNameFor(t));
        for (const QString &name : std::as_const(names)) {
            const QString path = QDir(dir).filePath(name);
            if (QFileInfo::exists(path))
                return fail(QStringLiteral("%1 already exists: choose another directory, or "
                                           "--force")
                                .arg(path));
        }
    }
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    if (!QDir().mkpath(dir))
        return fail(QStringLiteral("cannot create directory %1").arg(dir));
    CsvExportOptions options;
    options.probeId = parser.value(QStringLiteral("probe"));
    QString error;
    const QStringList files = CsvExport::exportSession(data, dir, options, &error);
    if (!error.isEmpty())
        return fail(error);
    if (parser.isSet(QStringLiteral("json")))
        out() << QJsonDocument(QJsonArray::fromStringList(files)).toJson();
    else
        for (const QString &f : files)
            out() << f << '\n';
    return Ok;
}

int diff(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "What changed from session A to session B: the histograms both hold (p50, p90, p99), "
        "event counts per type, per type the busiest processes, commands, files, disks, "
        "destinations, operations and errors side by side, and the functions whose share "
        "of the on-CPU and off-CPU profiles changed most."));
    parser.addPositionalArgument(QStringLiteral("A"),
                                 QStringLiteral("The session to compare with."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("The session compared."));
    parser.addOption({QStringLiteral("top"),
                      QStringLiteral("Keys per event type and dimension, and functions per "
                                     "profile (0: all)."),
                      QStringLiteral("N"), QStringLiteral("10")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("diff"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 2)
        return fail(QStringLiteral("diff needs two session files (bpflens-cli diff A B)"), Usage);
    bool ok = false;
    const int top = parser.value(QStringLiteral("top")).toInt(&ok);
    if (!ok || top < 0)
        return fail(QStringLiteral("--top expects a number of rows, 0 for all"), Usage);
    const QString pathA = parser.positionalArguments().at(0);
    const QString pathB = parser.positionalArguments().at(1);
    SessionData a, b;
    if (!loadSession(pathA, &a, &status) || !loadSession(pathB, &b, &status))
        return status;
    out() << diffText(diffSessions(a, b, top), pathA, pathB);
    return Ok;
}

int top(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The top processes, commands, files, disks, destinations, operations or errors of a "
        "session by count, total latency, p99 latency or bytes; with --stats, the latency "
        "statistics per probe and key (docs/top.md)."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A session file."));
    parser.addOption({QStringLiteral("by"),
                      QStringLiteral("process, command, file, disk, destination, operation or "
                                     "error."),
                      QStringLiteral("DIMENSION"), QStringLiteral("process")});
    parser.addOption({QStringLiteral("metric"),
                      QStringLiteral("count, latency (total), p99 or bytes."),
                      QStringLiteral("METRIC"), QStringLiteral("count")});
    parser.addOption({QStringLiteral("probe"), QStringLiteral("Only this probe's events."),
                      QStringLiteral("ID")});
    parser.addOption({QStringLiteral("limit"), QStringLiteral("Rows (0: all)."),
                      QStringLiteral("N"), QStringLiteral("10")});
    parser.addOption(
        {QStringLiteral("stats"), QStringLiteral("Latency statistics per probe and key instead.")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("CSV output.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON output.")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("top"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("top takes one session file"), Usage);
    const auto dimension = dimensionFromName(parser.value(QStringLiteral("by")));
    if (!dimension)
        return fail(QStringLiteral("--by expects process, command, file, disk, destination, "
                                   "operation or error, not \"%1\"")
                        .arg(parser.value(QStringLiteral("by"))),
                    Usage);
    const auto metric = metricFromName(parser.value(QStringLiteral("metric")));
    if (!metric)
        return fail(QStringLiteral("--metric expects count, latency, p99 or bytes, not \"%1\"")
                        .arg(parser.value(QStringLiteral("metric"))),
                    Usage);
    bool ok = false;
    const int limit = parser.value(QStringLiteral("limit")).toInt(&ok);
    if (!ok || limit < 0)
        return fail(QStringLiteral("--limit expects a number of rows, 0 for all"), Usage);
    if (parser.isSet(QStringLiteral("csv")) && parser.isSet(QStringLiteral("json")))
        return fail(QStringLiteral("--csv and --json exclude each other"), Usage);
    std::optional<EventType> type;
    if (parser.isSet(QStringLiteral("probe"))) {
        const QString id = parser.value(QStringLiteral("probe"));
        for (EventType t : eventTypes) {
            if (QLatin1String(probeIdOf(t)) == id)
                type = t;
        }
        if (!type)
            return fail(QStringLiteral("--probe: no probe records events as \"%1\"").arg(id),
                        Usage);
    }
    const ReportFormat format = parser.isSet(QStringLiteral("csv"))    ? ReportFormat::Csv
                                : parser.isSet(QStringLiteral("json")) ? ReportFormat::Json
                                                                       : ReportFormat::Text;
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    if (parser.isSet(QStringLiteral("stats"))) {
        out() << statsReport(
            latencyStats(data.events, 0, std::numeric_limits<quint64>::max(), {}, type),
            data.events, data.info.startMonotonicNs, format);
        return Ok;
    }
    TopQuery q;
    q.dimension = *dimension;
    q.metric = *metric;
    q.type = type;
    q.limit = limit;
    out() << topReport(topList(data.events, q), *dimension, *metric, format);
    return Ok;
}

// A time after the session's start: "12.5" (seconds), "12.5s", "1500ms", "2m".
static std::optional<quint64> parseOffset(const QString &text)
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|m|h)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    static const QHash<QString, double> unitNs{
        {QStringLiteral("ns"), 1},    {QStringLiteral("us"), 1e3},
        {QStringLiteral("ms"), 1e6},  {QString(), 1e9},
        {QStringLiteral("s"), 1e9},   {QStringLiteral("m"), 60e9},
        {QStringLiteral("h"), 3600e9}};
    const double ns = m.captured(1).toDouble() * unitNs.value(m.captured(2));
    if (ns > 365.0 * 24 * 3600e9)
        return std::nullopt;
    return quint64(ns);
}

int explain(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "What is over-represented in a time range against the rest of the session: the "
        "processes, commands, files, disks, destinations, operations, errors and CPU functions "
        "whose share of the range's events is larger than their share outside (docs/explain.md)."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A session file."));
    parser.addOption({QStringLiteral("from"),
                      QStringLiteral("Start of the range after the session's start (12.5, 12.5s, "
                                     "1500ms; default: the start)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("to"),
                      QStringLiteral("End of the range (default: the session's end)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("type"), QStringLiteral("Only this probe's events."),
                      QStringLiteral("ID")});
    parser.addOption({QStringLiteral("min-latency"),
                      QStringLiteral("Only events with a latency of at least this (10ms)."),
                      QStringLiteral("DURATION")});
    parser.addOption({QStringLiteral("max-latency"),
                      QStringLiteral("Only events with a latency below this."),
                      QStringLiteral("DURATION")});
    parser.addOption({QStringLiteral("limit"), QStringLiteral("Rows (0: all)."),
                      QStringLiteral("N"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("CSV output.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON output.")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("explain"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("explain takes one session file"), Usage);
    std::optional<quint64> from, to;
    for (const auto &[name, value] :
         {std::pair{QStringLiteral("from"), &from}, std::pair{QStringLiteral("to"), &to}}) {
        if (!parser.isSet(name))
            continue;
        *value = parseOffset(parser.value(name));
        if (!*value)
            return fail(QStringLiteral("--%1 expects a time after the session's start (12.5, "
                                       "12.5s, 1500ms), not \"%2\"")
                            .arg(name, parser.value(name).left(32)),
                        Usage);
    }
    if (from && to && *from >= *to)
        return fail(QStringLiteral("--from must be before --to"), Usage);
    ExplainQuery q;
    for (const auto &[name, value] :
         {std::pair{QStringLiteral("min-latency"), &q.filter.minLatencyNs},
          std::pair{QStringLiteral("max-latency"), &q.filter.maxLatencyNs}}) {
        if (!parser.isSet(name))
            continue;
        // The GUI's parser: a latency copied from the window ("2097.2 µs", "1.25 ms") works.
        const auto ns = parseLatencyNs(parser.value(name), QLocale::c(), 1'000'000'000);
        if (!ns)
            return fail(QStringLiteral("--%1: \"%2\" is not a duration (examples: 800ns, "
                                       "2097.2us, 1.25ms, 0.5s)")
                            .arg(name, parser.value(name).left(32)),
                        Usage);
        *value = *ns;
    }
    bool ok = false;
    q.limit = parser.value(QStringLiteral("limit")).toInt(&ok);
    if (!ok || q.limit < 0)
        return fail(QStringLiteral("--limit expects a number of rows, 0 for all"), Usage);
    if (parser.isSet(QStringLiteral("csv")) && parser.isSet(QStringLiteral("json")))
        return fail(QStringLiteral("--csv and --json exclude each other"), Usage);
    if (parser.isSet(QStringLiteral("type"))) {
        const QString id = parser.value(QStringLiteral("type"));
        for (EventType t : eventTypes) {
            if (QLatin1String(probeIdOf(t)) == id)
                q.type = t;
        }
        if (!q.type)
            return fail(QStringLiteral("--type: no probe records events as \"%1\"").arg(id), Usage);
    }
    const ReportFormat format = parser.isSet(QStringLiteral("csv"))    ? ReportFormat::Csv
                                : parser.isSet(QStringLiteral("json")) ? ReportFormat::Json
                                                                       : ReportFormat::Text;
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    const quint64 start = data.info.startMonotonicNs;
    const quint64 end = std::max({data.info.endMonotonicNs, data.events.lastTimeNs() + 1, start});
    q.startNs = start + from.value_or(0);
    q.endNs = to ? start + *to : end;
    if (q.startNs >= end)
        return fail(QStringLiteral("--from %1 is after the session's end (%2 s)")
                        .arg(parser.value(QStringLiteral("from")))
                        .arg(double(end - start) / 1e9, 0, 'f', 3));
    out() << explainReport(explainRange(data.events, q, &data.stacks), q.startNs - start,
                           q.endNs - start, format);
    return Ok;
}

int recover(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes what can be read of a damaged session into a new file."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A damaged .bpflens session file."));
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("The new session file (must not exist)."),
                      QStringLiteral("file")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("recover"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("recover takes one session file"), Usage);
    if (!parser.isSet(QStringLiteral("output")))
        return fail(QStringLiteral("recover needs -o NEW"), Usage);
    const QString source = parser.positionalArguments().first();
    const QString target = parser.value(QStringLiteral("output"));
    if (QFileInfo::exists(target))
        return fail(QStringLiteral("%1 exists; recover does not overwrite").arg(target));
    SessionData data;
    if (!loadSession(source, &data, &status, true))
        return status;
    QString error;
    if (!writeSessionCopy(data, target, &error)) {
        QFile::remove(target);
        return fail(error);
    }
    out() << QStringLiteral("Wrote %1: %2 events, %3 histogram snapshots, %4 statistics rows, "
                            "%5 counter samples\n")
                 .arg(target)
                 .arg(data.events.totalCount())
                 .arg(data.histograms.size())
                 .arg(data.stats.size())
                 .arg(data.counters.size());
    if (data.damage.isDamaged()) {
        out() << "Damaged:\n";
        printDamage(out(), data.damage, QStringLiteral("  "));
    } else {
        out() << source << " is not damaged: the copy holds all of it\n";
    }
    const bool any = data.events.totalCount() || !data.histograms.isEmpty() ||
                     !data.stats.isEmpty() || !data.counters.isEmpty();
    return any ? Ok : NoSession;
}

namespace {

// A JSON string literal (QJsonDocument would need the whole result in memory).
QByteArray jsonString(const QString &s)
{
    QByteArray out = "\"";
    for (const char c : s.toUtf8()) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (quint8(c) < 0x20) {
            out += "\\u00" + QByteArray::number(int(c), 16).rightJustified(2, '0');
        } else {
            out += c;
        }
    }
    return out + '"';
}

// A result value as text: numbers as SQLite prints them, BLOBs (the file's own tables) in the
// escaped form of kernel bytes, NULL as the empty string (table: "NULL").
QString cellText(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
        return QString();
    case QMetaType::Double:
        return QString::number(v.toDouble(), 'g', QLocale::FloatingPointShortest);
    case QMetaType::QByteArray:
        return QString::fromUtf8(escapeKernelBytes(v.toByteArray()));
    default:
        return v.toString();
    }
}

QByteArray jsonValue(const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
        return "null";
    case QMetaType::Double: {
        const double d = v.toDouble();
        return std::isfinite(d) ? QByteArray::number(d, 'g', QLocale::FloatingPointShortest)
                                : QByteArray("null");
    }
    case QMetaType::LongLong:
        return QByteArray::number(v.toLongLong());
    default:
        return jsonString(cellText(v));
    }
}

// Prints an aligned table. Widths come from the first rows; later, longer cells widen their
// row only, so a result of millions of rows streams instead of being held.
class TablePrinter
{
public:
    static constexpr int WidthRows = 1000;

    explicit TablePrinter(QTextStream &out)
        : m_out(out)
    {
    }
    void setColumns(const QStringList &columns) { m_columns = columns; }
    void add(const QVariantList &values)
    {
        QStringList cells;
        for (const QVariant &v : values)
            cells.append(v.isValid() ? cellText(v) : QStringLiteral("NULL"));
        if (m_rows.size() < WidthRows && !m_started) {
            if (m_numeric.isEmpty())
                m_numeric = QList<bool>(values.size(), true);
            for (qsizetype i = 0; i < values.size(); ++i) {
                const int t = values.at(i).typeId();
                if (values.at(i).isValid() && t != QMetaType::LongLong && t != QMetaType::Double)
                    m_numeric[i] = false;
            }
            m_rows.append(cells);
            return;
        }
        start();
        print(cells);
    }
    void finish()
    {
        start();
        m_out.flush();
    }
    qint64 rows() const { return m_count; }

private:
    void start()
    {
        if (m_started)
            return;
        m_started = true;
        m_widths = QList<qsizetype>(m_columns.size(), 0);
        if (m_numeric.size() != m_columns.size())
            m_numeric = QList<bool>(m_columns.size(), false);
        for (qsizetype i = 0; i < m_columns.size(); ++i)
            m_widths[i] = m_columns.at(i).size();
        for (const QStringList &r : std::as_const(m_rows))
            for (qsizetype i = 0; i < r.size() && i < m_widths.size(); ++i)
                m_widths[i] = std::max(m_widths[i], r.at(i).size());
        QStringList rule;
        for (qsizetype w : std::as_const(m_widths))
            rule.append(QString(w, u'-'));
        const QList<bool> numeric = m_numeric;
        m_numeric = QList<bool>(m_columns.size(), false); // headers are left-aligned
        print(m_columns, false);
        print(rule, false);
        m_numeric = numeric;
        for (const QStringList &r : std::as_const(m_rows))
            print(r);
        m_rows.clear();
    }
    void print(const QStringList &cells, bool count = true)
    {
        QString line;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            if (i > 0)
                line += QStringLiteral("  ");
            const qsizetype w = m_widths.value(i);
            const bool last = i == cells.size() - 1;
            if (m_numeric.value(i))
                line += cells.at(i).rightJustified(w);
            else
                line += last ? cells.at(i) : cells.at(i).leftJustified(w);
        }
        m_out << line << '\n';
        if (count)
            ++m_count;
    }

    QTextStream &m_out;
    QStringList m_columns;
    QList<QStringList> m_rows;
    QList<qsizetype> m_widths;
    QList<bool> m_numeric;
    bool m_started = false;
    qint64 m_count = 0;
};

int listTables(const SessionQuery &query, bool json)
{
    const QList<SessionQuery::Table> tables = query.tables();
    if (json) {
        QJsonArray list;
        for (const SessionQuery::Table &t : tables) {
            QJsonArray columns;
            for (const SessionQuery::TableColumn &c : t.columns)
                columns.append(QJsonObject{{QStringLiteral("name"), c.name},
                                           {QStringLiteral("type"), c.type}});
            list.append(QJsonObject{{QStringLiteral("name"), t.name},
                                    {QStringLiteral("kind"), t.kind},
                                    {QStringLiteral("description"), t.description},
                                    {QStringLiteral("columns"), columns}});
        }
        out() << QJsonDocument(list).toJson();
        return Ok;
    }
    for (const SessionQuery::Table &t : tables) {
        out() << t.name << " (" << t.kind;
        if (!t.description.isEmpty())
            out() << ": " << t.description;
        out() << ")\n";
        for (const SessionQuery::TableColumn &c : t.columns)
            out() << "  " << c.name << (c.type.isEmpty() ? QString() : u' ' + c.type) << '\n';
    }
    return Ok;
}

} // namespace

int query(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs one read-only SQL statement over a session file. Every event type "
                       "is a table named like its probe (block, exec, open, ...), with the "
                       "columns of its CSV file; docs/sql.md lists them."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .bpflens session file."));
    parser.addPositionalArgument(
        QStringLiteral("sql"),
        QStringLiteral("The statement, e.g. \"SELECT comm, count(*) FROM block GROUP BY comm\"."));
    parser.addOption({QStringLiteral("format"),
                      QStringLiteral("table (default, aligned), csv or json."),
                      QStringLiteral("format"), QStringLiteral("table")});
    parser.addOption({QStringLiteral("tables"),
                      QStringLiteral("List the tables and their columns instead (the FILE's own "
                                     "tables too when one is given).")});
    parser.addOption({QStringLiteral("timeout"),
                      QStringLiteral("Stop the statement after this long (500ms, 30s, 5m; 0: no "
                                     "limit). Default 60s; Ctrl-C stops it at once."),
                      QStringLiteral("duration"), QStringLiteral("60s")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("query"), args, &status))
        return status;
    qint64 timeoutMs = 0;
    if (const QString timeout = parser.value(QStringLiteral("timeout"));
        timeout.trimmed() != QLatin1String("0")) {
        QString why;
        const auto ns = parseDuration(timeout, &why);
        if (!ns)
            return fail(QStringLiteral("--timeout: %1").arg(why), Usage);
        timeoutMs = std::max<qint64>(1, qint64(*ns / 1000000));
    }
    const QString format = parser.value(QStringLiteral("format"));
    if (format != QLatin1String("table") && format != QLatin1String("csv") &&
        format != QLatin1String("json"))
        return fail(QStringLiteral("unknown --format \"%1\" (table, csv or json)").arg(format),
                    Usage);
    const QStringList positional = parser.positionalArguments();
    const bool listing = parser.isSet(QStringLiteral("tables"));
    if (listing ? positional.size() > 1 : positional.size() != 2)
        return fail(listing ? QStringLiteral("query --tables takes at most one session file")
                            : QStringLiteral("query takes a session file and one SQL statement"),
                    Usage);
    SessionQuery query;
    QString error;
    if (!positional.isEmpty() && !query.open(positional.first(), &error))
        return fail(error, NoSession);
    if (listing)
        return listTables(query, format == QLatin1String("json"));
    query.setTimeLimit(timeoutMs);
    // Ctrl-C (and SIGTERM) only set a flag, which SQLite's progress handler checks: the
    // statement ends within a thousand instructions and the command says it was cancelled.
    installStopHandlers();
    query.setCancelFlag(&g_stopRequested);

    QStringList columns;
    TablePrinter table(out());
    bool first = true;
    const bool csv = format == QLatin1String("csv");
    const bool json = format == QLatin1String("json");
    auto header = [&] {
        if (!first)
            return;
        first = false;
        if (csv) {
            QByteArray line;
            for (qsizetype i = 0; i < columns.size(); ++i)
                line += (i ? "," : "") + CsvExport::quoteField(columns.at(i).toUtf8());
            out() << line << "\r\n";
        } else if (json) {
            out() << "[";
        } else {
            table.setColumns(columns);
        }
    };
    qint64 rows = 0;
    const bool ok = query.exec(
        positional.at(1), &columns,
        [&](const QVariantList &values) {
            header();
            if (csv) {
                QByteArray line;
                for (qsizetype i = 0; i < values.size(); ++i)
                    line += (i ? "," : "") + CsvExport::quoteField(cellText(values.at(i)).toUtf8());
                out() << line << "\r\n";
            } else if (json) {
                QByteArray object = rows ? ",\n{" : "\n{";
                for (qsizetype i = 0; i < values.size(); ++i)
                    object += (i ? ", " : "") + jsonString(columns.at(i)) + ": " +
                              jsonValue(values.at(i));
                out() << object << '}';
            } else {
                table.add(values);
            }
            ++rows;
            // Output nobody can read is not worth computing: main() reports the failure.
            return !standardOutputFailed() && !g_stopRequested;
        },
        &error);
    if (!ok) {
        out().flush();
        switch (query.lastFailure()) {
        case SessionQuery::Failure::Damaged:
            return fail(error.simplified(), NoSession);
        case SessionQuery::Failure::TimedOut:
            return fail(error.simplified() + QStringLiteral(" (--timeout; 0 for none)"));
        case SessionQuery::Failure::Cancelled:
            return fail(error.simplified(), Interrupted);
        default:
            return fail(error.simplified());
        }
    }
    // A Ctrl-C between two rows ends the statement through the row callback's caller, which
    // then looks like a clean end: it is not one.
    if (g_stopRequested)
        return fail(QStringLiteral("the query was cancelled"), Interrupted);
    header();
    if (json)
        out() << (rows ? "\n]\n" : "]\n");
    else if (!csv)
        table.finish();
    out().flush();
    return Ok;
}

} // namespace bpflens::cli
