#pragma once

#include "core/records.h"

#include <QString>

#include <optional>

namespace bpflens {

// "block:disk=vda,perDisk=true" -> {id "block", options {disk: "vda", perDisk: "true"}}.
// Values stay text; ProbeCatalog::validate converts them to the option's type.
std::optional<ProbeConfig> parseProbeSpec(const QString &spec, QString *error);

// "10s", "500ms", "2m", "1h", "30" (seconds) -> nanoseconds.
std::optional<quint64> parseDuration(const QString &text, QString *error);

} // namespace bpflens
