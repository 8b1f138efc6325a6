/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Formats flashfs names but does not read: an empty file, a tar archive,
 * and whatever libblkid (util-linux) recognises that is not ours (ext4,
 * FAT, btrfs, ISO 9660 ...).  libblkid is a well-kept library that knows
 * dozens of file systems; writing those probes again would be waste. */
#include <blkid/blkid.h>
#include <stdio.h>
#include <string.h>

#include "common/format.h"

static int empty_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		       const struct ff_open_opts *opts, struct ff_probe *res)
{
	(void)buf;
	(void)len;
	(void)opts;
	if (off != 0 || src->size != 0)
		return 0;
	res->big_endian = -1;
	snprintf(res->detail, sizeof(res->detail), "0 bytes");
	return res->confidence = FF_PROBE_VALID;
}

const struct ff_format ff_format_empty = {
	.name = "empty",
	.title = "empty file",
	.role = FF_ROLE_DETECT,
	.probe = empty_probe,
};

/* POSIX ustar (and GNU tar's "ustar  "), magic at 257. */
static int tar_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		     const struct ff_open_opts *opts, struct ff_probe *res)
{
	(void)src;
	(void)off;
	(void)opts;
	if (len < 265 || memcmp(buf + 257, "ustar", 5))
		return 0;
	res->big_endian = -1;
	snprintf(res->detail, sizeof(res->detail), "first member \"%.100s\"", (const char *)buf);
	return res->confidence = FF_PROBE_VALID;
}

static const struct ff_magic tar_magics[] = {
	{ 257, 5, { 'u', 's', 't', 'a', 'r' } },
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_tar = {
	.name = "tar",
	.title = "tar archive",
	.role = FF_ROLE_DETECT,
	.magics = tar_magics,
	.probe_len = 512,
	.probe = tar_probe,
};

/* libblkid's names for the formats flashfs probes itself: left to ours. */
static int ours(const char *type)
{
	static const char *const names[] = { "squashfs", "squashfs3", "cramfs", "jffs2", "ubi",
					     "ubifs", "erofs", "romfs", NULL };

	for (size_t i = 0; names[i]; i++)
		if (!strcmp(type, names[i]))
			return 1;
	return 0;
}

/* Only at offset 0 of a source that is a file: libblkid reads the
 * descriptor itself. */
static int blkid_probe_at(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
			  const struct ff_open_opts *opts, struct ff_probe *res)
{
	blkid_probe pr;
	const char *type = NULL, *version = NULL;

	(void)buf;
	(void)len;
	(void)opts;
	if (off != 0 || src->fd < 0 || !src->size || !(pr = blkid_new_probe()))
		return 0;
	if (blkid_probe_set_device(pr, src->fd, (blkid_loff_t)src->fd_off,
				   (blkid_loff_t)src->size) == 0 &&
	    blkid_probe_enable_superblocks(pr, 1) == 0 &&
	    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_VERSION) == 0 &&
	    blkid_do_safeprobe(pr) == 0 &&
	    blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && !ours(type)) {
		res->big_endian = -1;
		if (blkid_probe_lookup_value(pr, "VERSION", &version, NULL) == 0)
			snprintf(res->version, sizeof(res->version), "%s", version);
		snprintf(res->detail, sizeof(res->detail), "%s", type);
		res->confidence = FF_PROBE_VALID;
	}
	blkid_free_probe(pr);
	return res->confidence;
}

const struct ff_format ff_format_blkid = {
	.name = "blkid",
	.title = "file system known to libblkid",
	.role = FF_ROLE_DETECT,
	.costly = 1,
	.probe = blkid_probe_at,
};
