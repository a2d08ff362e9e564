# SPDX-License-Identifier: GPL-2.0-only OR MIT
# shellcheck shell=bash
#
# tests/rerun.sh: make test's one rerun of a failed suite, sourced by
# tests/run-all.sh (and tests/test_rerun.sh, which proves it). The caller
# sets logdir (the suites' logs), flaky (the file that lists the suites
# that passed only on their rerun), build and vm_harness (tests/vm/run.sh).
# A suite function runs into $logdir/NAME.log and sets p and f (passed and
# failed checks); NEGCAM_RERUN=0 turns the rerun off.
#
# Why a rerun: these suites drive browsers, PipeWire sessions and a TCG VM
# on two cores, where a check can lose a race with the machine's load. A
# failure that comes back on the rerun is a failure; one that does not is
# named in the summary, with its first run's failing checks and log.

# with_rerun NAME FUNCTION ARGS...: FUNCTION, which runs a suite into
# $logdir/NAME.log and sets p and f; when f > 0, FUNCTION once more
# (its first log kept as NAME.first.log).
with_rerun() {
	local name=$1 ff
	shift
	"$@"
	[ "$f" = 0 ] && return 0
	[ "${NEGCAM_RERUN:-1}" = 0 ] && return 0
	ff=$f
	cp "$logdir/$name.log" "$logdir/$name.first.log"
	echo "== $name: $ff failed; it runs once more (the first run's log: $logdir/$name.first.log)"
	"$@"
	[ "$f" = 0 ] && echo "$name: $ff failed on its first run, 0 on its rerun; the first failures: $(first_failures "$logdir/$name.first.log")" >>"$flaky"
	return 0
}

# first_failures LOG: its first three failing checks, on one line.
first_failures() {
	grep -E '(^ *|: )(FAIL|not ok)|: harness exit status|TIMEOUT' "$1" | head -n 3 | cut -c1-200 | paste -sd';' -
}

# vm_run NAME MODE: one boot into $logdir/NAME.log; sets p and f.
vm_run() {
	local name=$1 mode=$2 log=$logdir/$1.log rc line
	NEGCAM_BUILD=$build "$vm_harness" "$mode" >"$log" 2>&1
	rc=$?
	sed -n '/^======== summary/,$p' "$log"
	line=$(grep -E "^vm $mode: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1)
	p=$(echo "$line" | sed -nE 's/.*: ([0-9]+) passed.*/\1/p')
	f=$(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
	: "${p:=0}" "${f:=0}"
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "$name: harness exit status $rc (124 timeout, 125 harness error, 70 kernel WARNING)"
		tail -n 30 "$log"
		f=1
	fi
}

# vm_rerun NAME MODE: after a failed boot, once more. quick and full boot
# again only for their parts that failed, each part alone (tests/vm/run.sh
# PART, told NEGCAM_VM_MODE=MODE so that it runs as in MODE); the whole
# boot again when the summary names no failed part (the harness failed)
# and for the other modes. Sets p and f.
vm_rerun() {
	local name=$1 mode=$2 ff=$f first=$logdir/$1.first.log parts part fp0 nf=0
	cp "$logdir/$name.log" "$first"
	case $mode in
	quick|full) parts=$(sed -n '/^======== summary/,$p' "$first" |
		sed -nE 's/^(vivid|negcam|kmod|loop|profiles|gst|provider|pipewire): [0-9]+ passed, [1-9][0-9]* failed.*/\1/p') ;;
	*) parts= ;;
	esac
	if [ -z "$parts" ]; then
		echo "== $name: $ff failed; it boots once more (the first run's log: $first)"
		vm_run "$name" "$mode"
	else
		local tp=$p
		for part in $parts; do
			fp0=$(sed -n '/^======== summary/,$p' "$first" | sed -nE "s/^$part: ([0-9]+) passed.*/\\1/p" | head -n 1)
			echo "== $name: its part $part failed; $part boots once more alone (log $logdir/$name-$part.log)"
			NEGCAM_VM_MODE=$mode vm_run "$name-$part" "$part"
			tp=$((tp - ${fp0:-0} + p)) nf=$((nf + f))
		done
		p=$tp f=$nf
	fi
	[ "$f" = 0 ] && echo "$name: $ff failed on its first run, 0 on its rerun${parts:+ (parts $(echo $parts))}; the first failures: $(first_failures "$first")" >>"$flaky"
	return 0
}

