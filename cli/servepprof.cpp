#include "cli/servepprof.h"

#include "cli/recordstream.h"
#include "client/probetargets.h"
#include "core/probecatalog.h"
#include "core/protocol.h"
#include "core/sessionstore.h"
#include "dbusapi/helperapi.h"
#include "helper/engine.h"

#include <QDBusConnection>
#include <QDateTime>
#include <QElapsedTimer>
#include <QUrlQuery>

#include <atomic>
#include <ctime>
#include <unistd.h>

namespace bpflens::cli {

namespace {

quint64 monotonicNs()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return quint64(t.tv_sec) * 1'000'000'000ull + quint64(t.tv_nsec);
}

// What a recording's batches add to the profile's session.
bool take(SessionData &data, const RecordBatch &batch, QString *error)
{
    if (!data.stacks.addDefinitions(batch, error))
        return false;
    data.cgroups.add(batch.cgroups);
    for (const CpuSampleEvent &e : batch.events<CpuSampleEvent>())
        data.events.append(e);
    for (const OffCpuEvent &e : batch.events<OffCpuEvent>())
        data.events.append(e);
    for (const AllocationEvent &e : batch.events<AllocationEvent>())
        data.events.append(e);
    return true;
}

} // namespace

PprofRoute parsePprofRequest(const QByteArray &target, PprofRequest *request, QString *why)
{
    const qsizetype q = target.indexOf('?');
    const QByteArray path = q < 0 ? target : target.left(q);
    if (path == "/debug/pprof/profile")
        request->kind = PprofKind::OnCpu;
    else if (path == "/debug/pprof/offcpu")
        request->kind = PprofKind::OffCpu;
    else if (path == "/debug/pprof/heap")
        request->kind = PprofKind::Heap;
    else
        return PprofRoute::NotPprof;
    const QUrlQuery query(q < 0 ? QString() : QString::fromUtf8(target.mid(q + 1)));
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1String("seconds")) {
            bool ok = false;
            const qlonglong n = value.toLongLong(&ok);
            if (!ok || n < 1 || n > MaxProfileSeconds) {
                *why = QStringLiteral("seconds=%1: expected a whole number of seconds from 1 to %2")
                           .arg(value.left(32))
                           .arg(MaxProfileSeconds);
                return PprofRoute::BadRequest;
            }
            request->seconds = int(n);
        } else if (key == QLatin1String("pid")) {
            bool ok = false;
            const qlonglong n = value.toLongLong(&ok);
            if (!ok || n < 1 || n > 0x7fffffff) {
                *why = QStringLiteral("pid=%1: expected a process id").arg(value.left(32));
                return PprofRoute::BadRequest;
            }
            request->pid = n;
        } else if (key == QLatin1String("container") || key == QLatin1String("unit")) {
            CgroupFilter one;
            (key == QLatin1String("unit") ? one.unit : one.container) = value;
            if (value.isEmpty()) {
                *why =
                    QStringLiteral("%1=: expected a %2")
                        .arg(key, key == QLatin1String("unit") ? QStringLiteral("systemd unit name")
                                                               : QStringLiteral("container id"));
                return PprofRoute::BadRequest;
            }
            if (!checkCgroupFilter(one, why))
                return PprofRoute::BadRequest;
            (key == QLatin1String("unit") ? request->cgroups.unit : request->cgroups.container) =
                value;
        } else {
            *why = QStringLiteral("unknown parameter %1: this endpoint takes seconds, pid, "
                                  "container and unit")
                       .arg(key.left(32));
            return PprofRoute::BadRequest;
        }
    }
    return PprofRoute::Ok;
}

