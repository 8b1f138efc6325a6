/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.squashfs' option parsing: mksquashfs' words are first rewritten
 * into GNU form (translate), then getopt_long reads the result. */
#include "mkfs/squashfs_args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree/arg_value.h"
#include "mkfs/mksquashfs_words.h"

enum {
	O_MKFS_TIME = 256, O_NO_FRAGMENTS, O_ALWAYS_FRAGMENTS, O_NO_DEDUP, O_NO_EXPORTS,
	O_NO_SPARSE, O_PROGRESS, O_NO_PROGRESS, O_JSON, O_NOAPPEND, O_VERSION,
	O_NO_INODE_COMP, O_NO_ID_COMP, O_NO_DATA_COMP, O_NO_FRAG_COMP, O_NO_XATTR_COMP,
	O_NO_COMP, O_NO_PAD, O_OFFSET, O_EXPORTS, O_FIXED_TIME, O_INFO, O_INFO_FILE,
};

static const struct option long_opts[] = {
	{"compressor", required_argument, NULL, 'c'},
	{"comp-opt", required_argument, NULL, 'X'},
	{"block-size", required_argument, NULL, 'b'},
	{"jobs", required_argument, NULL, 'j'},
	FF_SOURCE_LONG_OPTIONS,
	FF_SOURCE_SORT_OPTION,
	{"mkfs-time", required_argument, NULL, O_MKFS_TIME},
	{"no-fragments", no_argument, NULL, O_NO_FRAGMENTS},
	{"always-fragments", no_argument, NULL, O_ALWAYS_FRAGMENTS},
	{"no-dedup", no_argument, NULL, O_NO_DEDUP},
	{"no-exports", no_argument, NULL, O_NO_EXPORTS},
	{"no-sparse", no_argument, NULL, O_NO_SPARSE},
	{"quiet", no_argument, NULL, 'q'},
	{"progress", no_argument, NULL, O_PROGRESS},
	{"no-progress", no_argument, NULL, O_NO_PROGRESS},
	{"json", no_argument, NULL, O_JSON},
	{"noappend", no_argument, NULL, O_NOAPPEND},
	{"no-inode-compression", no_argument, NULL, O_NO_INODE_COMP},
	{"no-id-compression", no_argument, NULL, O_NO_ID_COMP},
	{"no-data-compression", no_argument, NULL, O_NO_DATA_COMP},
	{"no-fragment-compression", no_argument, NULL, O_NO_FRAG_COMP},
	{"no-xattr-compression", no_argument, NULL, O_NO_XATTR_COMP},
	{"no-compression", no_argument, NULL, O_NO_COMP},
	{"no-pad", no_argument, NULL, O_NO_PAD},
	{"offset", required_argument, NULL, O_OFFSET},
	{"exports", no_argument, NULL, O_EXPORTS},
	{"fixed-time", required_argument, NULL, O_FIXED_TIME},
	{"info", no_argument, NULL, O_INFO},
	{"info-file", required_argument, NULL, O_INFO_FILE},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

/* Our own short options and whether they take a value (getopt string). */
static const char short_opts[] = "c:X:b:j:e:qhV";

static int usage_err(struct ff_err *err, const char *fmt, const char *word)
{
	ff_err_set(err, EINVAL, fmt, word);
	return FF_SQFS_ARGS_USAGE;
}

static int oom(struct ff_err *err)
{
	ff_err_set(err, ENOMEM, "out of memory");
	return FF_SQFS_ARGS_ERROR;
}

static int parse_block_size(const char *opt, const char *s, uint32_t *out, struct ff_err *err)
{
	return ff_arg_pow2(opt, s, 4096, 1048576, out, err);
}

static int handle_value_opt(struct ff_sqfs_args *a, int c, const char *opt, const char *arg,
			    struct ff_err *err)
{
	uint32_t jobs;

	switch (c) {
	case 'c': a->comp_name = arg; a->comp_given = 1; return 0;
	case 'X': return ff_strv_push(&a->comp_opts, arg, err);
	case 'b': a->block_given = 1; return parse_block_size(opt, arg, &a->block_size, err);
	case 'j':
		if (ff_arg_u32(opt, arg, 1, 1024, &jobs, err))
			return -1;
		a->jobs = jobs;
		return 0;
	case O_MKFS_TIME:
		if (!strcmp(arg, "inode")) /* mksquashfs: the newest inode time */
			return a->mkfs_time = FF_SQFS_MKFS_TIME_INODE, 0;
		return ff_arg_time(opt, arg, &a->mkfs_time, err);
	case O_FIXED_TIME: return ff_arg_time(opt, arg, &a->fixed_time, err);
	case O_OFFSET: return ff_arg_offset(opt, arg, &a->offset, err);
	case O_INFO_FILE: a->info = 1; a->info_file = arg; return 0;
	default: return 1;
	}
}

static int handle_flag(struct ff_sqfs_args *a, int c)
{
	switch (c) {
	case O_NO_FRAGMENTS: a->no_fragments = 1; break;
	case O_ALWAYS_FRAGMENTS: a->always_fragments = 1; break;
	case O_NO_DEDUP: a->no_dedup = 1; break;
	case O_NO_EXPORTS: a->no_exports = 1; break;
	case O_NO_SPARSE: a->no_sparse = 1; break;
	case 'q': a->quiet = 1; a->progress = 0; break;
	case O_PROGRESS: a->progress = 2; break;
	case O_NO_PROGRESS: a->progress = 0; break;
	case O_JSON: a->json = 1; break;
	case O_NOAPPEND: a->noappend = 1; break;
	case O_NO_INODE_COMP: a->raw_inodes = 1; break;
	case O_NO_ID_COMP: a->raw_ids = 1; break;
	case O_NO_DATA_COMP: a->raw_data = 1; break;
	case O_NO_FRAG_COMP: a->raw_fragments = 1; break;
	case O_NO_XATTR_COMP: a->raw_xattrs = 1; break;
	case O_NO_COMP:
		a->raw_inodes = a->raw_data = a->raw_fragments = a->raw_xattrs = 1;
		break;
	case O_NO_PAD: a->no_pad = 1; break;
	case O_EXPORTS: a->no_exports = 0; break;
	case O_INFO: a->info = 1; break;
	default: return 1;
	}
	return 0;
}

static int short_takes_value(char c)
{
	const char *p = strchr(short_opts, c);

	return p && c != ':' && p[1] == ':';
}

/* Does the GNU word w (already translated) consume the next word? */
static int long_takes_value(const char *w)
{
	if (strchr(w, '='))
		return 0;
	for (const struct option *o = long_opts; o->name; o++)
		if (!strcmp(w + 2, o->name))
			return o->has_arg == required_argument;
	return 0;
}

/* Words so far that are SOURCE/IMAGE rather than options or their values. */
static int count_positionals(char **v, int n)
{
	int count = 0;

	for (int i = 1; i < n; i++) {
		if (!strcmp(v[i], "--"))
			return count + n - i - 1;
		if (v[i][0] != '-' || !v[i][1])
			count++;
		else if (v[i][1] == '-' ? long_takes_value(v[i]) : short_takes_value(v[i][1]))
			i++;
	}
	return count;
}

struct xlate {
	struct ff_sqfs_args *a;
	char **out;
	int n;
	struct ff_err *err;
};

static int push(struct xlate *x, const char *w)
{
	x->out[x->n++] = (char *)w;
	return 0;
}

static int push_owned(struct xlate *x, char *w)
{
	if (!w || ff_strv_push(&x->a->owned, w, NULL) < 0) {
		free(w);
		return oom(x->err);
	}
	return push(x, w);
}

static int missing_value(struct xlate *x, const char *opt)
{
	return usage_err(x->err, "option '%s' needs a value", opt);
}

static int unknown_option(struct xlate *x, const char *opt)
{
	return usage_err(x->err, "unknown option '%s'", opt);
}

/* -Xname [VALUE] (mksquashfs) or our -Xname=VALUE: --comp-opt=name[=VALUE]. */
static int xlate_x(struct xlate *x, int argc, char **argv, int *i)
{
	const char *w = argv[*i];
	int nargs = strchr(w, '=') ? 0 : ff_msq_x_nargs(w);
	char *out = NULL;

	if (nargs < 0)
		return unknown_option(x, w);
	if (nargs && *i + 1 >= argc)
		return missing_value(x, w);
	if (nargs) {
		(*i)++;
		if (asprintf(&out, "--comp-opt=%s=%s", w + 2, argv[*i]) < 0)
			out = NULL;
	} else if (asprintf(&out, "--comp-opt=%s", w + 2) < 0) {
		out = NULL;
	}
	return push_owned(x, out);
}

/* 0 translated, HELP for a help word, or an error. */
static int xlate_word(struct xlate *x, const struct ff_msq_word *m, int argc, char **argv,
		      int *i)
{
	const char *w = argv[*i];

	if (m->nargs && *i + 1 >= argc)
		return missing_value(x, w);
	switch (m->kind) {
	case FF_MSQ_GNU:
		push(x, m->gnu);
		if (m->nargs)
			push(x, argv[++*i]);
		return 0;
	case FF_MSQ_NOTE:
		if (ff_strv_push(&x->a->notes, w, NULL) || ff_strv_push(&x->a->notes, m->note, NULL))
			return oom(x->err);
		break;
	case FF_MSQ_HELP:
		return FF_SQFS_ARGS_HELP;
	case FF_MSQ_REFUSE:
		ff_err_set(x->err, ENOTSUP, "mksquashfs option '%s' is not supported: %s", w,
			   m->note);
		return FF_SQFS_ARGS_ERROR;
	case FF_MSQ_DEFAULT:
		break;
	}
	*i += m->nargs;
	return 0;
}

/* -e after SOURCE and IMAGE (mksquashfs order): every remaining word is an
 * exclude pattern.  Before them it takes one pattern, like --exclude. */
static int xlate_e(struct xlate *x, int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		return missing_value(x, "-e");
	if (!x->a->no_positionals && count_positionals(x->out, x->n) < 2) {
		push(x, "--exclude");
		return push(x, argv[++*i]);
	}
	while (*i + 1 < argc) {
		push(x, "--exclude");
		push(x, argv[++*i]);
	}
	return 0;
}

/* The grammar: "--..." are GNU long options, "-" and words without a
 * leading '-' are SOURCE/IMAGE, "--" ends the options.  Any other word is
 * first matched whole against mksquashfs' vocabulary; then a two-character
 * word may be one of our short options (its value the next word); anything
 * else is an unknown option.  So short options never cluster and never
 * carry an attached value: "-j2" is refused, write "-j 2" or "--jobs=2". */
static int xlate_one(struct xlate *x, int argc, char **argv, int *i)
{
	const char *w = argv[*i];
	const struct ff_msq_word *m;

	if (w[0] != '-' || !w[1] || w[1] == '-')
		return push(x, w);
	m = ff_msq_word(w);
	if (m)
		return xlate_word(x, m, argc, argv, i);
	if (!strcmp(w, "-e"))
		return xlate_e(x, argc, argv, i);
	if (w[1] == 'X' && w[2])
		return xlate_x(x, argc, argv, i);
	if (w[2] || !strchr(short_opts, w[1]) || w[1] == ':')
		return unknown_option(x, w);
	push(x, w);
	if (short_takes_value(w[1])) {
		if (*i + 1 >= argc)
			return missing_value(x, w);
		push(x, argv[++*i]);
	}
	return 0;
}

/* Rewrites argv into GNU form in a->words: 0 done, else a parse result. */
static int translate(struct ff_sqfs_args *a, int argc, char **argv, int *new_argc,
		     struct ff_err *err)
{
	struct xlate x = { .a = a, .out = calloc((size_t)argc * 2 + 1, sizeof(char *)),
			   .err = err };

	a->words = x.out;
	if (!x.out)
		return oom(err);
	push(&x, argv[0]);
	for (int i = 1; i < argc; i++) {
		int r;

		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				push(&x, argv[i++]);
			break;
		}
		r = xlate_one(&x, argc, argv, &i);
		if (r)
			return r;
	}
	*new_argc = x.n;
	return 0;
}

