/* mkfs.squashfs: build a SquashFS 4.0 image from a directory, a tar archive
 * and/or spec files.  This file only parses options (GNU long options and
 * mksquashfs' spellings), fills the tree and writer options, and reports;
 * mkfs/ builds the tree and squashfs/ writes the image. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/info.h"
#include "common/json.h"
#include "common/progress.h"
#include "compress/compress.h"
#include "tree/arg_value.h"
#include "tree/source_args.h"
#include "tree/tree.h"
#include "squashfs/writer.h"

#define PROG "mkfs.squashfs"

/* The temporary image, for the signal handler (process state: main only). */
static const char *volatile tmp_slot;

struct args {
	struct ff_source_args src;
	const char *comp_name;
	struct ff_strv comp_opts;
	struct ff_strv owned;	/* strings this process allocated, freed at exit */
	uint32_t block_size;
	unsigned jobs;
	int64_t mkfs_time;	/* --mkfs-time; else the --mtime/SOURCE_DATE_EPOCH time */
	int no_fragments, always_fragments, no_dedup, no_exports, no_sparse;
	int quiet, progress, json;
	unsigned skipped;	/* source entries --ignore-errors left out */
	const char *image;
};

enum {
	O_MKFS_TIME = 256, O_NO_FRAGMENTS, O_ALWAYS_FRAGMENTS, O_NO_DEDUP, O_NO_EXPORTS,
	O_NO_SPARSE, O_PROGRESS, O_NO_PROGRESS, O_JSON, O_NOAPPEND, O_VERSION,
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
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

/* mksquashfs spellings of the options not shared with mkfs.yaffs2 (those
 * come from ff_source_single_dash) and the long options they mean. */
static const char *const drop_in[][2] = {
	{"-comp", "--compressor"}, {"-noappend", "--noappend"},
	{"-no-fragments", "--no-fragments"}, {"-always-use-fragments", "--always-fragments"},
	{"-no-duplicates", "--no-dedup"}, {"-no-exports", "--no-exports"},
	{"-no-sparse", "--no-sparse"}, {"-processors", "--jobs"}, {"-mkfs-time", "--mkfs-time"},
	{"-sort", "--sort"}, {"-quiet", "--quiet"},
	{"-no-progress", "--no-progress"}, {"-progress", "--progress"},
	{"-version", "--version"},
	{"-help", "--help"}, {"-xattrs", NULL}, {"-exports", NULL}, {"-no-recovery", NULL},
};

static void usage(FILE *out)
{
	const char *const *names = ff_comp_names();

	fprintf(out,
		"usage: " PROG " [OPTIONS] SOURCE IMAGE\n"
		"       " PROG " [OPTIONS] --spec FILE IMAGE\n\n"
		"SOURCE is a directory, a tar archive (plain, .gz, .xz, .zst) or '-' for a tar\n"
		"on standard input.  Without SOURCE the image holds only what --spec, --pseudo\n"
		"and --pseudo-file describe.\n\n"
		"  -c, --compressor NAME    codec:");
	for (size_t i = 0; names[i]; i++)
		fprintf(out, " %s", names[i]);
	fprintf(out,
		" (default gzip)\n"
		"  -X, --comp-opt KEY=VALUE codec option, see below (repeatable)\n"
		"  -b, --block-size SIZE    4K..1M, a power of two (default 128K)\n"
		"  -j, --jobs N             compression threads (default: all cores)\n"
		"      --mkfs-time TIME     image time only (default: --mtime)\n"
		"      --no-fragments       no tail-end packing\n"
		"      --always-fragments   pack the tails of files larger than a block too\n"
		"      --no-dedup           store identical files separately\n"
		"      --no-exports         no NFS export table\n"
		"      --no-sparse          store all-zero blocks like any other\n"
		"      --sort FILE          block order priorities (\"path priority\" lines)\n"
		"Source tree (the same in mkfs.yaffs2):\n"
		"      --all-root           every file owned by 0:0\n"
		"      --force-uid USER     --force-gid GROUP   one owner (number or name)\n"
		"      --mtime TIME         image time; newer file times are clamped to it\n"
		"                           (SOURCE_DATE_EPOCH does the same)\n"
		"      --all-time TIME      every file time\n"
		"      --no-xattrs          leave extended attributes out\n"
		"  -e, --exclude PATTERN    leave out matching paths (repeatable)\n"
		"      --exclude-file FILE  patterns, one a line\n"
		"      --one-file-system    do not cross mount points in SOURCE\n"
		"      --spec FILE          add or override entries (repeatable)\n"
		"      --pseudo-file FILE   mksquashfs pseudo definitions;  --pseudo LINE  one\n"
		"      --ignore-errors      skip unreadable files with a warning\n"
		"Output:\n"
		"  -q, --quiet              only errors\n"
		"      --progress           progress bar even when stderr is not a terminal\n"
		"      --no-progress        no progress bar\n"
		"      --json               print a JSON summary on standard output\n"
		"  -h, --help               this text\n"
		"      --version            the version\n\n"
		"mksquashfs spellings are accepted too: -comp -b -noappend -all-root\n"
		"-root-owned -force-uid -force-gid -no-xattrs -no-fragments\n"
		"-always-use-fragments -no-duplicates -no-exports -no-sparse -processors\n"
		"-mkfs-time -all-time -e PATTERN... -ef -pf -p -sort -one-file-system -quiet\n"
		"-progress -no-progress -Xname VALUE -Xhc.\n\n"
		"Codec options (-X):\n");
	for (size_t i = 0; names[i]; i++) {
		const char *h = ff_comp_option_help(names[i]);

		fprintf(out, "  %-5s ", names[i]);
		for (; h && *h; h++)
			fputs(*h != '\n' ? (char[]){ *h, 0 } : h[1] ? "\n        " : "", out);
		fputc('\n', out);
	}
	fprintf(out, "\nExit status: 0 image written, 1 image written but --ignore-errors\n"
		     "skipped some source files, 2 usage error or the image could not be built.\n");
}

static int usage_error(const char *msg)
{
	fprintf(stderr, PROG ": %s\nTry '" PROG " --help' for more information.\n", msg);
	return -1;
}

static int parse_block_size(const char *opt, const char *s, uint32_t *out, struct ff_err *err)
{
	if (ff_arg_size(opt, s, 4096, 1048576, out, err) == 0 && (*out & (*out - 1)) == 0)
		return 0;
	return ff_err_set(err, EINVAL, "%s: '%s' is not a power of two between 4K and 1M",
			  opt, s);
}

static int handle_value_opt(struct args *a, int c, const char *opt, const char *arg,
			    struct ff_err *err)
{
	uint32_t jobs;

