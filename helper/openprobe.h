#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"
#include "helper/recentstrings.h"

struct open_bpf;

namespace bpflens {

// opensnoop: every open, openat, openat2 and creat (options "failedOnly": only failed ones;
// "flags": only opens with one of these flags; "fullPath": relative paths made absolute).
class OpenProbe : public SkeletonProbe<open_bpf>
{
public:
    OpenProbe();
    ~OpenProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;

public:
    // The path a relative open resolved: the walked directory's names (leaf first, each ended
    // by a NUL) with their OPEN_BASE_* flags, then the path as given.
    static QByteArray fullPath(const QByteArray &names, quint16 flags, const QByteArray &path);

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);

    RecentStrings m_strings;
};

} // namespace bpflens
