/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Read cost of a real image, through the same pipeline every command
 * opens images with (image/), so no format is named here:
 *
 *   sequential  every regular file read whole, in tree order, on a freshly
 *               opened image (a boot that reads its root file system)
 *   random      4 KiB reads at byte positions spread evenly at random over
 *               the file bytes (a fixed seed: every setting gets the same
 *               positions); and the read amplification: the image bytes
 *               fetched per byte asked when each read meets cold caches
 *               (a fresh open, its own reads not counted) - a whole block
 *               or cluster, and the metadata that finds it
 *   stat        every entry's attributes, directory by directory
 *
 * Times are thread CPU time (the reader decompresses in this thread), so
 * other load on a shared machine does not count.  The image is read
 * through a byte source that counts what the reader fetches: the read
 * amplification comes for free, for any format. */
#include "bench/bench.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/vec.h"
#include "image/image.h"

#define RAND_READ 4096u
#define RAND_COUNT 512u
#define COLD_COUNT 64u      /* random reads each on a fresh open, for the amplification */
#define SEQ_CHUNK (128u << 10)

struct count_src {
	struct ff_bsrc base;
	struct ff_bsrc *inner;
	atomic_uint_least64_t bytes;
};

static ssize_t count_pread(struct ff_bsrc *s, void *buf, size_t len, uint64_t off)
{
	struct count_src *c = (struct count_src *)s;
	ssize_t n = ff_bsrc_pread(c->inner, buf, len, off);

	if (n > 0)
		atomic_fetch_add(&c->bytes, (uint64_t)n);
	return n;
}

static void count_destroy(struct ff_bsrc *s)
{
	ff_bsrc_unref(((struct count_src *)s)->inner);
}

static const struct ff_bsrc_ops count_ops = { count_pread, count_destroy };

/* The image opened over a counting source; *cs stays valid while fs is. */
static int open_counted(const char *path, struct ff_fs **fs, struct count_src **cs,
			struct ff_err *err)
{
	struct ff_bsrc *inner = ff_bsrc_open(path, err);
	struct count_src *c;
	int rc;

	if (!inner)
		return -1;
	c = calloc(1, sizeof(*c));
	if (!c || ff_bsrc_init(&c->base, &count_ops, inner->size, path, err) < 0) {
		free(c);
		ff_bsrc_unref(inner);
		return c ? -1 : ff_err_set(err, ENOMEM, "bench: out of memory");
	}
	c->inner = inner;
	c->base.fd = inner->fd;
	c->base.fd_off = inner->fd_off;
	rc = ff_image_open_src(&c->base, NULL, fs, err);
	*cs = c;
	ff_bsrc_unref(&c->base);  /* the file system holds its own reference */
	return rc;
}

struct rc_file {
	uint64_t handle, size, start; /* start: the sum of the sizes before it */
};

struct rc_walk {
	struct ff_fs *fs;
	struct ff_vec files;           /* struct rc_file */
	const struct rc_file *v;       /* files' elements once walked */
	size_t n;
	uint64_t entries, bytes;
	int stat_only;
	int failed;
};

static void add_file(struct rc_walk *w, uint64_t handle, uint64_t size)
{
	struct rc_file f = { handle, size, w->bytes };

	if (ff_vec_push(&w->files, &f))
		w->failed = -ENOMEM;
	w->bytes += size;
}

/* Pre-order, sorted: the same order for every format. */
static void walk(struct rc_walk *w, uint64_t dir)
{
	struct ff_dirlist l = { 0 };
	int r = ff_fs_list_dir(w->fs, dir, FF_LIST_SORT, &l);

	if (r < 0)
		w->failed = r;
	for (size_t i = 0; r == 0 && i < l.n && !w->failed; i++) {
		struct ff_stat st;

		w->entries++;
		if ((r = w->fs->ops->getattr(w->fs, l.v[i].handle, &st)) < 0) {
			w->failed = r;
			break;
		}
		if (S_ISREG(st.mode) && !w->stat_only)
			add_file(w, l.v[i].handle, st.size);
		if (S_ISDIR(st.mode))
			walk(w, l.v[i].handle);
	}
	ff_dirlist_free(&l);
}

static int read_file(struct ff_fs *fs, const struct rc_file *f, uint8_t *buf)
{
	for (uint64_t off = 0; off < f->size;) {
		ssize_t n = fs->ops->read(fs, f->handle, buf, SEQ_CHUNK, off);

		if (n <= 0)
			return n < 0 ? (int)n : -EIO;
		off += (uint64_t)n;
	}
	return 0;
}

/* One sequential pass on a fresh open; *secs its CPU time. */
static int seq_pass(const char *path, const struct rc_walk *files, uint8_t *buf, double *secs,
		    struct ff_err *err)
{
	struct count_src *cs;
	struct ff_fs *fs;
	double t0 = bench_cpu_now();
	int r = 0;

	if (open_counted(path, &fs, &cs, err))
		return -1;
	for (size_t i = 0; i < files->n && !r; i++)
		r = read_file(fs, &files->v[i], buf);
	*secs = bench_cpu_now() - t0;
	ff_fs_close(fs);
	return r ? ff_err_set(err, -r, "%s: reading it back failed", path) : 0;
}

