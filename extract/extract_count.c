/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "extract/extract_count.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "common/hmap.h"

#define MAX_DEPTH 4096 /* as extract.c */

struct counter {
	struct ff_fs *fs;
	struct ff_extract_count *c;
	struct ff_hmap seen;  /* hard-linked files and directories met */
	int depth, oom;
};

static void count(struct counter *k, uint64_t h);

static void count_dir(struct counter *k, uint64_t h)
{
	struct ff_dirlist l;

	/* an unreadable directory counts what it lists: extraction reports it */
	if (ff_fs_list_dir(k->fs, h, FF_LIST_PARTIAL, &l) == -ENOMEM)
		k->oom = 1;
	for (size_t i = 0; i < l.n && !k->oom; i++)
		count(k, l.v[i].handle);
	ff_dirlist_free(&l);
}

static void count(struct counter *k, uint64_t h)
{
	struct ff_stat st;

	if (k->fs->ops->getattr(k->fs, h, &st) < 0)
		return;
	k->c->items++;
	if ((S_ISDIR(st.mode) || st.nlink > 1) && ff_hmap_get(&k->seen, h))
		return; /* a second link: no bytes; a directory loop: no walk */
	if ((S_ISDIR(st.mode) || st.nlink > 1) && ff_hmap_put(&k->seen, h, (void *)1) < 0) {
		k->oom = 1;
		return;
	}
	if (S_ISREG(st.mode))
		k->c->bytes += st.size;
	if (S_ISDIR(st.mode) && k->depth < MAX_DEPTH) {
		k->depth++;
		count_dir(k, h);
		k->depth--;
	}
}

int ff_extract_count(struct ff_fs *fs, uint64_t handle, struct ff_extract_count *c)
{
	struct counter k = {fs, c, {0}, 0, 0};

	count(&k, handle);
	ff_hmap_free(&k.seen, NULL);
	return k.oom ? -1 : 0;
}
