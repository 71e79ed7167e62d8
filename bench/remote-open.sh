#!/usr/bin/env bash
# Remote recording over ssh on 127.0.0.1 against local recording, in the same run: the open
# storm (bench-open, flat out and paced) recorded by `bpflens-cli record --direct` and by
# `bpflens-cli record --host root@127.0.0.1:PORT` through a private sshd (as tests/cli/
# tst_remote.cpp sets one up). Prints a markdown table: events kept of ops, lost, and the
# workload's wall time against an untraced run. Root only; needs openssh-server.
#
#   bench/remote-open.sh [BIN_DIR] [COUNT] [REPS]    (default build/release-bench/bin 300000 3)
set -euo pipefail
BIN=$(realpath "${1:-build/release-bench/bin}")
COUNT=${2:-300000}
REPS=${3:-3}
[ "$(id -u)" -eq 0 ] || { echo "remote-open.sh: needs root" >&2; exit 1; }
[ -x /usr/sbin/sshd ] || { echo "remote-open.sh: needs openssh-server (.ci/deps)" >&2; exit 1; }
for f in bpflens-cli bench-open; do
  [ -x "$BIN/$f" ] || { echo "remote-open.sh: no $BIN/$f (build first)" >&2; exit 1; }
done

D=$(mktemp -d /tmp/bpflens-remote-bench.XXXXXX)
SSHD=
cleanup() { [ -n "$SSHD" ] && kill "$SSHD" 2>/dev/null; rm -rf "$D"; }
trap cleanup EXIT
mkdir -p /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$D/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$D/client"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
echo "environment=\"PATH=$BIN:/usr/sbin:/usr/bin:/sbin:/bin\" $(cat "$D/client.pub")" >"$D/authorized_keys"
echo "[127.0.0.1]:$PORT $(cat "$D/hostkey.pub")" >"$D/known_hosts"
cat >"$D/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $D/hostkey
PidFile $D/sshd.pid
AuthorizedKeysFile $D/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitUserEnvironment yes
LogLevel ERROR
EOF
/usr/sbin/sshd -D -e -f "$D/sshd_config" &
SSHD=$!
for _ in $(seq 100); do [ -f "$D/sshd.pid" ] && break; sleep 0.05; done
printf '#!/bin/sh\nexec ssh -F /dev/null "$@"\n' >"$D/ssh"
chmod +x "$D/ssh"
export BPFLENS_SSH=$D/ssh
REMOTE=(--host "root@127.0.0.1:$PORT" --ssh-option "IdentityFile=$D/client"
        --ssh-option IdentitiesOnly=yes --ssh-option "UserKnownHostsFile=$D/known_hosts")
TARGET=$D/target
echo x >"$TARGET"

wall() { "$BIN/bench-open" --count "$COUNT" --path "$TARGET" "$@" |
         python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["wall_s"])'; }

# mode rate -> "kept lost wall"
run() {
  local mode=$1 rate=$2 out=$D/s.bpflens args=(--direct)
  rm -f "$out"*
  [ "$mode" = remote ] && args=("${REMOTE[@]}")
  "$BIN/bpflens-cli" record "${args[@]}" --quiet --probe open:comm=bench-open -o "$out" 2>"$D/err" &
  local rec=$!
  for _ in $(seq 1500); do [ -f "$out" ] && break; sleep 0.02; done
  local w; w=$(wall --rate "$rate")
  sleep 1
  kill -INT $rec; wait $rec || { cat "$D/err" >&2; return 1; }
  local kept lost
  kept=$("$BIN/bpflens-cli" query "$out" "SELECT count(*) FROM open WHERE path LIKE '%/target'" --format csv | tail -1)
  lost=$(sed -n 's/.*(\([0-9]*\) lost).*/\1/p' "$D/err")
  echo "$kept ${lost:-?} $w"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "| workload | recorder | target opens/s | achieved opens/s | events kept / ops | lost | wall × untraced |"
echo "|---|---|---:|---:|---:|---:|---:|"
for rate in 100000 0; do
  base=$(for _ in $(seq "$REPS"); do wall --rate "$rate"; done | median)
  for mode in local remote; do
    rows=$(for _ in $(seq "$REPS"); do run $mode $rate; done)
    kept=$(awk '{print $1}' <<<"$rows" | sort -g | head -1)
    lost=$(awk '{print $2}' <<<"$rows" | sort -g | tail -1)
    w=$(awk '{print $3}' <<<"$rows" | median)
    label=$([ "$rate" = 0 ] && echo "max (1 thread)" || echo "$rate")
    printf '| open storm %s | %s | %s | %.0f | %s / %s | %s | %.3f |\n' "$COUNT" \
      "$([ $mode = local ] && echo 'record --direct' || echo 'record --host 127.0.0.1')" \
      "$label" "$(python3 -c "print($COUNT/$w)")" "$kept" "$COUNT" "$lost" \
      "$(python3 -c "print($w/$base)")"
  done
done
