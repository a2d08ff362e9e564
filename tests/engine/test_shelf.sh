#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# The camera shelf (issue 35, docs/cameras.md), the embedded round trip:
# for every data/cameras/NAME.profile,
# - its first lines name the camera, its kind and a source a person can
#   open, and docs/cameras.md names it;
# - negcam-ctl --import of the verbatim listing
#   tests/engine/profiles/cameras/NAME.txt gives the profile's text (what
#   follows its header), so the shelf is what the importer makes today;
# - negcam-ctl --profile NAME (found by name on the shelf) --list-formats-ext
#   equals the listing line for line (indentation, blank lines, the dump
#   tool's prefixes and Markdown backticks aside), or differs exactly as
#   NAME.diff records, each kind of difference explained in docs/cameras.md.
# Bad input: every listing of tests/fuzz/import-bad is refused (status 1,
# no crash) with FILE:LINE and the message its EXPECT file gives.
#
#   test_shelf.sh SOURCE_ROOT BUILD_ROOT [--regen]   (--regen rewrites NAME.diff)
set -u
SRC=$1 BUILD=$2 REGEN=${3:-}
CTL=$BUILD/ctl/negcam-ctl
NAME=test_shelf
fails=0 checks=0
. "$SRC/tests/check.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export NEGCAM_SHELF_DIR="$SRC/data/cameras"

# A listing as v4l2-ctl printed it: no prefix, backtick, indentation or blank line.
norm() {
	sed -E -e 's/^[[:space:]]*\/dev\/video[0-9]+ \|//' \
		-e 's/^[[:space:]]*\[[0-9\/]+ [0-9:]+\] crowsnest://' \
		-e 's/`//g' -e 's/^[[:space:]]+//' -e 's/[[:space:]]+$//' "$1" | grep -v '^$'
}

shelf() {	# NAME
	n=$1 prof=$SRC/data/cameras/$1.profile lst=tests/engine/profiles/cameras/$1.txt
	check "$n: first line names the camera" sh -c 'head -1 "$1" | grep -q "^# ."' - "$prof"
	check "$n: a Kind line" sh -c 'head -8 "$1" | grep -q "^# Kind: ."' - "$prof"
	check "$n: a source to open" sh -c 'head -8 "$1" | grep -q "^#   https://"' - "$prof"
	check "$n: named in docs/cameras.md" contains "$SRC/docs/cameras.md" "\`$n\`"
	if grep -q '^usb-id ' "$prof"; then
		check "$n: its usb-id says where it comes from" \
			sh -c 'grep -B1 "^usb-id " "$1" | grep -q "^# USB id: ."' - "$prof"
		ids=$((ids + 1))
	fi
	if grep -q '^  size [0-9]*x[0-9]*-' "$prof"; then	# stepwise or continuous (issue 40)
		check "$n: a range of sizes has a default line and says why" \
			sh -c 'grep -q "^default [^ ]* [0-9]*x[0-9]*" "$1" && grep -q "^# Default: ." "$1"' - "$prof"
		"$CTL" --profile "$n" -V >"$tmp/def" 2>&1
		check "$n: G_FMT answers the default's size, not the range's least" \
			grep -q "Width/Height *: $(sed -n 's/^default [^ ]* \([0-9]*\)x\([0-9]*\).*/\1\/\2/p' "$prof")\$" "$tmp/def"
		ranges=$((ranges + 1))
	fi
	if grep -q '^# Listing kind: v4l2-ctl --all' "$prof"; then
		all_listing "$n" "$lst"
		return
	fi
	(cd "$SRC" && "$CTL" --import "$lst" --name "$n") >"$tmp/imp" 2>"$tmp/err"
	check "$n: the listing imports" test $? = 0
	sed -n '/^# Imported by/,$p' "$prof" >"$tmp/body"
	check "$n: the profile is what --import makes" cmp -s "$tmp/imp" "$tmp/body"
	"$CTL" --profile "$n" --list-formats-ext >"$tmp/out" 2>"$tmp/err"
	check "$n: --profile $n loads from the shelf" test $? = 0
	norm "$SRC/$lst" >"$tmp/a"
	norm "$tmp/out" >"$tmp/b"
	diff -U0 --label listing --label negcam "$tmp/a" "$tmp/b" >"$tmp/d"
	if [ "$REGEN" = --regen ]; then
		if [ -s "$tmp/d" ]; then cp "$tmp/d" "$SRC/${lst%.txt}.diff"; else rm -f "$SRC/${lst%.txt}.diff"; fi
	fi
	if [ -f "$SRC/${lst%.txt}.diff" ]; then
		check "$n: --list-formats-ext differs as $n.diff records" cmp -s "$tmp/d" "$SRC/${lst%.txt}.diff"
		same=$((same + 0)) differ=$((differ + 1))
	else
		check "$n: --list-formats-ext is the listing" test ! -s "$tmp/d"
		same=$((same + 1))
	fi
}

