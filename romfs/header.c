/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A file header: next (with type and executable bit), spec, size,
 * checksum, then the NUL-terminated name padded to 16 bytes. */
#include <errno.h>
#include <string.h>

#include "common/endian.h"
#include "romfs/layout.h"

/* Header and the longest name with its NUL and padding. */
#define RF_HDR_MAX (RF_HDR_SIZE + RF_NAME_MAX + 1 + 15)

static int decode_name(const uint8_t *buf, size_t len, struct rf_header *h,
		       struct ff_err *err)
{
	size_t max = len - RF_HDR_SIZE;
	const uint8_t *nul;

	if (max > RF_NAME_MAX + 1)
		max = RF_NAME_MAX + 1;
	nul = memchr(buf + RF_HDR_SIZE, 0, max);
	if (!nul)
		return ff_err_set(err, EIO,
				  "header at offset %u: name not terminated within %zu bytes%s",
				  h->off, max, max <= RF_NAME_MAX ? " (end of image)" : "");
	h->name_len = (uint32_t)(nul - (buf + RF_HDR_SIZE));
	memcpy(h->name, buf + RF_HDR_SIZE, h->name_len);
	h->name[h->name_len] = '\0';
	return 0;
}

int rf_header_read(struct ff_bsrc *src, uint32_t limit, uint32_t off, struct rf_header *h,
		   struct ff_err *err)
{
	uint8_t buf[RF_HDR_MAX];
	size_t want;
	uint32_t meta;
	ssize_t got;

	memset(h, 0, sizeof(*h));
	h->off = off;
	if (off & 15)
		return ff_err_set(err, EIO, "header at offset %u: not on a 16-byte boundary", off);
	if ((uint64_t)off + RF_HDR_SIZE + 16 > limit)
		return ff_err_set(err, EIO, "header at offset %u: past the end of the image (%u bytes)",
				  off, limit);
	want = limit - off < sizeof(buf) ? limit - off : sizeof(buf);
	got = ff_bsrc_pread(src, buf, want, off);
	if (got < 0)
		return ff_err_sys(err, (int)-got, "header at offset %u: read failed", off);
	if ((size_t)got < want)
		return ff_err_set(err, EIO, "header at offset %u: short read (%zd of %zu bytes)", off,
				  got, want);
	h->next = ff_get_be32(buf) & RF_OFF_MASK;
	h->type = buf[3] & RF_TYPE_MASK;
	h->exec = (buf[3] & RF_EXEC) != 0;
	h->spec = ff_get_be32(buf + 4);
	h->size = ff_get_be32(buf + 8);
	h->checksum = ff_get_be32(buf + 12);
	if (decode_name(buf, want, h, err))
		return -1;
	meta = RF_HDR_SIZE + rf_pad16(h->name_len + 1);
	if ((uint64_t)off + meta > limit)
		return ff_err_set(err, EIO, "header at offset %u: name padding runs past the end (%u bytes)",
				  off, limit);
	h->data = off + meta;
	h->sum_ok = rf_sum(buf, meta) == 0;
	return 0;
}

size_t rf_header_encode(uint8_t *buf, uint32_t next, uint32_t spec, uint32_t size,
			const char *name, size_t len)
{
	size_t meta = RF_HDR_SIZE + rf_pad16(len + 1);

	memset(buf, 0, meta);
	ff_put_be32(buf, next);
	ff_put_be32(buf + 4, spec);
	ff_put_be32(buf + 8, size);
	memcpy(buf + RF_HDR_SIZE, name, len);
	ff_put_be32(buf + 12, 0u - rf_sum(buf, meta));
	return meta;
}
