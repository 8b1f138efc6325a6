/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Equal pclusters across files (with -E fragments, as mkfs.erofs 1.9.3
 * does there): a pcluster whose stored bytes equal one an earlier file
 * wrote (the same length, stored as is or not alike) is not written
 * again; its extent points at the first (full indexes: the block address
 * is explicit there).  Files that share a part (gconv modules, a file and
 * its -old copy) compress those parts alike, since each extent starts the
 * codec afresh.  Keyed by the bytes' crc32c, the block count and the
 * stored flag, then compared byte for byte with what the image holds.
 * Files are placed on the main thread in pre-order: the image does not
 * depend on -j. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/crc.h"
#include "common/endian.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"
#include "erofs/write_zres.h"

static void pkey(uint8_t key[9], const uint8_t *b, const struct ew_extent *x, uint32_t blksz)
{
	ff_put_le32(key, ff_crc32c(0, b, (size_t)x->cblks * blksz));
	ff_put_le32(key + 4, x->cblks);
	key[8] = x->plain;
}

/* 1 when the image holds len bytes equal to b at block blk. */
static int same_in_image(struct ew *w, uint32_t blk, const uint8_t *b, size_t len,
			 struct ff_err *err)
{
	uint8_t *t = malloc(len);
	ssize_t n;
	int r;

	if (!t)
		return ff_err_set(err, ENOMEM, "pcluster sharing: out of memory");
	n = pread(w->out.fd, t, len, (off_t)blk << w->blkbits);
	r = n == (ssize_t)len && !memcmp(t, b, len);
	free(t);
	return r;
}

static int eligible(const struct ew *w, const struct ew_ino *e, const struct zres *r)
{
	return w->o->fragments && !w->o->dedupe && e != &w->packed && !r->early &&
	       w->out.fd >= 0 && !w->out.dev_size;
}

int ew_pshare_match(struct ew *w, struct ew_ino *e, struct zres *r, struct ff_err *err)
{
	size_t off = 0, kept = 0, refs = 0;
	uint8_t key[9];
	uint64_t blk;

	if (!eligible(w, e, r))
		return 0;
	for (size_t k = 0; k < r->n; k++) {
		struct ew_extent *x = &r->x[k];
		size_t len = (size_t)x->cblks << w->blkbits;
		int same = 0;

		if (x->frag || !x->cblks || x->ref)
			continue;
		pkey(key, r->data + off, x, w->blksz);
		if (ff_hmap_find(&w->pcl_seen, key, sizeof(key), &blk) &&
		    (same = same_in_image(w, (uint32_t)blk, r->data + off, len, err)) < 0)
			return -1;
		if (same) {
			x->ref = 1;
			x->blk = (uint32_t)blk;
			refs++;
		} else {
			memmove(r->data + kept, r->data + off, len);
			kept += len;
		}
		off += len;
	}
	if (!refs)
		return 0;
	r->len = kept + (r->len - off);
	e->layout = ER_COMPRESSED_FULL;
	e->zmeta_len = ew_zmap_len(w, e);
	e->slot = (uint32_t)ew_align((e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE) +
				     e->xattr_len, 8) + e->zmeta_len + e->inline_len;
	w->deduped = 1;
	return 0;
}

int ew_pshare_add(struct ew *w, const struct ew_ino *e, const struct zres *r,
		  const uint8_t *data, struct ff_err *err)
{
	uint32_t blk = e->blkaddr;
	size_t off = 0;
	uint8_t key[9];
	uint64_t old;

	if (!eligible(w, e, r))
		return 0;
	for (size_t k = 0; k < r->n; k++) {
		const struct ew_extent *x = &r->x[k];

		if (x->frag || !x->cblks || x->ref)
			continue;
		pkey(key, data + off, x, w->blksz);
		if (!ff_hmap_find(&w->pcl_seen, key, sizeof(key), &old) &&
		    ff_hmap_set(&w->pcl_seen, key, sizeof(key), blk))
			return ff_err_set(err, ENOMEM, "pcluster sharing: out of memory");
		off += (size_t)x->cblks << w->blkbits;
		blk += x->cblks;
	}
	return 0;
}
