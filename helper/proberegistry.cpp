// Which class implements each probe of the catalog. One line per probe.
#include "probe.h"

#include "execprobe.h"
#include "openprobe.h"

#include <QHash>

namespace bpflens {

namespace {

template<typename T>
ProbeFactory factory()
{
    return [] { return std::unique_ptr<Probe>(new T); };
}

const QHash<QString, ProbeFactory> &registry()
{
    static const QHash<QString, ProbeFactory> r = {
        {QStringLiteral("exec"), factory<ExecProbe>()},
        {QStringLiteral("open"), factory<OpenProbe>()},
    };
    return r;
}

} // namespace

std::unique_ptr<Probe> createProbe(const QString &id)
{
    const ProbeFactory f = registry().value(id);
    return f ? f() : nullptr;
}

} // namespace bpflens
