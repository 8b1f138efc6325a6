/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The order genromfs places a directory's entries in: the host's readdir
 * order, "." and ".." wherever readdir gives them.  The tree keeps its
 * children sorted, so the host directory is read again for its order;
 * entries no host directory holds (a spec file's) follow, sorted. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "romfs/writer.h"

struct items {
	int64_t *v;
	size_t n;
};

static void push(struct items *it, int64_t x)
{
	it->v[it->n++] = x;
}

/* The child of dir named name, or -1 (children are sorted by name bytes). */
static int64_t child_named(const struct ff_node *dir, const char *name)
{
	size_t len = strlen(name);
	uint32_t lo = 0, hi = dir->n_children;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct ff_node *c = dir->children[mid];
		int r = ff_bytes_cmp(ff_node_name(c), c->name_len, name, len);

		if (!r)
			return mid;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int read_host(const struct ff_node *dir, int dots, struct items *it, uint8_t *used,
		     struct ff_err *err)
{
	DIR *d = opendir(dir->src_path);
	struct dirent *de;

	if (!d)
		return ff_err_sys(err, errno, "%s: cannot open directory", dir->src_path);
	while ((de = readdir(d))) {
		int64_t i;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) {
			if (dots && !used[de->d_name[1] ? 1 : 0]++)
				push(it, de->d_name[1] ? RW_DOTDOT : RW_DOT);
			continue;
		}
		i = child_named(dir, de->d_name);
		if (i >= 0 && !used[2 + i]++)
			push(it, i);
	}
	closedir(d);
	return 0;
}

int rw_order(const struct ff_node *dir, int host, int dots, int64_t **items, size_t *n,
	     struct ff_err *err)
{
	struct items it = { calloc((size_t)dir->n_children + 2, sizeof(int64_t)), 0 };
	uint8_t *used = calloc((size_t)dir->n_children + 2, 1);
	int rc = 0;

	if (!it.v || !used) {
		rc = ff_err_set(err, ENOMEM, "out of memory");
	} else {
		if (host && dir->src_path)
			rc = read_host(dir, dots, &it, used, err);
		/* what readdir did not give: the dots first, then the rest */
		if (!rc && dots && !used[0]++) {
			memmove(it.v + 1, it.v, it.n * sizeof(*it.v));
			it.v[0] = RW_DOT;
			it.n++;
		}
		if (!rc && dots && !used[1]++) {
			memmove(it.v + 2, it.v + 1, (it.n - 1) * sizeof(*it.v));
			it.v[1] = RW_DOTDOT;
			it.n++;
		}
		for (uint32_t i = 0; !rc && i < dir->n_children; i++)
			if (!used[2 + i])
				push(&it, i);
	}
	free(used);
	if (rc)
		free(it.v);
	*items = rc ? NULL : it.v;
	*n = rc ? 0 : it.n;
	return rc;
}
