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
#include "mkfs/mksquashfs_words.h"
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
	int64_t fixed_time;	/* OpenWrt -fixed-time: every time and the image time */
	uint64_t offset;
	int no_fragments, always_fragments, no_dedup, no_exports, no_sparse, no_pad;
	int raw_inodes, raw_ids, raw_data, raw_fragments, raw_xattrs;
	int quiet, progress, json, info;
	const char *info_file;
	struct ff_strv notes;	/* mksquashfs word, one-line note: pairs */
	int noappend, comp_given, block_given; /* append unless -noappend */
	unsigned skipped;	/* source entries --ignore-errors left out */
	const char *image;
};

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

/* The mksquashfs vocabulary, from the word table. */
static void usage_words(FILE *out)
{
	const char *const kinds[] = { "mksquashfs options (SOURCE... IMAGE OPTIONS, or "
				      "anywhere):", "accepted, nothing to do here:",
				      "accepted with a one-line note:", "help:",
				      "refused (not supported):" };

	for (int k = FF_MSQ_GNU; k <= FF_MSQ_REFUSE; k++) {
		int col = 0;

		fprintf(out, "%s\n ", kinds[k]);
		for (const struct ff_msq_word *w = ff_msq_words(); w->word; w++) {
			int len = (int)strlen(w->word) + (w->nargs ? 4 : 0) + 1;

			if ((int)w->kind != k)
				continue;
			if (col + len > 78) {
				fputs("\n ", out);
				col = 0;
			}
			fprintf(out, " %s%s", w->word, w->nargs ? " ARG" : "");
			col += len;
		}
		fputc('\n', out);
	}
	fprintf(out, "compressor options:\n ");
	for (size_t i = 0; ff_msq_x_word(i); i++)
		fprintf(out, " %s", ff_msq_x_word(i));
	fprintf(out, "\n  -e PATTERN... (after SOURCE IMAGE: every word left) -Xname [VALUE]\n"
		"A single-dash word is matched whole: an unknown one is an error (exit 2),\n"
		"short options take their value as the next word (-b 64K, not -b64K).\n");
}

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
		"      --mkfs-time TIME     image time only (default: --mtime); \"inode\": the\n"
		"                           newest file time (mksquashfs -repro)\n"
		"      --no-fragments       no tail-end packing\n"
		"      --always-fragments   pack the tails of files larger than a block too\n"
		"      --no-dedup           store identical files separately\n"
		"      --no-exports         no NFS export table\n"
		"      --no-sparse          store all-zero blocks like any other\n"
		"      --sort FILE          block order priorities (\"path priority\" lines)\n"
		"      --no-compression     store everything uncompressed, or only the parts:\n"
		"      --no-inode-compression --no-id-compression --no-data-compression\n"
		"      --no-fragment-compression --no-xattr-compression\n"
		"      --no-pad             do not pad the image to 4 KiB\n"
		"      --offset N           write the image N bytes into the file (K, M, G)\n"
		"      --exports            NFS export table (the default)\n"
		"      --fixed-time TIME    every file time and the image time\n"
		"      --info, --info-file FILE   list every entry as it is added\n"
		"      --noappend           replace an existing IMAGE (default: a SquashFS\n"
		"                           IMAGE is appended to, as mksquashfs does)\n"
		"Source tree (the same in mkfs.yaffs2):\n"
		"      --all-root           every file owned by 0:0\n"
		"      --force-uid USER     --force-gid GROUP   one owner (number or name)\n"
		"      --mtime TIME         image time; newer file times are clamped to it\n"
		"                           (SOURCE_DATE_EPOCH does the same)\n"
		"      --all-time TIME      every file time\n"
		"      --no-xattrs          leave extended attributes out\n"
		"      --xattrs-exclude RE, --xattrs-include RE   drop xattrs by name (regex)\n"
		"  -e, --exclude PATTERN    leave out matching paths (repeatable)\n"
		"      --exclude-file FILE  patterns, one a line\n"
		"      --one-file-system    do not cross mount points in SOURCE (a mount point\n"
		"                           is an empty directory, other files left out)\n"
		"      --one-file-system-x  the same, mount points left out too\n"
		"      --max-depth N        directories below N levels are kept empty\n"
		"      --no-strip           each SOURCE at its own path, as tar does\n"
		"      --cpio-style, --cpio-style0   the entries are the paths on standard\n"
		"                           input, one a line (NUL-ended), as cpio reads them\n"
		"      --xattrs-add NAME=VALUE      add an xattr to every entry (user.*: files\n"
		"                           and directories); VALUE text, 0x hex or 0s base64\n"
		"      --default-mode MODE --default-uid USER --default-gid GROUP   directories\n"
		"                           a tar implies (and the root)\n"
		"      --pseudo-dir 'd MODE UID GID' or 'D TIME MODE UID GID'   directories\n"
		"                           pseudo definitions imply\n"
		"      --pseudo-override    pseudo owners win over --all-root, --force-uid/gid\n"
		"      --spec FILE          add or override entries (repeatable)\n"
		"      --pseudo-file FILE   mksquashfs pseudo definitions;  --pseudo LINE  one\n"
		"      --ignore-errors      skip unreadable files with a warning\n"
		"      --root-mode MODE --root-uid USER --root-gid GROUP --root-time TIME\n"
		"      --force-file-mode MODE --force-dir-mode MODE --uid-gid-offset N\n"
		"                           MODE is octal or symbolic (u+rwx,go-w)\n"
		"      --keep-as-directory  one SOURCE directory becomes a root entry\n"
		"                           (several SOURCEs always do: NAME, NAME_1, ...)\n"
		"      --no-hardlinks       store every name of a hard-linked file separately\n"
		"      --tar                SOURCE is a tar archive on standard input\n"
		"      --wildcards, --regex how --exclude patterns match (see the manual)\n"
		"      --action A@EXPR      mksquashfs actions: exclude prune chmod uid gid guid\n"
		"                           fragment; also --log-action --true-action\n"
		"                           --false-action and --action-file FILE (and the\n"
		"                           same -file forms)\n"
		"Output:\n"
		"  -q, --quiet              only errors\n"
		"      --progress           progress bar even when stderr is not a terminal\n"
		"      --no-progress        no progress bar\n"
		"      --json               print a JSON summary on standard output\n"
		"  -h, --help               this text\n"
		"      --version            the version\n\n");
	usage_words(out);
	fprintf(out, "\nCodec options (-X KEY=VALUE, or mksquashfs' -Xname [VALUE]):\n");
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
			return a->mkfs_time = -2, 0;
		return ff_arg_time(opt, arg, &a->mkfs_time, err);
	case O_FIXED_TIME: return ff_arg_time(opt, arg, &a->fixed_time, err);
	case O_OFFSET: return ff_arg_offset(opt, arg, &a->offset, err);
	case O_INFO_FILE: a->info = 1; a->info_file = arg; return 0;
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

