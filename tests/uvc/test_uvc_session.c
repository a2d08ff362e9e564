// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The serving session (uvc/uvc-session.h) on the host, no kernel: the
 * test is the host at the other end of a socket pair, in place of
 * vhci-hcd. It checks that the session answers commands, one of them
 * split across two writes; tells the commit hook about each new COMMIT
 * once; answers an isochronous URB at its bus time with frames from the
 * frame hook; takes the lock hooks in pairs; ends when the stop hook says
 * so after a wake-up (the detach itself fails here: no vhci-hcd port);
 * and ends as "host left" when the host closes its end. With the faults
 * control file (negcam-uvc --faults FILE, uvc/uvc-fault-watch.h) looked
 * at from the stop hook as negcam-uvc does, the payloads the host
 * collects change: written mid-stream, `error 100%` puts the ERR bit on
 * the next frames, `drop 100%` loses them (one payload each, ERR and
 * EOF); a list that does not parse is said once with FILE:LINE:COL and
 * changes nothing; FILE removed, the profile's faults (none) are back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../engine/check.h"
#include "profile-text.h"
#include "uvc-bytes.h"
#include "uvc-fault-watch.h"
#include "uvc-session.h"

/* What the hooks saw (the session's thread writes, the test reads). */
struct seen {
	atomic_int stop, commits, frames, locks, unlocks, locked;
	struct nc_uvc_params last; /* written before commits is raised */
	uint32_t frame_width;
};

static struct seen seen;

static bool stop_hook(void *ctx)
{
	return atomic_load(&((struct seen *)ctx)->stop) != 0;
}

static void commit_hook(void *ctx, const struct nc_uvc_params *c)
{
	struct seen *s = ctx;

	CHECK(!atomic_load(&s->locked), "the commit hook runs with no lock held");
	s->last = *c;
	atomic_fetch_add(&s->commits, 1);
}

static long frame_hook(void *ctx, const struct v4l2_pix_format *fmt, uint32_t frame_no,
		       uint8_t *buf, uint32_t cap)
{
	struct seen *s = ctx;

	(void)frame_no;
	CHECK(atomic_load(&s->locked), "the frame hook runs under the lock");
	if (fmt->sizeimage > cap)
		return 0;
	s->frame_width = fmt->width;
	memset(buf, 0x5a, fmt->sizeimage);
	atomic_fetch_add(&s->frames, 1);
	return fmt->sizeimage;
}

static void lock_hook(void *ctx)
{
	struct seen *s = ctx;

	atomic_fetch_add(&s->locks, 1);
	atomic_store(&s->locked, 1);
}

static void unlock_hook(void *ctx)
{
	struct seen *s = ctx;

	atomic_store(&s->locked, 0);
	atomic_fetch_add(&s->unlocks, 1);
}

/* The attached port, as vhci-attach.c fills it: the core sends to port.fd. */
static struct nc_vhci port;

struct run {
	struct nc_uvc_dev *dev;
	struct nc_uvc_session_hooks hooks;
	int end;
};

static void *session_thread(void *arg)
{
	struct run *r = arg;

	r->end = nc_uvc_session_run(r->dev, &port, &r->hooks);
	return NULL;
}

/* A CMD_SUBMIT header: @dir, endpoint @ep, @tbl bytes, @np iso packets. */
static void submit(uint8_t *b, uint32_t seq, uint32_t dir, uint32_t ep, int32_t tbl, int32_t np,
		   const uint8_t setup[8])
{
	memset(b, 0, USBIP_HDR_LEN);
	nc_uvc_put_be32(b, USBIP_CMD_SUBMIT);
	nc_uvc_put_be32(b + 4, seq);
	nc_uvc_put_be32(b + 12, dir);
	nc_uvc_put_be32(b + 16, ep);
	nc_uvc_put_be32(b + 24, (uint32_t)tbl);
	nc_uvc_put_be32(b + 32, (uint32_t)np);
	nc_uvc_put_be32(b + 36, 1);
	if (setup)
		memcpy(b + 40, setup, 8);
}

/* Read exactly @n bytes within 2 s; false on a timeout or the end. */
static bool read_full(int fd, uint8_t *buf, size_t n)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t got;

	while (n) {
		if (poll(&p, 1, 2000) != 1)
			return false;
		got = read(fd, buf, n);
		if (got <= 0)
			return false;
		buf += got;
		n -= (size_t)got;
	}
	return true;
}

