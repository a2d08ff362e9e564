# SPDX-License-Identifier: GPL-2.0-only OR MIT
# Entry points. `make demo` and `make test` do all set-up on a fresh Debian 12.

BUILD   ?= build
MESON   ?= meson
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian 12 packages negcam needs to build: the programs, the plugin and
# every test program meson builds (libjpeg: test_framegen's decoder), and
# negcam.ko (the kernel image too: kmod/Makefile builds for the newest
# kernel that has both /boot/vmlinuz-V and its headers); and to run
# `make demo` (gst-launch-1.0, videoconvert, pngenc, multifilesink).
DEB_BUILD_PACKAGES := build-essential meson ninja-build pkg-config \
	libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libv4l-dev libjpeg-dev \
	linux-image-amd64 linux-headers-amd64 \
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
	libpipewire-0.3-dev
# ...and, on top, to test and benchmark it (make test).
DEB_TEST_PACKAGES := clang gstreamer1.0-plugins-bad \
	v4l-utils ffmpeg valgrind strace \
	qemu-system-x86 busybox-static \
	sparse kmod cpio python3 procps gstreamer1.0-plugins-base-apps \
	universal-ctags python3-opencv \
	dkms v4l2loopback-dkms chromium firefox-esr \
	cheese xvfb xdotool dbus-daemon obs-studio debootstrap \
	udev pipewire pipewire-bin wireplumber gstreamer1.0-pipewire lintian \
	pipewire-v4l2
# ...and browsers through the Camera portal (tests/pw/portal-suite.sh) and
# the CI recipe's test (tests/pw/ci-recipe.sh reads the workflow's YAML).
DEB_TEST_PACKAGES += xdg-desktop-portal xdg-desktop-portal-gtk libglib2.0-bin python3-yaml
# ...and Firefox's crash on libpipewire 0.3.65 located (tests/pw/stop-race.sh).
DEB_TEST_PACKAGES += gdb binutils

.PHONY: all deps deps-build deps-test build demo test test-engine test-gst test-dkms test-install test-deb test-deb-install test-vm deb test-full test-apps test-faults-apps test-faults-chromium test-faults-compliance test-loop-clients test-portal test-ci-recipe test-shelf-uvc test-uvc-sweep test-uvc-bugs fuzz bench kmod storm clean \
	matrix-shelf matrix-formats test-shelf debug-kernel test-debug test-debug-storm test-gadget

all: build

# Installs only what is missing of the packages given; a no-op (and no root
# needed) when all is there.
define install_missing
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "make $@: installing $$missing"; \
		$(SUDO) apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	else echo "make $@: all Debian packages present"; fi
endef

# deps-build: what building needs (make build, demo, kmod); deps-test: the
# rest (make test); deps: both.
deps-build:
	$(call install_missing,$(DEB_BUILD_PACKAGES))
deps-test:
	$(call install_missing,$(DEB_TEST_PACKAGES))
deps: deps-build deps-test

$(BUILD)/build.ninja:
	$(MESON) setup $(BUILD)

build: deps-build $(BUILD)/build.ninja
	ninja -C $(BUILD)

kmod: deps-build
	$(MAKE) -C kmod

demo: build
	./examples/demo.sh $(BUILD)

# Every suite; prints one "N passed, N failed" line per suite and a total.
test: deps build kmod
	./tests/run-all.sh $(BUILD)

test-engine: deps-test build
	$(MESON) test -C $(BUILD) --suite engine --print-errorlogs

test-gst: deps-test build
	$(MESON) test -C $(BUILD) --suite gst --print-errorlogs

# The DKMS tree builds negcam.ko (tests/dkms-suite.sh; also in `make test`).
test-dkms: deps-test kmod
	./tests/dkms-suite.sh

# What meson install puts where (tests/install-suite.sh; also in `make test`).
test-install: deps-test build
	./tests/install-suite.sh $(BUILD)

# The Debian packages (tests/deb-suite.sh; also in `make test`).
test-deb: deps-test
	./tests/deb-suite.sh

# The packages on a pristine Debian 12 root (debootstrap; root; ~10 min,
# ~500 MB of downloads; not in `make test`): tests/deb-install.sh.
test-deb-install: deps-test
	./tests/deb-install.sh

