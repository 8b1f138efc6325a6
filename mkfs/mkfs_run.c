/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "mkfs/mkfs_run.h"

#include <stdio.h>

#include "tree/tree.h"

void ff_mkfs_warn(void *ctx, const struct ff_warning *w)
{
	struct ff_mkfs_run *run = ctx;
	char line[1536];

	if (w->kind != FF_WARN_NOTE)
		run->warnings++;
	fprintf(stderr, "%s: %s%s\n", run->prog, w->kind == FF_WARN_NOTE ? "" : "warning: ",
		ff_warning_text(w, line, sizeof(line)));
}

int ff_mkfs_run(struct ff_mkfs_run *run)
{
	struct ff_err err = { 0, "" };
	struct ff_tree *t;
	int r = -1;

	run->src->warn = ff_mkfs_warn;
	run->src->warn_ctx = run;
	t = ff_source_args_build(run->src, &err);
	if (t)
		r = run->write(run->ctx, t, &err);
	ff_tree_free(t);
	if (r)
		fprintf(stderr, "%s: %s\n", run->prog, err.msg);
	return r;
}

int ff_mkfs_exit(const struct ff_mkfs_run *run, int r, int failed)
{
	if (r)
		return r > 0 ? 0 : 2;
	if (failed)
		return 2;
	return run->src->warnings || run->warnings ? 1 : 0;
}

int ff_mkfs_main(struct ff_mkfs_run *run, int r)
{
	int failed = r ? 0 : ff_mkfs_run(run);

	if (!r && !failed && run->done)
		run->done(run->ctx);
	ff_source_args_free(run->src);
	return ff_mkfs_exit(run, r, failed);
}
