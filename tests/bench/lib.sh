# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Shared by tests/bench/host.sh and tests/bench/vm.sh (sourced).
# Needs RES (results directory) and TREE (checkout) set.
BIN=$TREE/tests/bench/out/bin

# node_named NAME: the /dev/videoN whose name (sysfs) is NAME.
node_named() {
	local d
	for d in /sys/class/video4linux/video*; do
		[ "$(cat "$d/name" 2>/dev/null)" = "$1" ] && { echo "/dev/${d##*/}"; return 0; }
	done
	return 1
}

# The command as a reader would retype it: checkout paths made relative,
# arguments with spaces or shell characters single-quoted.
cmdline() {
	local a out=
	for a in "$@"; do
		a=${a//$TREE\//}
		case $a in
		*[\ \!\(\)\;\&\|\<\>\*\$\"]*|'') a="'$a'" ;;
		esac
		out+="$a "
	done
	echo "${out% }"
}

# measure ID CMD...: runs CMD; RES/ID.kv gets cmd=, CMD's key=value output
# and rc=; stderr goes to RES/ID.err.
measure() {
	local id=$1 rc; shift
	{
		printf 'cmd=%s\n' "$(cmdline "$@")"
		"$@" 2> "$RES/$id.err"
		rc=$?
		printf 'rc=%d\n' $rc
	} > "$RES/$id.kv"
	printf '.'
}

# measure_strace ID CMD...: as measure, under strace -f -e trace=ioctl
# (RES/ID.strace), which report.py reads up to the first VIDIOC_STREAMON.
measure_strace() {
	local id=$1; shift
	measure "$id" strace -f -qq -e trace=ioctl -o "$RES/$id.strace" "$@"
}
