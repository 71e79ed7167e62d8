#pragma once

#include "cli/commands.h"
#include "cli/outputfile.h"
#include "core/sessionstore.h"
#include "dbusapi/helperapi.h"

#include <QCommandLineParser>
#include <QDBusConnection>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <atomic>
#include <optional>

// What the commands share: their errors, their parsing, opening a session file, the system bus
// and Ctrl-C.
namespace bpflens::cli {

// "bpflens-cli: <message>" on stderr; returns status.
int fail(const QString &message, int status = Failure);

QTextStream &out();

// A time after the session's start as --from and --to take it: "12.5" (seconds), "12.5s",
// "1500ms", "2m"; nullopt for anything else (or more than a year).
std::optional<quint64> parseOffset(const QString &text);

// Parses args for a subcommand; on a usage error prints one line and returns false.
bool parse(QCommandLineParser &parser, const QString &command, const QStringList &args,
           int *status);

// The facts of a salvaged file's damage, as `show` and `recover` print them.
void printDamage(QTextStream &s, const SessionDamage &d, const QString &indent);

// A damaged file opens with what could be salvaged; unless quiet, stderr says so.
bool loadSession(const QString &path, SessionData *data, int *status, bool quiet = false);

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

// Set by SIGINT and SIGTERM once installStopHandlers() ran; a recording or a query polls it.
extern std::atomic<bool> g_stopRequested;
void installStopHandlers();
// SIGINT and SIGTERM kill again, as before installStopHandlers().
void removeStopHandlers();

} // namespace bpflens::cli
