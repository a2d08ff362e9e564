/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The user-space profile loader: "a built-in name, else a file". Files
 * are opened non-blocking (a FIFO nobody writes to is refused at once),
 * must be regular files and at most NC_LOAD_MAX_BYTES long. Meant to be
 * shared by every user-space program (negcam-run, libnegcam-preload.so;
 * later negcam-ctl and negcamsrc's embedded device).
 */
#ifndef NEGCAM_PROFILE_LOAD_H
#define NEGCAM_PROFILE_LOAD_H

#include <stddef.h>

#include "profile.h"

#define NC_LOAD_MAX_BYTES (64u << 20)

/*
 * Parse @spec into @out. Returns 0, or -1 with a message in words in @msg
 * (@msglen bytes): "SPEC:LINE:COL: message" for a parse error, else what
 * made the file unreadable.
 */
int negcam_profile_load(const char *spec, struct negcam_profile *out, char *msg, size_t msglen);

#endif /* NEGCAM_PROFILE_LOAD_H */
