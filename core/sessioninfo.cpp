#include "core/sessioninfo.h"

#include <QSysInfo>

#include <sys/utsname.h>
#include <time.h>

namespace bpflens {

quint64 monotonicNowNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return quint64(ts.tv_sec) * 1000000000ull + quint64(ts.tv_nsec);
}

SessionInfo sessionInfoForThisHost(const QList<ProbeConfig> &probes)
{
    SessionInfo info;
    info.schemaVersion = SessionSchemaVersion;
    info.appVersion = QStringLiteral(BPFLENS_VERSION);
    info.host = QSysInfo::machineHostName();
    utsname uts{};
    if (uname(&uts) == 0)
        info.kernelRelease = QString::fromLocal8Bit(uts.release);
    // Read the two clocks back to back so they name the same instant to within microseconds.
    info.startMonotonicNs = monotonicNowNs();
    info.startWall = QDateTime::currentDateTimeUtc();
    info.probes = probes;
    return info;
}

} // namespace bpflens
