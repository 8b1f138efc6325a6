/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The data's blocks through the one worker pool, in order.  This thread
 * reads the blocks into slots and queues them in batches (a job: up to
 * CW_BATCH_BYTES of blocks, across entries); a worker deflates each with
 * its own z_stream (deflateReset + one deflate(Z_FINISH) at the default
 * level: the bytes compress2 gives, without allocating deflate's state per
 * block); the jobs retire oldest first, so each entry's table and blocks
 * are laid out, written and CRC'd in the image's order whatever the number
 * of threads.  Job k's items take the slots of ring place k % queue: the
 * ring holds at most queue jobs, so those are free again once job
 * k - queue has retired. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "cramfs/inode.h"
#include "cramfs/write_priv.h"

static int emit(struct cw *w, const void *p, size_t len, struct ff_err *err)
{
	if (ff_outfile_write(&w->out, p, len, err))
		return -1;
	w->crc = crc32(w->crc, p, (uInt)len);
	w->pos += len;
	return 0;
}

int cw_zeros(struct cw *w, uint64_t len, struct ff_err *err)
{
	static const uint8_t zero[512];

	while (len) {
		size_t n = len < sizeof(zero) ? (size_t)len : sizeof(zero);

		if (emit(w, zero, n, err))
			return -1;
		len -= n;
	}
	return 0;
}

static int all_zero(const uint8_t *p, uint32_t len)
{
	return !p[0] && !memcmp(p, p + 1, len - 1);
}

/* On a worker: the block as a hole (-z), or as one zlib stream of at most
 * twice the block size (mkfs.cramfs' bound). */
static void compress_item(struct cw *w, struct cw_zs *z, struct cw_item *it)
{
	if (!it->len)
		return; /* shares an earlier entry's data */
	if (w->o->holes && all_zero(it->in, it->len)) {
		it->hole = 1;
		return;
	}
	if (!z->ready)
		z->ready = deflateInit(&z->s, Z_DEFAULT_COMPRESSION) == Z_OK;
	if (!z->ready || deflateReset(&z->s) != Z_OK) {
		it->failed = 1;
		return;
	}
	z->s.next_in = it->in;
	z->s.avail_in = it->len;
	z->s.next_out = it->out;
	z->s.avail_out = 2 * w->o->blksize;
	it->failed = deflate(&z->s, Z_FINISH) != Z_STREAM_END;
	it->zlen = (uint32_t)z->s.total_out;
}

static void run(void *user, void *job, unsigned worker)
{
	struct cw *w = user;
	struct cw_job *j = job;

	for (uint32_t i = 0; i < j->count; i++)
		compress_item(w, &w->zs[worker], &j->it[i]);
}

int cw_pipe_start(struct cw *w, struct ff_err *err)
{
	unsigned threads = w->o->threads ? w->o->threads : ff_online_cpus();
	uint32_t bs = w->o->blksize;
	struct ff_pool_cfg cfg = { .threads = threads, .job_size = sizeof(struct cw_job),
				   .ordered = 1, .run = run, .user = w };

	/* a few jobs per worker keep them busy while this thread reads and
	 * writes; memory stays queue * per_job * 3 blocks whatever the tree */
	w->per_job = bs < CW_BATCH_BYTES ? CW_BATCH_BYTES / bs : 1;
	w->queue = 4 + 2 * (size_t)threads;
	cfg.queue = w->queue;
	w->zs = calloc(threads, sizeof(*w->zs));
	w->slots = malloc(w->queue * w->per_job * 3 * bs);
	if (!w->zs || !w->slots)
		return ff_err_set(err, ENOMEM, "out of memory for %u compressing threads", threads);
	w->n_zs = threads;
	w->pool = ff_pool_new(&cfg, err);
	return w->pool ? 0 : -1;
}

