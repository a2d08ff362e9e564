// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A small baseline JPEG encoder for the generator's pictures: JFIF,
 * 4:2:0 (16x16 MCUs), fixed quality (the Annex K tables scaled as a
 * quality of 85 would scale them), the Annex K Huffman tables, an
 * integer DCT. No floats, no allocation, under 1 KiB of stack.
 *
 * A restart marker closes every MCU row, so every row starts from fresh
 * DC predictors on a byte boundary. Rows that hold only background are
 * all identical (the background does not change down the picture), so
 * the first one is encoded and the others are copies of its bytes: only
 * the stamp's and the box's MCU rows cost DCTs.
 */
#include "jpeg.h"
#include "scene.h"

/* Tables generated once from ITU-T T.81 Annex K. */
static const __u8 nc_jpeg_qluma[64] = {
	5, 3, 3, 5, 7, 12, 15, 18,
	4, 4, 4, 6, 8, 17, 18, 17,
	4, 4, 5, 7, 12, 17, 21, 17,
	4, 5, 7, 9, 15, 26, 24, 19,
	5, 7, 11, 17, 20, 33, 31, 23,
	7, 11, 17, 19, 24, 31, 34, 28,
	15, 19, 23, 26, 31, 36, 36, 30,
	22, 28, 29, 29, 34, 30, 31, 30,
};
static const __u8 nc_jpeg_qchroma[64] = {
	5, 5, 7, 14, 30, 30, 30, 30,
	5, 6, 8, 20, 30, 30, 30, 30,
	7, 8, 17, 30, 30, 30, 30, 30,
	14, 20, 30, 30, 30, 30, 30, 30,
	30, 30, 30, 30, 30, 30, 30, 30,
	30, 30, 30, 30, 30, 30, 30, 30,
	30, 30, 30, 30, 30, 30, 30, 30,
	30, 30, 30, 30, 30, 30, 30, 30,
};
static const __u8 nc_jpeg_zigzag[64] = {
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};
static const __u8 nc_jpeg_bits_dc_luma[16] = {
	0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0,
};
static const __u8 nc_jpeg_vals_dc_luma[12] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
};
static const __u16 nc_jpeg_code_dc_luma[12] = {
	0, 2, 3, 4, 5, 6, 14, 30, 62, 126, 254, 510,
};
static const __u8 nc_jpeg_size_dc_luma[12] = {
	2, 3, 3, 3, 3, 3, 4, 5, 6, 7, 8, 9,
};
static const __u8 nc_jpeg_bits_ac_luma[16] = {
	0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125,
};
static const __u8 nc_jpeg_vals_ac_luma[162] = {
	0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06,
	0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08,
	0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72,
	0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
	0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45,
	0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
	0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75,
	0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
	0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
	0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
	0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9,
	0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
	0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4,
	0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
};
static const __u16 nc_jpeg_code_ac_luma[256] = {
	10, 0, 1, 4, 11, 26, 120, 248, 1014, 65410, 65411, 0,
	0, 0, 0, 0, 0, 12, 27, 121, 502, 2038, 65412, 65413,
	65414, 65415, 65416, 0, 0, 0, 0, 0, 0, 28, 249, 1015,
	4084, 65417, 65418, 65419, 65420, 65421, 65422, 0, 0, 0, 0, 0,
	0, 58, 503, 4085, 65423, 65424, 65425, 65426, 65427, 65428, 65429, 0,
	0, 0, 0, 0, 0, 59, 1016, 65430, 65431, 65432, 65433, 65434,
	65435, 65436, 65437, 0, 0, 0, 0, 0, 0, 122, 2039, 65438,
	65439, 65440, 65441, 65442, 65443, 65444, 65445, 0, 0, 0, 0, 0,
	0, 123, 4086, 65446, 65447, 65448, 65449, 65450, 65451, 65452, 65453, 0,
	0, 0, 0, 0, 0, 250, 4087, 65454, 65455, 65456, 65457, 65458,
	65459, 65460, 65461, 0, 0, 0, 0, 0, 0, 504, 32704, 65462,
	65463, 65464, 65465, 65466, 65467, 65468, 65469, 0, 0, 0, 0, 0,
	0, 505, 65470, 65471, 65472, 65473, 65474, 65475, 65476, 65477, 65478, 0,
	0, 0, 0, 0, 0, 506, 65479, 65480, 65481, 65482, 65483, 65484,
	65485, 65486, 65487, 0, 0, 0, 0, 0, 0, 1017, 65488, 65489,
	65490, 65491, 65492, 65493, 65494, 65495, 65496, 0, 0, 0, 0, 0,
	0, 1018, 65497, 65498, 65499, 65500, 65501, 65502, 65503, 65504, 65505, 0,
	0, 0, 0, 0, 0, 2040, 65506, 65507, 65508, 65509, 65510, 65511,
	65512, 65513, 65514, 0, 0, 0, 0, 0, 0, 65515, 65516, 65517,
	65518, 65519, 65520, 65521, 65522, 65523, 65524, 0, 0, 0, 0, 0,
	2041, 65525, 65526, 65527, 65528, 65529, 65530, 65531, 65532, 65533, 65534, 0,
	0, 0, 0, 0,
};
static const __u8 nc_jpeg_size_ac_luma[256] = {
	4, 2, 2, 3, 4, 5, 7, 8, 10, 16, 16, 0, 0, 0, 0, 0,
	0, 4, 5, 7, 9, 11, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 5, 8, 10, 12, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 6, 9, 12, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 6, 10, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 7, 11, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 7, 12, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 8, 12, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 9, 15, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 9, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 9, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 10, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 10, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 11, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	11, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
};
static const __u8 nc_jpeg_bits_dc_chroma[16] = {
	0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
};
static const __u8 nc_jpeg_vals_dc_chroma[12] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
};
static const __u16 nc_jpeg_code_dc_chroma[12] = {
	0, 1, 2, 6, 14, 30, 62, 126, 254, 510, 1022, 2046,
};
static const __u8 nc_jpeg_size_dc_chroma[12] = {
	2, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
};
static const __u8 nc_jpeg_bits_ac_chroma[16] = {
	0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 119,
};
static const __u8 nc_jpeg_vals_ac_chroma[162] = {
	0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41,
	0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91,
	0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1,
	0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
	0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44,
	0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
	0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74,
	0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
	0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a,
	0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4,
	0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
	0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
	0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4,
	0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
};
static const __u16 nc_jpeg_code_ac_chroma[256] = {
	0, 1, 4, 10, 24, 25, 56, 120, 500, 1014, 4084, 0,
	0, 0, 0, 0, 0, 11, 57, 246, 501, 2038, 4085, 65416,
	65417, 65418, 65419, 0, 0, 0, 0, 0, 0, 26, 247, 1015,
	4086, 32706, 65420, 65421, 65422, 65423, 65424, 0, 0, 0, 0, 0,
	0, 27, 248, 1016, 4087, 65425, 65426, 65427, 65428, 65429, 65430, 0,
	0, 0, 0, 0, 0, 58, 502, 65431, 65432, 65433, 65434, 65435,
	65436, 65437, 65438, 0, 0, 0, 0, 0, 0, 59, 1017, 65439,
	65440, 65441, 65442, 65443, 65444, 65445, 65446, 0, 0, 0, 0, 0,
	0, 121, 2039, 65447, 65448, 65449, 65450, 65451, 65452, 65453, 65454, 0,
	0, 0, 0, 0, 0, 122, 2040, 65455, 65456, 65457, 65458, 65459,
	65460, 65461, 65462, 0, 0, 0, 0, 0, 0, 249, 65463, 65464,
	65465, 65466, 65467, 65468, 65469, 65470, 65471, 0, 0, 0, 0, 0,
	0, 503, 65472, 65473, 65474, 65475, 65476, 65477, 65478, 65479, 65480, 0,
	0, 0, 0, 0, 0, 504, 65481, 65482, 65483, 65484, 65485, 65486,
	65487, 65488, 65489, 0, 0, 0, 0, 0, 0, 505, 65490, 65491,
	65492, 65493, 65494, 65495, 65496, 65497, 65498, 0, 0, 0, 0, 0,
	0, 506, 65499, 65500, 65501, 65502, 65503, 65504, 65505, 65506, 65507, 0,
	0, 0, 0, 0, 0, 2041, 65508, 65509, 65510, 65511, 65512, 65513,
	65514, 65515, 65516, 0, 0, 0, 0, 0, 0, 16352, 65517, 65518,
	65519, 65520, 65521, 65522, 65523, 65524, 65525, 0, 0, 0, 0, 0,
	1018, 32707, 65526, 65527, 65528, 65529, 65530, 65531, 65532, 65533, 65534, 0,
	0, 0, 0, 0,
};
static const __u8 nc_jpeg_size_ac_chroma[256] = {
	2, 2, 3, 4, 5, 5, 6, 7, 9, 10, 12, 0, 0, 0, 0, 0,
	0, 4, 6, 8, 9, 11, 12, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 5, 8, 10, 12, 15, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 5, 8, 10, 12, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 6, 9, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 6, 10, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 7, 11, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 7, 11, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 8, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 9, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 9, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 9, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 9, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 11, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	0, 14, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
	10, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 0, 0, 0, 0, 0,
};
static const __s16 nc_jpeg_dct[64] = {
	2896, 2896, 2896, 2896, 2896, 2896, 2896, 2896,
	4017, 3406, 2276, 799, -799, -2276, -3406, -4017,
	3784, 1567, -1567, -3784, -3784, -1567, 1567, 3784,
	3406, -799, -4017, -2276, 2276, 4017, 799, -3406,
	2896, -2896, -2896, 2896, 2896, -2896, -2896, 2896,
	2276, -4017, 799, 3406, -3406, -799, 4017, -2276,
	1567, -3784, 3784, -1567, -1567, 3784, -3784, 1567,
	799, -2276, 3406, -4017, 4017, -3406, 2276, -799,
};

