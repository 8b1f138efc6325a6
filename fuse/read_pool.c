/* The workers behind the request loop.  The loop answers every read it
 * can from data the reader already holds decoded (fs read_cached), which
 * costs a copy; a read that has to wait for decompression is queued here
 * instead, so the loop goes on serving and several slow reads decompress
 * on several cores.  One receiving thread keeps the fast path free of the
 * thread hand-offs a pool of receivers pays on every request. */
#include "fuse/read_pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "common/threads.h"

#define MAX_WORKERS 64

struct job {
	struct job *next;
	fuse_req_t req;
	uint64_t handle;
	size_t size;
	uint64_t off;
};

struct ff_read_pool {
	struct ff_fuse *ff;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct job *head, **tail;
	int stop;
	unsigned nthreads;
	pthread_t thread[MAX_WORKERS];
};

static void *worker(void *arg)
{
	struct ff_read_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct job *j = p->head;

		if (!j) {
			if (p->stop)
				break;
			pthread_cond_wait(&p->wake, &p->lock);
			continue;
		}
		p->head = j->next;
		if (!p->head)
			p->tail = &p->head;
		pthread_mutex_unlock(&p->lock);
		ff_fuse_answer_read(p->ff, j->req, j->handle, j->size, j->off, 0);
		free(j);
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct ff_read_pool *ff_read_pool_new(struct ff_fuse *ff, unsigned threads)
{
	struct ff_read_pool *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->ff = ff;
	p->tail = &p->head;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	if (threads > MAX_WORKERS)
		threads = MAX_WORKERS;
	for (; p->nthreads < threads; p->nthreads++)
		if (pthread_create(&p->thread[p->nthreads], NULL, worker, p) != 0)
			break;
	if (!p->nthreads) {
		ff_read_pool_free(p);
		return NULL;
	}
	return p;
}

int ff_read_pool_submit(struct ff_read_pool *p, fuse_req_t req, uint64_t handle, size_t size,
			uint64_t off)
{
	struct job *j = malloc(sizeof(*j));

	if (!j)
		return -ENOMEM;
	*j = (struct job){NULL, req, handle, size, off};
	pthread_mutex_lock(&p->lock);
	*p->tail = j;
	p->tail = &j->next;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

void ff_read_pool_free(struct ff_read_pool *p)
{
	if (!p)
		return;
	/* the workers still answer what is queued */
	ff_threads_stop(&p->lock, &p->wake, &p->stop, p->thread, p->nthreads);
	free(p);
}
