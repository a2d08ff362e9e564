// SPDX-License-Identifier: GPL-2.0-only
/*
 * engine/parse-format.c compiled unchanged into negcam.ko. Including it from here
 * keeps its object and Kbuild state in kmod/, where "make clean" finds them.
 */
#include "../engine/parse-format.c"
