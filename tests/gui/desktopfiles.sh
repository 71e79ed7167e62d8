#!/usr/bin/env bash
# The desktop files pass the freedesktop validators and install where desktops look for them.
# Usage: desktopfiles.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
res=$src/resources
fail() { echo "FAIL: $*" >&2; exit 1; }

desktop-file-validate "$res/io.github.bpflens.desktop" || fail "desktop-file-validate"
# Hints count as failures too: a launcher listed twice in menus is a bug users see.
out=$(desktop-file-validate "$res/io.github.bpflens.desktop" 2>&1)
[ -z "$out" ] || fail "desktop-file-validate: $out"
appstreamcli validate --no-net --pedantic "$res/io.github.bpflens.metainfo.xml" ||
  fail "appstreamcli validate"
xmllint --noout "$res/io.github.bpflens.mime.xml" "$res/io.github.bpflens.svg" || fail "xmllint"
grep -q '<glob pattern="\*.bpflens"/>' "$res/io.github.bpflens.mime.xml" || fail "no glob"
grep -q 'value="SQLite format 3' "$res/io.github.bpflens.mime.xml" || fail "no SQLite magic"

# Every screenshot the metainfo names is in the repository.
for url in $(grep -o 'docs/screenshots/[^<]*\.png' "$res/io.github.bpflens.metainfo.xml"); do
  [ -s "$src/$url" ] || fail "missing screenshot $url"
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
DESTDIR=$stage cmake --install "$build" --prefix /usr >/dev/null || fail "cmake --install"
for f in share/applications/io.github.bpflens.desktop \
         share/icons/hicolor/scalable/apps/io.github.bpflens.svg \
         share/metainfo/io.github.bpflens.metainfo.xml \
         share/mime/packages/io.github.bpflens.xml bin/bpflens; do
  [ -s "$stage/usr/$f" ] || fail "not installed: $f"
done
# Installed to another prefix than the configured one (defect: the activation file named
# /usr/local/libexec/bpflens-helper and the unit went under /usr/local): the files agree with
# each other and with where the helper went, for any prefix given at install time.
for prefix in /usr /opt/bpflens; do
  other=$(mktemp -d)
  DESTDIR=$other cmake --install "$build" --prefix "$prefix" >/dev/null || fail "cmake --install --prefix $prefix"
  helper=$(cd "$other" && find . -path "*/bpflens-helper" -type f | sed 's|^\.||')
  [ "${helper#"$prefix"/}" != "$helper" ] || fail "$prefix: the helper went to $helper"
  activation=$other$prefix/share/dbus-1/system-services/io.github.bpflens.Helper1.service
  grep -qx "Exec=$helper" "$activation" || fail "$prefix: $(grep Exec= "$activation") but the helper is $helper"
  unit=$other$prefix/lib/systemd/system/bpflens-helper.service
  if [ -f "$unit" ]; then
    grep -qx "ExecStart=$helper" "$unit" || fail "$prefix: $(grep ExecStart= "$unit") but the helper is $helper"
  else
    # pkg-config's systemd named another unit directory: the unit is there, naming the helper.
    found=$(find "$other" -name bpflens-helper.service | head -n1)
    [ -n "$found" ] || fail "$prefix: no systemd unit installed"
    grep -qx "ExecStart=$helper" "$found" || fail "$prefix: $found does not start $helper"
  fi
  rm -rf "$other"
done

if command -v update-mime-database >/dev/null; then
  update-mime-database "$stage/usr/share/mime" || fail "update-mime-database"
  grep -q 'application/x-bpflens-session' "$stage/usr/share/mime/globs2" || fail "glob not registered"
fi
echo "desktop files OK"
