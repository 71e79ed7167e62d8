#pragma once

#include "core/counttext.h"

namespace bpflens::cli {

// "1 event", "2 events" (core/counttext.h).
using bpflens::countOf;

} // namespace bpflens::cli
