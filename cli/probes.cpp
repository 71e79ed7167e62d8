#include "cli/commands.h"
#include "cli/common.h"

#include "client/helperclient.h"
#include "helper/engine.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <unistd.h>

namespace bpflens::cli {

namespace {

QString groupName(ProbeGroup g)
{
    static const char *const names[] = {"Processes", "Files",     "Block I/O",
                                        "I/O stack", "Scheduler", "Network",
                                        "Memory",    "Custom",    "CPU"};
    return QString::fromLatin1(names[int(g)]);
}

} // namespace

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

} // namespace bpflens::cli