struct nc_jw {
	__u8 *d;
	__u32 pos, size;
	__u32 acc;  /* pending bits, right-aligned */
	__u32 nbits;
	bool full;
};

static void nc_jw_byte(struct nc_jw *w, __u8 v)
{
	if (w->pos < w->size)
		w->d[w->pos++] = v;
	else
		w->full = true;
}

static void nc_jw_u16(struct nc_jw *w, __u32 v)
{
	nc_jw_byte(w, (__u8)(v >> 8));
	nc_jw_byte(w, (__u8)v);
}

static void nc_jw_bytes(struct nc_jw *w, const __u8 *v, __u32 n)
{
	if (w->size - w->pos < n) {
		w->full = true;
		w->pos = w->size;
		return;
	}
	memcpy(w->d + w->pos, v, n);
	w->pos += n;
}

/* Entropy-coded bits, with a zero byte stuffed after every 0xff. */
static void nc_jw_bits(struct nc_jw *w, __u32 code, __u32 len)
{
	w->acc = (w->acc << len) | (code & ((1u << len) - 1));
	w->nbits += len;
	while (w->nbits >= 8) {
		__u8 b = (__u8)(w->acc >> (w->nbits - 8));

		nc_jw_byte(w, b);
		if (b == 0xff)
			nc_jw_byte(w, 0);
		w->nbits -= 8;
	}
	w->acc &= (1u << w->nbits) - 1;
}

