#include "cli/commands.h"
#include "cli/common.h"
#include "cli/recordstream.h"

#include "cli/plural.h"
#include "cli/probespec.h"
#include "cli/pyroscopepush.h"
#include "client/helperclient.h"
#include "client/probetargets.h"
#include "client/sshchannel.h"
#include "core/jsonlexport.h"
#include "core/protocol.h"
#include "core/recordingfile.h"
#include "core/sessioninfo.h"
#include "helper/engine.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cerrno>
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
                               JsonlSink &jsonl, PyroscopePusher *pyroscope)
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
                if (pyroscope)
                    pyroscope->start(m.info);
            } else if (m.type == StreamFrameType::Batch) {
                jsonl.add(m.batch);
                if (pyroscope)
                    pyroscope->add(m.batch);
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

// Why a recording's source ended it badly, said instead of what was recorded.
struct SourceFailure
{
    SourceFailure(const QString &why, int exitStatus = Failure, bool recordedFirst = false)
        : message(why)
        , status(exitStatus)
        , summaryFirst(recordedFirst)
    {
    }
    QString message;
    int status;
    // The file holds everything that arrived before a connection broke: how much comes first.
    bool summaryFirst;
};

// How a recording into a session file ended, for finishRecording() to put into words.
struct RecordingEnd
{
    quint64 endNs = 0;   // the session's end, written into the file
    QString createError; // the file could not be created
    // Only the in-process recorder's write error has always named the file: its wording stays.
    bool writeErrorNamesOutput = false;
    std::optional<SourceFailure> sourceFailure;
    QString host; // record --host: what was recorded is said to come from there
};

void printRecorded(const RecordingFile &file, const QString &output, const QString &host)
{
    if (host.isEmpty())
        QTextStream(stderr) << QStringLiteral("Recorded %1 (%2) into %3\n")
                                   .arg(countOf(file.eventCount(), "event", "events"))
                                   .arg(file.lostSummary())
                                   .arg(output);
    else
        QTextStream(stderr) << QStringLiteral("Recorded %1 (%2) on %3 into %4\n")
                                   .arg(countOf(file.eventCount(), "event", "events"))
                                   .arg(file.lostSummary())
                                   .arg(host, output);
}

// The ending every recording into a session file shares, through the helper, over ssh or in
// this process: finishes the file (when it was created) and returns the exit status, having
// said the first of these that applies: the file could not be created or written, why the
// source failed, the file could not be finished, the JSON lines could not be written; else
// how many events were recorded.
int finishRecording(RecordingFile &file, const RecordingEnd &end, const JsonlSink &jsonl,
                    const QString &output)
{
    QString finishError;
    const bool finished = file.isOpen() && file.finish(end.endNs, &finishError);
    if (!end.createError.isEmpty() || file.hasWriteError()) {
        if (end.writeErrorNamesOutput)
            return fail(QStringLiteral("recording stopped: %1 (what was written before is in %2)")
                            .arg(file.writeError(), output));
        return fail(QStringLiteral("recording stopped: %1")
                        .arg(end.createError.isEmpty() ? file.writeError() : end.createError));
    }
    if (end.sourceFailure) {
        if (end.sourceFailure->summaryFirst)
            printRecorded(file, output, QString());
        return fail(end.sourceFailure->message, end.sourceFailure->status);
    }
    if (!finished)
        return fail(finishError);
    if (jsonl.failed())
        return fail(QStringLiteral("cannot write the JSON lines to %1: the recording stopped "
                                   "(what was recorded is in %2)")
                        .arg(jsonl.target(), output));
    printRecorded(file, output, end.host);
    return Ok;
}

// record --host when nothing arrived: why the remote side never started.
SourceFailure whyRemoteDidNotRecord(const SshTarget &target, const SshChannel &ssh)
{
    const QString host = target.display;
    if (ssh.hostKeyRefused())
        return {QStringLiteral("ssh refused the host key of %1: it is not in known_hosts "
                               "(~/.ssh/known_hosts, or the UserKnownHostsFile given) or "
                               "does not match it. BPF Lens never accepts an unknown host "
                               "key: check the key and add it (ssh %2 once, or "
                               "ssh-keyscan), then record again")
                    .arg(host,
                         target.port
                             ? QStringLiteral("-p %1 %2").arg(target.port).arg(target.destination())
                             : target.destination())};
    if (ssh.remoteMissing())
        return {QStringLiteral("bpflens-cli is not installed on %1 (not in the PATH of "
                               "its login shell): install BPF Lens %2 there")
                    .arg(host, QStringLiteral(BPFLENS_VERSION))};
    if (!ssh.remoteVersion().isEmpty() && ssh.remoteVersion() != QLatin1String(BPFLENS_VERSION))
        return {QStringLiteral("bpflens-cli on %1 is version %2, this one is %3, and it "
                               "did not record (see its message above): install the same "
                               "version on both")
                    .arg(host, ssh.remoteVersion(), QStringLiteral(BPFLENS_VERSION))};
    if (ssh.exitStatus() == 255 || ssh.remoteVersion().isEmpty())
        return {
            QStringLiteral("cannot connect to %1 with %2 (exit status %3%4)")
                .arg(host, ssh.program())
                .arg(ssh.exitStatus())
                .arg(ssh.messages().isEmpty()
                         ? QString()
                         : QStringLiteral(": ") + ssh.messages().section(QLatin1Char('\n'), -1)),
            RemoteFailed};
    return {QStringLiteral("bpflens-cli on %1 did not record (exit status %2; its "
                           "message is above)")
                .arg(host)
                .arg(ssh.exitStatus()),
            RemoteFailed};
}

// The helper records; this process reads the stream from the fd it hands over.
int recordThroughHelper(const HelperClient &helper, const QList<ProbeConfig> &requests,
                        const QString &output, quint64 durationNs, bool progress, JsonlSink &jsonl,
                        PyroscopePusher *pyroscope)
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
    const StreamOutcome o =
        readStreamToFile(source, file, output, durationNs, progress, jsonl, pyroscope);
    ::close(session.fd);
    removeStopHandlers();
    RecordingEnd end;
    end.endNs = o.ended ? o.end.endMonotonicNs : Engine::monotonicNowNs();
    end.createError = o.createError;
    if (!o.readerError.isEmpty() && error.isEmpty())
        error = o.readerError;
    if (o.readerFailed)
        end.sourceFailure = SourceFailure{
            QStringLiteral("the helper's stream broke off: %1 (what arrived before is in %2)")
                .arg(o.readerError, output)};
    else if (o.end.reason == StreamEndReason::Error ||
             o.end.reason == StreamEndReason::HelperShutdown)
        end.sourceFailure = SourceFailure{
            QStringLiteral("the helper ended the recording: %1 (what was recorded is in %2)")
                .arg(o.end.message, output)};
    else if (!error.isEmpty())
        end.sourceFailure = SourceFailure{error};
    return finishRecording(file, end, jsonl, output);
}

