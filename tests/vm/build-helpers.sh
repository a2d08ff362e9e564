#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Builds the VM test helpers (tests/vm/*.c) on the host into $1 (run.sh
# passes tests/vm/out/bin); the guest only runs them. A helper that does not
# build yet (e.g. the engine's stamp reader still missing) is left out with
# a warning, and the checks that need it report SKIP.
set -u
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
TREE=$(cd "$VM_DIR/../.." && pwd -P)
BIN=$1
CC=${CC:-cc}
CFLAGS="-O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -std=gnu11"
mkdir -p "$BIN"

# build OUTPUT SOURCES...: rebuild when a source is newer than the output.
build() {
	local out="$BIN/$1" src stale=0; shift
	[ -x "$out" ] || stale=1
	for src in "$@"; do [ "$src" -nt "$out" ] && stale=1; done
	[ $stale = 0 ] && return 0
	if ! $CC $CFLAGS -I"$TREE/engine" -o "$out.tmp" "$@" 2> "$out.log"; then
		echo "build-helpers: $(basename "$out") does not build yet (see $out.log); its checks will be skipped" >&2
		rm -f "$out" "$out.tmp"
		return 0
	fi
	mv "$out.tmp" "$out"
}

build vm-v4l2 "$VM_DIR/vm-v4l2.c"
build storm "$VM_DIR/storm.c" -pthread
build userptr-tail "$VM_DIR/userptr-tail.c"
build vm-faults "$VM_DIR/vm-faults.c"
# The engine's files: engine/sources.mk, the one list (kmod/Makefile reads it).
engine_sources=$(make -s --no-print-directory -C "$TREE/kmod" print-engine-sources)
build vm-stamp "$VM_DIR/vm-stamp.c" $(for s in $engine_sources; do echo "$TREE/engine/$s"; done)
exit 0