/* Pad the last byte with ones, as T.81 F.1.2.3 asks. */
static void nc_jw_flush(struct nc_jw *w)
{
	if (w->nbits)
		nc_jw_bits(w, 0x7f, 8 - w->nbits);
}

static void nc_jw_dht(struct nc_jw *w, __u8 id, const __u8 *bits, const __u8 *vals)
{
	__u32 i, n = 0;

	for (i = 0; i < 16; i++)
		n += bits[i];
	nc_jw_byte(w, id);
	nc_jw_bytes(w, bits, 16);
	nc_jw_bytes(w, vals, n);
}

static void nc_jw_headers(struct nc_jw *w, __u32 width, __u32 height, __u32 ri)
{
	static const __u8 app0[] = {
		0xff, 0xd8,                   /* SOI */
		0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1,
		0, 0, 1, 0, 1, 0, 0,          /* no units, 1:1, no thumbnail */
	};
	static const __u8 sos[] = {
		0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0,
	};
	__u32 i;

	nc_jw_bytes(w, app0, sizeof(app0));

	nc_jw_u16(w, 0xffdb); /* DQT, both tables in zigzag order */
	nc_jw_u16(w, 2 + 2 * 65);
	nc_jw_byte(w, 0);
	for (i = 0; i < 64; i++)
		nc_jw_byte(w, nc_jpeg_qluma[nc_jpeg_zigzag[i]]);
	nc_jw_byte(w, 1);
	for (i = 0; i < 64; i++)
		nc_jw_byte(w, nc_jpeg_qchroma[nc_jpeg_zigzag[i]]);

	nc_jw_u16(w, 0xffc0); /* SOF0: Y 2x2 with table 0, Cb and Cr 1x1 with table 1 */
	nc_jw_u16(w, 17);
	nc_jw_byte(w, 8);
	nc_jw_u16(w, height);
	nc_jw_u16(w, width);
	nc_jw_byte(w, 3);
	nc_jw_byte(w, 1);
	nc_jw_byte(w, 0x22);
	nc_jw_byte(w, 0);
	nc_jw_byte(w, 2);
	nc_jw_byte(w, 0x11);
	nc_jw_byte(w, 1);
	nc_jw_byte(w, 3);
	nc_jw_byte(w, 0x11);
	nc_jw_byte(w, 1);

	nc_jw_u16(w, 0xffc4); /* DHT */
	nc_jw_u16(w, 2 + 4 * 17 + 12 + 162 + 12 + 162);
	nc_jw_dht(w, 0x00, nc_jpeg_bits_dc_luma, nc_jpeg_vals_dc_luma);
	nc_jw_dht(w, 0x10, nc_jpeg_bits_ac_luma, nc_jpeg_vals_ac_luma);
	nc_jw_dht(w, 0x01, nc_jpeg_bits_dc_chroma, nc_jpeg_vals_dc_chroma);
	nc_jw_dht(w, 0x11, nc_jpeg_bits_ac_chroma, nc_jpeg_vals_ac_chroma);

	nc_jw_u16(w, 0xffdd); /* DRI: one restart interval per MCU row */
	nc_jw_u16(w, 4);
	nc_jw_u16(w, ri);

	nc_jw_bytes(w, sos, sizeof(sos));
}

