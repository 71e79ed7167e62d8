#include "cli/commands.h"
#include "cli/common.h"

#include "core/criticalpath.h"
#include "core/eventschema.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <optional>

namespace bpflens::cli {

namespace {

using TS = ThreadStateEvent;

QString pathDuration(quint64 ns)
{
    return formatPlainValue(Format::Duration, QVariant::fromValue(ns), 0);
}

QString pathSeconds(quint64 ns, quint64 startNs)
{
    return QString::number(double(ns - qMin(ns, startNs)) / 1e9, 'f', 6);
}

QString pathThread(const QByteArray &comm, quint32 tid)
{
    return comm.isEmpty()
               ? QStringLiteral("tid %1").arg(tid)
               : QStringLiteral("%1 %2").arg(QString::fromUtf8(escapeKernelBytes(comm))).arg(tid);
}

// "sleeping (pipe)", "runnable (woken)", "not recorded"
QString pathState(quint8 state, quint8 reason)
{
    if (!state)
        return QStringLiteral("not recorded");
    const QString r = TS::reasonName(reason);
    return r.isEmpty() ? TS::stateName(state)
                       : QStringLiteral("%1 (%2)").arg(TS::stateName(state), r);
}

QString pathWaker(const CriticalPathStep &s)
{
    if (s.state < TS::Sleeping)
        return QString();
    if (s.wakerComm.isEmpty())
        return QStringLiteral("-");
    return s.wakerTid ? pathThread(s.wakerComm, s.wakerTid)
                      : QString::fromUtf8(escapeKernelBytes(s.wakerComm));
}

QString pathCsvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

} // namespace

int criticalPathCommand(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The critical path of a thread over a range of a session recorded with the threadstate "
        "probe: where it ran or waited for a CPU, and for each wait, the thread that woke it "
        "and what that thread did until then, followed back wakeup by wakeup "
        "(docs/threadstates.md)."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A session file."));
    parser.addOption(
        {QStringLiteral("tid"), QStringLiteral("The thread (required)."), QStringLiteral("N")});
    parser.addOption({QStringLiteral("from"),
                      QStringLiteral("Start of the range after the session's start (12.5, 12.5s, "
                                     "1500ms; default: the thread's first span)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("to"),
                      QStringLiteral("End of the range (default: the thread's last span's end)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("max-depth"),
                      QStringLiteral("Wakeups followed at most (default 64)."), QStringLiteral("N"),
                      QStringLiteral("64")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("CSV output.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON output.")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("critical-path"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("critical-path takes one session file"), Usage);
    bool ok = false;
    const quint32 tid = parser.value(QStringLiteral("tid")).toUInt(&ok);
    if (!parser.isSet(QStringLiteral("tid")) || !ok || !tid)
        return fail(QStringLiteral("critical-path needs --tid N, the thread whose path to walk"),
                    Usage);
    const int maxDepth = parser.value(QStringLiteral("max-depth")).toInt(&ok);
    if (!ok || maxDepth < 0)
        return fail(QStringLiteral("--max-depth expects a number of wakeups, 0 or more"), Usage);
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
    if (parser.isSet(QStringLiteral("csv")) && parser.isSet(QStringLiteral("json")))
        return fail(QStringLiteral("--csv and --json exclude each other"), Usage);

    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    const EventStore &store = data.events;
    if (!store.count(EventType::ThreadState))
        return fail(QStringLiteral("%1 has no thread states: record them with --probe %2")
                        .arg(parser.positionalArguments().first(),
                             QLatin1String(EventTraits<ThreadStateEvent>::probeId)));
    const ThreadStateIndex index(store);
    const QList<qsizetype> &spans = index.spans(tid);
    if (spans.isEmpty())
        return fail(QStringLiteral("thread %1 has no thread states in this session (bpflens-cli "
                                   "query FILE \"SELECT DISTINCT tid, comm FROM threadstate\" "
                                   "lists those that have)")
                        .arg(tid));
    const quint64 start = data.info.startMonotonicNs;
    quint64 fromNs = store.value<&TS::timeNs>(spans.first());
    quint64 toNs = 0;
    for (qsizetype i : spans)
        toNs = qMax(toNs, store.value<&TS::timeNs>(i) + store.value<&TS::durNs>(i));
    if (from)
        fromNs = start + *from;
    if (to)
        toNs = start + *to;
    if (fromNs >= toNs)
        return fail(QStringLiteral("the range is empty: thread %1's spans end at %2 s")
                        .arg(tid)
                        .arg(pathSeconds(toNs, start)));

    const CriticalPath path = criticalPath(store, index, tid, fromNs, toNs, maxDepth);
    const QList<CriticalPathShare> shares = criticalPathShares(path);
    const quint64 total = toNs - fromNs;
    QTextStream &s = out();
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray steps;
        for (const CriticalPathStep &p : path.steps) {
            steps.append(QJsonObject{
                {QStringLiteral("start_ns"), qint64(p.startNs)},
                {QStringLiteral("dur_ns"), qint64(p.durationNs())},
                {QStringLiteral("depth"), p.depth},
                {QStringLiteral("pid"), qint64(p.pid)},
                {QStringLiteral("tid"), qint64(p.tid)},
                {QStringLiteral("comm"), QString::fromUtf8(escapeKernelBytes(p.comm))},
                {QStringLiteral("state"), p.state ? TS::stateName(p.state) : QString()},
                {QStringLiteral("reason"), TS::reasonName(p.reason)},
                {QStringLiteral("cpu"), qint64(p.cpu)},
                {QStringLiteral("waker_tid"), qint64(p.wakerTid)},
                {QStringLiteral("waker_comm"), QString::fromUtf8(escapeKernelBytes(p.wakerComm))},
            });
        }
        QJsonArray byThread;
        for (const CriticalPathShare &sh : shares) {
            byThread.append(QJsonObject{
                {QStringLiteral("tid"), qint64(sh.tid)},
                {QStringLiteral("pid"), qint64(sh.pid)},
                {QStringLiteral("comm"), QString::fromUtf8(escapeKernelBytes(sh.comm))},
                {QStringLiteral("state"), sh.state ? TS::stateName(sh.state) : QString()},
                {QStringLiteral("reason"), TS::reasonName(sh.reason)},
                {QStringLiteral("ns"), qint64(sh.ns)},
            });
        }
        const QJsonObject doc{{QStringLiteral("tid"), qint64(tid)},
                              {QStringLiteral("from_ns"), qint64(fromNs)},
                              {QStringLiteral("to_ns"), qint64(toNs)},
                              {QStringLiteral("depth_limited"), path.depthLimited},
                              {QStringLiteral("steps"), steps},
                              {QStringLiteral("shares"), byThread}};
        s << QJsonDocument(doc).toJson(QJsonDocument::Indented);
        return Ok;
    }
    if (parser.isSet(QStringLiteral("csv"))) {
        s << "start_s,dur_ns,depth,pid,tid,comm,state,reason,cpu,waker_tid,waker_comm\n";
        for (const CriticalPathStep &p : path.steps) {
            s << pathSeconds(p.startNs, start) << ',' << p.durationNs() << ',' << p.depth << ','
              << p.pid << ',' << p.tid << ','
              << pathCsvField(QString::fromUtf8(escapeKernelBytes(p.comm))) << ','
              << (p.state ? TS::stateName(p.state) : QString()) << ',' << TS::reasonName(p.reason)
              << ',' << p.cpu << ',' << p.wakerTid << ','
              << pathCsvField(QString::fromUtf8(escapeKernelBytes(p.wakerComm))) << '\n';
        }
        return Ok;
    }
    const QByteArray comm = store.value<&TS::comm>(spans.first());
    s << QStringLiteral("Critical path of %1 from %2 s to %3 s (%4)\n")
             .arg(pathThread(comm, tid), pathSeconds(fromNs, start), pathSeconds(toNs, start),
                  pathDuration(total));
    s << QStringLiteral("%1  %2  %3  %4  %5  %6\n")
             .arg(QStringLiteral("start s"), 12)
             .arg(QStringLiteral("duration"), 10)
             .arg(QStringLiteral("thread"), -28)
             .arg(QStringLiteral("state"), -26)
             .arg(QStringLiteral("cpu"), 3)
             .arg(QStringLiteral("woken by"));
    for (const CriticalPathStep &p : path.steps) {
        // a thread n wakeups away is indented n steps, so a chain reads as one
        const QString who =
            QString(qMin(p.depth, 8) * 2, QLatin1Char(' ')) + pathThread(p.comm, p.tid);
        s << QStringLiteral("%1  %2  %3  %4  %5  %6")
                 .arg(pathSeconds(p.startNs, start), 12)
                 .arg(pathDuration(p.durationNs()), 10)
                 .arg(who, -28)
                 .arg(pathState(p.state, p.reason), -26)
                 .arg(p.state == TS::Running ? QString::number(p.cpu) : QString(), 3)
                 .arg(pathWaker(p))
                 .replace(QRegularExpression(QStringLiteral(" +$")), QString())
          << '\n';
    }
    if (path.depthLimited)
        s << QStringLiteral("(a chain of wakeups was cut at --max-depth %1)\n").arg(maxDepth);
    s << "\nTime on the path\n";
    for (const CriticalPathShare &sh : shares) {
        s << QStringLiteral("  %1  %2  %3  %4 %\n")
                 .arg(pathThread(sh.comm, sh.tid), -28)
                 .arg(pathState(sh.state, sh.reason), -26)
                 .arg(pathDuration(sh.ns), 10)
                 .arg(total ? 100.0 * double(sh.ns) / double(total) : 0.0, 5, 'f', 1);
    }
    return Ok;
}

} // namespace bpflens::cli
