// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * user/ directly: the one file reader (regular files only, or with
 * NC_READ_STREAMS FIFOs and devices with a timeout; the 64 MiB cap), the
 * one profile loader (built-ins, files, and every way
 * a file can be wrong, each refused at once and in words) and the vb2
 * queue in its on-demand mode (negcamsrc's embedded device): a DQBUF
 * captures now, one with nothing queued loses a frame and its sequence
 * number, a test pattern change redraws whole.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "framegen.h"
#include "profile-load.h"
#include "read-file.h"
#include "vbuf.h"

static struct negcam_profile prof;
static char msg[1024];

static int load(const char *spec)
{
	msg[0] = '\0';
	return negcam_profile_load(spec, &prof, msg, sizeof(msg));
}

static char *temp_file(const char *text, size_t len)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/negcam-test-user-XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, text, len) == (ssize_t)len, "temp file %s", path);
	if (fd >= 0)
		close(fd);
	return path;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void test_loader(void)
{
	char fifo[64], *path;
	double t;
	int fd;

	CHECK_EQ(load("webcam"), 0, "built-in webcam: %s", msg);
	CHECK(!strcmp(prof.name, "webcam"), "its name: %s", prof.name);

	CHECK_EQ(load("/nonexistent/x.profile"), NC_LOAD_EFILE, "missing file");
	CHECK(strstr(msg, "/nonexistent/x.profile: not a built-in profile (webcam, vga") &&
		      strstr(msg, strerror(ENOENT)),
	      "names the file, the built-ins and errno: %s", msg);
	CHECK_EQ(load("/tmp"), NC_LOAD_EFILE, "a directory");
	CHECK(strstr(msg, strerror(EISDIR)) != NULL, "directory: %s", msg);
	CHECK_EQ(load(""), NC_LOAD_EFILE, "empty");
	CHECK(strstr(msg, "profile is empty") && strstr(msg, "webcam"), "empty: %s", msg);

	snprintf(fifo, sizeof(fifo), "/tmp/negcam-test-user-fifo-%d", (int)getpid());
	CHECK_EQ(mkfifo(fifo, 0600), 0, "mkfifo");
	t = now_s();
	CHECK_EQ(load(fifo), NC_LOAD_EFILE, "a FIFO nobody writes to");
	CHECK(now_s() - t < 2, "refused at once, not waited on (%.1f s)", now_s() - t);
	CHECK(strstr(msg, "a FIFO, not a profile file") != NULL, "FIFO: %s", msg);
	unlink(fifo);
	CHECK_EQ(load("/dev/null"), NC_LOAD_EFILE, "a device");
	CHECK(strstr(msg, "/dev/null: a device") != NULL, "device: %s", msg);

	path = temp_file("", 0);
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)NC_LOAD_MAX_BYTES + 1) == 0, "sparse 64 MiB + 1");
	if (fd >= 0)
		close(fd);
	CHECK_EQ(load(path), NC_LOAD_EFILE, "over the cap");
	CHECK(strstr(msg, "larger than 64 MiB") != NULL, "cap: %s", msg);
	unlink(path);

	path = temp_file("\x89PNG\r\n\x1a\n\0\0IHDR", 14);
	CHECK_EQ(load(path), NC_LOAD_EFILE, "binary (NUL)");
	CHECK(strstr(msg, "not a profile (binary data)") && !strstr(msg, "PNG"), "binary: %s", msg);
	unlink(path);
	path = temp_file("name x\n\xc3\x28\n", 9);
	CHECK_EQ(load(path), NC_LOAD_EFILE, "invalid UTF-8");
	CHECK(strstr(msg, "binary data") != NULL, "not UTF-8: %s", msg);
	unlink(path);
	path = temp_file("name caf\xc3\xa9\n", 10);
	CHECK_EQ(load(path), NC_LOAD_EPARSE, "valid UTF-8 goes to the parser");
	unlink(path);

	path = temp_file("name ok\nformat YUYV\nsize 640x480 fps 30\nbogus 1\n", 48);
	CHECK_EQ(load(path), NC_LOAD_EPARSE, "a parse error");
	CHECK(!strncmp(msg, path, strlen(path)) && !strncmp(msg + strlen(path), ":4:", 3),
	      "FILE:LINE:COL: %s", msg);
	unlink(path);
	CHECK_EQ(negcam_profile_load_text("<stdin>", "name s\nformat YUYV\nsize 64x48 fps 30\n", 37, &prof,
					  msg, sizeof(msg)),
		 0, "text already read: %s", msg);
}

/* A child that writes @text into @fifo after a moment; its pid. */
static pid_t fifo_writer(const char *fifo, const char *text)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(fifo, O_WRONLY);

		usleep(100 * 1000);
		_exit(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : 1);
	}
	return pid;
}

