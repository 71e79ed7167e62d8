#!/bin/bash
# The shape issue #31 gave the code, kept from creeping back: no file of the command line over
# 800 lines (one command per file, cli/), MainWindow at most 500 lines (it places pages; the
# results layer builds the views), the root helper not linking the unprivileged client library
# (the D-Bus contract is in dbusapi/), no catalog function of probes (core/probes/<id>.h
# declare them), and no hand-made worker thread or nested event loop in the window outside
# BackgroundJob and the one documented in RecordingController::stopAndWait. Every quoted include
# of a project header names its folder from the top of the tree ("core/events/block.h"), the only
# include path into the tree is its top, and no header name of bpf/ is one of core/ (the BPF
# records of a probe are bpf/<id>.records.h, its event type core/events/<type>.h, its declaration
# core/probes/<id>.h).
#
# structure.sh SOURCE_DIR
set -uo pipefail
src=${1:?source directory}
cd "$src" || exit 2
fail=0
for f in cli/*.cpp cli/*.h; do
    n=$(wc -l <"$f")
    ((n <= 800)) || { echo "$f: $n lines (at most 800: split it by command)"; fail=1; }
done
n=$(wc -l <gui/mainwindow.cpp)
((n <= 500)) || { echo "gui/mainwindow.cpp: $n lines (at most 500)"; fail=1; }
if grep -n 'bpflens_client' helper/CMakeLists.txt; then
    echo "helper/CMakeLists.txt: the root helper links the client library"
    fail=1
fi
if grep -rn 'buildCatalog' --include='*.cpp' --include='*.h' core gui cli client helper; then
    echo "a probe catalog function is back: declare probes in core/probes/<id>.h"
    fail=1
fi
threads=$(grep -rln 'QThread::create\|new QThread\|QThreadPool\|QEventLoop' --include='*.cpp' \
    --include='*.h' gui | grep -v -e '^gui/models/backgroundjob\.' -e '^gui/recordingcontroller\.cpp$')
if [ -n "$threads" ]; then
    echo "hand-made worker threads or nested event loops (use BackgroundJob): $threads"
    fail=1
fi
# Generated headers (skeletons, vmlinux.h, moc output) are the only bare names, apart from the
# plain programs built on their own (tests/programs, bench/workloads).
bare=$(git ls-files '*.cpp' '*.h' '*.c' | grep -v -e '^tests/programs/' -e '^bench/workloads/' |
    xargs grep -Hn '^ *# *include *"[^/"]*"' |
    grep -v -e '\.skel\.h"' -e '"vmlinux\.h"' -e '\.moc"')
if [ -n "$bare" ]; then
    echo "quoted includes without their folder (write \"core/x.h\", not \"x.h\"):"
    echo "$bare"
    fail=1
fi
paths=$(git ls-files '*CMakeLists.txt' | xargs grep -Hn 'include_directories\|INCLUDE_DIRECTORIES' |
    grep -v -e 'PROJECT_SOURCE_DIR}' -e 'gen_dir}' -e '^tests/fuzz/CMakeLists.txt:.*{top}')
if [ -n "$paths" ]; then
    echo "include paths into the tree other than its top:"
    echo "$paths"
    fail=1
fi
twice=$(comm -12 <(git ls-files 'bpf/*.h' | xargs -n1 basename | sort -u) \
    <(git ls-files 'core/*.h' | xargs -n1 basename | sort -u))
if [ -n "$twice" ]; then
    echo "header names in both bpf/ and core/: $twice"
    fail=1
fi
((fail)) || echo "structure holds: cli files <= 800 lines, MainWindow $n lines, helper without the client library, no buildCatalog, background work through BackgroundJob, includes with their folder"
exit $fail
