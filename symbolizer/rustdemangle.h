#pragma once

// Rust symbol names as perf and hotspot show them (rustc-demangle's alternate format: no crate
// hashes, no legacy `::h…` hash). The names come from other users' ELF files, so every input
// is hostile: recursion, output length and work are bounded, and anything not understood
// (truncated, garbage, a construct this does not know) gives false, never a partial name.
#include <string>
#include <string_view>

namespace bpflens::symbolizer {

// v0 (`_R`, `R`, `__R`) and legacy (`_ZN…17h<16 hex>E`, or `_ZN…E` with `$` escapes) names.
// false for anything else, C++ names included: those are for abi::__cxa_demangle.
bool demangleRust(std::string_view name, std::string *out);

} // namespace bpflens::symbolizer
