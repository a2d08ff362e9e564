/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A profile as a high-speed USB Video Class 1.1 camera's descriptors:
 * the device, its qualifier, the strings and the one configuration
 * (an interface association, a VideoControl interface with a camera
 * terminal, a processing unit and an output terminal, a VideoStreaming
 * interface with the profile's formats and isochronous alternate
 * settings), and the map from UVC format and frame indexes back to the
 * profile. Formats UVC cannot carry, and sizes it cannot describe, are
 * left out with a warning naming them.
 */
#ifndef NEGCAM_UVC_DESCRIPTORS_H
#define NEGCAM_UVC_DESCRIPTORS_H

#include <stdbool.h>
#include <stdint.h>

#include "profile.h"

#define NC_UVC_MAX_FORMATS 16
#define NC_UVC_MAX_FRAMES 64
#define NC_UVC_MAX_INTERVALS 32
#define NC_UVC_CONFIG_MAX 65535
#define NC_UVC_NALTS 8      /* isochronous alternate settings 1..NC_UVC_NALTS */
#define NC_UVC_CLOCK_HZ 48000000u

/* Interfaces, entities and the endpoint. */
#define NC_UVC_IF_VC 0
#define NC_UVC_IF_VS 1
#define NC_UVC_ID_CAMERA 1
#define NC_UVC_ID_PU 2
#define NC_UVC_ID_OUTPUT 3
#define NC_UVC_EP_IN 0x81

/* Format descriptor subtypes (nc_uvc_format.subtype; UVC 1.1 appendix A.6). */
#define NC_UVC_FORMAT_UNCOMPRESSED 0x04
#define NC_UVC_FORMAT_MJPEG 0x06
#define NC_UVC_FORMAT_FRAME_BASED 0x10

/* A processing-unit control bit in bmControls (UVC 1.1 table 3-8). */
#define NC_UVC_PU_BRIGHTNESS_BIT 0
#define NC_UVC_PU_CONTRAST_BIT 1
#define NC_UVC_PU_SATURATION_BIT 3
#define NC_UVC_PU_SHARPNESS_BIT 4

/* One UVC frame: a discrete size of the profile and its intervals (100 ns units). */
struct nc_uvc_frame {
	uint16_t width, height;
	uint16_t size_index; /* into profile->sizes */
	uint8_t nintervals;  /* 0: continuous, min, max, step in interval[0..2] */
	uint32_t interval[NC_UVC_MAX_INTERVALS];
	uint32_t def_interval;
};

struct nc_uvc_format {
	uint32_t fourcc;
	uint16_t profile_format; /* into profile->formats */
	uint8_t subtype;         /* VS_FORMAT_UNCOMPRESSED, _MJPEG or _FRAME_BASED */
	uint8_t nframes, def_frame; /* def_frame is 1-based */
	struct nc_uvc_frame frames[NC_UVC_MAX_FRAMES];
};

struct nc_uvc_identity {
	uint16_t vendor, product, bcd_device;
	char manufacturer[NC_NAME_LEN], name[NC_NAME_LEN], serial[NC_NAME_LEN];
};

struct nc_uvc_desc {
	struct nc_uvc_identity id;
	uint8_t device[18], qualifier[10];
	uint8_t config[NC_UVC_CONFIG_MAX];
	uint32_t config_len;
	uint8_t nformats, def_format; /* def_format is 1-based */
	struct nc_uvc_format formats[NC_UVC_MAX_FORMATS];
	uint32_t alt_psize[NC_UVC_NALTS + 1]; /* bytes per microframe; [0] = 0 */
	uint32_t bugs;       /* the profile's uvc-bugs (NC_UVC_BUG_*) the descriptors carry */
	char warnings[2048]; /* one line per format or size left out */
};

/*
 * The identity of @p's camera: the profile's usb-id, else Linux Foundation
 * 1d6b:0104; manufacturer "negcam", product the card (else the name).
 */
void nc_uvc_profile_identity(const struct negcam_profile *p, struct nc_uvc_identity *id);

/*
 * Build every descriptor of @p with identity @id into @d. Returns 0, or
 * -EINVAL when not one format of @p can be carried (d->warnings says why).
 */
int nc_uvc_build_descriptors(struct nc_uvc_desc *d, const struct negcam_profile *p,
			     const struct nc_uvc_identity *id);

/* Format @index (1-based, as UVC numbers formats) of @d, or NULL when @d has none of that index. */
const struct nc_uvc_format *nc_uvc_desc_format(const struct nc_uvc_desc *d, unsigned int index);

/* String descriptor @index (0: the language list) into @out (255 bytes); its length or -1. */
int nc_uvc_string_descriptor(const struct nc_uvc_desc *d, unsigned int index, uint8_t *out);

/* A fraction of a second in 100 ns units (UVC's interval unit), rounded. */
uint32_t nc_uvc_fract_to_100ns(struct v4l2_fract f);

/* A frame's buffer size (dwMaxVideoFrameBufferSize, the frame as uvcvideo
 * lays it out) and its bit rates at its longest and shortest interval. */
struct nc_uvc_frame_sizes {
	uint32_t bytes, min_bit_rate, max_bit_rate;
};
void nc_uvc_frame_sizes(const struct nc_uvc_format *uf, unsigned int i, struct nc_uvc_frame_sizes *fs);

/* The GUID of an uncompressed or frame-based @fourcc into @guid, and its
 * bits per pixel; 0 (and a zero GUID) for MJPEG and fourccs UVC lacks. */
uint8_t nc_uvc_format_guid(uint32_t fourcc, uint8_t guid[16]);

#endif /* NEGCAM_UVC_DESCRIPTORS_H */
