#pragma once

#include <atomic>

namespace bpflens {

// The long analyses (top lists, the overview, spike explanations) take an optional flag that
// the window sets when their result is no longer wanted; they look at it between steps.
inline bool cancelled(const std::atomic_bool *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

} // namespace bpflens
