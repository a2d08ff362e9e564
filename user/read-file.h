/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The one reader of profile files and listings for every user-space
 * program: negcam-ctl (--profile, --validate, --import), and through
 * profile-load.c negcam-run, libnegcam-preload.so and negcamsrc's
 * embedded device. A file is read whole into memory, at most
 * NC_READ_MAX_BYTES (a larger one, /dev/zero, fails fast), and never
 * waited on forever:
 *  - by default only a regular file is read; a FIFO, device or socket is
 *    refused at once, without blocking (a library inside someone's
 *    program must not wait for a writer);
 *  - with NC_READ_STREAMS (negcam-ctl's --import and --validate, which a
 *    shell may feed from a pipe) a FIFO or device is opened without
 *    blocking and read with a timeout per wait, and "-" is standard input,
 *    read as given.
 */
#ifndef NEGCAM_READ_FILE_H
#define NEGCAM_READ_FILE_H

#include <stddef.h>
#include <sys/types.h>

#define NC_READ_MAX_BYTES (64u << 20)

#define NC_READ_STREAMS 0x1 /* FIFOs and devices with a timeout, "-" standard input */

/* Where a read failed: the caller words its message from it. */
enum nc_read_stage {
	NC_READ_OK,
	NC_READ_OPEN,     /* open() or fstat(), or a directory (err EISDIR) */
	NC_READ_NOT_REGULAR, /* not a regular file and no NC_READ_STREAMS: see mode */
	NC_READ_DATA,     /* read(), the cap (err EFBIG), a silent FIFO (ETIMEDOUT), ENOMEM */
};

struct nc_read {
	char *text; /* malloc'd, @len bytes and a NUL; NULL on failure */
	size_t len;
	enum nc_read_stage stage;
	int err;     /* an errno when stage is not NC_READ_OK */
	mode_t mode; /* the file's type, when fstat() got that far */
};

/*
 * Reads @path whole into @r (@flags NC_READ_*; @timeout_ms the longest wait
 * for a FIFO or device with NC_READ_STREAMS). Returns 0, or -1 with @r's
 * stage and err set. The caller frees r->text.
 */
int nc_read_file(const char *path, unsigned int flags, int timeout_ms, struct nc_read *r);

#endif /* NEGCAM_READ_FILE_H */
