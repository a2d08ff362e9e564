#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Docs and examples against the engine's built-in table (issue 16 item 9):
# every built-in profile (negcam-ctl --list-profiles) is named where the
# docs list them and has a recipe in examples/recipes.sh; recipes.sh with
# no arguments prints its usage and exits 2 instead of failing in `shift`.
#
#   test_docs.sh SOURCE_ROOT BUILD_ROOT
set -u
SRC=$1 BUILD=$2
CTL=$BUILD/ctl/negcam-ctl
fails=0 checks=0

NAME=test_docs
# check, has, contains
. "$SRC/tests/check.sh"

# Lines of FILE matching PATTERN (grep -e) must name `PROFILE` in backquotes.
names_in() {	# FILE PATTERN PROFILE
	grep -e "$2" "$1" | grep -qF "\`$3\`"
}

out=$(sh "$SRC/examples/recipes.sh" 2>&1 </dev/null); rc=$?
check "recipes.sh without arguments exits 2 (got $rc)" [ "$rc" = 2 ]
check "recipes.sh without arguments prints its usage: $out" \
	sh -c 'printf "%s\n" "$1" | grep -q "^Usage: .*recipes.sh BUILD_DIR"' - "$out"
case "$out" in *"can't shift"*|*"shift:"*) check "no shift error: $out" false ;; esac

list=$(sh "$SRC/examples/recipes.sh" "$BUILD" list) || check "recipes.sh list runs" false
# the built-ins: the lines before the blank line that starts the shelf
profiles=$("$CTL" --list-profiles | awk 'NF == 0 { exit } { print $1 }')
n=0
for p in $profiles; do
	n=$((n + 1))
	check "recipes.sh list has a recipe '$p'" \
		sh -c 'printf "%s\n" "$1" | grep -q "^$2: "' - "$list" "$p"
	check "docs/negcamsrc.md: the profile property names $p" \
		names_in "$SRC/docs/negcamsrc.md" '^| `profile` |' "$p"
	check "docs/negcamsrc.md: the missing-profile error names $p" \
		sh -c 'grep "^| missing profile file" "$1" | grep -q "[(, ]$2[,)]"' - \
		"$SRC/docs/negcamsrc.md" "$p"
	check "docs/profiles.md: the built-in list names $p" \
		names_in "$SRC/docs/profiles.md" '^The built-in profiles (' "$p"
done
check "negcam-ctl lists 10 or more built-in profiles (got $n)" [ "$n" -ge 10 ]
echo "test_docs: $((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