	switch (c) {
	case 'c': a->comp_name = arg; return 0;
	case 'X': return ff_strv_push(&a->comp_opts, arg, err);
	case 'b': return parse_block_size(opt, arg, &a->block_size, err);
	case 'j':
		if (ff_arg_u32(opt, arg, 1, 1024, &jobs, err))
			return -1;
		a->jobs = jobs;
		return 0;
	case O_MKFS_TIME: return ff_arg_time(opt, arg, &a->mkfs_time, err);
	default: return 1;
	}
}

static int handle_flag(struct args *a, int c)
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
	case O_NOAPPEND: break;
	default: return 1;
	}
	return 0;
}

/* -Xname VALUE / -Xhc / -Xname=VALUE (mksquashfs) become --comp-opt=...;
 * the flags (lz4's hc, gzip's zlib and libdeflate) take no value. */
static char *translate_x(char **argv, int *i, int argc)
{
	static const char *const flags[] = { "hc", "zlib", "libdeflate" };
	const char *name = argv[*i] + 2;
	char *out;
	int r, flag = 0;

	for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		flag |= !strcmp(name, flags[k]);
	if (strchr(name, '=') || flag || *i + 1 >= argc) {
		r = asprintf(&out, "--comp-opt=%s", name);
	} else {
		(*i)++;
		r = asprintf(&out, "--comp-opt=%s=%s", name, argv[*i]);
	}
	return r < 0 ? NULL : out;
}

/* Does option word w (already in GNU spelling) consume the next word? */
static int takes_value(const char *w)
{
	if (w[0] == '-' && w[1] == '-') {
		if (strchr(w, '='))
			return 0;
		for (const struct option *o = long_opts; o->name; o++)
			if (!strcmp(w + 2, o->name))
				return o->has_arg == required_argument;
		return 0;
	}
	return w[0] == '-' && w[1] && strchr("cXbje", w[1]) && !w[2];
}

