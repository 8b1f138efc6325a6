/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* readahead=SIZE: the kernel reads ahead only 128 KiB on a FUSE mount and
 * its bdi setting cannot be raised through FUSE_INIT; as root it can be
 * raised in sysfs.  With max_read at the block size, a larger window
 * arrives as several block-sized READs in parallel, which the request
 * threads then decompress on all cores. */
#include "fuse/mount.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* mountinfo escapes ' ', '\t', '\n' and '\' as octal \NNN. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* The device ("0:57") of the newest mount on `mountpoint`, read without
 * touching the mount itself (it may not be served yet). */
static int mount_device(const char *mountpoint, char *dev, size_t cap)
{
	char line[4096], d[64], mp[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %63s %*s %4095s", d, mp) != 2)
			continue;
		unescape(mp);
		if (!strcmp(mp, mountpoint) && strlen(d) < cap) {
			strcpy(dev, d);
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

int ff_fuse_set_readahead(const char *mountpoint, unsigned kb)
{
	char dev[64], path[128];
	FILE *f;
	int ret = mount_device(mountpoint, dev, sizeof(dev));

	if (ret < 0)
		return ret;
	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", dev);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ret = fprintf(f, "%u\n", kb) < 0 ? -EIO : 0;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	return ret;
}