test-vm: deps-test build kmod
	./tests/vm/run.sh quick

# The loop suite with its real clients (Chromium and Firefox, OBS and
# camerabin on a loop), which `make test` leaves out to keep its 30
# minutes (about 4 minutes more under TCG; docs/loopback.md has the last
# result): the whole loop suite in the VM.
test-loop-clients: deps-test build kmod
	./tests/vm/run.sh loop

# Desktop applications as negcamsrc's users, no module (docs/negcamsrc.md,
# "Cheese, end to end"): GNOME's Cheese under Xvfb takes a photo. Also in
# `make test` (suite apps).
test-apps: deps-test build
	./tests/apps/cheese.sh $(BUILD)

# What v4l2-ctl, v4l2src, ffmpeg and OpenCV do under each fault, through
# negcam-run; the table goes into docs/faults.md (about 4 minutes).
test-faults-apps: deps-test build
	./tests/apps/faults-apps.sh $(BUILD) --write docs/faults.md

# What Chromium does under each fault, on negcam-pw through the Camera
# portal; its table goes into docs/faults.md (about 5 minutes).
test-faults-chromium: deps-test build
	./tests/apps/faults-chromium.sh $(BUILD) --write docs/faults.md

# v4l2-compliance -s on negcam.ko with each fault on, in the VM: only the
# failures each fault is meant to cause; the table goes into
# docs/faults.md (about 10 minutes under TCG, so not in `make test`).
test-faults-compliance: deps-test build kmod
	./tests/vm/run.sh --timeout 2400 tests/vm/faults-compliance.sh --write docs/faults.md

# Browsers through the Camera portal on negcam-pw: the portal suite with
# Firefox ESR as well as Chromium (`make test` runs Chromium only;
# tests/pw/portal-suite.sh, docs/pipewire.md).
test-portal: deps-test build
	./tests/pw/portal-suite.sh $(BUILD)

# The CI recipe (examples/ci/github-actions.yml, docs/ci.md) on a pristine
# Debian 12 root, its tests as an unprivileged user (tests/pw/ci-recipe.sh;
# root, downloads: not in `make test`).
test-ci-recipe: deps-test
	./tests/pw/ci-recipe.sh

# Every UVC camera of the shelf served by negcam-uvc behind the real
# uvcvideo, its listing and default format checked, and v4l2-compliance -s
# on logitech-c920 and mjpg-720p60 there (tests/vm/uvc-suite.sh case_shelf,
# case_compliance_shelf), then every format of every shelf camera that UVC
# carries streamed with its stamps in sequence (case_uvc_sweep; docs/cameras.md,
# docs/uvc.md). Not in `make test`.
test-shelf-uvc: deps-test build
	./tests/vm/run.sh --timeout 3600 tests/vm/uvc-suite.sh case_shelf case_compliance_shelf case_uvc_sweep

# negcam-uvc's firmware bugs behind uvcvideo, each with its quirk (the
# USB id in uvcvideo's table, or its quirks parameter) and without
# (tests/vm/uvc-bug-cases.sh; the table in docs/uvc.md); about 5 minutes.
test-uvc-bugs: deps-test build
	./tests/vm/run.sh --timeout 1200 tests/vm/uvc-suite.sh case_firmware_bugs case_uvc_faults

# Every size of `webcam` in YUYV and MJPG from the uvcvideo node through
# v4l2src and negcamsrc (tests/vm/uvc-suite.sh case_sweep; docs/uvc.md).
# Not in `make test`.
test-uvc-sweep: deps-test build
	./tests/vm/run.sh --timeout 1800 tests/vm/uvc-suite.sh case_sweep
# ffmpeg, v4l2src and OpenCV over every camera of the shelf through
# negcam-run (no module, about 4 minutes): the table and its counts into
# docs/matrix.md's generated section; fails when a failure is not explained
# there (tests/run/matrix-shelf.sh).
matrix-shelf: deps-test build
	./tests/run/matrix-shelf.sh $(BUILD)

# Every format of every shelf camera through v4l2-ctl, v4l2src, ffmpeg and
# OpenCV (negcam-run --each-profile --all-formats, no module): the table
# into docs/matrix.md's generated section; fails when a failure is not
# explained there (tests/run/matrix-formats.sh).
matrix-formats: deps-test build
	./tests/run/matrix-formats.sh $(BUILD)