/* Words so far that are SOURCE/IMAGE rather than options or their values. */
static int count_positionals(char **v, int n)
{
	int count = 0;

	for (int i = 1; i < n; i++) {
		if (v[i][0] != '-' || !v[i][1])
			count++;
		else if (takes_value(v[i]))
			i++;
	}
	return count;
}

/* The long option a mksquashfs spelling stands for; *known is 0 when arg is
 * not a mksquashfs spelling (the result is then NULL). */
static const char *drop_in_word(const char *arg, int *known)
{
	const char *shared = ff_source_single_dash(arg);

	*known = 1;
	if (shared)
		return shared;
	for (size_t k = 0; k < sizeof(drop_in) / sizeof(drop_in[0]); k++)
		if (!strcmp(arg, drop_in[k][0]))
			return drop_in[k][1];
	*known = 0;
	return NULL;
}

/* Rewrites mksquashfs spellings into long options.  After SOURCE and IMAGE
 * (mksquashfs order) "-e" takes every following word that is not an option,
 * as mksquashfs does; before them it takes one pattern, like --exclude. */
static char **translate(struct args *a, int argc, char **argv, int *new_argc)
{
	char **out = calloc((size_t)argc * 2 + 1, sizeof(*out));
	int n = 0, known;

	if (!out)
		return NULL;
	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *word = drop_in_word(arg, &known);

		if (known) {
			if (word)
				out[n++] = (char *)word;
		} else if (!strcmp(arg, "-e") && count_positionals(out, n) >= 2) {
			while (i + 1 < argc && argv[i + 1][0] != '-') {
				out[n++] = "--exclude";
				out[n++] = argv[++i];
			}
		} else if (!strncmp(arg, "-X", 2) && arg[2]) {
			out[n++] = translate_x(argv, &i, argc);
			if (!out[n - 1] || ff_strv_push(&a->owned, out[n - 1], NULL) < 0) {
				free(out[n - 1]);
				free(out);
				return NULL;
			}
		} else {
			out[n++] = argv[i];
		}
	}
	*new_argc = n;
	return out;
}

static void defaults(struct args *a)
{
	a->comp_name = "gzip";
	a->block_size = 128 * 1024;
	a->mkfs_time = -1;
	a->progress = 1; /* on when stderr is a terminal */
	ff_source_args_init(&a->src);
}

static int handle_opt(struct args *a, int c, int idx)
{
	struct ff_err err = {0};
	char opt[64];
	int r = ff_source_args_option(&a->src, c, optarg, &err);

	if (r == 1) {
		if (idx >= 0)
			snprintf(opt, sizeof(opt), "--%s", long_opts[idx].name);
		else
			snprintf(opt, sizeof(opt), "-%c", c);
		r = optarg ? handle_value_opt(a, c, opt, optarg, &err) : handle_flag(a, c);
	}
	if (r == 1)
		return usage_error("bad option");
	return r ? usage_error(err.msg) : 0;
}

/* After the options: the SOURCE_DATE_EPOCH default, SOURCE and IMAGE. */
static int finish_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = {0};

	if (a->always_fragments && a->no_fragments)
		return usage_error("--always-fragments and --no-fragments contradict each other");
	if (ff_source_args_epoch(&a->src, getenv("SOURCE_DATE_EPOCH"), &err) ||
	    ff_source_args_positional(&a->src, argc - optind, argv + optind, &a->image, &err) ||
	    ff_source_args_check_image(&a->src, a->image, &err))
		return usage_error(err.msg);
	if (a->mkfs_time < 0)
		a->mkfs_time = a->src.tree.clamp_time;
	return 0;
}

/* Returns 0 to go on, 1 after --help/--version, -1 on a usage error. */
static int parse_args(struct args *a, int argc, char **argv)
{
	int c, idx = -1;

	defaults(a);
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:X:b:j:e:qhV", long_opts, &idx)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == O_VERSION || c == 'V') {
			printf(PROG " (flashfs-tools) 0.1\n");
			return 1;
		}
		if (c == '?')
			return usage_error("bad option");
		if (handle_opt(a, c, idx))
			return -1;
		idx = -1;
	}
	return finish_args(a, argc, argv);
}

static struct ff_comp *make_comp(const struct args *a)
{
	struct ff_err err = {0};
	struct ff_comp *comp = ff_comp_new(a->comp_name, a->block_size, &err);
	char msg[FF_ERR_MSG_MAX + 64];