/* The entry starts at the end of what is written: its table first. */
static int start_entry(struct cw *w, const struct cw_item *it, struct ff_err *err)
{
	if (w->pos > CR_OFFSET_MAX)
		return ff_err_set(err, EFBIG, "filesystem too big: data of %s would start at %llu"
				  " (at most %u)", ff_node_name(it->n), (unsigned long long)w->pos,
				  CR_OFFSET_MAX);
	w->e[it->n->index].offset = (uint32_t)w->pos;
	w->buf.len = 0;
	if (ff_vec_reserve(&w->buf, 4 * (size_t)it->blocks))
		return ff_err_set(err, ENOMEM, "out of memory (%zu bytes for one file)",
				  4 * (size_t)it->blocks);
	w->buf.len = 4 * (size_t)it->blocks;
	return 0;
}

static int end_entry(struct cw *w, uint32_t blocks, struct ff_err *err)
{
	if (emit(w, w->buf.data, w->buf.len, err))
		return -1;
	w->st->blocks += blocks;
	return cw_zeros(w, (4 - w->pos % 4) % 4, err);
}

/* The block appended to its entry's table and blocks; its end pointer
 * into the table; the entry written after its last block. */
static int lay(struct cw *w, const struct cw_item *it, struct ff_err *err)
{
	uint32_t bs = w->o->blksize;

	if (!it->len) {
		w->e[it->n->index].offset = w->e[it->same->index].offset;
		w->st->shared++;
		return 0;
	}
	if (!it->block && start_entry(w, it, err))
		return -1;
	if (it->failed)
		return ff_err_set(err, EIO, "%s: block %u does not compress into %u bytes",
				  ff_node_name(it->n), it->block, 2 * bs);
	if (it->hole) {
		w->st->holes++;
	} else if (ff_vec_append(&w->buf, it->out, it->zlen)) {
		return ff_err_set(err, ENOMEM, "out of memory (%zu bytes for one file)",
				  w->buf.len + it->zlen);
	}
	if (w->pos + w->buf.len > UINT32_MAX)
		return ff_err_set(err, EFBIG, "image larger than 4 GiB");
	ff_put32(ff_vec_at(&w->buf, 4 * (size_t)it->block), (uint32_t)(w->pos + w->buf.len),
		 w->o->big_endian);
	return it->block + 1 < it->blocks ? 0 : end_entry(w, it->blocks, err);
}

/* The oldest job's items laid out, or dropped after a failure: 1 none
 * left, -1 one failed now (err names its entry). */
static int retire_one(struct cw *w, struct ff_err *err)
{
	struct cw_job j;

	if (!ff_pool_retire(w->pool, &j))
		return 1;
	for (uint32_t i = 0; i < j.count && !w->failed; i++)
		if (lay(w, &j.it[i], err)) {
			w->failed = 1;
			return ff_err_prefix(err, "%s", ff_node_name(j.it[i].n));
		}
	return 0;
}

struct cw_item *cw_pipe_item(struct cw *w, struct ff_err *err)
{
	uint32_t k = w->batch.count, bs = w->o->blksize;
	uint8_t *slot;

	/* the batch goes where the oldest job was once that has retired */
	if (!k && ff_pool_pending(w->pool) == w->queue && retire_one(w, err) < 0)
		return NULL;
	slot = w->slots + ((size_t)(w->submitted % w->queue) * w->per_job + k) * 3 * bs;
	w->batch.it[k] = (struct cw_item){ .in = slot, .out = slot + bs };
	return &w->batch.it[k];
}

static void submit(struct cw *w)
{
	ff_pool_submit(w->pool, &w->batch);
	w->submitted++;
	w->batch.count = 0;
}

void cw_pipe_add(struct cw *w)
{
	if (++w->batch.count == w->per_job)
		submit(w);
}

int cw_pipe_drain(struct cw *w, struct ff_err *err)
{
	int r, failed = 0;

	if (!w->pool)
		return 0;
	if (w->batch.count)
		submit(w);
	while ((r = retire_one(w, err)) != 1)
		failed |= r < 0;
	return failed ? -1 : 0;
}
void cw_pipe_stop(struct cw *w)
{
	ff_pool_free(w->pool);
	w->pool = NULL;
	for (unsigned i = 0; i < w->n_zs; i++)
		if (w->zs[i].ready)
			deflateEnd(&w->zs[i].s);
	free(w->zs);
	free(w->slots);
	w->zs = NULL;
	w->slots = NULL;
	w->n_zs = 0;
}
