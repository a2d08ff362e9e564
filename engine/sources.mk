# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The engine's sources: the one list. Make syntax, one file per line.
# engine/meson.build reads it (fs.read), kmod/Kbuild includes it to build
# negcam.ko, kmod/Makefile's dkms-tree copies these files (and so do the
# dkms-install target and the negcam-dkms Debian package). A new engine
# file is one line here.
ENGINE_SOURCES := \
	formats.c \
	fract.c \
	strbuf.c \
	engine.c \
	engine-ioctl.c \
	profile-names.c \
	parser.c \
	parse-messages.c \
	parse-tokens.c \
	parse-rates.c \
	parse-fault.c \
	parse-sizes.c \
	parse-format.c \
	parse-settings.c \
	parse-header.c \
	parse-keywords.c \
	profile-write.c \
	fault.c \
	builtin-profiles.c \
	scene.c \
	framegen.c \
	stamp.c \
	jpeg.c \
	h264.c
