/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Whole-file deduplication: only files whose size occurs more than once
 * are candidates; a zlib crc32 of each groups likely twins, and a
 * byte-by-byte comparison confirms them, so a crc collision can never
 * merge different files.  The first file in data order keeps the content;
 * later copies point at it.
 *
 * Files of at least one block are decided before anything is compressed
 * (sqfs_dedup), so a duplicate is never read twice nor compressed.  Their
 * crcs are taken in data order, the order the read-ahead helper and the
 * data pass follow, so a cold page cache is filled front to back; two
 * threads take alternate files.
 *
 * Smaller files (nearly all of a tree of many small files) are decided
 * in the data pass instead (sqfs_dedup_small), from the bytes it has
 * just read: a pre-pass read each of them twice, and opening a small file
 * costs more than reading it.  The two classes never share a size, so
 * each finds the same first copies as one pass over all would. */
#include "squashfs/data_writer.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/pool.h"

#define CHUNK (256u * 1024)

/* The candidates (files of a block or more) are their nodes and data
 * indices, sorted in place, first by size, then each run of one size by
 * crc.  The data pass keeps no list of nodes (file_list.h), so the
 * candidates, few in a tree of many small files, carry theirs. */
struct cand {
	struct ff_node *n;
	uint32_t i;           /* data index (a tree has at most 2^32 nodes) */
};

