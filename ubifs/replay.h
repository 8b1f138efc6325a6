/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Between the log walk (log.c) and the journal replay (replay.c). */
#ifndef FF_UBIFS_REPLAY_H
#define FF_UBIFS_REPLAY_H

#include "ubifs/ubifs.h"

struct ubifs_bud {
	uint32_t lnum, start, jhead;
	uint64_t sqnum;
};

struct ubifs_buds {
	struct ubifs_bud *v;
	size_t n, cap;
	struct ff_hmap seen; /* lnum -> index + 1 */
};

/* One journal node to apply: its key (a truncation's is the kernel's fake
 * truncation key), place, and whether it removes. */
struct ubifs_rent {
	struct ubifs_key key;
	uint64_t sqnum, old_size, new_size;
	struct ubifs_loc loc;
	uint8_t deletion, nlen;
	char *name;
};

/* Applies v (sorted by sequence number) to u->ov, finishes the overlay and
 * runs the orphan and size recovery an unclean unmount calls for. */
int ubifs_replay_apply(struct ubifs_fs *u, const struct ubifs_rent *v, size_t n);

/* Fills b from the log; -EINVAL (with a problem recorded) when the log is
 * damaged: the buds found before the damage are kept. */
int ubifs_log_read(struct ubifs_fs *u, struct ubifs_buds *b);

#endif
