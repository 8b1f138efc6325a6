/* The block processor: worker threads compress data and fragment blocks in
 * parallel, each with its own codec context; the submitting thread retires
 * results strictly in submission order, so the image bytes do not depend
 * on the number of threads or on which thread finished first.
 *
 * Slots form a ring: [retire, claim) are being compressed or done,
 * [claim, submit) wait for a worker.  Memory is bounded by the ring: two
 * block-size buffers per slot, whatever the size of the files.
 *
 * When the ring is full the submitter retires down to three quarters
 * before filling again, so it sleeps once per batch of blocks instead of
 * once per block, and the workers always have a queue to take from; a
 * worker wakes the submitter only when the block it waits for is done. */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { SLOT_FREE, SLOT_FILLING, SLOT_READY, SLOT_BUSY, SLOT_DONE };

#define RING_BYTES_MAX (24u << 20) /* cap on buffer memory */
#define RING_PER_THREAD 12       /* slots per worker: slack for uneven blocks */

struct sqfs_block_proc {
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct sqfs_block *slots;
	size_t n_slots;
	uint64_t submit, claim, retire;
	uint64_t waiting_for;     /* slot number the submitter sleeps on, or ~0 */
	int freeing;              /* free() waits for any busy slot */
	pthread_t *threads;
	struct ff_comp_ctx **ctx;
	unsigned n_ctx;
	unsigned n_threads;       /* started */
	int stop;
	uint32_t block_size;
	sqfs_retire_fn retire_fn;
	void *user;
};

static void process(struct sqfs_block *b, struct ff_comp_ctx *ctx)
{
	ssize_t n;

	b->raw = 0;
	b->failed = 0;
	if (b->kind == FF_SQFS_BLOCK_DATA && b->check_sparse && sqfs_all_zero(b->in, b->in_len)) {
		b->kind = FF_SQFS_BLOCK_SPARSE;
		b->out_len = 0;
		return;
	}
	n = b->store_raw ? FF_COMP_NOSHRINK
			 : ff_comp_compress(ctx, b->in, b->in_len, b->out, b->in_len, &b->err);
	if (n < 0) {
		b->failed = 1;
	} else if (n == FF_COMP_NOSHRINK) {
		b->raw = 1;
		b->out_len = b->in_len;
	} else {
		b->out_len = (uint32_t)n;
	}
}

static void *worker(void *arg)
{
	struct sqfs_block_proc *bp = arg;
	unsigned id;

	pthread_mutex_lock(&bp->lock);
	id = bp->n_threads++;
	pthread_cond_broadcast(&bp->done);
	for (;;) {
		struct sqfs_block *b;

		while (!bp->stop && bp->claim == bp->submit)
			pthread_cond_wait(&bp->work, &bp->lock);
		if (bp->stop)
			break;
		b = &bp->slots[bp->claim++ % bp->n_slots];
		b->state = SLOT_BUSY;
		pthread_mutex_unlock(&bp->lock);
		process(b, bp->ctx[id]);
		pthread_mutex_lock(&bp->lock);
		b->state = SLOT_DONE;
		if (bp->freeing || (bp->waiting_for != UINT64_MAX &&
				    b == &bp->slots[bp->waiting_for % bp->n_slots]))
			pthread_cond_broadcast(&bp->done);
	}
	pthread_mutex_unlock(&bp->lock);
	return NULL;
}

static size_t ring_size(uint32_t block_size, unsigned threads)
{
	size_t n = RING_PER_THREAD * ((size_t)threads + 1);
	size_t max = RING_BYTES_MAX / (2 * (size_t)block_size);

	if (n > max)
		n = max;
	return n < (size_t)threads + 1 ? (size_t)threads + 1 : n;
}

static int alloc_slots(struct sqfs_block_proc *bp, struct ff_err *err)
{
	bp->slots = calloc(bp->n_slots, sizeof(*bp->slots));
	if (!bp->slots)
		return ff_err_set(err, ENOMEM, "block processor: out of memory");
	for (size_t i = 0; i < bp->n_slots; i++) {
		bp->slots[i].in = malloc(bp->block_size);
		bp->slots[i].out = malloc(bp->block_size);
		if (!bp->slots[i].in || !bp->slots[i].out)
			return ff_err_set(err, ENOMEM,
					  "block processor: out of memory for %zu buffers of %u bytes",
					  2 * bp->n_slots, bp->block_size);
	}
	return 0;
}

static int any_busy(const struct sqfs_block_proc *bp)
{
	for (size_t i = 0; bp->slots && i < bp->n_slots; i++)
		if (bp->slots[i].state == SLOT_BUSY)
			return 1;
	return 0;
}