void ff_sqfs_args_init(struct ff_sqfs_args *a)
{
	memset(a, 0, sizeof(*a));
	a->comp_name = "gzip";
	a->block_size = 128 * 1024;
	a->mkfs_time = -1;
	a->fixed_time = -1;
	a->progress = 1; /* on when stderr is a terminal */
	ff_source_args_init(&a->src);
}

void ff_sqfs_args_free(struct ff_sqfs_args *a)
{
	ff_source_args_free(&a->src);
	ff_strv_free(&a->comp_opts, 0);
	ff_strv_free(&a->owned, 1);
	ff_strv_free(&a->notes, 0);
	free(a->words);
	a->words = NULL;
}

static int handle_opt(struct ff_sqfs_args *a, int c, int idx, struct ff_err *err)
{
	char opt[64];
	int r = ff_source_args_option(&a->src, c, optarg, err);

	if (r == 1) {
		if (idx >= 0)
			snprintf(opt, sizeof(opt), "--%s", long_opts[idx].name);
		else
			snprintf(opt, sizeof(opt), "-%c", c);
		r = optarg ? handle_value_opt(a, c, opt, optarg, err) : handle_flag(a, c);
	}
	if (r == 1)
		return usage_err(err, "%s", "bad option");
	return r ? FF_SQFS_ARGS_USAGE : 0;
}

