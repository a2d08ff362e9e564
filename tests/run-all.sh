#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# tests/run-all.sh [BUILD]: every negcam test suite, as `make test` runs it.
#   engine  plain C tests of the engine, parser, negcam-ctl, frame generator
#   uvc     negcam-uvc's device core on the host (USB/IP, descriptors, requests)
#   gst     GstHarness tests of negcamsrc (embedded backend)
#   apps    Cheese under Xvfb takes a photo through the device provider
#   pw      negcam-pw, a profile as a PipeWire camera: pipewiresrc at four
#           sizes, two consumers, idle, pw-v4l2, SIGTERM/SIGKILL, and
#           pipewiresink mode=provide beside it (tests/pw/pw-suite.sh)
#   portal  Chromium, headless, finds negcam-pw's camera through the XDG
#           Camera portal and gets 1280x720, 320x240 and 640x480 with its
#           colours (tests/pw/portal-suite.sh; Firefox too: make test-portal)
#   run     negcam-run/libnegcam-preload.so with v4l2-ctl, ffmpeg, v4l2src,
#           v4l2-compliance and a threads/fork/dup/poll program (no module)
#   fuzz    the libFuzzer harnesses, 12 s each (tests/fuzz/run.sh quick)
#   vm      negcam.ko and vivid in qemu (tests/vm/run.sh quick; full with
#           NEGCAM_FULL=1): v4l2-compliance -s/-f, v4l2src, v4l2-ctl, ffmpeg,
#           negcamsrc on the kernel backend, tests/vm/kmod-suite.sh; then
#           tests/vm/tmp-checkout.sh (the harness from a /var/tmp checkout; full only)
#   dkms    make -C kmod dkms-tree into a temp dir, dkms builds negcam.ko
#           from it, modinfo checked (tests/dkms-suite.sh; 10 s to a minute)
#   install meson install --destdir of BUILD (/usr/local) and of a --prefix=/usr
#           build: the files' places, the plugin in GStreamer's pluginsdir
#   deb     make deb in a temp dir (dpkg-buildpackage, lintian: no error), the
#           packages' contents, the packaged plugin, tools and DKMS tree work
#   vm-uvc  negcam-uvc behind uvcvideo on vhci-hcd (tests/vm/run.sh uvc)
#   storm   60 s of the concurrent ioctl storm on negcam.ko, rmmod, dmesg
#           (tests/vm/run.sh storm, its own VM boot; docs/kmod.md)
# Prints "SUITE: N passed, N failed" per suite and a total line; exits 1
# when anything failed. A suite that fails runs once more, and the summary
# names what passed only then (tests/rerun.sh; NEGCAM_RERUN=0: never).
# NEGCAM_SKIP="fuzz vm" leaves suites out (the total line then says so: a
# skipped suite is never reported as passed).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
cd "$root" || exit 2

logdir=$build/test-logs
mkdir -p "$logdir"
declare -a lines
tp=0 tf=0 skipped=

record() { # SUITE PASSED FAILED
	lines+=("$1: $2 passed, $3 failed")
	echo "$1: $2 passed, $3 failed"
	tp=$((tp + $2)) tf=$((tf + $3))
}

# The suites that passed only on their rerun, one line each (shared with
# the VM chain's background shell); with_rerun, vm_run and vm_rerun.
flaky=$logdir/rerun.txt
: >"$flaky"
vm_harness=tests/vm/run.sh
# shellcheck source=tests/rerun.sh
. "$root/tests/rerun.sh"

wanted() { case " ${NEGCAM_SKIP:-} " in *" $1 "*) skipped+=" $1"; return 1 ;; esac; }

# A meson suite: one result per test executable; each executable's own
# "name: N passed, N failed" line is shown.
meson_suite() {
	local p f
	echo "== $1 (meson test --suite $1)"
	with_rerun "$1" meson_run "$1"
	record "$1" "$p" "$f"
}

meson_run() {
	local suite=$1 log=$logdir/$1.log
	meson test -C "$build" --suite "$suite" --print-errorlogs >"$log" 2>&1
	grep -E '^ *[0-9]+/[0-9]+ ' "$log"
	grep -hE '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$build"/meson-logs/testlog.txt | sed 's/^/   /'
	p=$(grep -cE '^ *[0-9]+/[0-9]+ .* (OK|EXPECTEDFAIL) ' "$log")
	f=$(grep -cE '^ *[0-9]+/[0-9]+ .* (FAIL|TIMEOUT|ERROR|UNEXPECTEDPASS) ' "$log")
	if [ "$p" = 0 ] && [ "$f" = 0 ]; then
		tail -n 20 "$log"
		f=1
	fi
	[ "$f" = 0 ] || sed -n '/^=* [0-9]*\/[0-9]* =*$/,$p' "$log" | tail -n 60
}