// record --host: ssh runs bpflens-cli record --stream-fd 1 on the host (docs/remote.md) and
// this process writes the session file from the stream, as from the helper's.
int recordOverSsh(const SshTarget &target, const QStringList &sshOptions,
                  const QList<ProbeConfig> &requests, const QString &output, quint64 durationNs,
                  bool progress, JsonlSink &jsonl, PyroscopePusher *pyroscope)
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
    const StreamOutcome o =
        readStreamToFile(source, file, output, durationNs, progress, jsonl, pyroscope);
    ssh.stop();
    // The remote side sent its end (or the stream broke): ssh exits as soon as the channel
    // closes; one that does not within seconds is ended.
    ssh.wait(o.ended ? 10000 : 2000);
    removeStopHandlers();
    RecordingEnd end;
    end.endNs = o.ended ? o.end.endMonotonicNs : o.lastDataNs;
    end.createError = o.createError;
    end.host = target.display;
    if (!file.isOpen())
        end.sourceFailure = whyRemoteDidNotRecord(target, ssh);
    else if (!o.ended)
        end.sourceFailure = SourceFailure{
            QStringLiteral("connection to %1 lost after %2 s (%3); the session %4 holds "
                           "everything received")
                .arg(end.host)
                .arg(double(o.lastDataNs - std::min(o.lastDataNs, startedNs)) / 1e9, 0, 'f', 1)
                .arg(o.readerFailed && !o.readerError.isEmpty()
                         ? o.readerError
                         : QStringLiteral("ssh exit status %1").arg(ssh.exitStatus()))
                .arg(output),
            ConnectionLost, true};
    else if (o.end.reason == StreamEndReason::Error ||
             o.end.reason == StreamEndReason::HelperShutdown)
        end.sourceFailure = SourceFailure{QStringLiteral("bpflens-cli on %1 ended the recording: "
                                                         "%2 (what was recorded is in %3)")
                                              .arg(end.host, o.end.message, output),
                                          RemoteFailed};
    return finishRecording(file, end, jsonl, output);
}

