#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Builds the benchmark helpers (tests/bench/*.c) on the host into
# tests/bench/out/bin; the VM runs the same binaries over 9p.
set -eu
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
BIN=$DIR/out/bin
CC=${CC:-cc}
CFLAGS="-O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -std=gnu11"
mkdir -p "$BIN"
build() {	# OUTPUT SOURCE EXTRA-FLAGS-AND-SOURCES...
	local out=$BIN/$1 src=$DIR/$2 a stale=0; shift 2
	[ -x "$out" ] && [ "$0" -ot "$out" ] || stale=1
	for a in "$src" "$@"; do [ -f "$a" ] && [ "$a" -nt "$out" ] && stale=1; done
	[ $stale = 0 ] || $CC $CFLAGS -o "$out" "$src" "$@"
}
build bench-gst bench-gst.c -rdynamic $(pkg-config --cflags --libs gstreamer-1.0) -ldl
build bench-malloc.so bench-malloc.c -shared -fPIC -ldl
build bench-v4l2 bench-v4l2.c
build bench-memcpy bench-memcpy.c
build bench-loop bench-loop.c -lpthread
# The engine's files: engine/sources.mk, the one list (kmod/Makefile reads it).
engine_sources=$(make -s --no-print-directory -C "$DIR/../../kmod" print-engine-sources)
build bench-framegen bench-framegen.c -I"$DIR/../../engine" $(for s in $engine_sources; do echo "$DIR/../../engine/$s"; done)
build bench-memcount.so bench-memcount.c -shared -fPIC -fno-tree-loop-distribute-patterns -ldl