# script_suite NAME COMMAND...: a checking script judged by its own
# "NAME: N passed, N failed" line (no such line counts as one failure).
script_suite() {
	local name=$1 p f
	shift
	wanted "$name" || return 0
	echo "== $name ($*)"
	with_rerun "$name" script_run "$name" "$@"
	record "$name" "$p" "$f"
}

script_run() {
	local name=$1 log=$logdir/$1.log
	shift
	"$@" >"$log" 2>&1
	cat "$log"
	p=$(sed -nE "s/^$name: ([0-9]+) passed.*/\\1/p" "$log")
	f=$(sed -nE "s/^$name: [0-9]+ passed, ([0-9]+) failed.*/\\1/p" "$log")
	: "${p:=0}" "${f:=1}"
}

# vm_suite NAME MODE: tests/vm/run.sh MODE in its own VM boot, judged by
# its "vm MODE: N passed, N failed" line and the harness's exit status;
# when it failed, vm_rerun (tests/rerun.sh).
vm_suite() {
	local name=$1 mode=$2 p f
	echo "== $name (tests/vm/run.sh $mode; log $logdir/$name.log)"
	vm_run "$name" "$mode"
	[ "$f" != 0 ] && [ "${NEGCAM_RERUN:-1}" != 0 ] && vm_rerun "$name" "$mode"
	record "$name" "$p" "$f"
}

# vm_chain: the VM suites in order, each its own boot (vm, vm-tmp-checkout,
# vm-uvc, storm), as NEGCAM_SKIP leaves them.
vm_chain() {
	if [ "$want_vm" = 1 ]; then
		mode=quick
		[ "${NEGCAM_FULL:-0}" = 1 ] && mode=full
		vm_suite vm "$mode"
		# The harness from a checkout under /var/tmp (its own VM boot, about
		# a minute): in make test-full only, for make test's 30 minutes.
		if [ "$mode" = full ]; then
			echo "== vm-tmp-checkout (tests/vm/tmp-checkout.sh; log $logdir/vm-tmp-checkout.log)"
			tests/vm/tmp-checkout.sh >"$logdir/vm-tmp-checkout.log" 2>&1
			tail -n 1 "$logdir/vm-tmp-checkout.log"
			if grep -q '^vm-tmp-checkout: 1 passed' "$logdir/vm-tmp-checkout.log"; then
				record vm-tmp-checkout 1 0
			else
				tail -n 15 "$logdir/vm-tmp-checkout.log"
				record vm-tmp-checkout 0 1
			fi
		fi
	fi

	# negcam-uvc behind the real uvcvideo on vhci-hcd (its own boot): listings,
	# streaming with v4l2-ctl, ffmpeg, v4l2src, negcamsrc, compliance, a
	# pipeline as the camera, Chromium, detach and SIGKILL (docs/uvc.md).
	[ "$want_vm_uvc" = 1 ] && vm_suite vm-uvc uvc

	# The storm, 60 s on negcam.ko, then rmmod and the kernel log (its own boot).
	[ "$want_storm" = 1 ] && NEGCAM_STORM_SECONDS=${NEGCAM_STORM_SECONDS:-60} vm_suite storm storm
}

# The VM suites run in the background, beside the host suites: qemu (TCG)
# keeps the two cores busy while most host suites wait on sessions,
# browsers and timers, so together they take about the VM chain's time
# instead of both added up (measured in docs/testing-vm.md). Their lines
# come after the host suites'. NEGCAM_VM_SERIAL=1 runs them after the host
# suites instead, one thing at a time.
want_vm=0 want_vm_uvc=0 want_storm=0
wanted vm && want_vm=1
wanted vm-uvc && want_vm_uvc=1
wanted storm && want_storm=1
vmres=$logdir/vm-chain.results vmout=$logdir/vm-chain.out vmpid=
if [ "${NEGCAM_VM_SERIAL:-0}" != 1 ] && [ $((want_vm + want_vm_uvc + want_storm)) != 0 ]; then
	: >"$vmres"
	echo "== the VM suites start in the background (their output: $vmout)"
	(
		record() { echo "$1 $2 $3" >>"$vmres"; echo "$1: $2 passed, $3 failed"; }
		vm_chain
	) >"$vmout" 2>&1 &
	vmpid=$!
fi