static void test_reader(void)
{
	struct nc_read r;
	char fifo[64], *path;
	int fd, status = -1;
	pid_t pid;

	path = temp_file("name x\n", 7);
	CHECK(!nc_read_file(path, 0, 0, &r) && r.len == 7 && !strcmp(r.text, "name x\n"),
	      "a regular file, read whole and NUL-terminated");
	free(r.text);
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)NC_READ_MAX_BYTES) == 0, "sparse, exactly 64 MiB");
	if (fd >= 0)
		close(fd);
	CHECK(!nc_read_file(path, 0, 0, &r) && r.len == NC_READ_MAX_BYTES,
	      "a file of exactly the cap is read (stage %d, %s)", r.stage, strerror(r.err));
	free(r.text);
	unlink(path);

	snprintf(fifo, sizeof(fifo), "/tmp/negcam-test-reader-fifo-%d", (int)getpid());
	CHECK_EQ(mkfifo(fifo, 0600), 0, "mkfifo");
	CHECK(nc_read_file(fifo, 0, 0, &r) && r.stage == NC_READ_NOT_REGULAR && S_ISFIFO(r.mode),
	      "a FIFO without NC_READ_STREAMS: refused, its type said");
	CHECK(nc_read_file(fifo, NC_READ_STREAMS, 200, &r) && r.stage == NC_READ_DATA &&
		      r.err == ETIMEDOUT,
	      "a silent FIFO with NC_READ_STREAMS: ETIMEDOUT (%s)", strerror(r.err));
	pid = fifo_writer(fifo, "listing\n");
	CHECK(!nc_read_file(fifo, NC_READ_STREAMS, 5000, &r) && r.text && !strcmp(r.text, "listing\n"),
	      "a FIFO with a writer: its text (stage %d, %s)", r.stage, strerror(r.err));
	free(r.text);
	waitpid(pid, &status, 0);
	CHECK_EQ(status, 0, "the writer wrote");
	unlink(fifo);
	CHECK(nc_read_file("/dev/zero", NC_READ_STREAMS, 5000, &r) && r.err == EFBIG,
	      "/dev/zero: EFBIG at the cap (%s)", strerror(r.err));
	CHECK(nc_read_file("-", 0, 0, &r) && r.stage == NC_READ_OPEN && r.err == ENOENT,
	      "'-' is a file name unless NC_READ_STREAMS");
}

static int vioctl(struct nc_vbq *q, unsigned long req, void *arg)
{
	return nc_vbq_ioctl(q, q, true, req, arg);
}

static void test_on_demand(void)
{
	static struct negcam_engine e;
	struct v4l2_requestbuffers r = {.count = 1, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					.memory = V4L2_MEMORY_MMAP};
	struct v4l2_buffer b;
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	__u32 type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct nc_vbq q;
	unsigned int i;

	CHECK_EQ(load("vga"), 0, "vga: %s", msg);
	negcam_engine_init(&e, &prof);
	nc_vbq_init(&q, &lock, &e, -1);
	q.on_demand = true;
	q.min_buffers = 2;
	pthread_mutex_lock(&lock);
	CHECK_EQ(vioctl(&q, VIDIOC_REQBUFS, &r), 0, "REQBUFS");
	CHECK_EQ(r.count, 2, "at least min_buffers");
	CHECK(!nc_vbq_ready(&q), "nothing queued: not ready");
	for (i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.index = i, b.type = type, b.memory = V4L2_MEMORY_MMAP;
		CHECK_EQ(vioctl(&q, VIDIOC_QBUF, &b), 0, "QBUF %u", i);
	}
	CHECK(nc_vbq_ready(&q), "on demand, a queued buffer is ready");
	CHECK_EQ(vioctl(&q, VIDIOC_STREAMON, &type), 0, "STREAMON");
	for (i = 0; i < 3; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type, b.memory = V4L2_MEMORY_MMAP;
		CHECK_EQ(vioctl(&q, VIDIOC_DQBUF, &b), i < 2 ? 0 : -EAGAIN, "DQBUF %u", i);
		if (i < 2) {
			CHECK_EQ(b.sequence, i, "sequence from 0");
			CHECK(b.bytesused > 0 && (b.flags & V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) &&
				      !(b.flags & V4L2_BUF_FLAG_ERROR),
			      "a frame, MONOTONIC");
		}
	}
	/* frame 2 was lost (nothing queued): the next one is 3 */
	b.index = 0;
	CHECK_EQ(vioctl(&q, VIDIOC_QBUF, &b), 0, "QBUF again");
	CHECK_EQ(vioctl(&q, VIDIOC_DQBUF, &b), 0, "DQBUF again");
	CHECK_EQ(b.sequence, 3, "the lost frame used its number");
	CHECK_EQ(q.dropped, 1, "counted as dropped");
	nc_vbq_set_pattern(&q, NC_PATTERN_COUNT - 1);
	CHECK(q.bufs[0].prev == NC_FRAME_NONE && q.bufs[1].prev == NC_FRAME_NONE,
	      "a new pattern is drawn whole");
	CHECK_EQ(vioctl(&q, VIDIOC_STREAMOFF, &type), 0, "STREAMOFF");
	CHECK_EQ(vioctl(&q, VIDIOC_DQBUF, &b), -EINVAL, "DQBUF after STREAMOFF");
	nc_vbq_release(&q, &q);
	CHECK_EQ(q.nbufs, 0, "released");
	pthread_mutex_unlock(&lock);
}

