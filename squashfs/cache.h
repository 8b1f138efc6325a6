/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A bounded, sharded LRU cache of decoded blocks keyed by a 64-bit value
 * (usually the block's position in the image).  Each shard has its own lock
 * so parallel readers touching different blocks do not serialize.  Entries
 * are reference counted: a caller keeps using a buffer after it has been
 * evicted, and it is freed on the last release. */
#ifndef FF_SQUASHFS_CACHE_H
#define FF_SQUASHFS_CACHE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct sqfs_cache;
struct sqfs_slab;

struct sqfs_cbuf {
	uint64_t key;
	atomic_int refs;
	uint32_t len;   /* valid bytes in data */
	uint64_t aux;   /* owner-defined (e.g. position of the next block) */
	struct sqfs_cbuf *hnext, *prev, *next; /* shard bookkeeping */
	size_t cap;
	uint8_t *data;           /* cap bytes */
	struct sqfs_slab *home;  /* where it goes back on release; NULL: free() */
};

/* budget: total bytes of data kept; 0 keeps nothing (every get misses).
 * entry: the capacity of the largest buffers it will be offered.  A buffer
 * larger than its shard's share is never kept, so the cache uses fewer
 * shards when the budget is small: each holds at least MIN_PER_SHARD
 * (cache.c) such entries, or the budget is one shard. */
struct sqfs_cache *sqfs_cache_new(size_t budget, size_t entry);
void sqfs_cache_free(struct sqfs_cache *c);

/* A fresh buffer with one reference, not yet in any cache. */
struct sqfs_cbuf *sqfs_cbuf_alloc(size_t cap);
/* The same, for a buffer meant for c: one of c's recycled buffers when cap
 * is c's entry size (cache_slab.c), else as sqfs_cbuf_alloc.  Every
 * buffer of c must be released before sqfs_cache_free(c). */
struct sqfs_cbuf *sqfs_cache_alloc(struct sqfs_cache *c, size_t cap);
void sqfs_cbuf_release(struct sqfs_cbuf *b);

/* The cached buffer for key with a reference taken, or NULL. */
struct sqfs_cbuf *sqfs_cache_get(struct sqfs_cache *c, uint64_t key);
/* Offers b (the caller's reference is handed over) under key and returns
 * the buffer to use, with a reference: b itself, or an equal one another
 * thread inserted first. */
struct sqfs_cbuf *sqfs_cache_put(struct sqfs_cache *c, uint64_t key, struct sqfs_cbuf *b);

#endif
