/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes: an inode's inline body (a 12-byte header with the
 * count of shared ones, their 4-byte ids, then inline entries) and shared
 * entries in the xattr area (id * 4 bytes into xattr_blkaddr's block).
 * An entry is name length, name index, value size, name, value, padded to
 * 4 bytes.  The index names a built-in prefix ("user.") or, with bit 7, a
 * long prefix from the superblock's table (a built-in prefix plus an
 * infix), kept in the packed inode or in the metadata area. */
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "erofs/reader.h"

static const char *builtin_prefix(unsigned index)
{
	static const char *const p[] = { NULL, "user.", "system.posix_acl_access",
					 "system.posix_acl_default", "trusted.", "lustre.",
					 "security." };

	return index < sizeof(p) / sizeof(p[0]) ? p[index] : NULL;
}

/* The full name, or 0 when the prefix is one this reader does not know
 * (such entries are skipped, as the kernel skips them). */
static size_t full_name(const struct er_rd *rd, unsigned index, const uint8_t *name,
			size_t len, char *out)
{
	const struct er_prefix *lp = NULL;
	const char *pfx;
	size_t n;

	if (index & ER_XATTR_LONG_PREFIX) {
		if ((index & ER_XATTR_LONG_PREFIX_MASK) >= rd->sb.xattr_prefix_count ||
		    !rd->prefixes)
			return 0;
		lp = &rd->prefixes[index & ER_XATTR_LONG_PREFIX_MASK];
		index = lp->base;
	}
	if (!(pfx = builtin_prefix(index)))
		return 0;
	n = strlen(pfx);
	memcpy(out, pfx, n);
	if (lp) {
		memcpy(out + n, lp->infix, lp->len);
		n += lp->len;
	}
	memcpy(out + n, name, len);
	return n + len;
}

static int emit(const struct er_rd *rd, const uint8_t *e, er_xattr_fn fn, void *ctx)
{
	char name[32 + 256 + 256];
	size_t n = full_name(rd, e[1], e + 4, e[0], name);

	if (!n)
		return 0;
	return fn(ctx, name, n, e + 4 + e[0], ff_get_le16(e + 2));
}

static int walk_inline(const struct er_rd *rd, const struct er_inode *ino, const uint8_t *b,
		       size_t pos, er_xattr_fn fn, void *ctx, struct ff_err *err)
{
	while (pos + ER_XATTR_ENTRY_SIZE <= ino->xattr_isize) {
		size_t sz = ER_XATTR_ENTRY_SIZE + b[pos] + ff_get_le16(b + pos + 2);
		int ret;

		sz = (sz + 3) & ~(size_t)3;
		if (pos + sz > ino->xattr_isize)
			return ER_BAD(err, "inode %llu: inline xattr at %zu of %zu bytes runs past "
				      "the %u-byte xattr body", (unsigned long long)ino->nid, pos,
				      sz, ino->xattr_isize);
		if ((ret = emit(rd, b + pos, fn, ctx)) != 0)
			return ret;
		pos += sz;
	}
	return 0;
}

static int walk_shared(struct er_rd *rd, const struct er_inode *ino, uint32_t id,
		       er_xattr_fn fn, void *ctx, struct ff_err *err)
{
	uint64_t pos = er_blkpos(rd, rd->sb.xattr_blkaddr) + (uint64_t)id * 4;
	uint8_t h[ER_XATTR_ENTRY_SIZE], *e;
	size_t sz;
	int ret;

	if ((ret = er_pread(rd, h, sizeof(h), pos, "shared xattr", ino->nid, err)) < 0)
		return ret;
	sz = sizeof(h) + h[0] + ff_get_le16(h + 2);
	if (!(e = malloc(sz)))
		return ff_err_set(err, ENOMEM, "out of memory"), -ENOMEM;
	ret = er_pread(rd, e, sz, pos, "shared xattr", ino->nid, err);
	if (!ret)
		ret = emit(rd, e, fn, ctx);
	free(e);
	return ret;
}