/* Our own short options and whether they take a value (getopt string). */
static const char short_opts[] = "c:X:b:j:e:qhV";

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
	struct args *a;
	char **out;
	int n;
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
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	return push(x, w);
}

static int missing_value(const char *opt)
{
	fprintf(stderr, PROG ": option '%s' needs a value\n"
		"Try '" PROG " --help' for more information.\n", opt);
	return -1;
}

static int unknown_option(const char *opt)
{
	fprintf(stderr, PROG ": unknown option '%s'\n"
		"Try '" PROG " --help' for more information.\n", opt);
	return -1;
}

/* -Xname [VALUE] (mksquashfs) or our -Xname=VALUE: --comp-opt=name[=VALUE]. */
static int xlate_x(struct xlate *x, int argc, char **argv, int *i)
{
	const char *w = argv[*i];
	int nargs = strchr(w, '=') ? 0 : ff_msq_x_nargs(w);
	char *out = NULL;

	if (nargs < 0)
		return unknown_option(w);
	if (nargs && *i + 1 >= argc)
		return missing_value(w);
	if (nargs) {
		(*i)++;
		if (asprintf(&out, "--comp-opt=%s=%s", w + 2, argv[*i]) < 0)
			out = NULL;
	} else if (asprintf(&out, "--comp-opt=%s", w + 2) < 0) {
		out = NULL;
	}
	return push_owned(x, out);
}