static int by_size(const void *a, const void *b, void *arg)
{
	const struct cand *x = a, *y = b;
	uint64_t sx = x->n->size, sy = y->n->size;

	(void)arg;
	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static int by_crc(const void *a, const void *b, void *arg)
{
	const uint32_t *crcs = arg;
	const struct cand *x = a, *y = b;

	if (crcs[x->i] != crcs[y->i])
		return crcs[x->i] < crcs[y->i] ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static uint64_t cand_size(const struct cand *c)
{
	return c->n->size;
}

static int file_crc(struct sqfs_data_writer *w, const struct ff_node *n, uint8_t *buf,
		    uint32_t *crc, struct ff_err *err)
{
	struct ff_data *d = ff_tree_open_data(w->tree, n, err);
	uLong c = crc32(0L, Z_NULL, 0);
	char path[4096];

	if (!d)
		return -1;
	for (uint64_t off = 0; off < n->size;) {
		ssize_t got = ff_data_pread(d, buf, CHUNK, off, err);

		if (got <= 0) {
			ff_data_close(d);
			return got < 0 ? -1 : ff_err_set(err, EIO, "%s: unexpected end of file",
							 sqfs_node_name(n, path, sizeof(path)));
		}
		c = crc32(c, buf, (uInt)got);
		off += (uint64_t)got;
	}
	ff_data_close(d);
	*crc = (uint32_t)c;
	return 0;
}

/* 1 when equal, 0 when not, -1 on a read error. */
static int same_content(struct sqfs_data_writer *w, const struct ff_node *a,
			const struct ff_node *b, uint8_t *buf, struct ff_err *err)
{
	struct ff_data *da = ff_tree_open_data(w->tree, a, err);
	struct ff_data *db = da ? ff_tree_open_data(w->tree, b, err) : NULL;
	uint64_t size = a->size;
	char path[4096];
	int ret = 1;

	if (!db) {
		ff_data_close(da);
		return -1;
	}
	for (uint64_t off = 0; off < size && ret == 1;) {
		ssize_t ga = ff_data_pread(da, buf, CHUNK, off, err);
		ssize_t gb = ga > 0 ? ff_data_pread(db, buf + CHUNK, CHUNK, off, err) : ga;

		if (ga < 0 || gb < 0)
			ret = -1;
		else if (ga == 0 || gb != ga)
			ret = ff_err_set(err, EIO, "%s: size changed while comparing at offset %llu",
					 sqfs_node_name(b, path, sizeof(path)),
					 (unsigned long long)off);
		else if (memcmp(buf, buf + CHUNK, (size_t)ga))
			ret = 0;
		off += (uint64_t)(ga > 0 ? ga : 0);
	}
	ff_data_close(da);
	ff_data_close(db);
	return ret;
}

static int dedup_crc_run(struct sqfs_data_writer *w, const struct cand *c, size_t n,
			 uint8_t *buf, struct ff_err *err)
{
	for (size_t k = 1; k < n; k++)
		for (size_t r = 0; r < k; r++) {
			int same;

			if (sqfs_fd_dup_of(sqfs_fdata(w, c[r].n)))
				continue;
			same = same_content(w, c[r].n, c[k].n, buf, err);
			if (same < 0)
				return -1;
			if (same) {
				sqfs_fd_set_dup(sqfs_fdata(w, c[k].n), c[r].n->index);
				break;
			}
		}
	return 0;
}

static int dedup_size_run(struct sqfs_data_writer *w, struct cand *c, size_t n,
			  const uint32_t *crcs, uint8_t *buf, struct ff_err *err)
{
	size_t s = 0;

	qsort_r(c, n, sizeof(*c), by_crc, (void *)crcs);
	for (size_t k = 1; k <= n; k++) {
		if (k < n && crcs[c[k].i] == crcs[c[s].i])
			continue;
		if (k - s > 1 && dedup_crc_run(w, c + s, k - s, buf, err) < 0)
			return -1;
		s = k;
	}
	return 0;
}

/* Marks in want[] (by data index) the files whose size is shared. */
static void mark_shared_sizes(const struct cand *c, size_t n, uint8_t *want)
{
	size_t s = 0;

	for (size_t k = 1; k <= n; k++) {
		if (k < n && cand_size(&c[k]) == cand_size(&c[s]))
			continue;
		for (size_t r = s; k - s > 1 && cand_size(&c[s]) && r < k; r++)
			want[c[r].i] = 1;
		s = k;
	}
}

/* The crcs of one share of the files (every parts-th, from part on): the
 * pass runs before the compressors start, so it is split over the cores. */
struct crc_part {
	struct sqfs_data_writer *w;
	const uint8_t *want;
	uint32_t *crcs;
	unsigned part, parts;
	size_t failed_at;    /* n_files when none failed */
	struct ff_err err;
};

static void *crc_part_run(void *arg)
{
	struct crc_part *p = arg;
	struct sqfs_data_writer *w = p->w;
	uint8_t *buf = malloc(CHUNK);
	uint64_t pos = 0;
	struct sqfs_file_cur cur = {0}; /* this thread's own */

	p->failed_at = w->n_files;
	for (size_t i = 0; i < w->n_files; i++) {
		const struct ff_node *n = sqfs_file_at(&w->list, &cur, i);

		if (p->part == 0)
			sqfs_readahead_progress(w->ra, pos);
		pos += n->size;
		if (i % p->parts != p->part || !p->want[i])
			continue;
		if (!buf)
			ff_err_set(&p->err, ENOMEM, "dedup: out of memory");
		if (!buf || file_crc(w, n, buf, &p->crcs[i], &p->err) < 0) {
			p->failed_at = i;
			break;
		}
	}
	free(buf);
	return NULL;
}

static void crc_part_task(void *arg, void *job, unsigned worker)
{
	(void)job;
	(void)worker;
	crc_part_run(arg);
}

/* Deterministic whatever the timing: the error of the first file in data
 * order that failed is the one reported. */
static int crc_wanted(struct sqfs_data_writer *w, const uint8_t *want, uint32_t *crcs,
		      struct ff_err *err)
{
	unsigned parts = w->jobs > 1 ? 2 : 1, started = 1;
	struct crc_part p[2];
	struct ff_pool *helper = NULL;
	size_t first = 0;

	for (unsigned k = 0; k < parts; k++)
		p[k] = (struct crc_part){ .w = w, .want = want, .crcs = crcs, .part = k,
					  .parts = parts };
	if (parts > 1 && (helper = ff_pool_task(crc_part_task, &p[1], NULL)))
		started = 2;
	else
		p[0].parts = 1;
	crc_part_run(&p[0]);
	ff_pool_free(helper);
	for (unsigned k = 1; k < started; k++)
		if (p[k].failed_at < p[first].failed_at)
			first = k;
	if (p[first].failed_at == w->n_files)
		return 0;
	*err = p[first].err;
	return -1;
}

static int dedup_groups(struct sqfs_data_writer *w, struct cand *c, size_t n,
			const uint32_t *crcs, uint8_t *buf, struct ff_err *err)
{
	size_t s = 0;

	for (size_t k = 1; k <= n; k++) {
		if (k < n && cand_size(&c[k]) == cand_size(&c[s]))
			continue;
		if (k - s > 1 && cand_size(&c[s]) &&
		    dedup_size_run(w, c + s, k - s, crcs, buf, err) < 0)
			return -1;
		s = k;
	}
	return 0;
}

static size_t count_large(struct sqfs_data_writer *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->n_files; i++)
		n += sqfs_file(w, i)->size >= w->block_size;
	return n;
}

int sqfs_dedup(struct sqfs_data_writer *w, struct ff_err *err)
{
	size_t n = count_large(w);
	struct cand *c = NULL;
	uint32_t *crcs = NULL;
	uint8_t *want = NULL, *buf = NULL;
	int ret = -1;

	if (n < 2)
		return 0;
	c = calloc(n + 1, sizeof(*c));
	crcs = calloc(w->n_files + 1, sizeof(*crcs));
	want = calloc(w->n_files + 1, 1);
	buf = malloc(2 * CHUNK);
	if (!c || !crcs || !want || !buf) {
		ff_err_set(err, ENOMEM, "dedup: out of memory");
		goto out;
	}
	n = 0;
	for (size_t i = 0; i < w->n_files; i++) {
		struct ff_node *f = sqfs_file(w, i);

		if (f->size >= w->block_size)
			c[n++] = (struct cand){ f, (uint32_t)i };
	}
	qsort_r(c, n, sizeof(*c), by_size, NULL);
	mark_shared_sizes(c, n, want);
	if (crc_wanted(w, want, crcs, err) == 0)
		ret = dedup_groups(w, c, n, crcs, buf, err);
out:
	free(c);
	free(crcs);
	free(want);
	free(buf);
	return ret;
}

/* ---- files smaller than a block, in the data pass ---- */

/* Which sizes below a block occur more than once (a count per size,
 * saturating at 2): a file of a size no other has needs no crc and no
 * slot in the set. */
int sqfs_dedup_small_init(struct sqfs_data_writer *w, struct ff_err *err)
{
	struct sqfs_dedup_small *ds = &w->small;
	size_t n = 0;

	if (w->o->no_dedup)
		return 0;
	ds->seen = calloc(w->block_size, 1);
	ds->cmp = malloc(w->block_size);
	if (!ds->seen || !ds->cmp)
		return ff_err_set(err, ENOMEM, "dedup: out of memory");
	for (size_t i = 0; i < w->n_files; i++) {
		uint64_t size = sqfs_file(w, i)->size;

		if (size && size < w->block_size && ds->seen[size] < 2)
			ds->seen[size]++;
	}
	for (size_t i = 0; i < w->n_files; i++)
		n += sqfs_dedup_small_wanted(w, sqfs_file(w, i)->size);
	if (w->n_files > (size_t)FF_HSET_ID_MAX + 1)
		return ff_err_set(err, EFBIG,
				  "dedup: %zu files, more than the %u the duplicate check holds"
				  " (-no-duplicates builds without it)",
				  w->n_files, FF_HSET_ID_MAX + 1);
	/* room for every candidate: the set never grows, so it needs no
	 * way to hash its ids again (their crcs are not kept) */
	if (ff_hset_reserve(&ds->set, n) < 0)
		return ff_err_set(err, ENOMEM, "dedup: out of memory for %zu files", n);
	return 0;
}

int sqfs_dedup_small_wanted(const struct sqfs_data_writer *w, uint64_t size)
{
	return w->small.seen && size && size < w->block_size && w->small.seen[size] == 2;
}

/* The set's hash: for one size, equal exactly when the crcs are. */
static uint32_t small_hash(uint64_t size, uint32_t crc)
{
	return crc ^ (uint32_t)(size * 0x9e3779b1u);
}

struct small_probe {
	struct sqfs_data_writer *w;
	const uint8_t *data;
	uint64_t size;
	struct ff_err *err;
	const struct ff_node *found;
};

/* An earlier first copy is the same file when its size and bytes are
 * (its crc is, or the hash would differ): read it again to compare,
 * which only a likely duplicate costs. */
static int small_match(void *ctx, uint32_t id)
{
	struct small_probe *p = ctx;
	/* the set's own cursor: the data pass's stays where it is */
	const struct ff_node *n = sqfs_file_at(&p->w->list, &p->w->small.cur, id);
	uint8_t *buf = p->w->small.cmp; /* sizes here are below a block */
	struct ff_data *d;
	ssize_t got;

	if (n->size != p->size)
		return 0;
	d = ff_tree_open_data(p->w->tree, n, p->err);
	if (!d)
		return -1;
	got = ff_data_pread(d, buf, p->size, 0, p->err);
	ff_data_close(d);
	if (got >= 0 && (uint64_t)got != p->size) {
		char path[4096];

		got = ff_err_set(p->err, EIO, "%s: unexpected end of file",
				 sqfs_node_name(n, path, sizeof(path)));
	}
	if (got >= 0)
		got = !memcmp(buf, p->data, p->size);
	if (got > 0)
		p->found = n;
	return (int)got;
}

int sqfs_dedup_small(struct sqfs_data_writer *w, size_t i, const struct ff_node *n,
		     const uint8_t *data, struct ff_err *err)
{
	uint64_t size = n->size;
	struct small_probe p = { .w = w, .data = data, .size = size, .err = err };
	uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)size);
	uint32_t h = small_hash(size, crc), first;
	int found = ff_hset_find(&w->small.set, h, small_match, &p, &first);

	if (found < 0)
		return -1;
	if (found) {
		sqfs_fd_set_dup(sqfs_fdata(w, n), p.found->index);
		return 1;
	}
	if (ff_hset_add(&w->small.set, h, (uint32_t)i, NULL, NULL) < 0)
		return ff_err_set(err, ENOMEM, "dedup: out of memory");
	return 0;
}

void sqfs_dedup_small_free(struct sqfs_data_writer *w)
{
	free(w->small.seen);
	w->small.seen = NULL;
	free(w->small.cmp);
	w->small.cmp = NULL;
	ff_hset_free(&w->small.set);
	w->small.cur = (struct sqfs_file_cur){0};
}