int er_xattr_walk(struct er_rd *rd, const struct er_inode *ino, er_xattr_fn fn, void *ctx,
		  struct ff_err *err)
{
	size_t shared, body;
	uint8_t *b;
	int ret;

	if (!ino->xattr_isize)
		return 0;
	if (!(b = calloc(1, ino->xattr_isize)))
		return ff_err_set(err, ENOMEM, "out of memory"), -ENOMEM;
	ret = er_pread(rd, b, ino->xattr_isize, ino->iloc + ino->isize, "xattr body", ino->nid,
		       err);
	shared = b[4];
	body = ER_XATTR_IBODY_HEADER + 4 * shared;
	if (!ret && body > ino->xattr_isize)
		ret = ER_BAD(err, "inode %llu: %zu shared xattrs in a %u-byte xattr body",
			     (unsigned long long)ino->nid, shared, ino->xattr_isize);
	for (size_t i = 0; !ret && i < shared; i++)
		ret = walk_shared(rd, ino, ff_get_le32(b + ER_XATTR_IBODY_HEADER + 4 * i), fn, ctx,
				  err);
	if (!ret)
		ret = walk_inline(rd, ino, b, body, fn, ctx, err);
	free(b);
	return ret < 0 ? ret : 0;
}

/* A table record: 4-aligned, le16 length, payload; in the packed inode's
 * data or at an image offset. */
static int prefix_read(struct er_rd *rd, const struct er_inode *packed, uint64_t *pos,
		       uint8_t *out, size_t *len, struct ff_err *err)
{
	uint8_t l[2];
	ssize_t got;

	*pos = (*pos + 3) & ~(uint64_t)3;
	got = packed ? er_read(rd, packed, l, 2, *pos, err)
		     : (er_pread(rd, l, 2, *pos, "xattr prefix", 0, err) ? -EIO : 2);
	if (got != 2)
		return got < 0 ? (int)got : ER_BAD(err, "xattr prefix at %llu: past the end",
						   (unsigned long long)*pos);
	*len = ff_get_le16(l);
	if (*len < 1 || *len > 1 + ER_NAME_LEN)
		return ER_BAD(err, "xattr prefix at %llu: length %zu (1..%u)",
			      (unsigned long long)*pos, *len, 1 + ER_NAME_LEN);
	got = packed ? er_read(rd, packed, out, *len, *pos + 2, err)
		     : (er_pread(rd, out, *len, *pos + 2, "xattr prefix", 0, err) ? -EIO
										: (ssize_t)*len);
	if (got != (ssize_t)*len)
		return got < 0 ? (int)got : ER_BAD(err, "xattr prefix at %llu: past the end",
						   (unsigned long long)*pos);
	*pos += 2 + *len;
	return 0;
}

int er_prefixes_load(struct er_rd *rd, struct ff_err *err)
{
	uint64_t pos = (uint64_t)rd->sb.xattr_prefix_start << 2;
	struct er_inode packed, *pp = NULL;
	uint8_t rec[1 + ER_NAME_LEN];
	size_t len = 0;
	int ret;

	if (!rd->sb.xattr_prefix_count)
		return 0;
	if (rd->sb.packed_nid && !(rd->sb.compat & ER_COMPAT_PLAIN_XATTR_PFX)) {
		if ((ret = er_inode_load(rd, rd->sb.packed_nid, &packed, err)) < 0)
			return ret;
		pp = &packed;
	}
	rd->prefixes = calloc(rd->sb.xattr_prefix_count, sizeof(*rd->prefixes));
	if (!rd->prefixes)
		return ff_err_set(err, ENOMEM, "out of memory"), -ENOMEM;
	for (unsigned i = 0; i < rd->sb.xattr_prefix_count; i++) {
		if ((ret = prefix_read(rd, pp, &pos, rec, &len, err)) < 0)
			return ret;
		rd->prefixes[i].base = rec[0];
		rd->prefixes[i].len = (uint8_t)(len - 1);
		memcpy(rd->prefixes[i].infix, rec + 1, len - 1);
	}
	return 0;
}
