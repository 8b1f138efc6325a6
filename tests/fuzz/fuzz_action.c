/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The mksquashfs action parser (-action-file) and its evaluation on a small
 * fixed tree.  The first byte of the input picks the log form (-action,
 * -log-action, -true-action, -false-action); the rest is the action file.
 * The tree is a host directory made once per process (files of several
 * sizes and modes, directories, a symlink, a fifo) plus pseudo device
 * nodes, so that every test (name, pathname, subpathname, type, size,
 * perm, uid, gid, depth) has something to match and every action
 * something to change. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_tree_common.h"
#include "tests/fuzz/fuzz_util.h"
#include "tree/action.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void make_file(const char *root, const char *name, size_t len, mode_t mode)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	f = fopen(path, "w");
	if (!f)
		abort();
	for (size_t i = 0; i < len; i++)
		fputc('a' + (int)(i % 23), f);
	if (fclose(f) || chmod(path, mode))
		abort();
}

static void make_node(const char *root, const char *name, mode_t mode)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	if (S_ISDIR(mode) ? mkdir(path, mode & 07777) : mkfifo(path, mode & 07777))
		abort();
}

/* The source directory, built on the first call. */
static const char *source_dir(void)
{
	static const char *root;
	char path[4096];

	if (root)
		return root;
	root = fuzz_tmp_dir("ff-fuzz-action");
	make_node(root, "etc", S_IFDIR | 0755);
	make_node(root, "bin", S_IFDIR | 0755);
	make_node(root, "lib", S_IFDIR | 0755);
	make_node(root, "lib/modules", S_IFDIR | 0700);
	make_node(root, "var", S_IFDIR | 0755);
	make_node(root, "var/empty", S_IFDIR | 01777);
	make_node(root, "var/fifo", S_IFIFO | 0644);
	make_file(root, "etc/passwd", 100, 0644);
	make_file(root, "etc/shadow", 60, 0600);
	make_file(root, "bin/busybox", 5000, 04755);
	make_file(root, "lib/modules/big.ko", 70000, 0644);
	make_file(root, "lib/modules/empty.ko", 0, 0444);
	snprintf(path, sizeof(path), "%s/bin/sh", root);
	if (symlink("busybox", path))
		abort();
	return root;
}

static const char *const pseudo_lines[] = {
	"dev d 755 0 0",
	"dev/console c 600 0 5 5 1",
	"dev/mtdblock0 b 640 0 6 31 0",
};

static void discard_log(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

static void run(const char *action_file, enum ff_action_log log)
{
	struct ff_actions *actions = ff_actions_new();
	struct ff_tree *tree = NULL;
	struct ff_tree_opts o = {
		.force_uid = -1, .force_gid = -1, .all_time = -1, .clamp_time = -1,
		.log = discard_log,
	};
	struct ff_err err;

	if (!actions || ff_actions_add_file(actions, action_file, log, &err))
		goto out;
	o.actions = actions;
	tree = fuzz_tree_new_opts(&o);
	if (!tree || ff_tree_add_dir(tree, source_dir(), &err))
		goto out;
	for (size_t i = 0; i < sizeof(pseudo_lines) / sizeof(pseudo_lines[0]); i++)
		if (ff_tree_add_pseudo_line(tree, pseudo_lines[i], &err))
			goto out;
	fuzz_tree_finish_and_read(tree);
out:
	ff_tree_free(tree);
	ff_actions_free(actions);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[4096];

	if (size < 1)
		return 0;
	fuzz_tmp_file(data + 1, size - 1, "actions", path, sizeof(path));
	run(path, (enum ff_action_log)(data[0] % 4));
	unlink(path);
	return 0;
}
