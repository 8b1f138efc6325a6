#include "common/threads.h"

void ff_threads_stop(pthread_mutex_t *lock, pthread_cond_t *wake, int *stop,
		     const pthread_t *t, unsigned n)
{
	pthread_mutex_lock(lock);
	*stop = 1;
	pthread_cond_broadcast(wake);
	pthread_mutex_unlock(lock);
	for (unsigned i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_cond_destroy(wake);
	pthread_mutex_destroy(lock);
}
