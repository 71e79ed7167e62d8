#!/bin/bash
# usage: bench/profile-load.sh BIN_DIR TAG spawning|quiet [seconds]  (as root)
# Records profile at 99 Hz on all CPUs for N seconds, either with a cc1-spawning load running
# (all processes recorded: spawning) or comm-filtered to one CPU-bound process (quiet), and
# prints the samples recorded and lost and the recorder's CPU (with its symbolizer child).
# docs/performance.md, run 11.
BIN=$1; TAG=$2; MODE=$3; SECS=${4:-20}
TMP=${TMPDIR:-/tmp}/bpflens-profile-load; mkdir -p $TMP; cp /usr/bin/yes $TMP/symspin
OUT=$TMP/$TAG-$MODE; rm -f $OUT.bpflens
if [ "$MODE" = spawning ]; then
  for j in 1 2; do ( end=$((SECONDS+SECS+2)); while [ $SECONDS -lt $end ]; do /usr/lib/gcc/x86_64-linux-gnu/12/cc1 --version >/dev/null 2>&1; done ) & done
  SPEC=profile
else
  $TMP/symspin > /dev/null &
  SPEC="profile:comm=symspin"
fi
sleep 1
/usr/bin/time -f "cpu_user=%U cpu_sys=%S wall=%e maxrss_kb=%M" $BIN/bpflens-cli record --direct --quiet --probe "$SPEC" --duration ${SECS}s -o $OUT.bpflens > $OUT.log 2>&1
kill $(jobs -p) 2>/dev/null; wait 2>/dev/null
grep -E "Recorded|cpu_user" $OUT.log
