/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * libnegcam-preload.so internals, shared by preload.c (descriptors,
 * ioctl, mmap, read), discover.c (stat, sysfs, /dev listings) and
 * controls.c. Not an API.
 */
#ifndef NEGCAM_RUN_PRELOAD_H
#define NEGCAM_RUN_PRELOAD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "engine.h"
#include "vbuf.h"

#define NC_RUN_MAJOR 81
#define NC_RUN_MAX_NODES 8
#define NC_RUN_MAX_FILES 256
#define NC_RUN_FDMAX 4096 /* descriptors above are never the device's */

struct nc_node {
	char path[256]; /* /dev/videoN */
	char spec[1024]; /* built-in profile name or file */
	unsigned int minor;
	/* Set on first open, under nc_lock: */
	struct negcam_profile *profile;
	struct negcam_engine engine;
	struct nc_vbq vbq;
	int evfd;
	__s32 pattern;
	__u32 priority[4]; /* open files per V4L2_PRIORITY_* */
};

#define NC_RUN_MAX_EVENTS 8

struct nc_file {
	unsigned int refs; /* descriptors on it: 0 = free slot */
	int node;
	bool nonblock, feedback;
	__u32 prio;
	__u32 subs; /* subscribed events: bit per control, then source change */
	struct v4l2_event ev[NC_RUN_MAX_EVENTS];
	unsigned int ev_head, nev, ev_seq;
};

/* The one lock around all device state. */
extern pthread_mutex_t nc_lock;
extern struct nc_node nc_nodes[NC_RUN_MAX_NODES];
extern unsigned int nc_nnodes;

/* Look up libc's @name (RTLD_NEXT); aborts with a message when missing. */
void *nc_real(const char *name);
#define NC_REAL(type, name)            \
	static __typeof__(type) real_; \
	if (!real_)                    \
	real_ = (type)nc_real(name)

/* Reads NEGCAM_RUN_NODES once (no I/O, no lock). */
void nc_config(void);
/* The node configured at @path, or -1. */
int nc_node_of_path(const char *path);
/* The node @fd is open on, or -1 (lock-free). */
int nc_node_of_fd(int fd);
/* Loads @n's profile and starts its engine on first use; call under nc_lock. */
int nc_node_load(struct nc_node *n);

/* The file @fd is open on, or NULL (lock-free; use it under nc_lock). */
struct nc_file *nc_file_of_fd(int fd);
/* True when @fd's file holds events for DQEVENT (takes nc_lock). */
bool nc_events_pending(int fd);

/* Open file @i, or NULL when the slot is free. */
struct nc_file *nc_file_at(unsigned int i);
/* @fd now refers to @f (a new file on @node when @f is NULL); -EMFILE. */
int nc_fd_attach(int fd, struct nc_file *f, int node);
/* @fd no longer refers to its file; its last descriptor releases it. */
void nc_fd_detach(int fd);

/* The highest priority an open file holds. */
__u32 nc_max_priority(const struct nc_node *n);

/* NEGCAM_RUN_MPLANE=1 (read by nc_config()): every node's profile made multiplanar. */
extern bool nc_mplane;

/* The source changed (a fault): V4L2_EVENT_SOURCE_CHANGE to @n's subscribers; under nc_lock. */
void nc_events_source_change(struct nc_node *n);

/*
 * Whether a wait on @fd must be cut in slices to see a fault happen
 * (a source change or an unplug still to come), and whether its node is
 * unplugged; lock-free reads, for poll.c.
 */
bool nc_node_fault_watch(int fd);
bool nc_node_unplugged(int fd);

/* faults.c: negcam-run --faults FILE. Look at the file again (at most every 100 ms);
 * give @n the faults it should have now. Under nc_lock. */
void nc_faults_check(void);
void nc_faults_apply(struct nc_node *n);

/* Controls, inputs and priorities: -ENOTTY when @request is none of them. */
int nc_controls_ioctl(struct nc_node *n, struct nc_file *f, unsigned long request, void *arg);

#endif /* NEGCAM_RUN_PRELOAD_H */