	if (!comp) {
		snprintf(msg, sizeof(msg), "--compressor: %s", err.msg);
		usage_error(msg);
		return NULL;
	}
	for (size_t i = 0; i < a->comp_opts.n; i++)
		if (ff_comp_set_option_str(comp, a->comp_opts.v[i], &err) < 0) {
			snprintf(msg, sizeof(msg), "--comp-opt '%s': %s", a->comp_opts.v[i],
				 err.msg);
			usage_error(msg);
			ff_comp_free(comp);
			return NULL;
		}
	return comp;
}

static void warn_cb(void *ctx, const struct ff_warning *w)
{
	const struct args *a = ctx;
	char line[1536];

	if (!a->quiet)
		fprintf(stderr, PROG ": warning: %s\n", ff_warning_text(w, line, sizeof(line)));
}

/* Source warnings: the entries --ignore-errors leaves out are counted by
 * kind; the count decides the exit status (mkfs_squashfs_errors.t). */
static void source_warn_cb(void *ctx, const struct ff_warning *w)
{
	struct args *a = ctx;

	if (w->kind == FF_WARN_SKIPPED)
		a->skipped++;
	warn_cb(a, w);
}

struct run {
	struct args *a;
	struct ff_progress *bar;
	uint64_t bytes, files;
};

static void progress_cb(void *ctx, uint64_t bytes, uint64_t bytes_total, uint64_t files,
			uint64_t files_total)
{
	struct run *r = ctx;

	if (!r->bar)
		return;
	ff_progress_set_total(r->bar, bytes_total, files_total);
	ff_progress_add(r->bar, bytes - r->bytes, files - r->files);
	r->bytes = bytes;
	r->files = files;
}

static void run_warn(void *ctx, const struct ff_warning *w)
{
	struct run *r = ctx;
	char text[1536], line[1600];

	if (r->a->quiet)
		return;
	/* on a line of its own, not at the end of the bar */
	snprintf(line, sizeof(line), PROG ": warning: %s\n",
		 ff_warning_text(w, text, sizeof(text)));
	ff_progress_message(r->bar, stderr, line);
}

static void print_json(const struct args *a, const struct ff_comp *comp,
		       const struct ff_sqfs_write_stats *s, double ratio, double secs)
{
	const struct { const char *key; uint64_t v; } counts[] = {
		{"bytes_used", s->bytes_used}, {"image_size", s->image_size},
		{"data_in", s->data_in}, {"data_out", s->data_out},
	}, more[] = {
		{"inodes", s->inode_count}, {"files", s->n_files}, {"directories", s->n_dirs},
		{"symlinks", s->n_symlinks}, {"specials", s->n_special},
		{"hardlinks", s->n_hardlinks}, {"fragments", s->n_fragment_blocks},
		{"duplicates", s->n_dup_files}, {"sparse_blocks", s->n_sparse_blocks},
		{"ids", s->n_ids}, {"xattr_ids", s->n_xattr_ids}, {"skipped", a->skipped},
	};
	struct ff_json j;

	ff_json_init(&j, stdout, 0);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "schema", "mkfs.squashfs/1"); /* docs/schemas/mkfs.squashfs.schema.json */
	ff_json_kv_str(&j, "image", a->image);
	ff_json_kv_str(&j, "compressor", ff_comp_name(comp));
	ff_json_key(&j, "compressor_options");
	ff_json_begin_object(&j);
	ff_comp_options(comp, 0, ff_info_json, &j);
	ff_json_end_object(&j);
	ff_json_kv_uint(&j, "block_size", a->block_size);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		ff_json_kv_uint(&j, counts[i].key, counts[i].v);
	ff_json_kv_real(&j, "ratio", ratio, 4);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		ff_json_kv_uint(&j, more[i].key, more[i].v);
	ff_json_kv_real(&j, "seconds", secs, 3);
	ff_json_end_object(&j);
	ff_json_finish(&j);
}