/* A RET_SUBMIT header for @seq with status 0; false when none came. */
static bool answered(int fd, uint32_t seq, uint8_t hdr[USBIP_HDR_LEN])
{
	return read_full(fd, hdr, USBIP_HDR_LEN) && nc_uvc_be32(hdr) == USBIP_RET_SUBMIT &&
	       nc_uvc_be32(hdr + 4) == seq && nc_uvc_be32(hdr + 20) == 0;
}

/* An OUT control request with @len bytes of @data; its answer checked. */
static void control_out(int fd, uint32_t seq, const uint8_t setup[8], const uint8_t *data,
			uint32_t len, const char *what)
{
	uint8_t b[USBIP_HDR_LEN + 64], hdr[USBIP_HDR_LEN];

	submit(b, seq, USBIP_DIR_OUT, 0, (int32_t)len, 0, setup);
	memcpy(b + USBIP_HDR_LEN, data, len);
	CHECK(write(fd, b, USBIP_HDR_LEN + len) == (ssize_t)(USBIP_HDR_LEN + len), "%s sent", what);
	CHECK(answered(fd, seq, hdr), "%s answered", what);
}

/* PROBE then COMMIT SET_CUR of format 1, frame @frame, the frame's default interval. */
static void commit_frame(int fd, uint32_t seq, uint8_t frame)
{
	static const uint8_t probe[8] = { 0x21, 0x01, 0x00, 0x01, NC_UVC_IF_VS, 0, 34, 0 };
	static const uint8_t commit[8] = { 0x21, 0x01, 0x00, 0x02, NC_UVC_IF_VS, 0, 34, 0 };
	struct nc_uvc_params p = { .format = 1, .frame = frame };
	uint8_t data[NC_UVC_PROBE_LEN];

	nc_uvc_params_pack(&p, data);
	control_out(fd, seq, probe, data, sizeof(data), "PROBE SET_CUR");
	control_out(fd, seq + 1, commit, data, sizeof(data), "COMMIT SET_CUR");
}

/* Wait up to 2 s for @v to reach @want. */
static bool wait_for(atomic_int *v, int want)
{
	int i;

	for (i = 0; i < 200 && atomic_load(v) < want; i++)
		usleep(10000);
	return atomic_load(v) >= want;
}

/* SET_CONFIGURATION, split across two writes: answered once whole. */
static void configure(int fd)
{
	static const uint8_t setcfg[8] = { 0x00, 9, 1, 0, 0, 0, 0, 0 };
	uint8_t b[USBIP_HDR_LEN], hdr[USBIP_HDR_LEN];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	submit(b, 1, USBIP_DIR_OUT, 0, 0, 0, setcfg);
	CHECK_EQ(write(fd, b, 20), 20, "half a command");
	CHECK_EQ(poll(&p, 1, 100), 0, "half a command waits for the rest");
	CHECK_EQ(write(fd, b + 20, USBIP_HDR_LEN - 20), USBIP_HDR_LEN - 20, "the rest");
	CHECK(answered(fd, 1, hdr), "SET_CONFIGURATION answered once whole");
}

/* SET_INTERFACE to the largest alt, then one iso URB of 32 packets: answered with frame bytes. */
static void stream_one_urb(int fd)
{
	static const uint8_t setalt[8] = { 0x01, 11, NC_UVC_NALTS, 0, NC_UVC_IF_VS, 0, 0, 0 };
	static uint8_t b[USBIP_HDR_LEN + 32 * USBIP_ISO_DESC_LEN], ans[32 * (3072 + 16)];
	uint8_t hdr[USBIP_HDR_LEN];
	uint32_t total, i;

	submit(b, 20, USBIP_DIR_OUT, 0, 0, 0, setalt);
	CHECK_EQ(write(fd, b, USBIP_HDR_LEN), USBIP_HDR_LEN, "SET_INTERFACE sent");
	CHECK(answered(fd, 20, hdr), "SET_INTERFACE answered");
	submit(b, 21, USBIP_DIR_IN, 1, 32 * 3072, 32, NULL);
	for (i = 0; i < 32; i++) {
		memset(b + USBIP_HDR_LEN + 16 * i, 0, 16);
		nc_uvc_put_be32(b + USBIP_HDR_LEN + 16 * i, i * 3072);
		nc_uvc_put_be32(b + USBIP_HDR_LEN + 4 + 16 * i, 3072);
	}
	CHECK_EQ(write(fd, b, sizeof(b)), (ssize_t)sizeof(b), "iso URB sent");
	CHECK(answered(fd, 21, hdr), "the iso URB answered at its bus time");
	total = nc_uvc_be32(hdr + 24);
	CHECK(total > 6 && total + 32 * 16 <= sizeof(ans), "%u bytes of payloads", total);
	if (total + 32 * 16 > sizeof(ans) || !read_full(fd, ans, total + 32 * 16))
		return;
	CHECK(ans[0] == 6 && (ans[1] & 0x80), "a payload header first");
	CHECK(ans[6] == 0x5a && ans[total - 1] == 0x5a, "the frame hook's bytes");
}