# No include or call cycle between the files of engine/, ctl/, user/,
# gst/, run/ and kmod/, and no include against the folder table
# (docs/architecture.md).
script_suite layers python3 tests/check-layers.py
# That check fails on an upward include or call (in a temporary copy).
script_suite layers-selftest python3 tests/check-layers.py --self-test
# Every tracked #! file executable in git, the Makefile's ./scripts included.
script_suite scripts tests/check-scripts.sh
# make test's rerun of a failed suite (tests/rerun.sh) on stand-in suites.
script_suite rerun-selftest tests/test_rerun.sh
# docs/architecture.md against the tree: its folder table is check-layers.py's,
# every .c/.h of the production folders has a line, no file it names is gone.
script_suite docs python3 tests/check-docs.py
# That check fails on an unlisted file, a removed one, a changed rule (copies).
script_suite docs-selftest python3 tests/check-docs.py --self-test
# No function over 80 lines in the production folders, 120 in tests/.
script_suite functions python3 tests/check-functions.py
# The DKMS tree (what dkms-install and negcam-dkms ship) builds a module.
script_suite dkms tests/dkms-suite.sh
wanted engine && meson_suite engine
# What meson install puts where, /usr/local and /usr (tests/install-suite.sh).
script_suite install tests/install-suite.sh "$build"
# The Debian packages: make deb, lintian, their contents (tests/deb-suite.sh).
script_suite deb tests/deb-suite.sh
wanted run && meson_suite run
wanted uvc && meson_suite uvc	# negcam-uvc's device core (tests/uvc); its VM suite is vm-uvc below
wanted vm-host && meson_suite vm-host	# tests/vm/klog.sh: the kernel-log check judges real report lines
if wanted gst; then
	if meson test -C "$build" --list 2>/dev/null | grep -q '^negcam:gst '; then
		meson_suite gst
	else
		echo "gst: GStreamer development files missing; the gst suite was not built"
		record gst 0 1
	fi
fi

# negcam-pw in a private PipeWire session, as an unprivileged user (as
# root: the system user negcam-test), no module (tests/pw/pw-suite.sh,
# 80 to 110 s).
script_suite pw tests/pw/pw-suite.sh "$build"

# Chromium through the Camera portal on negcam-pw, in the same kind of
# session plus Xvfb and xdg-desktop-portal (tests/pw/portal-suite.sh,
# about 30 s; Firefox ESR, which crashes in most runs, only in make
# test-portal).
script_suite portal tests/pw/portal-suite.sh "$build" chromium negcam

# A desktop application as negcamsrc's user: Cheese under Xvfb takes a
# photo through the device provider (about 10 s; exit 77: not installed).
apps_run() {
	tests/apps/cheese.sh "$build" >"$logdir/apps.log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL)' "$logdir/apps.log"
	case $rc in
	0) p=1 f=0 ;;
	*) tail -n 15 "$logdir/apps.log"; p=0 f=1 ;;
	esac
}
if wanted apps; then
	echo "== apps (tests/apps/cheese.sh)"
	with_rerun apps apps_run
	record apps "$p" "$f"
fi

fuzz_run() {
	tests/fuzz/run.sh quick >"$logdir/fuzz.log" 2>&1
	rc=$?
	grep -E '^fuzz_[a-z]+: ' "$logdir/fuzz.log"
	p=$(sed -nE 's/^fuzz: ([0-9]+) passed.*/\1/p' "$logdir/fuzz.log")
	f=$(sed -nE 's/^fuzz: [0-9]+ passed, ([0-9]+) failed.*/\1/p' "$logdir/fuzz.log")
	: "${p:=0}" "${f:=0}"
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		tail -n 30 "$logdir/fuzz.log"
		f=1
	fi
}
if wanted fuzz; then
	echo "== fuzz (tests/fuzz/run.sh quick)"
	with_rerun fuzz fuzz_run
	record fuzz "$p" "$f"
fi

if [ -n "$vmpid" ]; then
	echo "== the VM suites (started beside the host suites; log $vmout)"
	wait "$vmpid"
	cat "$vmout"
	while read -r n p f; do
		lines+=("$n: $p passed, $f failed")
		tp=$((tp + p)) tf=$((tf + f))
	done <"$vmres"
else
	vm_chain
fi

echo
echo "======== negcam test summary ========"
printf '%s\n' "${lines[@]}"
if [ -s "$flaky" ]; then
	echo "passed on a rerun (their first run failed; the first logs are SUITE.first.log in $logdir):"
	sed 's/^/  /' "$flaky"
fi
[ -n "$skipped" ] && echo "skipped by NEGCAM_SKIP:$skipped"
echo "total: $tp passed, $tf failed"
[ "$tf" = 0 ]