# Every camera of the shelf on negcam.ko in the VM: its listing and
# v4l2-compliance -s (tests/vm/shelf-suite.sh; 40 minutes under TCG on a
# loaded host, so not in `make test`; the last result is in docs/cameras.md),
# then the shelf sweep: every (camera, format) streams with stamps in
# sequence (tests/vm/shelf-sweep-suite.sh; alone: tests/vm/run.sh shelf-sweep).
test-shelf: deps-test build kmod
	NEGCAM_BUILD=$(abspath $(BUILD)) ./tests/vm/run.sh shelf

# As `make test`, plus v4l2-compliance -f on every built-in profile (slow).
test-full: deps-test build kmod
	NEGCAM_FULL=1 ./tests/run-all.sh $(BUILD)

# negcam-uvc --gadget: a usb_f_uvc gadget's control plane through
# usbip-vudc and uvcvideo (docs/uvc.md, "A board as a USB webcam"); about
# 3 minutes with the boot, so not in `make test`.
test-gadget: deps-test build
	./tests/vm/run.sh gadget

# The concurrent ioctl storm on negcam.ko, long (docs/kmod.md, "Storm");
# `make test` runs it for 60 s. STORM_SEED=N replays a seed.
STORM_SECONDS ?= 1800
storm: deps-test build kmod
	NEGCAM_STORM_SECONDS=$(STORM_SECONDS) $(if $(STORM_SEED),NEGCAM_STORM_SEED=$(STORM_SEED)) \
		./tests/vm/run.sh storm $(STORM_WHAT)

# The debug kernel (KASAN, lockdep, kmemleak, UBSAN, KFENCE...) for the VM
# harness, built once per machine into ~/.cache/negcam/debug-kernel (about
# an hour at nice 19 on 2 cores; installs linux-source-6.1, which deps does
# not). See docs/kmod.md.
debug-kernel:
	./tests/vm/debug-kernel.sh

# Not part of test: the detector proof, the whole VM suite and a 30-minute
# storm, all on the debug kernel (each runs even when one before failed).
test-debug: deps-test build debug-kernel
	@rc=0; \
	./tests/vm/run.sh --kernel debug detect || rc=1; \
	./tests/vm/run.sh --kernel debug quick || rc=1; \
	./tests/vm/run.sh --kernel debug peer || rc=1; \
	$(MAKE) --no-print-directory test-debug-storm || rc=1; \
	exit $$rc

# The storm half of test-debug (issue 15 item 2): tests/vm/run.sh storm for
# NEGCAM_STORM_SECONDS (default 1800 here) on the debug kernel.
NEGCAM_STORM_SECONDS ?= 1800
test-debug-storm: debug-kernel
	NEGCAM_STORM_SECONDS=$(NEGCAM_STORM_SECONDS) NEGCAM_STORM_HANG=30 ./tests/vm/run.sh --kernel debug storm

fuzz: deps
	./tests/fuzz/run.sh long

bench: deps-test build kmod
	./tests/bench/run.sh $(BUILD)

# The Debian packages (debian/, docs/install.md): dpkg-buildpackage -us -uc
# -b in a clean copy of the checkout (the files git tracks or would add,
# none it ignores: no build dirs, no kmod objects) under DEB_DIR, after
# installing what debian/control's Build-Depends lists (apt-get build-dep,
# as deps does: only when missing); the .debs end up in DEB_DIR, then
# lintian checks them (an error fails make deb).
DEB_DIR ?= build-deb
deb:
	$(call install_missing,dpkg-dev git lintian)
	@dpkg-checkbuilddeps 2>/dev/null || { echo "make deb: installing the build dependencies"; \
		$(SUDO) apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get build-dep -y -q --no-install-recommends ./; }
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	git ls-files -z --cached --others --exclude-standard | \
		tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -x -C $(DEB_DIR)/src
	cd $(DEB_DIR)/src && dpkg-buildpackage -us -uc -b
	lintian --info $(DEB_DIR)/*.changes

clean:
	rm -rf $(BUILD) build-fuzz tests/vm/out
	-$(MAKE) -C kmod clean