static void start(struct run *r, pthread_t *t, int host[1], int wake[2], bool (*stop)(void *))
{
	int sv[2];

	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0, "socket pair");
	CHECK_EQ(pipe2(wake, O_CLOEXEC | O_NONBLOCK), 0, "wake pipe");
	port.fd = sv[0];
	port.port = 99999; /* no such port: the detach fails, the session still ends */
	*host = sv[1];
	r->hooks = (struct nc_uvc_session_hooks){ .ctx = &seen, .stop = stop,
		.commit = commit_hook, .frame = frame_hook, .lock = lock_hook,
		.unlock = unlock_hook, .wake_fd = wake[0] };
	pthread_create(t, NULL, session_thread, r);
}

static void test_session(struct nc_uvc_dev *dev)
{
	struct run r = { .dev = dev };
	int host, wake[2];
	pthread_t t;

	start(&r, &t, &host, wake, stop_hook);
	configure(host);
	commit_frame(host, 10, 1);
	CHECK(wait_for(&seen.commits, 1), "the commit hook told of the COMMIT");
	CHECK(seen.last.format == 1 && seen.last.frame == 1 && seen.last.interval,
	      "format 1, frame 1, an interval: %u %u %u", seen.last.format, seen.last.frame,
	      seen.last.interval);
	commit_frame(host, 12, 1);
	commit_frame(host, 14, 2);
	CHECK(wait_for(&seen.commits, 2), "a new COMMIT told");
	CHECK_EQ(atomic_load(&seen.commits), 2, "the same COMMIT again is not told");
	CHECK_EQ(seen.last.frame, 2, "the new frame");
	stream_one_urb(host);
	CHECK(atomic_load(&seen.frames) >= 1, "the frame hook drew a frame");
	CHECK_EQ(seen.frame_width, nc_uvc_params_frame(dev, &seen.last)->width,
		 "of the committed frame's width");
	atomic_store(&seen.stop, 1);
	CHECK_EQ(write(wake[1], "x", 1), 1, "wake the session");
	pthread_join(t, NULL);
	CHECK_EQ(r.end, NC_UVC_SESSION_DETACHED, "the stop hook ends the session");
	CHECK(dev->frame_fn == NULL, "the frame source is the generator again");
	CHECK(atomic_load(&seen.locks) > 0 && atomic_load(&seen.locks) == atomic_load(&seen.unlocks),
	      "locks in pairs: %d, %d", atomic_load(&seen.locks), atomic_load(&seen.unlocks));
	close(host);
	close(port.fd);
	close(wake[0]);
	close(wake[1]);
}

static void test_host_left(struct nc_uvc_dev *dev)
{
	struct run r = { .dev = dev };
	int host, wake[2];
	pthread_t t;

	atomic_store(&seen.stop, 0);
	nc_uvc_dev_reset(dev);
	start(&r, &t, &host, wake, stop_hook);
	configure(host);
	close(host);
	pthread_join(t, NULL);
	CHECK_EQ(r.end, NC_UVC_SESSION_HOST_LEFT, "the host closed its end unasked");
	close(port.fd);
	close(wake[0]);
	close(wake[1]);
}

/* The faults control file, looked at from the stop hook as negcam-uvc's does. */
static struct {
	struct nc_uvc_fault_watch w;
	struct nc_uvc_dev *dev;
	char path[64], msg[512]; /* msg: the last thing said, written before said is raised */
	atomic_int said, bad;
} ff;

static bool faults_stop_hook(void *ctx)
{
	char msg[512];
	int r = nc_uvc_fault_watch_poll(&ff.w, ff.dev, nc_uvc_now_ns(), msg, sizeof(msg));

	if (r) {
		memcpy(ff.msg, msg, sizeof(msg));
		atomic_fetch_add(r < 0 ? &ff.bad : &ff.said, 1);
	}
	return stop_hook(ctx);
}

/* What the host collected: counted from the first EOF on (the frame in progress at a switch is the old faults'). */
struct collected {
	unsigned int payloads, frames, err, lost;
};

