#!/usr/bin/env bash
# The Debian package (cmake/packaging.cmake): `cpack -G DEB` on this build directory makes a
# .deb whose control fields, dependencies and files are right; dpkg installs it into an empty
# root directory (never the machine's /usr); the installed desktop files validate; and the real
# system bus configuration, in a private mount namespace that sees the installed files at their
# real paths, activates the installed /usr/libexec/bpflens-helper, polkit knows its action,
# and the installed bpflens-cli records through it. Then dpkg purges the package again.
# Usage: [CPACK=/path/to/cpack] debpackage.sh SOURCE_DIR BUILD_DIR   (as root; 77 = skipped)
set -euo pipefail

# --- in the mount namespace (see "Activation" below) -----------------------------------------
if [ "${1:-}" = --in-namespace ]; then
  root=$2 work=$3
  fail() { echo "FAIL: $*" >&2; exit 1; }
  # Everything started here (dbus-daemon and what it activated: polkitd, the helper, perhaps a
  # second helper after an idle exit) lives in this private mount namespace and nowhere else:
  # at the end each such process but this shell is stopped, by its pid.
  cleanup_ns() {
    local ns victims p
    ns=$(readlink "/proc/$$/ns/mnt") # mnt:[NUMBER]; [ and ] are glob characters for -lname
    ns=${ns//[/\\[}
    ns=${ns//]/\\]}
    for _ in 1 2; do
      victims=$(find /proc/[0-9]*/ns/mnt -maxdepth 0 -lname "$ns" 2>/dev/null |
        cut -d/ -f3 | grep -vx -e "$$" -e "$BASHPID" || true)
      [ -n "$victims" ] || return 0
      for p in $victims; do kill "$p" 2>/dev/null || true; done
      for p in $victims; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
      done
    done
    for p in $victims; do kill -9 "$p" 2>/dev/null || true; done
  }
  trap cleanup_ns EXIT
  trap 'exit 143' TERM INT
  # The host's /run (a system bus socket, /run/systemd) stays out of sight: the bus below is
  # the only one here, and without /run/systemd/system nothing tries to reach systemd.
  mount -t tmpfs -o mode=0755 tmpfs /run
  mkdir -p /run/dbus
  # The package's files where the system looks, next to the host's own: a read-only overlay of
  # the installed directory over the host's one (host files stay visible: dbus-daemon's own
  # configuration, polkit's activation file and actions, the libraries).
  for d in usr/bin usr/libexec usr/share/dbus-1/system-services usr/share/dbus-1/system.d \
           usr/share/polkit-1/actions; do
    [ -d "$root/$d" ] || fail "the package installed nothing into /$d"
    [ -d "/$d" ] || fail "/$d does not exist on this machine (is the package's dbus/polkitd installed?)"
    mount -t overlay overlay -o "lowerdir=$root/$d:/$d" "/$d" || fail "cannot overlay /$d"
  done
  [ -x /usr/libexec/bpflens-helper ] || fail "the overlay does not show /usr/libexec/bpflens-helper"
  # Stands in for the administrator's password at polkit's prompt (no agent here): user daemon
  # may record; nobody, with no active session, gets the action's defaults: no.
  mkdir -p "$work/rules.d"
  cat >"$work/rules.d/50-bpflens-test.rules" <<'RULE'
polkit.addRule(function(action, subject) {
    if (action.id == "io.github.bpflens.trace" && subject.user == "daemon")
        return polkit.Result.YES;
});
RULE
  chown -R polkitd "$work/rules.d" 2>/dev/null || true
  mount --bind "$work/rules.d" /etc/polkit-1/rules.d || fail "cannot bind-mount polkit's rules.d"

  # Debian's own system bus configuration (/usr/share/dbus-1/system.conf): standard system
  # service directories, system.d policies, User=root services started through the setuid
  # dbus-daemon-launch-helper, running as messagebus. Only forking, pid file and syslog are off.
  dbus-daemon --system --nofork --nopidfile --nosyslog >"$work/dbus-daemon.log" 2>&1 &
  for _ in $(seq 100); do [ -S /run/dbus/system_bus_socket ] && break; sleep 0.1; done
  [ -S /run/dbus/system_bus_socket ] || fail "dbus-daemon did not start: $(cat "$work/dbus-daemon.log")"
  call() { dbus-send --system --print-reply --reply-timeout=60000 "$@"; }
  helper_pid() {
    call --dest=org.freedesktop.DBus / org.freedesktop.DBus.GetConnectionUnixProcessID \
      string:"$1" 2>/dev/null | awk '/uint32/ {print $2}'
  }

  call --dest=org.freedesktop.DBus / org.freedesktop.DBus.ListActivatableNames |
    grep -q '"io.github.bpflens.Helper1"' || fail "the bus does not list io.github.bpflens.Helper1 as activatable"
  # polkit (itself D-Bus activated, as on a real system) reads the installed action.
  action=$(pkaction --action-id io.github.bpflens.trace --verbose 2>&1) ||
    fail "polkit does not know io.github.bpflens.trace: $action"
  echo "$action" | grep -q 'implicit active: *auth_admin_keep' || fail "unexpected polkit defaults: $action"

  # Activation: the first call starts the installed helper.
  version=$(call --dest=io.github.bpflens.Helper1 /io/github/bpflens/Helper1 \
    org.freedesktop.DBus.Properties.Get string:io.github.bpflens.Helper1 string:Version 2>&1) ||
    fail "calling the helper: $version; dbus-daemon says: $(cat "$work/dbus-daemon.log")"
  echo "$version" | grep -Eq 'uint32 [0-9]+' || fail "Version: $version"
  pid=$(helper_pid io.github.bpflens.Helper1)
  [ -n "$pid" ] || fail "nobody owns io.github.bpflens.Helper1 after the call"
  exe=$(readlink "/proc/$pid/exe")
  [ "$exe" = /usr/libexec/bpflens-helper ] || fail "the bus started $exe, not /usr/libexec/bpflens-helper"
  [ "$(stat -c %u "/proc/$pid")" = 0 ] || fail "the helper does not run as root"
  probes=$(call --dest=io.github.bpflens.Helper1 /io/github/bpflens/Helper1 \
    io.github.bpflens.Helper1.ListProbes 2>&1) || fail "ListProbes: $probes"
  echo "$probes" | grep -q 'string "exec"' || fail "ListProbes has no exec probe: $probes"
  echo "activated $exe (pid $pid), $(echo "$version" | grep -Eo 'uint32 [0-9]+' | sed 's/uint32/Version/')"

  # Recordings as the installed CLI makes them, by users who cannot load BPF programs
  # themselves, so only through the helper: polkit (with the installed action) says no to
  # nobody and yes to daemon, whose recording then holds exec events.
  mkdir -m 1777 "$work/rec"
  as() { local user=$1 group=$2; shift 2; setpriv --reuid="$user" --regid="$group" --clear-groups "$@"; }
  rc=0
  out=$(as nobody nogroup timeout 120 /usr/bin/bpflens-cli record --probe exec --duration 1s \
    -o "$work/rec/nobody.bpflens" 2>&1) || rc=$?
  [ "$rc" = 3 ] && echo "$out" | grep -q 'io.github.bpflens.trace' ||
    fail "nobody's recording: status $rc (expected 3, polkit said no): $out"
  ( while :; do /bin/true; sleep 0.2; done ) &  # execs while the recording runs
  execer=$!
  out=$(as daemon daemon timeout 120 /usr/bin/bpflens-cli record --probe exec --duration 3s \
    -o "$work/rec/daemon.bpflens" 2>&1) ||
    fail "daemon's recording through the helper: $out; dbus-daemon says: $(cat "$work/dbus-daemon.log")"
  kill "$execer"
  wait "$execer" 2>/dev/null || true
  show=$(/usr/bin/bpflens-cli show --events --probe exec "$work/rec/daemon.bpflens" 2>&1) ||
    fail "bpflens-cli show: $show"
  line=$(echo "$show" | grep -E '(^|[[:space:]])/bin/true([[:space:]]|$)' | head -n1)
  [ -n "$line" ] || fail "the recording has no exec of /bin/true: $show"
  echo "nobody: denied by polkit; daemon: recorded through the helper, e.g.: $line"
  exit 0
fi

# --- outside -----------------------------------------------------------------------------------
src=$1 build=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
if [ "$(id -u)" -ne 0 ]; then
  # Like the QtTest root tests: a failure, not a skip, under CI or BPFLENS_REQUIRE_ROOT=1.
  if [ -n "${CI:-}" ] || [ "${BPFLENS_REQUIRE_ROOT:-0}" = 1 ]; then
    fail "needs root (dpkg --root, mount namespaces, a root helper)"
  fi
  skip "needs root (dpkg --root, mount namespaces, a root helper)"
fi
cache=$build/CMakeCache.txt
if grep -q '^BPFLENS_SANITIZE:BOOL=ON' "$cache"; then
  skip "an ASan/UBSan build: a package of sanitizer binaries is no product, and the install rules and files it checks are the same as in the dev build, where this test runs"
fi
for tool in "${CPACK:-cpack}" dpkg dpkg-deb dpkg-shlibdeps unshare dbus-daemon dbus-send pkaction \
            desktop-file-validate appstreamcli; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (.ci/deps installs it)"
done

tmp=$(mktemp -d /tmp/bpflens-deb.XXXXXX)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 143' TERM INT

# --- the package ------------------------------------------------------------------------------
# cpack installs the build directory's install rules (after making sure it is built) into its
# own staging directory under -B, with CMAKE_INSTALL_PREFIX=/usr and DESTDIR.
if ! timeout 240 "${CPACK:-cpack}" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" >"$tmp/cpack.log" 2>&1; then
  cat "$tmp/cpack.log" >&2
  fail "cpack -G DEB"
fi
debs=("$tmp"/out/bpflens_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single bpflens_*.deb: $(ls "$tmp/out")"
deb=${debs[0]}
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

field() { dpkg-deb --field "$deb" "$1"; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$cache")
[ "$(field Package)" = bpflens ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), project version $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture: $(field Architecture)"
[ "$(field Section)" = devel ] || fail "Section: $(field Section)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Homepage)" ] || fail "no Homepage"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
echo "Depends: $depends"
# Each library the binaries link (dpkg-shlibdeps) and what recording needs besides them.
for dep in libqt6core6 libqt6dbus6 libqt6network6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6 \
           libbpf1 libsqlite3-0 libdw1 libelf1 libstdc++6 libc6 'dbus (>= 1.12)' polkitd; do
  echo "$depends" | grep -q -- "$dep" || fail "Depends lacks $dep"
done
# apt resolves the dependencies on this machine (simulation only: -s changes nothing), so each
# is a real package name at a version Debian has.
if command -v apt-get >/dev/null; then
  sim=$(apt-get install -s --no-install-recommends "$deb" 2>&1) && echo "$sim" | grep -q '^Inst bpflens ' ||
    fail "apt-get install -s cannot install the package: $sim"
fi
dpkg-deb --control "$deb" "$tmp/control"
for script in postinst postrm; do
  [ -x "$tmp/control/$script" ] || fail "$script is missing or not executable"
done

# Every file, at the path the system reads it from, and nothing else.
expected="./usr/bin/bpflens
./usr/bin/bpflens-cli
./usr/libexec/bpflens-helper
./usr/libexec/bpflens-symbolizer
./usr/share/dbus-1/system-services/io.github.bpflens.Helper1.service
./usr/share/dbus-1/system.d/io.github.bpflens.Helper1.conf
./usr/share/dbus-1/interfaces/io.github.bpflens.Helper1.xml
./usr/share/polkit-1/actions/io.github.bpflens.policy
./usr/lib/systemd/system/bpflens-helper.service
./usr/share/applications/io.github.bpflens.desktop
./usr/share/icons/hicolor/scalable/apps/io.github.bpflens.svg
./usr/share/metainfo/io.github.bpflens.metainfo.xml
./usr/share/mime/packages/io.github.bpflens.xml
./usr/share/bpflens/examples/example.bpflens
./usr/share/doc/bpflens/copyright
./usr/share/doc/bpflens/examples/bpflens-serve.service"
# systemd's unit directory may be /lib/systemd/system where pkg-config's systemd says so.
contents=$(dpkg-deb --contents "$deb")
files=$(echo "$contents" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./lib/systemd/|./usr/lib/systemd/|' | sort)
diff <(echo "$expected" | sort) <(echo "$files") >"$tmp/files.diff" ||
  fail "the package's files differ from the expected ones (< missing, > unexpected):
$(cat "$tmp/files.diff")"
echo "$contents" | awk '$2 != "root/root" {bad = bad "\n" $0} END {if (bad) {print "not root-owned:" bad; exit 1}}' ||
  fail "files not owned by root"
for exe in ./usr/bin/bpflens ./usr/bin/bpflens-cli ./usr/libexec/bpflens-helper ./usr/libexec/bpflens-symbolizer; do
  echo "$contents" | awk -v f="$exe" '$6 == f' | grep -q '^-rwxr-xr-x ' || fail "$exe is not 0755"
done

# --- installed into an empty root ---------------------------------------------------------------
# dpkg itself, with an administrative directory of its own in $root: it unpacks, records the
# package, runs its maintainer scripts and later removes it, as on a real system. The root has
# no shell or libraries, so the scripts run outside it with DPKG_ROOT=$root
# (--force-script-chrootless, dpkg's mode for bootstrapping); ours then leave the host's
# systemd alone. The libraries are the host's (--force-depends: the root has no packages).
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkgr() { dpkg --root="$root" --force-script-chrootless --force-depends --log="$tmp/dpkg.log" "$@"; }
dpkgr -i "$deb" >"$tmp/dpkg-install.log" 2>&1 || fail "dpkg -i: $(cat "$tmp/dpkg-install.log")"
dpkg --root="$root" -s bpflens | grep -q '^Status: install ok installed' ||
  fail "dpkg does not list bpflens as installed: $(dpkg --root="$root" -s bpflens 2>&1)"
while read -r f; do
  [ -f "$root/${f#./}" ] || fail "dpkg did not install $f"
done <<<"$(echo "$contents" | awk '$1 !~ /^d/ {print $6}')"
[ ! -e /usr/libexec/bpflens-helper ] || echo "note: this machine has its own /usr/libexec/bpflens-helper (not ours)"

# The generated files name the installed helper (CPack's staging directory must not leak in).
activation=$root/usr/share/dbus-1/system-services/io.github.bpflens.Helper1.service
unit=$(find "$root" -name bpflens-helper.service -path '*systemd/system/*')
grep -qx 'Exec=/usr/libexec/bpflens-helper' "$activation" || fail "activation file: $(cat "$activation")"
grep -qx 'Name=io.github.bpflens.Helper1' "$activation" || fail "activation file names no service"
grep -qx 'SystemdService=bpflens-helper.service' "$activation" || fail "activation file names no unit"
grep -qx 'ExecStart=/usr/libexec/bpflens-helper' "$unit" || fail "systemd unit: $(grep ExecStart "$unit")"
serve_unit=$(find "$root" -name bpflens-serve.service -path '*/examples/*')
grep -q '^ExecStart=/usr/bin/bpflens-cli serve ' "$serve_unit" ||
  fail "serve example unit: $(grep ExecStart "$serve_unit")"
! grep -rq "$tmp\|_CPack_Packages" "$activation" "$unit" || fail "a staging path in the generated files"

# Desktop integration: the validators on the installed copies; the launcher's Exec and TryExec
# and the Icon name the installed program and icon; the MIME type is the one registered.
desktop=$root/usr/share/applications/io.github.bpflens.desktop
out=$(desktop-file-validate "$desktop" 2>&1) && [ -z "$out" ] || fail "desktop-file-validate: $out"
appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.bpflens.metainfo.xml" >"$tmp/as.log" 2>&1 ||
  fail "appstreamcli validate: $(cat "$tmp/as.log")"
exec_prog=$(sed -n 's/^Exec=\([^ ]*\).*/\1/p' "$desktop")
[ -n "$exec_prog" ] && [ "${exec_prog#/}" = "$exec_prog" ] || fail "Exec=$exec_prog: expected a program on PATH"
[ -x "$root/usr/bin/$exec_prog" ] || fail "Exec=$exec_prog is not in the package's /usr/bin"
[ "$(sed -n 's/^TryExec=//p' "$desktop")" = "$exec_prog" ] || fail "TryExec differs from Exec"
icon=$(sed -n 's/^Icon=//p' "$desktop")
[ -f "$root/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "Icon=$icon is not installed"
mime=$(sed -n 's/^MimeType=\([^;]*\);.*/\1/p' "$desktop")
grep -q "<mime-type type=\"$mime\"" "$root/usr/share/mime/packages/io.github.bpflens.xml" ||
  fail "MimeType=$mime is not in the installed MIME package"
grep -q "<launchable type=\"desktop-id\">io.github.bpflens.desktop</launchable>" \
  "$root/usr/share/metainfo/io.github.bpflens.metainfo.xml" || fail "metainfo names another launcher"
if command -v update-mime-database >/dev/null; then
  cp -r "$root/usr/share/mime" "$tmp/mime"
  update-mime-database "$tmp/mime" >/dev/null 2>&1 && grep -q "$mime" "$tmp/mime/globs2" || fail "update-mime-database"
fi
# Translations are Qt resources in the program (gui/CMakeLists.txt): rcc stores names as UTF-16.
for ts in "$src"/translations/bpflens_*.ts; do
  qm=$(basename "$ts" .ts).qm
  utf16=$(printf '%s' "$qm" | iconv -f ASCII -t UTF-16BE | od -An -tx1 | tr -d ' \n')
  od -An -tx1 -v "$root/usr/bin/bpflens" | tr -d ' \n' | grep -q "$utf16" ||
    fail "$qm is not embedded in the installed bpflens"
done

# --- activation ----------------------------------------------------------------------------------
# Real paths, not rewritten copies: a private mount namespace (gone with its last process, so
# no mount outlives the test) overlays the installed directories onto /usr, and Debian's system
# bus configuration activates the helper through the setuid launch helper as on a real system.
chmod -R go+rX "$tmp"
timeout 200 unshare --mount --propagation private -- bash "$0" --in-namespace "$root" "$tmp" ||
  fail "activation of the installed helper"

# --- removal -------------------------------------------------------------------------------------
dpkgr --purge bpflens >"$tmp/dpkg-purge.log" 2>&1 || fail "dpkg --purge: $(cat "$tmp/dpkg-purge.log")"
left=$(cd "$root" && find . -not -type d -not -path './var/lib/dpkg/*' -not -path './var/log/*')
[ -z "$left" ] || fail "left after purge: $left"
echo "Debian package OK"
