#include "cli/common.h"

#include "client/helperclient.h"

#include <QHash>
#include <QRegularExpression>

#include <csignal>

namespace bpflens::cli {

std::atomic<bool> g_stopRequested{false};

namespace {

void requestStop(int)
{
    g_stopRequested = true;
}

} // namespace

int fail(const QString &message, int status)
{
    QTextStream(stderr) << "bpflens-cli: " << message << '\n';
    return status;
}

std::optional<quint64> parseOffset(const QString &text)
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

QTextStream &out()
{
    return standardOutput();
}

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

bool loadSession(const QString &path, SessionData *data, int *status, bool quiet)
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

void removeStopHandlers()
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

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

} // namespace bpflens::cli
