#!/usr/bin/env bash
# The pprof export's cost (docs/performance.md, "pprof export"): records every CPU at 99 Hz for
# SECONDS (default 60) with bpflens-cli and, in the same run, with `perf record -F 99 -a -g`,
# while callchain_fp spins beside whatever else the machine runs; then times `export --pprof`
# against `export --folded` of the same session (the peer in the same run: the same samples,
# another format), three times each, and compares the profile's size with perf.data's.
#   bench/pprof-export.sh BUILD_DIR [SECONDS]      (as root)
set -euo pipefail
build=${1:?usage: bench/pprof-export.sh BUILD_DIR [SECONDS]}
seconds=${2:-60}
cli=$build/bin/bpflens-cli
work=$(mktemp -d /tmp/bpflens-pprof-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$build/bin/callchain_fp" "$((seconds + 5))" &
spinner=$!
perf record -F 99 -a -g -o "$work/perf.data" -- sleep "$seconds" 2>"$work/perf.log" &
perfpid=$!
"$cli" record --direct --probe profile --duration "${seconds}s" -o "$work/s.bpflens" 2>"$work/record.log"
wait "$perfpid"
kill "$spinner" 2>/dev/null || true
wait "$spinner" 2>/dev/null || true
samples=$("$cli" query "$work/s.bpflens" "SELECT count(*) FROM profile" --format csv | tail -1)
best() { # the median of three runs' wall seconds
    local t=()
    for _ in 1 2 3; do
        rm -f "$work/out"
        local s=$(date +%s.%N)
        "$@" >/dev/null
        t+=("$(echo "$(date +%s.%N) - $s" | bc)")
    done
    printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}
pprof_s=$(best "$cli" export "$work/s.bpflens" --pprof "$work/out")
"$cli" export "$work/s.bpflens" --pprof "$work/s.pb.gz"
folded_s=$(best "$cli" export "$work/s.bpflens" --folded -o "$work/out")
load_s=$(best "$cli" show "$work/s.bpflens" --top 0)
pprof_bytes=$(stat -c %s "$work/s.pb.gz")
perf_bytes=$(stat -c %s "$work/perf.data")
session_bytes=$(stat -c %s "$work/s.bpflens")
echo "seconds=$seconds samples=$samples"
echo "export --pprof: ${pprof_s} s, export --folded: ${folded_s} s, show --top 0: ${load_s} s"
echo "pprof/folded time: $(echo "scale=2; $pprof_s / $folded_s" | bc)"
echo "pprof: $pprof_bytes bytes, perf.data: $perf_bytes bytes, session: $session_bytes bytes"
echo "pprof/perf.data size: $(echo "scale=3; $pprof_bytes / $perf_bytes" | bc)"
