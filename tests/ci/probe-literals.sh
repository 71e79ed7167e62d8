#!/bin/bash
# Probe ids written as string literals ("block", QStringLiteral("uprobe")) outside a probe's own
# files: each one is a place a new probe would have to be added by hand, or a probe's behaviour
# kept away from its declaration (core/probes/<id>.h, docs/adding-a-probe.md). Fails when there
# are more than the limit, listing them.
#
# probe-literals.sh SOURCE_DIR [LIMIT]
#
# The ids are read from the declarations, so a new probe is counted too. Not counted: the
# declarations and the registry (core/probes/, core/probes.h), the event types (core/events/),
# the helper's own files of each probe (helper/<id>probe.cpp/.h) and its registry of classes
# (helper/proberegistry.cpp), tests, and comments.
set -euo pipefail
src=${1:?source directory}
limit=${2:-10}
cd "$src"

ids=$(sed -n 's/^ *p\.id = QStringLiteral("\([a-z0-9_]*\)");$/\1/p' core/probes/*.h | sort -u)
if [ -z "$ids" ]; then
    echo "no probe ids found in core/probes/*.h" >&2
    exit 1
fi
alternation=$(echo "$ids" | paste -sd'|')

own='^(core/probes/|core/probes\.h|core/events/|helper/proberegistry\.cpp'
for id in $ids; do
    own="$own|helper/${id}probe\.(cpp|h)"
done
own="$own)"

hits=$(find core gui cli client helper dbusapi symbolizer -name '*.cpp' -o -name '*.h' |
    grep -Ev "$own" | sort |
    while read -r file; do
        # Comments name probes freely: only code counts. A line's // comment goes, unless the
        # // is in a string (a URL), which no probe id line has.
        sed -E -e 's@^[[:space:]]*//.*$@@' -e 's@[[:space:]]//[[:space:]].*$@@' "$file" |
            grep -noE "\"($alternation)\"" | sed "s@^@$file:@" || true
    done)
count=$(printf '%s' "$hits" | grep -c . || true)
if [ -n "$hits" ]; then
    echo "$hits"
fi
echo "$count probe id literals outside the probes' own files (limit $limit)"
if [ "$count" -gt "$limit" ]; then
    echo "FAIL: declare what the probe's id stands for in core/probes/<id>.h instead" >&2
    exit 1
fi
