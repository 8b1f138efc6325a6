/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Identical compressed files (with fragments or -E dedupe): a file whose
 * bytes equal those of a compressed file placed before it is cut into the
 * same extents (the compressor sees the same input), so it takes that
 * file's pclusters and fragment instead of storing its own.  Found by
 * length and two CRCs of the content (summed by the worker as it reads),
 * then compared byte for byte, so a collision never shares wrong data.
 * Two inodes pointing at the same blocks needs no feature bit. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "erofs/write_priv.h"

/* 1 when a and b (of equal size) hold the same bytes. */
static int same_files(struct ew *w, const struct ew_ino *a, const struct ew_ino *b,
		      struct ff_err *err)
{
	size_t cap = 65536;
	uint8_t *x = malloc(2 * cap);
	struct ff_data *da = x ? ff_tree_open_data(w->tree, a->n, err) : NULL;
	struct ff_data *db = da ? ff_tree_open_data(w->tree, b->n, err) : NULL;
	int r = db ? 1 : -1;

	if (!x)
		r = ff_err_set(err, ENOMEM, "identical files: out of memory");
	for (uint64_t off = 0; r == 1 && off < a->size;) {
		size_t n = a->size - off < cap ? (size_t)(a->size - off) : cap;

		if (ew_read_at(da, a, x, n, off, err) || ew_read_at(db, b, x + cap, n, off, err))
			r = -1;
		else if (memcmp(x, x + cap, n))
			r = 0;
		off += n;
	}
	if (db)
		ff_data_close(db);
	if (da)
		ff_data_close(da);
	free(x);
	return r;
}

int ew_share_find(struct ew *w, const struct ew_ino *e, const struct ew_fsum *s,
		  const struct ew_ino **first, struct ff_err *err)
{
	uint8_t key[16];
	uint64_t v;
	int r;

	if (!w->o->fragments && !w->o->dedupe)
		return 0;
	ew_fsum_key(s, key);
	if (ff_hmap_find(&w->files_seen, key, sizeof(key), &v)) {
		*first = &w->inos[v - 1];
		if ((r = same_files(w, *first, e, err)) != 0)
			return r;
	}
	if (ff_hmap_set(&w->files_seen, key, sizeof(key), (uint64_t)(e - w->inos) + 1))
		return ff_err_set(err, ENOMEM, "identical files: out of memory");
	return 0;
}
