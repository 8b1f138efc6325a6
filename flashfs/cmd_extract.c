/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs extract [-C DIR] [-j N] [--force] IMAGE [PATH...]
 * flashfs extract --all [-C DIR] BLOB
 * Options and printing only: the work is extract/'s. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/pool.h"
#include "common/progress.h"
#include "extract/extract.h"
#include "flashfs/cli.h"
#include "flashfs/commands.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs extract [-C DIR] [-j N] [--force] [OPTIONS] IMAGE [PATH...]\n"
		   "       flashfs extract --all [-C DIR] [OPTIONS] BLOB\n\n"
		   "Unpack the image (or the given paths in it) into DIR.  As root, owners,\n"
		   "device nodes, sockets and all xattrs are restored too; otherwise a warning\n"
		   "is printed once for each kind of metadata that had to be skipped.\n"
		   "Entries named '.', '..' or containing '/', duplicate names, and anything\n"
		   "that would be written through a symlink are refused.  Names equal when\n"
		   "case is ignored are warned about where the target may ignore case (vfat,\n"
		   "exFAT, NTFS, SMB, casefold directories, FUSE), and there the second is an\n"
		   "error and never replaces the first, even with --force.\n\n"
		   "  -C, --directory DIR  target directory (default: FORMAT-root, named after\n"
		   "                       the image's format; with --all: .)\n"
		   "  -a, --all            every image `flashfs scan` finds in BLOB, each into\n"
		   "                       DIR/OFFSET-FORMAT (the offset in hex)\n"
		   "  -j, --jobs N         decompress with N threads (default: all CPUs)\n"
		   "  -f, --force          replace existing files (never directories)\n"
		   "  --progress           progress lines even when stderr is not a terminal\n"
		   "  --no-progress        no progress bar on a terminal\n"
		   "  --warn-case          warn about names equal when case is ignored on any\n"
		   "                       target\n" FF_CLI_HELP
		   "  -h, --help           this text\n\n"
		   "Exit status: 0 ok, 1 some entries refused or failed (with --all: some\n"
		   "images), 2 usage error or unreadable image (with --all: none found).\n");
}

/* What the callbacks share: the name messages give, and the bar. */
struct out {
	const char *image;
	char label[4096 + 32];  /* --all: "BLOB@0x1234" */
	int progress;           /* 0 none, 1 on a terminal, 2 always */
	struct ff_progress *bar;
	int started;            /* the extraction counted its totals */
};

struct shown {
	const struct out *out;
	const struct ff_warning *w;
};

static void print_warning(void *ctx)
{
	const struct shown *s = ctx;
	const struct ff_warning *w = s->w;
	const char *image = s->out->image;

	switch (w->kind) {
	case FF_WARN_NOT_PERMITTED:
		fprintf(stderr, "flashfs extract: warning: %s (not root?); skipped where needed\n",
			w->msg);
		break;
	case FF_WARN_CASE_COLLISION:
		fprintf(stderr, "flashfs extract: warning: %s: %s: %s\n", image,
			w->path ? w->path : "/", w->msg);
		break;
	case FF_WARN_DAMAGED:
		fprintf(stderr, "flashfs extract: %s: %s\n", image, w->msg);
		break;
	default:
		fprintf(stderr, "flashfs extract: %s: %s: %s\n", image, w->path ? w->path : "/",
			w->msg);
		break;
	}
}

/* The library reports; only this prints, with the bar's line held so a
 * message gets a line of its own. */
static void on_warning(void *ctx, const struct ff_warning *w)
{
	struct out *out = ctx;
	struct shown s = {out, w};

	ff_progress_aside(out->bar, print_warning, &s);
}

static void on_totals(void *ctx, uint64_t bytes, uint64_t items)
{
	struct out *out = ctx;

	out->started = 1;
	ff_progress_set_total(out->bar, bytes, items);
}

static void on_progress(void *ctx, uint64_t bytes, uint64_t items)
{
	ff_progress_add(((struct out *)ctx)->bar, bytes, items);
}

/* A bar for one extraction, when asked for and possible. */
static void bar_start(struct out *out, struct ff_extract_opts *eo)
{
	out->started = 0;
	out->bar = NULL;
	if (out->progress == 2 || (out->progress && isatty(2)))
		out->bar = ff_progress_new(2, "files", out->progress == 2);
	eo->totals = out->bar ? on_totals : NULL;
	eo->progress = out->bar ? on_progress : NULL;
	eo->progress_ctx = out;
}

static void bar_end(struct out *out)
{
	if (out->bar && out->started)
		ff_progress_finish(out->bar);
	ff_progress_free(out->bar);
	out->bar = NULL;
}

static void say_damage(const char *image, long n)
{
	fprintf(stderr, "flashfs extract: %s: damaged image (%ld problem%s above;"
		" `flashfs check` lists them): the extraction is incomplete\n", image, n,
		n == 1 ? "" : "s");
}

