/* Worker threads that sleep on one condition variable. */
#ifndef FF_COMMON_THREADS_H
#define FF_COMMON_THREADS_H

#include <pthread.h>

/* Sets *stop under lock, wakes every thread, joins the n threads in t and
 * destroys lock and wake: the one way a pool here ends, so that no worker
 * can miss the stop between its check and its wait. */
void ff_threads_stop(pthread_mutex_t *lock, pthread_cond_t *wake, int *stop,
		     const pthread_t *t, unsigned n);

#endif
