/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The one profile loader of every user-space program (negcam-ctl,
 * negcam-run, libnegcam-preload.so, negcamsrc's embedded device): "a
 * built-in name, else a file, else a camera of the shelf". Files are read by read-file.h's one
 * reader, regular files only (a FIFO nobody writes to is refused at once,
 * never waited on), of at most NC_LOAD_MAX_BYTES, and text: no NUL byte, valid UTF-8
 * (binary data is never quoted back in a message).
 */
#ifndef NEGCAM_PROFILE_LOAD_H
#define NEGCAM_PROFILE_LOAD_H

#include <stddef.h>

#include "profile.h"
#include "read-file.h"

#define NC_LOAD_MAX_BYTES NC_READ_MAX_BYTES

/* What went wrong: the file (or the name), or the text. */
#define NC_LOAD_EFILE (-1)
#define NC_LOAD_EPARSE (-2)

/*
 * Parse @spec into @out. Returns 0, or NC_LOAD_EFILE / NC_LOAD_EPARSE with
 * a message in words in @msg (@msglen bytes): "SPEC:LINE:COL: message"
 * for a parse error, else "SPEC: " and what made the file unusable (the
 * built-in names are listed when SPEC is neither).
 */
int negcam_profile_load(const char *spec, struct negcam_profile *out, char *msg, size_t msglen);

/*
 * A list of faults alone (docs/faults.md: "drop 5%; seed 3" or 'fault'
 * lines), from the regular file @path, into @out; errors as
 * negcam_profile_load() words them ("PATH:LINE:COL: message").
 */
int negcam_faults_load(const char *path, struct negcam_faults *out, char *msg, size_t msglen);

/*
 * The camera shelf's directory (docs/cameras.md): $NEGCAM_SHELF_DIR, else
 * <dir of the running program>/../data/cameras (the build tree), else
 * <datadir>/negcam/cameras as installed; NULL when none exists. @buf
 * (@len bytes) may hold the answer. negcam_profile_load() finds NAME
 * there as NAME.profile when NAME is neither built in nor a file.
 */
const char *negcam_shelf_dir(char *buf, size_t len);

/* The same for @len bytes of @text already read, named @label in messages. */
int negcam_profile_load_text(const char *label, const char *text, size_t len,
			     struct negcam_profile *out, char *msg, size_t msglen);

#endif /* NEGCAM_PROFILE_LOAD_H */
