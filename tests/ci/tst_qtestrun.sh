#!/usr/bin/env bash
# tests/qtest-run, as ctest and CI see it: a run with a skipped function is "skipped" (77), not
# passed; a failure keeps its status; under CI a skip fails unless skip-allowlist.txt allows it.
# usage: tst_qtestrun.sh QTEST_RUN SKIPPER_BINARY
set -uo pipefail
run=$1 skipper=$2
failures=0
expect()
{
    local want=$1 what=$2
    shift 2
    local out rc
    out=$(env "$@" "$run" "$skipper" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL: $what: exit $rc, expected $want; output:"
        printf '%s\n' "$out" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        echo "ok: $what (exit $rc)"
    fi
}
allow=$(mktemp)
trap 'rm -f "$allow"' EXIT
printf '# a comment line\n^this kernel cannot use (fentry|kprobe)\n' >"$allow"
common=(BPFLENS_SKIP_ALLOWLIST="$allow")
expect 0 "all functions pass" -u CI "${common[@]}" BPFLENS_SKIPPER=pass
expect 77 "a skipped function shows as a skip, outside CI" -u CI "${common[@]}" \
    BPFLENS_SKIPPER=skip BPFLENS_SKIPPER_REASON="no readelf here"
expect 1 "under CI a skip the allow-list does not name fails" CI=true "${common[@]}" \
    BPFLENS_SKIPPER=skip BPFLENS_SKIPPER_REASON="no readelf here"
expect 77 "under CI an allowed skip is a skip" CI=true "${common[@]}" \
    BPFLENS_SKIPPER=skip BPFLENS_SKIPPER_REASON="this kernel cannot use kprobe (the VM matrix tests it)"
expect 1 "a failing function keeps QtTest's status" -u CI "${common[@]}" BPFLENS_SKIPPER=fail
# The skipped function and its reason are repeated at the end, where a reader of ctest's log looks.
out=$(env -u CI "${common[@]}" BPFLENS_SKIPPER=skip BPFLENS_SKIPPER_REASON="no readelf here" \
    "$run" "$skipper" 2>&1 | tail -n 2)
if [[ $out != *"Skipper::dependsOnTheEnvironment() no readelf here"* ]]; then
    echo "FAIL: the summary does not name the skipped function: $out"
    failures=$((failures + 1))
fi
# The project's own allow-list parses and names the kernel facts docs/testing.md lists.
own=$(dirname "$run")/skip-allowlist.txt
expect 77 "the project's allow-list allows a kernel without kprobes" CI=true \
    BPFLENS_SKIP_ALLOWLIST="$own" BPFLENS_SKIPPER=skip \
    BPFLENS_SKIPPER_REASON="this kernel cannot use kprobe (the VM matrix tests it)"
expect 1 "the project's allow-list refuses a missing tool" CI=true \
    BPFLENS_SKIP_ALLOWLIST="$own" BPFLENS_SKIPPER=skip \
    BPFLENS_SKIPPER_REASON="promtool is not installed (Debian package prometheus)"
echo "$failures failed"
((failures == 0))
