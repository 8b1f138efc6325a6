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

/* The candidates are file indices (4 bytes; a tree has at most 2^32
 * nodes) sorted in place, first by size, then each run of one size by crc:
 * 16-byte records and the sort's merge buffer for them held 32 bytes a
 * file, the peak of a million-file build. */
struct sort_ctx {
	const struct sqfs_data_writer *w;
	const uint32_t *crcs;
};

static int by_size(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t sx = s->w->files[x]->size, sy = s->w->files[y]->size;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x > y) - (x < y);
}

static int by_crc(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (s->crcs[x] != s->crcs[y])
		return s->crcs[x] < s->crcs[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static uint64_t cand_size(const struct sqfs_data_writer *w, uint32_t i)
{
	return w->files[i]->size;
}

static int file_crc(struct sqfs_data_writer *w, size_t i, uint8_t *buf, uint32_t *crc,
		    struct ff_err *err)
{
	const struct ff_node *n = w->files[i];
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
static int same_content(struct sqfs_data_writer *w, size_t a, size_t b, uint8_t *buf,
			struct ff_err *err)
{
	struct ff_data *da = ff_tree_open_data(w->tree, w->files[a], err);
	struct ff_data *db = da ? ff_tree_open_data(w->tree, w->files[b], err) : NULL;
	uint64_t size = w->files[a]->size;
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
					 sqfs_node_name(w->files[b], path, sizeof(path)),
					 (unsigned long long)off);
		else if (memcmp(buf, buf + CHUNK, (size_t)ga))
			ret = 0;
		off += (uint64_t)(ga > 0 ? ga : 0);
	}
	ff_data_close(da);
	ff_data_close(db);
	return ret;
}

static int dedup_crc_run(struct sqfs_data_writer *w, const uint32_t *c, size_t n, uint8_t *buf,
			 struct ff_err *err)
{
	for (size_t k = 1; k < n; k++)
		for (size_t r = 0; r < k; r++) {
			int same;

			if (sqfs_fd_dup_of(sqfs_fdata(w, c[r])))
				continue;
			same = same_content(w, c[r], c[k], buf, err);
			if (same < 0)
				return -1;
			if (same) {
				sqfs_fd_set_dup(sqfs_fdata(w, c[k]), w->files[c[r]]->index);
				break;
			}
		}
	return 0;
}

static int dedup_size_run(struct sqfs_data_writer *w, uint32_t *c, size_t n, const uint32_t *crcs,
			  uint8_t *buf, struct ff_err *err)
{
	struct sort_ctx ctx = { .w = w, .crcs = crcs };
	size_t s = 0;

	qsort_r(c, n, sizeof(*c), by_crc, &ctx);
	for (size_t k = 1; k <= n; k++) {
		if (k < n && crcs[c[k]] == crcs[c[s]])
			continue;
		if (k - s > 1 && dedup_crc_run(w, c + s, k - s, buf, err) < 0)
			return -1;
		s = k;
	}
	return 0;
}

/* Marks in want[] (by data index) the files whose size is shared. */
static void mark_shared_sizes(const struct sqfs_data_writer *w, const uint32_t *c, size_t n,
			      uint8_t *want)
{
	size_t s = 0;

	for (size_t k = 1; k <= n; k++) {
		if (k < n && cand_size(w, c[k]) == cand_size(w, c[s]))
			continue;
		for (size_t r = s; k - s > 1 && cand_size(w, c[s]) && r < k; r++)
			want[c[r]] = 1;
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

	p->failed_at = w->n_files;
	for (size_t i = 0; i < w->n_files; i++) {
		if (p->part == 0)
			sqfs_readahead_progress(w->ra, pos);
		pos += w->files[i]->size;
		if (i % p->parts != p->part || !p->want[i])
			continue;
		if (!buf)
			ff_err_set(&p->err, ENOMEM, "dedup: out of memory");
		if (!buf || file_crc(w, i, buf, &p->crcs[i], &p->err) < 0) {
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

static int dedup_groups(struct sqfs_data_writer *w, uint32_t *c, size_t n, const uint32_t *crcs,
			uint8_t *buf, struct ff_err *err)
{
	size_t s = 0;

	for (size_t k = 1; k <= n; k++) {
		if (k < n && cand_size(w, c[k]) == cand_size(w, c[s]))
			continue;
		if (k - s > 1 && cand_size(w, c[s]) &&
		    dedup_size_run(w, c + s, k - s, crcs, buf, err) < 0)
			return -1;
		s = k;
	}
	return 0;
}

static size_t count_large(const struct sqfs_data_writer *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->n_files; i++)
		n += w->files[i]->size >= w->block_size;
	return n;
}

int sqfs_dedup(struct sqfs_data_writer *w, struct ff_err *err)
{
	struct sort_ctx ctx = { .w = w };
	size_t n = count_large(w);
	uint32_t *c = NULL, *crcs = NULL;
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
	for (size_t i = 0; i < w->n_files; i++)
		if (w->files[i]->size >= w->block_size)
			c[n++] = (uint32_t)i;
	qsort_r(c, n, sizeof(*c), by_size, &ctx);
	mark_shared_sizes(w, c, n, want);
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
		uint64_t size = w->files[i]->size;

		if (size && size < w->block_size && ds->seen[size] < 2)
			ds->seen[size]++;
	}
	for (size_t i = 0; i < w->n_files; i++)
		n += sqfs_dedup_small_wanted(w, w->files[i]->size);
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
};

/* An earlier first copy is the same file when its size and bytes are
 * (its crc is, or the hash would differ): read it again to compare,
 * which only a likely duplicate costs. */
static int small_match(void *ctx, uint32_t id)
{
	struct small_probe *p = ctx;
	const struct ff_node *n = p->w->files[id];
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
	return (int)got;
}

int sqfs_dedup_small(struct sqfs_data_writer *w, size_t i, const uint8_t *data, struct ff_err *err)
{
	uint64_t size = w->files[i]->size;
	struct small_probe p = { .w = w, .data = data, .size = size, .err = err };
	uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, (uInt)size);
	uint32_t h = small_hash(size, crc), first;
	int found = ff_hset_find(&w->small.set, h, small_match, &p, &first);

	if (found < 0)
		return -1;
	if (found) {
		sqfs_fd_set_dup(sqfs_fdata(w, i), w->files[first]->index);
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
}