/* The file holding byte pos of all file bytes (v sorted by start). */
static const struct rc_file *file_at(const struct rc_walk *w, uint64_t pos)
{
	size_t lo = 0, hi = w->n;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (w->v[mid].start <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return &w->v[lo];
}

/* Position i of the fixed random sequence: the file and the 4 KiB-aligned
 * offset in it. */
static const struct rc_file *rand_at(const struct rc_walk *w, uint64_t *x, uint64_t *off)
{
	const struct rc_file *f;
	uint64_t pos;

	*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
	pos = *x % w->bytes;
	f = file_at(w, pos);
	*off = (pos - f->start) & ~(uint64_t)(RAND_READ - 1);
	return f;
}

/* Image bytes fetched per byte asked, each read on a fresh open. */
static int cold_amplification(const char *path, const struct rc_walk *files, uint8_t *buf,
			      double *amp, struct ff_err *err)
{
	uint64_t x = 0x2545f4914f6cdd1dull, asked = 0, fetched = 0;

	for (unsigned i = 0; i < COLD_COUNT && files->bytes; i++) {
		uint64_t off;
		const struct rc_file *f = rand_at(files, &x, &off);
		struct count_src *cs;
		struct ff_fs *fs;
		ssize_t n;

		if (open_counted(path, &fs, &cs, err))
			return -1;
		atomic_store(&cs->bytes, 0);
		n = fs->ops->read(fs, f->handle, buf, RAND_READ, off);
		fetched += atomic_load(&cs->bytes);
		ff_fs_close(fs);
		if (n < 0)
			return ff_err_set(err, (int)-n, "%s: a 4 KiB read failed", path);
		asked += (uint64_t)n;
	}
	*amp = asked ? (double)fetched / (double)asked : 0;
	return 0;
}

static int random_pass(const char *path, const struct rc_walk *files, uint8_t *buf,
		       struct bench_result *res, struct ff_err *err)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, asked = 0;
	struct count_src *cs;
	struct ff_fs *fs;
	double t0;
	ssize_t n = 0;

	if (open_counted(path, &fs, &cs, err))
		return -1;
	atomic_store(&cs->bytes, 0);
	t0 = bench_cpu_now();
	for (unsigned i = 0; i < RAND_COUNT && files->bytes && n >= 0; i++) {
		uint64_t off;
		const struct rc_file *f = rand_at(files, &x, &off);

		n = fs->ops->read(fs, f->handle, buf, RAND_READ, off);
		asked += n > 0 ? (uint64_t)n : 0;
	}
	res->rand_us = 1e6 * (bench_cpu_now() - t0) / RAND_COUNT;
	ff_fs_close(fs);
	if (n < 0)
		return ff_err_set(err, (int)-n, "%s: a 4 KiB read failed", path);
	(void)asked;
	return cold_amplification(path, files, buf, &res->rand_amp, err);
}

static int stat_pass(const char *path, struct bench_result *res, struct ff_err *err)
{
	struct rc_walk w = { .stat_only = 1, .files = FF_VEC_INIT(struct rc_file) };
	struct count_src *cs;
	double t0;

	if (open_counted(path, &w.fs, &cs, err))
		return -1;
	t0 = bench_cpu_now();
	walk(&w, w.fs->ops->root(w.fs));
	res->stat_us = w.entries ? 1e6 * (bench_cpu_now() - t0) / (double)w.entries : 0;
	res->entries = w.entries;
	ff_fs_close(w.fs);
	return w.failed ? ff_err_set(err, -w.failed, "%s: walking its tree failed", path) : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Passes until min_time and min_repeats: best, median and worst speed. */
static int seq_passes(const char *path, const struct rc_walk *files, uint8_t *buf,
		      const struct bench_measure_opts *o, struct bench_speed *sp,
		      struct ff_err *err)
{
	double t[64], total = 0, mb = (double)files->bytes / 1e6;
	unsigned n = 0;

	while (n < 64 && (n < o->min_repeats || total < o->min_time)) {
		if (seq_pass(path, files, buf, &t[n], err))
			return -1;
		total += t[n++];
	}
	qsort(t, n, sizeof(t[0]), cmp_double);
	sp->passes = n;
	sp->best = t[0] > 0 ? mb / t[0] : 0;
	sp->median = t[n / 2] > 0 ? mb / t[n / 2] : 0;
	sp->worst = t[n - 1] > 0 ? mb / t[n - 1] : 0;
	return 0;
}

int bench_read_cost(const char *path, const struct bench_measure_opts *o,
		    struct bench_result *res, struct ff_err *err)
{
	struct rc_walk w = { .files = FF_VEC_INIT(struct rc_file) };
	struct count_src *cs;
	uint8_t *buf = malloc(SEQ_CHUNK);
	int rc = -1;

	if (!buf)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	if (open_counted(path, &w.fs, &cs, err) == 0) {
		walk(&w, w.fs->ops->root(w.fs));
		ff_fs_close(w.fs);
		w.v = FF_VEC_DATA(&w.files, struct rc_file);
		w.n = w.files.len;
		rc = w.failed ? ff_err_set(err, -w.failed, "%s: walking its tree failed", path) : 0;
	}
	if (!rc)
		rc = seq_passes(path, &w, buf, o, &res->decomp, err);
	if (!rc)
		rc = random_pass(path, &w, buf, res, err);
	if (!rc)
		rc = stat_pass(path, res, err);
	res->read_bytes = w.bytes;
	ff_vec_free(&w.files);
	free(buf);
	return rc;
}