bool recordPprof(const PprofRequest &request, bool viaHelper, const QByteArray &helperBusName,
                 const std::atomic<bool> &stop, QByteArray *body, QString *error)
{
    ProbeConfig probe;
    switch (request.kind) {
    case PprofKind::OnCpu:
        probe.id = QLatin1String(EventTraits<CpuSampleEvent>::probeId);
        break;
    case PprofKind::OffCpu:
        probe.id = QLatin1String(EventTraits<OffCpuEvent>::probeId);
        break;
    case PprofKind::Heap:
        probe.id = QLatin1String(EventTraits<AllocationEvent>::probeId);
        break;
    }
    if (request.pid > 0)
        probe.options.insert(QStringLiteral("pid"), request.pid);
    QVariantMap normalized;
    if (!ProbeCatalog::validate(probe.id, probe.options, &normalized, error))
        return false;
    probe.options = normalized;
    QList<ProbeConfig> requests{probe};
    // A process's allocator is found and opened as serve's user, as record does: the helper
    // never opens another user's binary for a caller.
    if (!resolveProbeTargets(requests, error))
        return false;

    SessionData data;
    data.info.appVersion = QStringLiteral(BPFLENS_VERSION);
    data.info.startWall = QDateTime::currentDateTimeUtc();
    data.info.startMonotonicNs = monotonicNs();
    const qint64 durationMs = qint64(request.seconds) * 1000;
    QElapsedTimer elapsed;
    elapsed.start();
    if (!viaHelper) {
        Engine engine;
        if (!engine.start(requests, error))
            return false;
        data.info.probes = requests;
        RecordBatch batch;
        while (!stop && elapsed.elapsed() < durationMs) {
            engine.poll(100, batch);
            if (!take(data, batch, error)) {
                engine.stop(nullptr);
                return false;
            }
            batch.clear();
        }
        engine.stop(&batch);
        if (!take(data, batch, error))
            return false;
    } else {
        const QString name = QString::fromUtf8(helperBusName);
        QDBusConnection bus = QDBusConnection::connectToBus(QDBusConnection::SystemBus, name);
        const auto disconnect = qScopeGuard([&] { QDBusConnection::disconnectFromBus(name); });
        HelperClient helper(bus);
        HelperClient::Session session;
        HelperClient::Error failure;
        if (!helper.startSession(requests, &session, &failure)) {
            *error = QStringLiteral("the BPF Lens helper could not start the %1 probe: %2")
                         .arg(probe.id, failure.message);
            return false;
        }
        const auto closeFd = qScopeGuard([&] { ::close(session.fd); });
        StreamReader reader;
        bool stopped = false;
        for (HelperStream state = HelperStream::Open; state != HelperStream::Ended;) {
            if (!stopped && (stop || elapsed.elapsed() >= durationMs)) {
                helper.stopSession(session.path, nullptr);
                stopped = true;
            }
            bool failed = false;
            state = readHelperStream(
                session.fd, reader, 100,
                [&](StreamMessage &m) {
                    if (failed)
                        return;
                    if (m.type == StreamFrameType::Hello) {
                        data.info.probes = m.info.probes;
                    } else if (m.type == StreamFrameType::Batch) {
                        failed = !take(data, m.batch, error);
                    } else if (m.end.reason != StreamEndReason::Stopped) {
                        *error =
                            QStringLiteral("the helper ended the probe: %1").arg(m.end.message);
                        failed = true;
                    }
                },
                error);
            if (failed || state == HelperStream::Broken)
                return false;
            if (state == HelperStream::Open && stopped && elapsed.elapsed() > durationMs + 30000) {
                *error = QStringLiteral("the helper did not end the probe");
                return false;
            }
        }
    }
    if (stop) {
        *error = QStringLiteral("serve is stopping");
        return false;
    }
    data.info.endMonotonicNs = monotonicNs();
    // A container or unit is picked after the recording, by the cgroup each event was in: the
    // probes' cgroup filter takes one directory, a container's or a unit's events can come
    // from several (a pod's containers, a service's sub-cgroups), and one that starts during
    // the request has no directory to name before it.
    if (!request.cgroups.isEmpty())
        keepCgroupEvents(&data.events, matchingCgroups(data.cgroups, request.cgroups));
    PprofOptions options;
    options.kind = request.kind;
    QString who = request.pid > 0                   ? QStringLiteral(", pid %1").arg(request.pid)
                  : request.kind == PprofKind::Heap ? QStringLiteral(", the kernel's allocations")
                                                    : QStringLiteral(", every process");
    if (!request.cgroups.isEmpty())
        who += QStringLiteral(", ") + request.cgroups.describe();
    options.comments << QStringLiteral("bpflens-cli serve, %1 s%2").arg(request.seconds).arg(who);
    // Nothing ran in the time (an idle machine, a pid that slept): an empty profile, as Go's
    // handler gives one, rather than an error a scraper would retry.
    options.allowEmpty = true;
    QByteArray proto;
    if (!PprofExport::encode(data, options, &proto, error))
        return false;
    return PprofExport::gzip(proto, body, error);
}

} // namespace bpflens::cli