/* The payloads of one answered iso URB (@n packets), counted into @c; *@started: an EOF was seen. */
static void count_payloads(const uint8_t *data, const uint8_t *desc, uint32_t n,
			   struct collected *c, bool *started, bool *first)
{
	uint32_t i, off = 0, len;

	for (i = 0; i < n; i++, off += len) {
		len = nc_uvc_be32(desc + 16 * i + 8);
		if (len <= 6)
			continue; /* empty: between frames */
		if (*started) {
			c->payloads++;
			c->err += (data[off + 1] & 0x40) != 0;
			c->frames += (data[off + 1] & 0x02) != 0;
			c->lost += *first && (data[off + 1] & 0x42) == 0x42;
		}
		*first = (data[off + 1] & 0x02) != 0;
		*started = *started || *first;
	}
}

/* @urbs iso URBs of 32 packets, 8 held at a time, from seqnum @seq; what they carried. */
static struct collected collect(int fd, uint32_t seq, unsigned int urbs)
{
	static uint8_t b[USBIP_HDR_LEN + 32 * USBIP_ISO_DESC_LEN], ans[32 * (3072 + 16)];
	struct collected c = { 0 };
	bool started = false, first = false;
	uint8_t hdr[USBIP_HDR_LEN];
	uint32_t total, i, k, batch;

	for (k = 0; k < urbs; k += batch) {
		batch = urbs - k < 8 ? urbs - k : 8;
		for (i = 0; i < 32; i++) {
			memset(b + USBIP_HDR_LEN + 16 * i, 0, 16);
			nc_uvc_put_be32(b + USBIP_HDR_LEN + 16 * i, i * 3072);
			nc_uvc_put_be32(b + USBIP_HDR_LEN + 4 + 16 * i, 3072);
		}
		for (i = 0; i < batch; i++) {
			submit(b, seq + k + i, USBIP_DIR_IN, 1, 32 * 3072, 32, NULL);
			CHECK_EQ(write(fd, b, sizeof(b)), (ssize_t)sizeof(b), "iso URB sent");
		}
		for (i = 0; i < batch; i++) {
			if (!answered(fd, seq + k + i, hdr) ||
			    (total = nc_uvc_be32(hdr + 24)) + 32 * 16 > sizeof(ans) ||
			    !read_full(fd, ans, total + 32 * 16)) {
				CHECK(false, "iso URB %u answered", seq + k + i);
				return c;
			}
			count_payloads(ans, ans + total, 32, &c, &started, &first);
		}
	}
	return c;
}

/* Write @text to the control file (whole: a rename), wait past the 100 ms and wake the session. */
static void control(const char *text, int wake)
{
	char tmp[80];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", ff.path);
	if (text) {
		f = fopen(tmp, "w");
		CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0, "control file written");
		CHECK_EQ(rename(tmp, ff.path), 0, "control file in place");
	} else {
		CHECK_EQ(unlink(ff.path), 0, "control file removed");
	}
	usleep(150000);
	CHECK_EQ(write(wake, "x", 1), 1, "wake the session");
}

/* The file's phases: none, error, a bad list, drop, removed. */
static void faults_phases(int host, int wake)
{
	struct collected c = collect(host, 100, 48);
	char want[96];

	CHECK(c.frames >= 2 && !c.err && !c.lost, "no file: the profile's faults (none): %u frames, "
	      "%u ERR, %u lost", c.frames, c.err, c.lost);
	control("error 100%\n", wake);
	CHECK(wait_for(&ff.said, 1), "the new list taken");
	CHECK(strstr(ff.msg, ff.path) != NULL, "said: %s", ff.msg);
	c = collect(host, 200, 48);
	CHECK(c.frames >= 2 && c.err == c.payloads && !c.lost,
	      "error 100%%: ERR on every payload: %u of %u, %u frames", c.err, c.payloads, c.frames);
	control("seed 3\ndrop 120%\n", wake);
	CHECK(wait_for(&ff.bad, 1), "a bad list said");
	snprintf(want, sizeof(want), "%s:2:6: ", ff.path);
	CHECK(strncmp(ff.msg, want, strlen(want)) == 0, "with FILE:LINE:COL: %s", ff.msg);
	c = collect(host, 300, 48);
	CHECK(c.frames >= 2 && c.err == c.payloads, "a bad list changes nothing: %u ERR of %u",
	      c.err, c.payloads);
	usleep(150000);
	CHECK_EQ(write(wake, "x", 1), 1, "wake the session");
	usleep(50000);
	CHECK_EQ(atomic_load(&ff.bad), 1, "the bad list said once");
	control("drop 100%\n", wake);
	CHECK(wait_for(&ff.said, 2), "drop taken");
	c = collect(host, 400, 48);
	CHECK(c.frames >= 2 && c.lost == c.frames && c.payloads == c.frames,
	      "drop 100%%: every frame lost (one payload, ERR and EOF): %u of %u, %u payloads",
	      c.lost, c.frames, c.payloads);
	control(NULL, wake);
	CHECK(wait_for(&ff.said, 3), "removal told");
	CHECK(strstr(ff.msg, "profile") != NULL, "said: %s", ff.msg);
	c = collect(host, 500, 48);
	CHECK(c.frames >= 2 && !c.err && !c.lost && c.payloads > c.frames,
	      "removed: the profile's faults again: %u frames, %u ERR, %u lost", c.frames, c.err,
	      c.lost);
}