static int one_image(struct out *out, struct ff_open_opts *oo, struct ff_extract_opts *eo,
		     char **paths, int n)
{
	struct ff_extract_result res;
	struct ff_err err = {0};
	int rc;

	ff_cli_log(oo, out->image);
	bar_start(out, eo);
	rc = ff_extract_image(out->image, oo, eo, (const char *const *)paths, (size_t)n, &res,
			      &err);
	bar_end(out);
	if (rc == 2 && !res.opened)
		ff_cli_open_error("extract", out->image, oo, &err, "--offset ");
	else if (rc == 2)
		fprintf(stderr, "flashfs extract: %s\n", err.msg);
	if (res.damaged)
		say_damage(out->image, res.damaged);
	return rc;
}

struct all_ctx {
	const char *blob;
	struct out *out;
	struct ff_extract_opts *eo;
	unsigned failed;
};

/* --all: a line per image on stdout, failures on stderr. */
static void on_each(void *ctx, const struct ff_extract_each *e)
{
	struct all_ctx *a = ctx;
	struct out *out = a->out;

	snprintf(out->label, sizeof(out->label), "%s@0x%llx", a->blob,
		 (unsigned long long)e->off);
	if (!e->done) {
		out->image = out->label;
		bar_start(out, a->eo);
		return;
	}
	bar_end(out);
	if (e->rc < 0) {
		printf("0x%llx: %s: not extracted (flashfs only names it)\n",
		       (unsigned long long)e->off, e->what);
		return;
	}
	if (e->rc == 2)
		fprintf(stderr, "flashfs extract: %s: %s: %s\n", out->label, e->what, e->err->msg);
	if (e->res->damaged)
		say_damage(out->label, e->res->damaged);
	a->failed += e->rc != 0;
	printf("0x%llx: %s -> %s%s\n", (unsigned long long)e->off, e->what, e->dir,
	       e->rc == 0 ? "" : e->rc == 1 ? " (incomplete)" : " (failed)");
}

static int all_images(struct out *out, struct ff_open_opts *oo, struct ff_extract_opts *eo)
{
	const char *blob = out->image;
	struct all_ctx a = {blob, out, eo, 0};
	struct ff_err err = {0};
	int rc;

	ff_cli_log(oo, blob);
	rc = ff_extract_all(blob, oo, eo, on_each, &a, &err);
	out->image = blob;
	if (rc == 2)
		fprintf(stderr, "flashfs extract: %s\n", err.msg);
	else if (rc == 1)
		fprintf(stderr, "flashfs extract: %s: %u image%s not extracted completely "
			"(named above)\n", blob, a.failed, a.failed == 1 ? "" : "s");
	return rc;
}

struct args {
	struct ff_extract_opts eo;
	struct ff_open_opts oo;
	struct out out;
	int all;
};

static int parse_one(struct args *a, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 'C': a->eo.dir = arg; return -1;
	case 'a': a->all = 1; return -1;
	case 'f': a->eo.force = 1; return -1;
	case 'P': a->out.progress = 0; return -1;
	case 'p': a->out.progress = 2; return -1;
	case 'W': a->eo.warn_case = 1; return -1;
	case 'j':
		a->eo.jobs = (int)strtol(arg, &end, 10);
		if (*end || a->eo.jobs < 1 || a->eo.jobs > 1024) {
			fprintf(stderr, "flashfs extract: bad job count '%s'\n", arg);
			return 2;
		}
		return -1;
	case 'h': usage(stdout); return 0;
	default: usage(stderr); return 2;
	}
}

/* -1 to go on, else the exit code. */
static int parse(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{"directory", required_argument, NULL, 'C'}, {"jobs", required_argument, NULL, 'j'},
		{"force", no_argument, NULL, 'f'}, {"no-progress", no_argument, NULL, 'P'},
		{"progress", no_argument, NULL, 'p'}, {"warn-case", no_argument, NULL, 'W'},
		{"all", no_argument, NULL, 'a'}, {"help", no_argument, NULL, 'h'},
		FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	int c, r;

	a->eo.jobs = (int)ff_online_cpus();
	a->eo.umask_cleared = 1;
	a->out.progress = 1;
	/* Whole data blocks are decoded straight into the workers' buffers,
	 * so the cache only holds fragments and metadata; a smaller budget
	 * than the readers' 64 MiB keeps the heap, and its first-touch page
	 * faults, small. */
	a->oo.cache_bytes = 16u << 20;
	optind = 1;
	while ((c = getopt_long(argc, argv, "C:j:fah", opts, NULL)) != -1) {
		r = ff_cli_option("extract", c, optarg, &a->oo);
		if (r < 0)
			return 2;
		if (!r && (r = parse_one(a, c, optarg)) >= 0)
			return r;
	}
	if (optind >= argc || (a->all && argc - optind != 1)) {
		usage(stderr);
		return 2;
	}
	a->out.image = argv[optind];
	return -1;
}

static int cmd_extract(int argc, char **argv)
{
	struct args a = {0};
	int rc = parse(argc, argv, &a);

	if (rc >= 0)
		return rc;
	a.eo.warn = on_warning;
	a.eo.warn_ctx = &a.out;
	umask(0); /* modes are restored exactly, not filtered */
	if (a.all)
		return all_images(&a.out, &a.oo, &a.eo);
	return one_image(&a.out, &a.oo, &a.eo, argv + optind + 1, argc - optind - 1);
}

const struct ff_command ff_command_extract = {"extract", cmd_extract,
	"unpack an image into a directory"};