# The G_FMT and G_PARM lines of a v4l2-ctl --all listing (older v4l2-ctl
# spacing and the colorimetry it words differently aside).
all_fields() {
	sed -n -e 's/^[[:space:]]*\(Width\/Height\|Pixel Format\|Field\|Bytes per Line\|Size Image\|Colorspace\|Frames per second\)[[:space:]]*:[[:space:]]*\(.*\)$/\1: \2/p' "$1" |
		sed 's/[[:space:]]*$//'
}

# A card whose public listing is v4l2-ctl --all (G_FMT, G_PARM), no ENUM_FMT
# listing to import: negcam-ctl --all answers the same format, field,
# bytesperline, sizeimage, colorspace and rate.
all_listing() {	# NAME LISTING
	"$CTL" --profile "$1" --all >"$tmp/all" 2>"$tmp/err"
	check "$1: --profile $1 --all loads from the shelf" test $? = 0
	all_fields "$SRC/$2" >"$tmp/a"
	all_fields "$tmp/all" >"$tmp/b"
	check "$1: the listing has the 7 G_FMT/G_PARM lines ($(wc -l <"$tmp/a"))" test "$(wc -l <"$tmp/a")" = 7
	check "$1: --all answers the listing's G_FMT and G_PARM" cmp -s "$tmp/a" "$tmp/b"
	cmp -s "$tmp/a" "$tmp/b" || diff "$tmp/a" "$tmp/b" >&2
	alls=$((alls + 1))
}

refused() {	# EXPECT-LINE: FILE:LINE: message
	f=${1%%:*}
	"$CTL" --import "$SRC/tests/fuzz/import-bad/$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$f: refused with status 1 (got $rc)" test "$rc" = 1
	check "$f: refused at $1" sh -c 'grep -v ": warning: " "$1" | grep -qF -e "/$2"' - "$tmp/err" "$1"
	check "$f: nothing written" test ! -s "$tmp/out"
	bad=$((bad + 1))
}

same=0 differ=0 bad=0 cams=0 ids=0 ranges=0 alls=0
for prof in "$SRC"/data/cameras/*.profile; do
	n=$(basename "$prof" .profile)
	shelf "$n"
	cams=$((cams + 1))
done
check "at least 30 cameras on the shelf ($cams)" test "$cams" -ge 30
check "--list-profiles lists the shelf by kind" \
	sh -c '"$1" --list-profiles | grep -q "^camera shelf, $2 cameras by kind"' - "$CTL" "$cams"
cat "$SRC"/tests/fuzz/import-bad/EXPECT "$SRC"/tests/fuzz/import-bad/EXPECT.cut >"$tmp/expect"
while IFS= read -r e; do
	refused "$e"
done <"$tmp/expect"
check "at least 20 bad listings ($bad)" test "$bad" -ge 20
check "every bad listing has an expectation" test \
	"$(ls "$SRC"/tests/fuzz/import-bad/*.txt | wc -l)" = "$bad"
echo "$NAME: $cams cameras ($same as listed, $differ with a recorded difference, $ids with USB ids, $ranges with a range of sizes and a default, $alls from a --all listing), $bad bad listings refused"
echo "$NAME: $checks checks, $fails failed"
[ "$fails" = 0 ]