/* 0 translated, 1 a help word (the caller prints the help), -1 error. */
static int xlate_word(struct xlate *x, const struct ff_msq_word *m, int argc, char **argv,
		      int *i)
{
	const char *w = argv[*i];

	if (m->nargs && *i + 1 >= argc)
		return missing_value(w);
	switch (m->kind) {
	case FF_MSQ_GNU:
		push(x, m->gnu);
		if (m->nargs)
			push(x, argv[++*i]);
		return 0;
	case FF_MSQ_NOTE:
		if (ff_strv_push(&x->a->notes, w, NULL) || ff_strv_push(&x->a->notes, m->note, NULL)) {
			fprintf(stderr, PROG ": out of memory\n");
			return -1;
		}
		break;
	case FF_MSQ_HELP:
		return 1;
	case FF_MSQ_REFUSE:
		fprintf(stderr, PROG ": mksquashfs option '%s' is not supported: %s\n", w, m->note);
		return -1;
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
	if (count_positionals(x->out, x->n) < 2) {
		if (*i + 1 >= argc)
			return missing_value("-e");
		push(x, "--exclude");
		return push(x, argv[++*i]);
	}
	if (*i + 1 >= argc)
		return missing_value("-e");
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
		return unknown_option(w);
	push(x, w);
	if (short_takes_value(w[1])) {
		if (*i + 1 >= argc)
			return missing_value(w);
		push(x, argv[++*i]);
	}
	return 0;
}

/* Rewrites argv into GNU form: 0 done, 1 help asked for, -1 error. */
static char **translate(struct args *a, int argc, char **argv, int *new_argc, int *status)
{
	struct xlate x = { .a = a, .out = calloc((size_t)argc * 2 + 1, sizeof(char *)) };

	*status = -1;
	if (!x.out) {
		fprintf(stderr, PROG ": out of memory\n");
		return NULL;
	}
	push(&x, argv[0]);
	for (int i = 1; i < argc; i++) {
		int r;

		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				push(&x, argv[i++]);
			break;
		}
		r = xlate_one(&x, argc, argv, &i);
		if (r) {
			*status = r;
			return x.out;
		}
	}
	*new_argc = x.n;
	*status = 0;
	return x.out;
}

static void defaults(struct args *a)
{
	a->comp_name = "gzip";
	a->block_size = 128 * 1024;
	a->mkfs_time = -1;
	a->fixed_time = -1;
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
	if (a->fixed_time >= 0) /* OpenWrt: every inode time and the image time */
		a->src.tree.all_time = a->mkfs_time = a->fixed_time;
	if (a->mkfs_time == -1)
		a->mkfs_time = a->src.tree.clamp_time;
	return 0;
}

/* Returns 0 to go on, 1 after --help/--version, -1 on a usage error. */
static int parse_args(struct args *a, int argc, char **argv)
{
	char opts[sizeof(short_opts) + 1];
	int c, idx = -1;

	/* ':' first: getopt reports a missing value as ':', prints nothing */
	snprintf(opts, sizeof(opts), ":%s", short_opts);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, opts, long_opts, &idx)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == O_VERSION || c == 'V') {
			printf(PROG " (flashfs-tools) 0.1\n");
			return 1;
		}
		if (c == '?' || c == ':') {
			fprintf(stderr, PROG ": %s '%s'\nTry '" PROG " --help' for more "
				"information.\n", c == ':' ? "option needs a value:" : "unknown option",
				argv[optind - 1]);
			return -1;
		}
		if (handle_opt(a, c, idx))
			return -1;
		idx = -1;
	}
	return finish_args(a, argc, argv);
}

