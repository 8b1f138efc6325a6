/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The spool's state, shared by its writing side (spool.c) and its reading
 * side (spool_read.c) only. */
#ifndef FF_TREE_SPOOL_PRIV_H
#define FF_TREE_SPOOL_PRIV_H

#include "tree/spool.h"

#include <pthread.h>

/* Writes gather up to 1 MiB; a small read fills a 128 KiB window. */
#define FF_SPOOL_WBUF (1u << 20)
#define FF_SPOOL_WIN (128u << 10)
/* Two windows: a builder's pass in file order keeps one, and the reads
 * that go back (an earlier copy compared with a duplicate) take the
 * other instead of throwing the first away. */
#define FF_SPOOL_WINDOWS 2

struct ff_spool_win {
	uint8_t *buf;
	uint64_t off;   /* the file offset of buf[0] */
	size_t len;     /* bytes valid */
	uint64_t used;  /* when last read, for least-recently-used */
};

struct ff_spool {
	int fd;
	uint64_t end;     /* where the next packed region starts */
	uint8_t *wbuf;    /* gathered writes: wlen bytes for woff on */
	uint64_t woff;
	size_t wlen;
	pthread_mutex_t lock; /* the read side's: windows, and the flush */
	struct ff_spool_win win[FF_SPOOL_WINDOWS];
	uint64_t clock;
};

#endif