static void print_summary(const struct args *a, const struct ff_comp *comp,
			  const struct ff_sqfs_write_stats *s, double secs)
{
	double ratio = s->data_in ? (double)s->bytes_used / (double)s->data_in : 0.0;
	char data[96];

	if (a->json) {
		print_json(a, comp, s, ratio, secs);
		return;
	}
	if (a->quiet)
		return;
	/* The file data's own ratio: the image's size over a few bytes of
	 * data once read "11100.0% of 2 data bytes". */
	if (s->data_in)
		snprintf(data, sizeof(data), "file data %" PRIu64 " -> %" PRIu64 " bytes (%.1f%%)",
			 s->data_in, s->data_out, 100.0 * (double)s->data_out / (double)s->data_in);
	else
		snprintf(data, sizeof(data), "no file data");
	printf("%s: %s, %u-byte blocks, %" PRIu64 " bytes; %s\n"
	       "  %" PRIu64 " inodes: %" PRIu64 " files, %" PRIu64 " dirs, %" PRIu64
	       " symlinks, %" PRIu64 " special; %" PRIu64 " duplicates, %" PRIu64
	       " fragment blocks, %u ids, %u xattr sets; %.2f s\n",
	       a->image, ff_comp_name(comp), a->block_size, s->bytes_used, data,
	       s->inode_count, s->n_files, s->n_dirs, s->n_symlinks, s->n_special,
	       s->n_dup_files, s->n_fragment_blocks, s->n_ids, s->n_xattr_ids, secs);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_image(struct args *a, const struct ff_comp *comp, struct ff_tree *tree)
{
	struct run r = { .a = a };
	struct ff_sqfs_write_opts o = {
		.comp = comp, .block_size = a->block_size, .jobs = a->jobs,
		.mkfs_time = a->mkfs_time, .no_fragments = a->no_fragments,
		.always_fragments = a->always_fragments, .no_dedup = a->no_dedup,
		.no_exports = a->no_exports, .no_sparse = a->no_sparse, .no_xattrs = a->src.tree.no_xattrs,
		.warn = run_warn, .progress = progress_cb, .cb_ctx = &r, .tmp_path_slot = &tmp_slot,
	};
	struct ff_sqfs_write_stats st;
	struct ff_err err = {0};
	double t0 = now();
	int ret;

	if (a->progress == 2 || (a->progress == 1 && isatty(2)))
		r.bar = ff_progress_new(2, "files", a->progress == 2);
	ret = ff_sqfs_write(tree, &o, a->image, &st, &err);
	if (r.bar) {
		if (ret == 0)
			ff_progress_finish(r.bar);
		ff_progress_free(r.bar);
	}
	if (ret < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 2;
	}
	print_summary(a, comp, &st, now() - t0);
	if (!a->skipped)
		return 0;
	fflush(stdout); /* the count is the last line, also when both go to one file */
	fprintf(stderr, PROG ": %s written, but %u unreadable source entr%s skipped "
		"(--ignore-errors)\n", a->image, a->skipped, a->skipped == 1 ? "y was" : "ies were");
	return 1;
}

static void on_signal(int sig)
{
	const char *p = tmp_slot;

	if (p)
		unlink(p);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}


static int run(struct args *a)
{
	struct ff_err err = {0};
	struct ff_comp *comp = make_comp(a);
	struct ff_tree *tree;
	int ret;

	if (!comp)
		return 2;
	if (ff_comp_kernel_unsupported(comp))
		ff_warnf(warn_cb, a, FF_WARN_NOTE, NULL, "%s",
			 "the Linux kernel cannot mount images compressed with this codec "
			 "(unsquashfs and flashfs can read them)");
	a->src.warn = source_warn_cb;
	a->src.warn_ctx = a;
	tree = ff_source_args_build(&a->src, &err);
	if (!tree) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		ff_comp_free(comp);
		return 2;
	}
	ret = write_image(a, comp, tree);
	ff_tree_free(tree);
	ff_comp_free(comp);
	return ret;
}

int main(int argc, char **argv)
{
	static struct args a;
	int new_argc = 0, r;
	char **args = translate(&a, argc, argv, &new_argc);

	if (!args) {
		fprintf(stderr, PROG ": out of memory\n");
		return 2;
	}
	r = parse_args(&a, new_argc, args);
	if (r == 0) {
		install_signals();
		r = run(&a);
	} else {
		r = r > 0 ? 0 : 2;
	}
	ff_source_args_free(&a.src);
	ff_strv_free(&a.comp_opts, 0);
	ff_strv_free(&a.owned, 1);
	free(args);
	return r;
}