/* One line for each mksquashfs option that changes nothing here. */
static void print_notes(const struct args *a)
{
	for (size_t i = 0; !a->quiet && i + 1 < a->notes.n; i += 2)
		fprintf(stderr, PROG ": note: %s: %s\n", a->notes.v[i], a->notes.v[i + 1]);
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

/* --log-action, --true-action, --false-action lines. */
static void log_cb(void *ctx, const char *msg)
{
	(void)ctx;
	printf("action: %s\n", msg);
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

static int write_image(struct args *a, const struct ff_comp *comp, struct ff_tree *tree,
		       struct ff_fs *old)
{
	struct run r = { .a = a };
	struct ff_sqfs_write_opts o = {
		.comp = comp, .block_size = a->block_size, .jobs = a->jobs,
		.mkfs_time = a->mkfs_time, .no_fragments = a->no_fragments,
		.always_fragments = a->always_fragments, .no_dedup = a->no_dedup,
		.no_exports = a->no_exports, .no_sparse = a->no_sparse, .no_xattrs = a->src.tree.no_xattrs,
		.raw_inodes = a->raw_inodes, .raw_ids = a->raw_ids, .raw_data = a->raw_data,
		.raw_fragments = a->raw_fragments, .raw_xattrs = a->raw_xattrs,
		.offset = a->offset, .no_pad = a->no_pad,
		.warn = run_warn, .progress = progress_cb, .cb_ctx = &r, .tmp_path_slot = &tmp_slot,
		.append = old,
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

/* -info / -info-file: every entry of the finished tree, one a line. */
static int print_info(const struct args *a, const struct ff_tree *tree)
{
	FILE *f = a->info_file ? fopen(a->info_file, "w") : stdout;
	char path[4096];

	if (!f) {
		fprintf(stderr, PROG ": %s: cannot write the -info file: %s\n", a->info_file,
			strerror(errno));
		return 2;
	}
	for (struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n)) {
		if (ff_node_path(n, path, sizeof(path)) < 0)
			snprintf(path, sizeof(path), "%s", n->name);
		fprintf(f, "/%s: mode %06o, uid %u, gid %u, mtime %lld, size %llu%s\n", path,
			n->mode, n->uid, n->gid, (long long)n->mtime, (unsigned long long)n->size,
			n->link ? " (hard link)" : "");
	}
	if (f != stdout && fclose(f)) {
		fprintf(stderr, PROG ": %s: cannot write the -info file\n", a->info_file);
		return 2;
	}
	return 0;
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

static int add_old_image(void *ctx, struct ff_tree *tree, struct ff_err *err)
{
	return ff_tree_add_image(tree, ctx, err);
}

/* Append, mksquashfs' default: an existing SquashFS IMAGE keeps its tree,
 * compressor and block size, and the sources are added at its root. */
static int open_append(struct args *a, const struct ff_comp *comp, struct ff_fs **old)
{
	struct ff_err err = {0};
	int r = a->noappend ? 0 : ff_sqfs_append_open(a->image, old, &err);

	if (r > 0)
		r = ff_sqfs_append_check(*old, a->comp_given ? comp : NULL,
					 a->block_given ? a->block_size : 0, &err);
	if (r < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		ff_fs_close(*old);
		*old = NULL;
		return -1;
	}
	if (*old) {
		a->block_size = ff_sqfs_append_block_size(*old);
		a->src.before_finish = add_old_image;
		a->src.before_finish_ctx = *old;
	}
	return 0;
}

static int run(struct args *a)
{
	struct ff_err err = {0};
	struct ff_comp *comp = make_comp(a);
	struct ff_fs *old = NULL;
	struct ff_tree *tree;
	int ret;

	if (!comp)
		return 2;
	if (open_append(a, comp, &old) < 0) {
		ff_comp_free(comp);
		return 2;
	}
	if (ff_comp_kernel_unsupported(comp))
		ff_warnf(warn_cb, a, FF_WARN_NOTE, NULL, "%s",
			 "the Linux kernel cannot mount images compressed with this codec "
			 "(unsquashfs and flashfs can read them)");
	a->src.warn = source_warn_cb;
	a->src.log = log_cb;
	a->src.warn_ctx = a;
	tree = ff_source_args_build(&a->src, &err);
	if (!tree) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		ff_fs_close(old);
		ff_comp_free(comp);
		return 2;
	}
	if (a->mkfs_time == -2) /* --mkfs-time inode (mksquashfs -repro) */
		for (struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n))
			a->mkfs_time = n->mtime > a->mkfs_time ? n->mtime : a->mkfs_time;
	ret = a->info ? print_info(a, tree) : 0;
	if (ret == 0)
		ret = write_image(a, old ? ff_sqfs_append_comp(old) : comp, tree, old);
	ff_tree_free(tree);
	ff_fs_close(old);
	ff_comp_free(comp);
	return ret;
}

int main(int argc, char **argv)
{
	static struct args a;
	int new_argc = 0, r;
	char **args;

	defaults(&a);
	args = translate(&a, argc, argv, &new_argc, &r);
	if (r == 1)
		usage(stdout);
	else if (r == 0)
		r = parse_args(&a, new_argc, args);
	if (r == 0)
		print_notes(&a);
	if (r == 0) {
		install_signals();
		r = run(&a);
	} else {
		r = r > 0 ? 0 : 2;
	}
	ff_source_args_free(&a.src);
	ff_strv_free(&a.comp_opts, 0);
	ff_strv_free(&a.owned, 1);
	ff_strv_free(&a.notes, 0);
	free(args);
	return r;
}
