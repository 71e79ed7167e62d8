#!/bin/bash
# No "(s)" plurals in what users read (issue #29: "plurals through tr() with %n"): a string
# literal of the GUI, the core, the command line, the client or the helper that says
# "event(s)" is a message, a label or an error text that reads "1 event(s)" or "2 event(s)".
# The GUI's counts go through tr("%Ln event(s)", "", n), whose English forms are in
# translations/bpflens_en.ts (the source text keeps "(s)" there: the literal has %n or %Ln);
# the rest through countOf() (core/counttext.h). No translation may keep "(s)" either.
#
# plurals.sh SOURCE_DIR
set -uo pipefail
src=${1:?source directory}
cd "$src" || exit 2
fail=0
# A literal with a letter and "(s)" in it, on a line that is not a comment and holds no %n.
hits=$(grep -rnP '"(?:[^"\\]|\\.)*[a-z]\(s\)(?:[^"\\]|\\.)*"' --include='*.cpp' --include='*.h' \
    core cli client helper gui dbusapi symbolizer | grep -vP '^[^:]+:\d+:\s*//' | grep -vP '%L?n')
if [ -n "$hits" ]; then
    echo "\"(s)\" plurals in user-visible strings (use tr(\"%Ln ...\", \"\", n) or countOf()):"
    echo "$hits"
    fail=1
fi
hits=$(grep -nP '<(translation|numerusform)[^>]*>[^<]*[a-z]\(s\)' translations/*.ts)
if [ -n "$hits" ]; then
    echo "\"(s)\" in translations:"
    echo "$hits"
    fail=1
fi
((fail)) || echo "no \"(s)\" plurals in user-visible strings or translations"
exit $fail