static void test_faults_file(void)
{
	static const uint8_t setalt[8] = { 0x01, 11, NC_UVC_NALTS, 0, NC_UVC_IF_VS, 0, 0, 0 };
	static struct negcam_profile p;
	static struct nc_uvc_dev dev;
	static const char text[] = "name ff\nformat YUYV\nsize 160x120 fps 30\n";
	struct negcam_parse_error perr;
	struct run r = { .dev = &dev };
	uint8_t b[USBIP_HDR_LEN], hdr[USBIP_HDR_LEN];
	int host, wake[2];
	char msg[512];
	pthread_t t;

	CHECK_EQ(negcam_profile_parse(&p, text, strlen(text), &perr), 0, "profile");
	CHECK_EQ(nc_uvc_dev_init(&dev, &p, NULL, nc_uvc_send_fd, &port.fd), 0, "init");
	snprintf(ff.path, sizeof(ff.path), "/tmp/negcam-uvc-faults-%d", (int)getpid());
	unlink(ff.path);
	ff.dev = &dev;
	CHECK_EQ(nc_uvc_fault_watch_init(&ff.w, ff.path, &dev, nc_uvc_now_ns(), msg, sizeof(msg)), 0,
		 "no file yet");
	atomic_store(&seen.stop, 0);
	start(&r, &t, &host, wake, faults_stop_hook);
	configure(host);
	commit_frame(host, 10, 1);
	submit(b, 20, USBIP_DIR_OUT, 0, 0, 0, setalt);
	CHECK_EQ(write(host, b, USBIP_HDR_LEN), USBIP_HDR_LEN, "SET_INTERFACE sent");
	CHECK(answered(host, 20, hdr), "SET_INTERFACE answered");
	faults_phases(host, wake[1]);
	atomic_store(&seen.stop, 1);
	CHECK_EQ(write(wake[1], "x", 1), 1, "wake the session");
	pthread_join(t, NULL);
	close(host);
	close(port.fd);
	close(wake[0]);
	close(wake[1]);
	nc_uvc_dev_free(&dev);
}

/* A bad FILE at the start: refused with FILE:LINE:COL (negcam-uvc exits 2 with it). */
static void test_faults_file_start(void)
{
	static struct nc_uvc_dev dev;
	char path[64], msg[512], want[96];
	struct nc_uvc_fault_watch w;
	FILE *f;

	CHECK_EQ(nc_uvc_dev_init(&dev, load(negcam_builtin_find("webcam")->text), NULL,
				 nc_uvc_send_fd, &port.fd), 0, "init");
	snprintf(path, sizeof(path), "/tmp/negcam-uvc-faults-bad-%d", (int)getpid());
	f = fopen(path, "w");
	CHECK(f && fputs("seed 3\nerror 5%\nfrobnicate 3\n", f) >= 0 && fclose(f) == 0, "written");
	CHECK_EQ(nc_uvc_fault_watch_init(&w, path, &dev, 0, msg, sizeof(msg)), -EINVAL, "refused");
	snprintf(want, sizeof(want), "%s:3:1: ", path);
	CHECK(strncmp(msg, want, strlen(want)) == 0, "FILE:LINE:COL: %s", msg);
	CHECK(!dev.stream.faults_set, "the profile's faults stay");
	unlink(path);
	nc_uvc_dev_free(&dev);
}

int main(void)
{
	static struct nc_uvc_dev dev;

	CHECK_EQ(nc_uvc_dev_init(&dev, load(negcam_builtin_find("webcam")->text), NULL,
				 nc_uvc_send_fd, &port.fd), 0, "init");
	test_session(&dev);
	test_host_left(&dev);
	nc_uvc_dev_free(&dev);
	test_faults_file();
	test_faults_file_start();
	return check_done("uvc-session");
}