// --direct, or root with no helper: the probes run in this process.
int recordInProcess(QList<ProbeConfig> &requests, const QString &output, quint64 durationNs,
                    bool progress, JsonlSink &jsonl, PyroscopePusher *pyroscope)
{
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
    if (pyroscope)
        pyroscope->start(info);
    RecordBatch batch;
    while (!g_stopRequested && !file.hasWriteError()) {
        engine.poll(200, batch);
        const quint64 now = Engine::monotonicNowNs();
        if (durationNs && now - engine.startMonotonicNs() >= durationNs)
            break;
        jsonl.add(batch);
        if (pyroscope)
            pyroscope->add(batch);
        file.add(std::move(batch), now);
        batch.clear();
        progressLine.update(now, file);
    }
    engine.stop(&batch);
    jsonl.add(batch);
    if (pyroscope)
        pyroscope->add(batch);
    file.add(std::move(batch), Engine::monotonicNowNs());
    progressLine.end();
    removeStopHandlers();
    RecordingEnd end;
    end.endNs = Engine::monotonicNowNs();
    end.writeErrorNamesOutput = true;
    return finishRecording(file, end, jsonl, output);
}

} // namespace

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
    addPyroscopeOptions(parser);
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
    std::optional<PyroscopeConfig> pyroscopeConfig;
    {
        QString error;
        if (!pyroscopeConfigFrom(parser, requests, &pyroscopeConfig, &error))
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
        if (pyroscopeConfig)
            return fail(QStringLiteral("--stream-fd and --pyroscope exclude each other"), Usage);
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
    // --direct and --host never ask the helper: no bus connection (its thread, its handshake)
    // in the start of a recording that does not use it.
    std::optional<SystemBus> bus;
    if (!direct && !remote)
        bus.emplace();
    HelperClient helper(bus ? bus->connection : QDBusConnection(QStringLiteral("bpflens-none")));
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
    // Pushing runs on its own thread from here to the end of the recording; its summary
    // comes after what was recorded.
    std::optional<PyroscopePusher> pyroscope;
    if (pyroscopeConfig)
        pyroscope.emplace(*pyroscopeConfig);
    PyroscopePusher *pusher = pyroscope ? &*pyroscope : nullptr;
    if (remote)
        status = recordOverSsh(*remote, parser.values(QStringLiteral("ssh-option")), requests,
                               output, durationNs, progress, jsonl, pusher);
    else if (viaHelper)
        status = recordThroughHelper(helper, requests, output, durationNs, progress, jsonl, pusher);
    else
        status = recordInProcess(requests, output, durationNs, progress, jsonl, pusher);
    if (pyroscope) {
        pyroscope->finish();
        if (status == Ok || pyroscope->pushed() || pyroscope->failed())
            QTextStream(stderr) << pyroscope->summary() << '\n';
    }
    return status;
}

} // namespace bpflens::cli
