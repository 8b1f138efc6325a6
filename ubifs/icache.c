/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Decoded inodes, kept by number in a direct-mapped table: an extract asks
 * for each file's inode three times or more (its attributes while walking,
 * then each read of its contents, its xattrs and its metadata), and each
 * ask was an index walk, a node read and a CRC.  The walker runs up to a
 * few hundred files ahead of the workers, hence the size.  Inodes whose
 * own data is long (no symlink target is, in practice) are not kept.  The
 * image is read-only, so a kept inode never goes stale.  Under the fs's
 * lock. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/ubifs.h"

#define ICACHE_SLOTS 1024u
#define ICACHE_DATA 128u
#define HEAD offsetof(struct ubifs_ino, data)

struct ubifs_icache {
	struct {
		uint64_t inum; /* 0: empty */
		size_t len;    /* bytes of the struct kept */
		unsigned char bytes[HEAD + ICACHE_DATA];
	} e[ICACHE_SLOTS];
};

int ubifs_icache_get(struct ubifs_fs *u, uint64_t inum, struct ubifs_ino *ino)
{
	int hit = 0;

	pthread_mutex_lock(&u->lock);
	if (u->ic && u->ic->e[inum % ICACHE_SLOTS].inum == inum) {
		memcpy(ino, u->ic->e[inum % ICACHE_SLOTS].bytes,
		       u->ic->e[inum % ICACHE_SLOTS].len);
		hit = 1;
	}
	pthread_mutex_unlock(&u->lock);
	return hit;
}

void ubifs_icache_put(struct ubifs_fs *u, const struct ubifs_ino *ino)
{
	if (ino->data_len > ICACHE_DATA || !ino->inum)
		return;
	pthread_mutex_lock(&u->lock);
	if (!u->ic)
		u->ic = calloc(1, sizeof(*u->ic));
	if (u->ic) {
		u->ic->e[ino->inum % ICACHE_SLOTS].inum = ino->inum;
		u->ic->e[ino->inum % ICACHE_SLOTS].len = HEAD + ino->data_len;
		memcpy(u->ic->e[ino->inum % ICACHE_SLOTS].bytes, ino, HEAD + ino->data_len);
	}
	pthread_mutex_unlock(&u->lock);
}

void ubifs_icache_free(struct ubifs_fs *u)
{
	free(u->ic);
	u->ic = NULL;
}
