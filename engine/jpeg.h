/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Internal to the frame generator: a baseline JPEG encoder for the
 * generator's pictures (scene.h). Not part of the engine API.
 */
#ifndef NEGCAM_JPEG_H
#define NEGCAM_JPEG_H

#include "compat.h"

struct nc_scene;

/*
 * Encode the scene as a baseline JPEG (4:2:0, fixed quality) into @dst.
 * Returns its length or -ENOSPC; never writes past @dst_size.
 */
long nc_jpeg_encode(const struct nc_scene *s, __u8 *dst, __u32 dst_size);

#endif /* NEGCAM_JPEG_H */