static int getopt_loop(struct ff_sqfs_args *a, int argc, char **argv, struct ff_err *err)
{
	char opts[sizeof(short_opts) + 1];
	int c, idx = -1;

	/* ':' first: getopt reports a missing value as ':', prints nothing */
	snprintf(opts, sizeof(opts), ":%s", short_opts);
	opterr = 0;
	optind = 0; /* glibc: a full restart, also of its permutation state */
	while ((c = getopt_long(argc, argv, opts, long_opts, &idx)) != -1) {
		if (c == 'h')
			return FF_SQFS_ARGS_HELP;
		if (c == O_VERSION || c == 'V')
			return FF_SQFS_ARGS_VERSION;
		if (c == '?' || c == ':')
			return usage_err(err, c == ':' ? "option needs a value: '%s'"
					 : "unknown option '%s'", argv[optind - 1]);
		if (handle_opt(a, c, idx, err))
			return FF_SQFS_ARGS_USAGE;
		idx = -1;
	}
	a->pos = argv + optind;
	a->n_pos = argc - optind;
	return 0;
}

int ff_sqfs_args_parse(struct ff_sqfs_args *a, int argc, char **argv, struct ff_err *err)
{
	int n = 0, r = translate(a, argc, argv, &n, err);

	if (r)
		return r;
	r = getopt_loop(a, n, a->words, err);
	if (r == 0 && a->always_fragments && a->no_fragments)
		return usage_err(err, "%s", "--always-fragments and --no-fragments contradict "
				 "each other");
	return r;
}

/* SOURCE... IMAGE, unless the caller gives them. */
static int positional(struct ff_sqfs_args *a, struct ff_err *err)
{
	if (!a->no_positionals)
		return ff_source_args_positional(&a->src, a->n_pos, a->pos, &a->image, err) ||
		       ff_source_args_check_image(&a->src, a->image, err);
	if (a->n_pos)
		return ff_err_set(err, EINVAL, "unexpected argument '%s' (options only here: "
				  "SOURCE and IMAGE are given elsewhere)", a->pos[0]);
	return 0;
}

int ff_sqfs_args_finish(struct ff_sqfs_args *a, const char *epoch, struct ff_err *err)
{
	if (ff_source_args_epoch(&a->src, epoch, err) || positional(a, err))
		return FF_SQFS_ARGS_USAGE;
	if (a->fixed_time >= 0) /* OpenWrt: every inode time and the image time */
		a->src.tree.all_time = a->mkfs_time = a->fixed_time;
	if (a->mkfs_time == -1)
		a->mkfs_time = a->src.tree.clamp_time;
	return 0;
}
