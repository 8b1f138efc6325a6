/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The superblock: magic, full size, checksum of the first 512 bytes and the
 * volume name, which the root directory's header follows. */
#include <errno.h>
#include <string.h>

#include "common/endian.h"
#include "romfs/layout.h"

uint32_t rf_sum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 4 <= len; i += 4)
		sum += ff_get_be32(p + i);
	return sum;
}

/* The volume name at buf[16...]: NUL-terminated within len. */
static int decode_volume(const uint8_t *buf, size_t len, struct rf_super *sb,
			 struct ff_err *err)
{
	size_t max = len - RF_HDR_SIZE < RF_VOLUME_MAX + 1 ? len - RF_HDR_SIZE : RF_VOLUME_MAX + 1;
	const uint8_t *nul = memchr(buf + RF_HDR_SIZE, 0, max);

	if (!nul)
		return ff_err_set(err, EINVAL, "superblock: volume name not terminated in %zu bytes",
				  max);
	sb->volume_len = (uint32_t)(nul - (buf + RF_HDR_SIZE));
	memcpy(sb->volume, buf + RF_HDR_SIZE, sb->volume_len);
	sb->volume[sb->volume_len] = '\0';
	sb->root = RF_HDR_SIZE + rf_pad16(sb->volume_len + 1);
	return 0;
}

int rf_super_decode(const uint8_t *buf, size_t len, struct rf_super *sb, struct ff_err *err)
{
	memset(sb, 0, sizeof(*sb));
	if (len < RF_HDR_SIZE + 1 || memcmp(buf, RF_MAGIC, 8))
		return ff_err_set(err, EINVAL, "no romfs superblock (magic \"-rom1fs-\")");
	sb->full_size = ff_get_be32(buf + 8);
	sb->checksum = ff_get_be32(buf + 12);
	if (sb->full_size < RF_HDR_SIZE)
		return ff_err_set(err, EINVAL, "superblock: full size %u is less than one header",
				  sb->full_size);
	sb->sum_bytes = sb->full_size < RF_SUM_BYTES ? sb->full_size : RF_SUM_BYTES;
	sb->sum_ok = len >= sb->sum_bytes && rf_sum(buf, sb->sum_bytes) == 0;
	if (decode_volume(buf, len, sb, err))
		return -1;
	if (sb->root >= sb->full_size)
		return ff_err_set(err, EINVAL,
				  "superblock: root directory at offset %u past the full size %u",
				  sb->root, sb->full_size);
	return 0;
}

int rf_super_read(struct ff_bsrc *src, struct rf_super *sb, struct ff_err *err)
{
	uint8_t buf[RF_HDR_SIZE + RF_VOLUME_MAX + 1];
	size_t want = src->size < sizeof(buf) ? (size_t)src->size : sizeof(buf);
	ssize_t got = ff_bsrc_pread(src, buf, want, 0);

	if (got < 0)
		return ff_err_sys(err, (int)-got, "%s: cannot read the superblock", src->name);
	return rf_super_decode(buf, (size_t)got, sb, err);
}