static __s32 nc_div_round(__s32 v, __s32 q)
{
	return v >= 0 ? (v + q / 2) / q : -((-v + q / 2) / q);
}

/*
 * Forward DCT and quantisation of the 8x8 samples at @src (line stride
 * @stride) into @out, natural order. Separable, with the basis scaled by
 * 2^13; a flat block (most of them) is its DC term alone.
 */
static void nc_fdct(const __u8 *src, __u32 stride, const __u8 *qt, __s16 *out)
{
	__s32 tmp[64];
	__u32 x, y, u, v;
	bool flat = true;
	__s32 sum;

	for (y = 0; y < 8 && flat; y++)
		for (x = 0; x < 8; x++)
			if (src[y * stride + x] != src[0]) {
				flat = false;
				break;
			}
	if (flat) {
		memset(out, 0, 64 * sizeof(*out));
		out[0] = (__s16)nc_div_round(((__s32)src[0] - 128) * 8, qt[0]);
		return;
	}
	for (y = 0; y < 8; y++) {
		const __u8 *row = src + y * stride;

		for (u = 0; u < 8; u++) {
			const __s16 *t = &nc_jpeg_dct[u * 8];

			sum = 0;
			for (x = 0; x < 8; x++)
				sum += t[x] * ((__s32)row[x] - 128);
			tmp[y * 8 + u] = (sum + (1 << 9)) >> 10; /* keep 3 fraction bits */
		}
	}
	for (u = 0; u < 8; u++) {
		for (v = 0; v < 8; v++) {
			const __s16 *t = &nc_jpeg_dct[v * 8];

			sum = 0;
			for (y = 0; y < 8; y++)
				sum += t[y] * tmp[y * 8 + u];
			sum = (sum + (1 << 15)) >> 16;
			out[v * 8 + u] = (__s16)nc_div_round(sum, qt[v * 8 + u]);
		}
	}
}

