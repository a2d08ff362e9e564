// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vhci-hcd's sysfs attach and detach (see vhci-attach.h). The status
 * files (status, status.1, ... one per controller) list a port a line:
 * "hs  0000 004 000 00000000 000000 0-0" (hub, port, state, ...); state
 * 4 is VDEV_ST_NULL, a free port. High-speed devices go on "hs" ports.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "vhci-attach.h"

#define VDEV_ST_NULL 4
#define USB_SPEED_HIGH 3

/* Look for @want (or the first free port when -1) in one status file; its number or -1. */
static int scan_status(const char *path, int want, int *seen_want)
{
	FILE *f = fopen(path, "re");
	char line[256], hub[8];
	int port, sta, found = -1;

	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%7s %d %d", hub, &port, &sta) != 3)
			continue; /* the heading */
		if (strcmp(hub, "hs") != 0)
			continue;
		if (want >= 0 && port != want)
			continue;
		if (want >= 0)
			*seen_want = 1;
		if (sta == VDEV_ST_NULL)
			found = port;
	}
	fclose(f);
	return found;
}

static int find_port(int want)
{
	DIR *d = opendir(NC_VHCI_DIR);
	struct dirent *e;
	char path[300];
	int port = -1, seen = 0;

	if (!d)
		return -1;
	while (port < 0 && (e = readdir(d))) {
		if (strncmp(e->d_name, "status", 6) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", NC_VHCI_DIR, e->d_name);
		port = scan_status(path, want, &seen);
	}
	closedir(d);
	if (port < 0 && want >= 0 && seen)
		return -2;
	return port;
}

static int write_file(const char *name, const char *text)
{
	char path[128];
	int fd, err = 0;
	size_t len = strlen(text);

	snprintf(path, sizeof(path), "%s/%s", NC_VHCI_DIR, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = -errno;
	close(fd);
	return err;
}

int nc_vhci_attach(struct nc_vhci *v, int port, char *msg, size_t msglen)
{
	int sv[2], err;
	char line[64];

	if (access(NC_VHCI_DIR, F_OK) != 0) {
		snprintf(msg, msglen, "vhci-hcd is not loaded (%s missing): run 'modprobe vhci-hcd' as root", NC_VHCI_DIR);
		return -1;
	}
	if (geteuid() != 0) {
		snprintf(msg, msglen, "attaching to vhci-hcd needs root (writes %s/attach)", NC_VHCI_DIR);
		return -1;
	}
	v->port = find_port(port);
	if (v->port < 0) {
		snprintf(msg, msglen, port < 0 ? "no free high-speed port on vhci-hcd (all attached; detach one, or load vhci-hcd with more ports)" :
			 v->port == -2 ? "vhci-hcd port %d is in use" : "vhci-hcd has no high-speed port %d", port);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(msg, msglen, "socketpair: %s", strerror(errno));
		return -1;
	}
	/* devid (bus 1, device 2) comes back in every command; speed 3 is high speed */
	snprintf(line, sizeof(line), "%d %d %u %d", v->port, sv[1], 1u << 16 | 2u, USB_SPEED_HIGH);
	err = write_file("attach", line);
	close(sv[1]); /* vhci-hcd holds its own reference */
	if (err) {
		close(sv[0]);
		snprintf(msg, msglen, "writing '%s' to %s/attach: %s", line, NC_VHCI_DIR, strerror(-err));
		return -1;
	}
	v->fd = sv[0];
	return 0;
}

int nc_vhci_detach(const struct nc_vhci *v)
{
	char line[16];

	snprintf(line, sizeof(line), "%d", v->port);
	return write_file("detach", line);
}
