/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Shared data: mkfs.cramfs gives a file or symlink the data of the first
 * earlier one (in pre-order) with the same size and the same bytes, a
 * symlink's bytes being its target, so a symlink and a file can share.
 * Only sizes two entries have are compared: their content's CRC picks
 * the candidates, and the bytes decide. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cramfs/write_priv.h"

#define CHUNK 65536u

uint32_t cw_data_size(const struct cw *w, const struct ff_node *n)
{
	const struct ff_node *m = cw_meta(n);

	if (!S_ISREG(m->mode) && !S_ISLNK(m->mode))
		return 0;
	return w->e[n->index].size;
}

int cw_content(struct cw *w, const struct ff_node *n, struct ff_data **d, uint8_t *buf,
	       uint32_t len, uint64_t off, struct ff_err *err)
{
	const struct ff_node *m = cw_meta(n);
	ssize_t got;

	(void)w;
	if (S_ISLNK(m->mode)) {
		memcpy(buf, m->target + off, len);
		return 0;
	}
	if (!*d && !(*d = ff_tree_open_data(w->tree, m, err)))
		return -1;
	got = ff_data_pread(*d, buf, len, off, err);
	if (got < 0)
		return -1;
	if ((uint32_t)got != len)
		return ff_err_set(err, EIO, "%s: %zd bytes at %llu where %u were expected",
				  ff_node_name(m), got, (unsigned long long)off, len);
	return 0;
}

static int content_crc(struct cw *w, const struct ff_node *n, uint32_t size, uint32_t *crc,
		       struct ff_err *err)
{
	struct ff_data *d = NULL;
	uLong c = crc32(0L, Z_NULL, 0);
	int r = 0;

	for (uint32_t off = 0; off < size && !r; off += CHUNK) {
		uint32_t len = size - off < CHUNK ? size - off : CHUNK;

		r = cw_content(w, n, &d, w->in2, len, off, err);
		if (!r)
			c = crc32(c, w->in2, len);
	}
	if (d)
		ff_data_close(d);
	*crc = (uint32_t)c;
	return r;
}

static int same_bytes(struct cw *w, const struct ff_node *a, const struct ff_node *b,
		      uint32_t size, struct ff_err *err)
{
	struct ff_data *da = NULL, *db = NULL;
	uint8_t *pa = w->in2, *pb = w->in2 + CHUNK;
	int r = 1;

	for (uint32_t off = 0; off < size && r == 1; off += CHUNK) {
		uint32_t len = size - off < CHUNK ? size - off : CHUNK;

		if (cw_content(w, a, &da, pa, len, off, err) ||
		    cw_content(w, b, &db, pb, len, off, err))
			r = -1;
		else if (memcmp(pa, pb, len))
			r = 0;
	}
	if (da)
		ff_data_close(da);
	if (db)
		ff_data_close(db);
	return r;
}

static int one_of_a_kind(struct cw *w, uint32_t size)
{
	uint64_t count = 0;

	ff_hmap_find(&w->sizes, &size, sizeof(size), &count);
	return count < 2;
}

int cw_find_same(struct cw *w, const struct ff_node *n, const struct ff_node **same,
		 struct ff_err *err)
{
	uint32_t size = cw_data_size(w, n), key[3] = { size, 0, 0 };
	uint64_t idx;

	*same = NULL;
	if (one_of_a_kind(w, size))
		return 0;
	if (content_crc(w, n, size, &key[1], err))
		return -1;
	/* Contents with one size and CRC but other bytes take k = 0, 1, ... */
	for (; ff_hmap_find(&w->reps, key, sizeof(key), &idx); key[2]++) {
		const struct ff_node *c = (const struct ff_node *)(uintptr_t)idx;
		int r = same_bytes(w, c, n, size, err);

		if (r < 0)
			return -1;
		if (r) {
			*same = c;
			return 0;
		}
	}
	if (ff_hmap_set(&w->reps, key, sizeof(key), (uint64_t)(uintptr_t)n))
		return ff_err_set(err, ENOMEM, "out of memory");
	return 0;
}