static __u32 nc_bitlen(__u32 v)
{
	__u32 n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* Huffman-code one quantised block; @pred is the component's DC predictor. */
static void nc_jpeg_block(struct nc_jw *w, const __s16 *coef, __s32 *pred,
			  bool chroma)
{
	const __u16 *dcc = chroma ? nc_jpeg_code_dc_chroma : nc_jpeg_code_dc_luma;
	const __u8 *dcs = chroma ? nc_jpeg_size_dc_chroma : nc_jpeg_size_dc_luma;
	const __u16 *acc = chroma ? nc_jpeg_code_ac_chroma : nc_jpeg_code_ac_luma;
	const __u8 *acs = chroma ? nc_jpeg_size_ac_chroma : nc_jpeg_size_ac_luma;
	__s32 diff = coef[0] - *pred, v;
	__u32 cat, k, run = 0, sym;

	*pred = coef[0];
	cat = nc_bitlen(diff < 0 ? -diff : diff);
	nc_jw_bits(w, dcc[cat], dcs[cat]);
	if (cat)
		nc_jw_bits(w, (__u32)(diff < 0 ? diff - 1 : diff), cat);

	for (k = 1; k < 64; k++) {
		v = coef[nc_jpeg_zigzag[k]];
		if (!v) {
			run++;
			continue;
		}
		while (run > 15) {
			nc_jw_bits(w, acc[0xf0], acs[0xf0]); /* ZRL */
			run -= 16;
		}
		cat = nc_bitlen(v < 0 ? -v : v);
		if (cat > 10)
			cat = 10;
		sym = (run << 4) | cat;
		nc_jw_bits(w, acc[sym], acs[sym]);
		nc_jw_bits(w, (__u32)(v < 0 ? v - 1 : v), cat);
		run = 0;
	}
	if (run)
		nc_jw_bits(w, acc[0x00], acs[0x00]); /* EOB */
}

/*
 * One 16x16 MCU: the scene's colours, edges replicated past the picture.
 * Colours change only on 4-pixel boundaries, so each 2x2 is one colour
 * and its top-left pixel gives the chroma sample.
 */
static void nc_jpeg_mcu(struct nc_jw *w, const struct nc_scene *s, __u32 mx,
			__u32 my, __s32 *pred)
{
	__u8 pix[384];
	__s16 coef[64];
	__u32 i;

	nc_scene_mb420(s, mx, my, pix);
	for (i = 0; i < 4; i++) {
		nc_fdct(&pix[(i >> 1) * 128 + (i & 1) * 8], 16, nc_jpeg_qluma, coef);
		nc_jpeg_block(w, coef, &pred[0], false);
	}
	for (i = 0; i < 2; i++) {
		nc_fdct(&pix[256 + 64 * i], 8, nc_jpeg_qchroma, coef);
		nc_jpeg_block(w, coef, &pred[1 + i], true);
	}
}

long nc_jpeg_encode(const struct nc_scene *s, __u8 *dst, __u32 dst_size)
{
	struct nc_jw w = { .d = dst, .size = dst_size };
	__u32 mcux = (s->width + 15) / 16, mcuy = (s->height + 15) / 16;
	__u32 mx, my, y1, start, plain_pos = 0, plain_len = 0;
	__s32 pred[3];
	bool plain;

	nc_jw_headers(&w, s->width, s->height, mcux);
	for (my = 0; my < mcuy && !w.full; my++) {
		y1 = my * 16 + 16 < s->height ? my * 16 + 16 : s->height;
		plain = nc_scene_plain_rows(s, my * 16, y1);
		if (plain && plain_len) {
			nc_jw_bytes(&w, dst + plain_pos, plain_len);
		} else {
			start = w.pos;
			pred[0] = pred[1] = pred[2] = 0;
			for (mx = 0; mx < mcux; mx++)
				nc_jpeg_mcu(&w, s, mx, my, pred);
			nc_jw_flush(&w);
			if (plain && !w.full) {
				plain_pos = start;
				plain_len = w.pos - start;
			}
		}
		if (my + 1 < mcuy)
			nc_jw_u16(&w, 0xffd0 + (my & 7)); /* RSTm */
	}
	nc_jw_u16(&w, 0xffd9); /* EOI */
	return w.full ? -ENOSPC : (long)w.pos;
}
