/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ffmkfs.ubifs: mtd-utils' mkfs.ubifs command line (ubifs_args.c) ->
 * source tree (tree/tree.h) -> the UBIFS builder (ubifs/writer.h).
 * Buildroot's, Yocto's and OpenWrt's command lines work unchanged.
 * Exit codes: 0 ok, 1 files skipped (--ignore-errors), 2 usage error or
 * the build failed (nothing left behind). */
#include <flashfs/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "mkfs/ubifs_args.h"

static void usage(FILE *f)
{
	fputs("Usage: ffmkfs.ubifs [OPTIONS] [-r DIR] -m MIN_IO -e LEB_SIZE -c MAX_LEB_CNT "
	      "[-o] IMAGE\n"
	      "Make a UBIFS image, as mtd-utils' mkfs.ubifs does.\n\n", f);
	ff_ubifs_args_help(f);
	fputs("\nExit status: 0 ok, 1 files skipped, 2 usage error or the build failed.\n", f);
}

/* 0 go on, 1 done (help, version), -1 usage error (printed). */
static int parse_args(struct ff_ubifs_args *a, int argc, char **argv)
{
	struct ff_err err = { 0, "" };
	int r = ff_ubifs_args_parse(a, argc, argv, &err);

	if (r == FF_UBIFS_ARGS_HELP)
		usage(stdout);
	if (r == FF_UBIFS_ARGS_VERSION)
		printf("ffmkfs.ubifs (flashfs-tools) " FF_VERSION_STRING "\n");
	if (r > 0)
		return 1;
	if (r == 0)
		r = ff_ubifs_args_finish(a, getenv("SOURCE_DATE_EPOCH"), &err);
	if (r == 0)
		return 0;
	fprintf(stderr, "ffmkfs.ubifs: %s\nTry 'ffmkfs.ubifs --help' for more information.\n",
		err.msg);
	return -1;
}

static void warn_cb(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	(void)ctx;
	fprintf(stderr, "ffmkfs.ubifs: warning: %s\n", ff_warning_text(w, line, sizeof(line)));
}

static void report(const struct ff_ubifs_args *a, const struct ff_ubifs_write_stats *st)
{
	const uint8_t *u = st->uuid;

	if (!a->verbose)
		return;
	printf("%s: %llu bytes, %u LEBs of %u (max %u), min. I/O %u\n", a->image,
	       (unsigned long long)st->bytes, st->leb_cnt, a->wo.leb_size, a->wo.max_leb_cnt,
	       a->wo.min_io);
	printf("log %u, lpt %u%s, orphan %u, main %u (index %u) LEBs; journal %llu bytes\n",
	       st->log_lebs, st->lpt_lebs, st->big_lpt ? " (big)" : "", st->orph_lebs,
	       st->main_lebs, st->idx_lebs, (unsigned long long)st->max_bud_bytes);
	printf("%llu inodes, %llu data nodes: %llu bytes stored in %llu\n",
	       (unsigned long long)st->inodes, (unsigned long long)st->data_nodes,
	       (unsigned long long)st->data_bytes, (unsigned long long)st->stored_bytes);
	printf("UUID %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\n",
	       u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
	       u[13], u[14], u[15]);
}

int main(int argc, char **argv)
{
	static struct ff_ubifs_args a;
	struct ff_err err = { 0, "" };
	struct ff_ubifs_write_stats st;
	struct ff_tree *t = NULL;
	int r;

	memset(&st, 0, sizeof(st));
	ff_ubifs_args_init(&a);
	r = parse_args(&a, argc, argv);
	if (r == 0) {
		a.src.warn = warn_cb;
		t = ff_source_args_build(&a.src, &err);
		if (!t || ff_ubifs_write(t, &a.wo, a.image, &st, &err)) {
			fprintf(stderr, "ffmkfs.ubifs: %s\n", err.msg);
			r = -1;
		}
	}
	if (r == 0)
		report(&a, &st);
	ff_tree_free(t);
	ff_ubifs_args_free(&a);
	if (r)
		return r > 0 ? 0 : 2;
	return a.src.warnings ? 1 : 0;
}