static int start_threads(struct sqfs_block_proc *bp, const struct ff_comp *comp,
			 unsigned threads, struct ff_err *err)
{
	bp->ctx = calloc(threads, sizeof(*bp->ctx));
	bp->threads = calloc(threads, sizeof(*bp->threads));
	if (!bp->ctx || !bp->threads)
		return ff_err_set(err, ENOMEM, "block processor: out of memory");
	for (; bp->n_ctx < threads; bp->n_ctx++) {
		bp->ctx[bp->n_ctx] = ff_comp_ctx_new(comp, err);
		if (!bp->ctx[bp->n_ctx])
			return -1;
	}
	for (unsigned i = 0; i < threads; i++) {
		int e = pthread_create(&bp->threads[i], NULL, worker, bp);

		if (e) {
			/* Only the threads that started are joined on free. */
			pthread_mutex_lock(&bp->lock);
			while (bp->n_threads < i)
				pthread_cond_wait(&bp->done, &bp->lock);
			pthread_mutex_unlock(&bp->lock);
			return ff_err_sys(err, e, "block processor: cannot start thread %u", i + 1);
		}
	}
	pthread_mutex_lock(&bp->lock);
	while (bp->n_threads < threads)
		pthread_cond_wait(&bp->done, &bp->lock);
	pthread_mutex_unlock(&bp->lock);
	return 0;
}

struct sqfs_block_proc *sqfs_block_proc_new(const struct ff_comp *comp, uint32_t block_size,
					    unsigned threads, sqfs_retire_fn retire, void *user,
					    struct ff_err *err)
{
	struct sqfs_block_proc *bp = calloc(1, sizeof(*bp));
	unsigned want = threads ? threads : 1;

	if (!bp) {
		ff_err_set(err, ENOMEM, "block processor: out of memory");
		return NULL;
	}
	pthread_mutex_init(&bp->lock, NULL);
	pthread_cond_init(&bp->work, NULL);
	pthread_cond_init(&bp->done, NULL);
	bp->block_size = block_size;
	bp->waiting_for = UINT64_MAX;
	bp->retire_fn = retire;
	bp->user = user;
	bp->n_slots = ring_size(block_size, want);
	if (alloc_slots(bp, err) < 0 || start_threads(bp, comp, want, err) < 0) {
		sqfs_block_proc_free(bp);
		return NULL;
	}
	return bp;
}

/* Wait for the oldest block and hand it to the retire callback. */
static int retire_one(struct sqfs_block_proc *bp, struct ff_err *err)
{
	struct sqfs_block *b = &bp->slots[bp->retire % bp->n_slots];
	int ret;

	pthread_mutex_lock(&bp->lock);
	if (b->state != SLOT_DONE) {
		bp->waiting_for = bp->retire;
		while (b->state != SLOT_DONE)
			pthread_cond_wait(&bp->done, &bp->lock);
		bp->waiting_for = UINT64_MAX;
	}
	pthread_mutex_unlock(&bp->lock);
	if (b->failed) {
		*err = b->err;
		ret = -1;
	} else {
		ret = bp->retire_fn(bp->user, b, err);
	}
	b->state = SLOT_FREE;
	bp->retire++;
	return ret;
}

struct sqfs_block *sqfs_block_proc_get(struct sqfs_block_proc *bp, struct ff_err *err)
{
	struct sqfs_block *b;

	if (bp->submit - bp->retire == bp->n_slots)
		while (bp->submit - bp->retire > bp->n_slots - (bp->n_slots + 3) / 4)
			if (retire_one(bp, err) < 0)
				return NULL;
	b = &bp->slots[bp->submit % bp->n_slots];
	b->state = SLOT_FILLING;
	b->kind = FF_SQFS_BLOCK_DATA;
	b->check_sparse = 0;
	b->store_raw = 0;
	b->owner = NULL;
	b->idx = 0;
	b->in_len = b->out_len = 0;
	return b;
}

void sqfs_block_proc_submit(struct sqfs_block_proc *bp, struct sqfs_block *b)
{
	pthread_mutex_lock(&bp->lock);
	b->state = SLOT_READY;
	bp->submit++;
	pthread_cond_signal(&bp->work);
	pthread_mutex_unlock(&bp->lock);
}

int sqfs_block_proc_drain(struct sqfs_block_proc *bp, struct ff_err *err)
{
	while (bp->retire < bp->submit)
		if (retire_one(bp, err) < 0)
			return -1;
	return 0;
}

void sqfs_block_proc_free(struct sqfs_block_proc *bp)
{
	unsigned started;

	if (!bp)
		return;
	pthread_mutex_lock(&bp->lock);
	/* Let workers finish what they hold, so no thread touches a buffer
	 * freed below. */
	bp->freeing = 1;
	while (any_busy(bp))
		pthread_cond_wait(&bp->done, &bp->lock);
	bp->stop = 1;
	started = bp->n_threads;
	pthread_cond_broadcast(&bp->work);
	pthread_mutex_unlock(&bp->lock);
	for (unsigned i = 0; i < started; i++)
		pthread_join(bp->threads[i], NULL);
	for (unsigned i = 0; i < bp->n_ctx; i++)
		ff_comp_ctx_free(bp->ctx[i]);
	for (size_t i = 0; bp->slots && i < bp->n_slots; i++) {
		free(bp->slots[i].in);
		free(bp->slots[i].out);
	}
	free(bp->slots);
	free(bp->ctx);
	free(bp->threads);
	pthread_mutex_destroy(&bp->lock);
	pthread_cond_destroy(&bp->work);
	pthread_cond_destroy(&bp->done);
	free(bp);
}