/* A multiplanar profile's queue: a memfd per plane of NM12, plane arrays, no read(). */
static void test_multiplanar(void)
{
	static struct negcam_engine e;
	static const char text[] = "name mp\nmultiplanar\nformat NM12\n  size 64x48 fps 30\n";
	__u32 type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	struct v4l2_requestbuffers r = {.count = 1, .type = type, .memory = V4L2_MEMORY_MMAP};
	struct v4l2_plane planes[VIDEO_MAX_PLANES];
	struct v4l2_exportbuffer x = {.type = type, .plane = 1};
	struct v4l2_buffer b = {.type = type, .memory = V4L2_MEMORY_MMAP};
	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct nc_vbq q;
	char byte;

	CHECK_EQ(load(temp_file(text, sizeof(text) - 1)), 0, "mp: %s", msg);
	negcam_engine_init(&e, &prof);
	nc_vbq_init(&q, &lock, &e, -1);
	q.on_demand = true;
	q.min_buffers = 1;
	pthread_mutex_lock(&lock);
	r.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK_EQ(vioctl(&q, VIDIOC_REQBUFS, &r), -EINVAL, "mp: no single-planar REQBUFS");
	r.type = type;
	CHECK_EQ(vioctl(&q, VIDIOC_REQBUFS, &r), 0, "mp: REQBUFS");
	CHECK_EQ(vioctl(&q, VIDIOC_QUERYBUF, &b), -EINVAL, "mp: QUERYBUF without planes");
	b.m.planes = planes, b.length = 1;
	CHECK_EQ(vioctl(&q, VIDIOC_QUERYBUF, &b), -EINVAL, "mp: QUERYBUF with room for one plane");
	b.length = VIDEO_MAX_PLANES;
	CHECK(!vioctl(&q, VIDIOC_QUERYBUF, &b) && b.length == 2 && b.m.planes == planes &&
	      planes[0].length == 64 * 48 && planes[1].length == 64 * 24 &&
	      planes[1].m.mem_offset == 4096, "mp: NM12 has two planes (%u: %u, %u at %u)",
	      b.length, planes[0].length, planes[1].length, planes[1].m.mem_offset);
	CHECK(nc_vbq_mmap_fd(&q, 4096, 64 * 24) >= 0 && nc_vbq_mmap_fd(&q, 8192, 1) < 0,
	      "mp: each plane maps at its own offset");
	CHECK(!vioctl(&q, VIDIOC_EXPBUF, &x) && x.fd >= 0, "mp: EXPBUF of plane 1");
	if (x.fd >= 0)
		close(x.fd);
	CHECK_EQ(vioctl(&q, VIDIOC_QBUF, &b), 0, "mp: QBUF");
	CHECK_EQ(vioctl(&q, VIDIOC_STREAMON, &type), 0, "mp: STREAMON");
	memset(planes, 0, sizeof(planes));
	b.length = VIDEO_MAX_PLANES;
	CHECK(!vioctl(&q, VIDIOC_DQBUF, &b) && !(b.flags & V4L2_BUF_FLAG_ERROR) &&
	      planes[0].bytesused == 64 * 48 && planes[1].bytesused == 64 * 24,
	      "mp: DQBUF: both planes drawn (%u, %u)", planes[0].bytesused, planes[1].bytesused);
	CHECK_EQ(nc_vbq_read(&q, &q, true, &byte, 1), -EINVAL, "mp: no read()");
	CHECK_EQ(vioctl(&q, VIDIOC_STREAMOFF, &type), 0, "mp: STREAMOFF");
	nc_vbq_release(&q, &q);
	pthread_mutex_unlock(&lock);
}

int main(void)
{
	test_reader();
	test_loader();
	test_on_demand();
	test_multiplanar();
	return check_done("test_user");
}
