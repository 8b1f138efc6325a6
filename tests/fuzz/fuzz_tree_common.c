/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "tests/fuzz/fuzz_tree_common.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_util.h"

#define READ_BUDGET (1u << 20)

static void discard_warn(void *ctx, const struct ff_warning *w)
{
	(void)ctx;
	(void)w;
}

struct ff_tree *fuzz_tree_new_opts(struct ff_tree_opts *o)
{
	struct ff_err err;

	o->warn = discard_warn;
	return ff_tree_new(o, &err);
}

struct ff_tree *fuzz_tree_new(void)
{
	struct ff_tree_opts o = {
		.force_uid = -1, .force_gid = -1, .all_time = -1, .clamp_time = -1,
	};

	return fuzz_tree_new_opts(&o);
}

static void read_node(const struct ff_tree *tree, const struct ff_node *n, size_t *left)
{
	static char buf[16384];
	struct ff_err err;
	struct ff_data *d = ff_tree_open_data(tree, n, &err);
	uint64_t off = 0;

	if (!d)
		return;
	while (off < n->size && *left) {
		size_t len = *left < sizeof(buf) ? *left : sizeof(buf);
		ssize_t got = ff_data_pread(d, buf, len, off, &err);

		if (got <= 0)
			break;
		if ((size_t)got > len)
			abort();
		*left -= (size_t)got;
		off += (uint64_t)got;
	}
	ff_data_close(d);
}

void fuzz_tree_finish_and_read(struct ff_tree *tree)
{
	struct ff_err err;
	size_t left = READ_BUDGET;
	char path[4096];

	if (ff_tree_finish(tree, &err))
		return;
	for (struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n)) {
		ff_node_path(n, path, sizeof(path));
		if (S_ISREG(n->mode) && !ff_node_link(n))
			read_node(tree, n, &left);
	}
	ff_tree_count(tree);
	ff_tree_data_bytes(tree);
}

int fuzz_tree_file_input(const uint8_t *data, size_t size, const char *name,
			 int (*add)(struct ff_tree *, const char *, struct ff_err *))
{
	struct ff_tree *tree = fuzz_tree_new();
	struct ff_err err;
	char path[4096];

	if (!tree)
		return 0;
	fuzz_tmp_file(data, size, name, path, sizeof(path));
	if (add(tree, path, &err) == 0)
		fuzz_tree_finish_and_read(tree);
	ff_tree_free(tree);
	unlink(path);
	return 0;
}
