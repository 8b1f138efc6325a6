/* mkfs.squashfs: build a SquashFS 4.0 image from a directory, a tar archive
 * and/or spec files.  This file only parses options (GNU long options and
 * mksquashfs' spellings), fills the tree and writer options, and reports;
 * mkfs/ builds the tree and squashfs/ writes the image. */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/progress.h"
#include "compress/compress.h"
#include "mkfs/tree.h"
#include "squashfs/writer.h"

#define PROG "mkfs.squashfs"
#define MAX_LIST 4096

/* The temporary image, for the signal handler (process state: main only). */
static const char *volatile tmp_slot;

struct list {
	const char *v[MAX_LIST];
	size_t n;
};

struct args {
	const char *comp_name;
	struct list comp_opts, specs, pseudo_files, pseudo_lines, excludes, exclude_files;
	struct list owned;	/* strings this process allocated, freed at exit */
	const char *sort_file;
	uint32_t block_size;
	unsigned jobs;
	int64_t mkfs_time, clamp_time, all_time, force_uid, force_gid;
	int all_root, no_xattrs, no_fragments, always_fragments, no_dedup, no_exports;
	int no_sparse, one_fs, ignore_errors, quiet, progress, json;
	const char *source, *image;
};

enum {
	O_ALL_ROOT = 256, O_FORCE_UID, O_FORCE_GID, O_MTIME, O_MKFS_TIME, O_ALL_TIME,
	O_NO_XATTRS, O_NO_FRAGMENTS, O_ALWAYS_FRAGMENTS, O_NO_DEDUP, O_NO_EXPORTS,
	O_NO_SPARSE, O_SORT, O_EXCLUDE_FILE, O_ONE_FS, O_SPEC, O_PSEUDO_FILE, O_PSEUDO,
	O_IGNORE_ERRORS, O_PROGRESS, O_NO_PROGRESS, O_JSON, O_NOAPPEND, O_VERSION,
};

static const struct option long_opts[] = {
	{"compressor", required_argument, NULL, 'c'},
	{"comp-opt", required_argument, NULL, 'X'},
	{"block-size", required_argument, NULL, 'b'},
	{"jobs", required_argument, NULL, 'j'},
	{"all-root", no_argument, NULL, O_ALL_ROOT},
	{"force-uid", required_argument, NULL, O_FORCE_UID},
	{"force-gid", required_argument, NULL, O_FORCE_GID},
	{"mtime", required_argument, NULL, O_MTIME},
	{"mkfs-time", required_argument, NULL, O_MKFS_TIME},
	{"all-time", required_argument, NULL, O_ALL_TIME},
	{"no-xattrs", no_argument, NULL, O_NO_XATTRS},
	{"no-fragments", no_argument, NULL, O_NO_FRAGMENTS},
	{"always-fragments", no_argument, NULL, O_ALWAYS_FRAGMENTS},
	{"no-dedup", no_argument, NULL, O_NO_DEDUP},
	{"no-exports", no_argument, NULL, O_NO_EXPORTS},
	{"no-sparse", no_argument, NULL, O_NO_SPARSE},
	{"sort", required_argument, NULL, O_SORT},
	{"exclude", required_argument, NULL, 'e'},
	{"exclude-file", required_argument, NULL, O_EXCLUDE_FILE},
	{"one-file-system", no_argument, NULL, O_ONE_FS},
	{"spec", required_argument, NULL, O_SPEC},
	{"pseudo-file", required_argument, NULL, O_PSEUDO_FILE},
	{"pseudo", required_argument, NULL, O_PSEUDO},
	{"ignore-errors", no_argument, NULL, O_IGNORE_ERRORS},
	{"quiet", no_argument, NULL, 'q'},
	{"progress", no_argument, NULL, O_PROGRESS},
	{"no-progress", no_argument, NULL, O_NO_PROGRESS},
	{"json", no_argument, NULL, O_JSON},
	{"noappend", no_argument, NULL, O_NOAPPEND},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, O_VERSION},
	{NULL, 0, NULL, 0},
};

/* mksquashfs spellings and the long options they mean. */
static const char *const drop_in[][2] = {
	{"-comp", "--compressor"}, {"-noappend", "--noappend"}, {"-all-root", "--all-root"},
	{"-root-owned", "--all-root"}, {"-force-uid", "--force-uid"},
	{"-force-gid", "--force-gid"}, {"-no-xattrs", "--no-xattrs"},
	{"-no-fragments", "--no-fragments"}, {"-always-use-fragments", "--always-fragments"},
	{"-no-duplicates", "--no-dedup"}, {"-no-exports", "--no-exports"},
	{"-no-sparse", "--no-sparse"}, {"-processors", "--jobs"}, {"-mkfs-time", "--mkfs-time"},
	{"-all-time", "--all-time"}, {"-ef", "--exclude-file"}, {"-pf", "--pseudo-file"},
	{"-p", "--pseudo"}, {"-sort", "--sort"}, {"-quiet", "--quiet"},
	{"-no-progress", "--no-progress"}, {"-progress", "--progress"},
	{"-one-file-system", "--one-file-system"}, {"-version", "--version"},
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
		"      --all-root           every file owned by 0:0\n"
		"      --force-uid UID      --force-gid GID   one owner for every file\n"
		"      --mtime TIME         image time; newer file times are clamped to it\n"
		"                           (SOURCE_DATE_EPOCH does the same)\n"
		"      --mkfs-time TIME     image time only;  --all-time TIME  every file time\n"
		"      --no-xattrs          leave extended attributes out\n"
		"      --no-fragments       no tail-end packing\n"
		"      --always-fragments   pack the tails of files larger than a block too\n"
		"      --no-dedup           store identical files separately\n"
		"      --no-exports         no NFS export table\n"
		"      --no-sparse          store all-zero blocks like any other\n"
		"      --sort FILE          block order priorities (\"path priority\" lines)\n"
		"  -e, --exclude PATTERN    leave out matching paths (repeatable)\n"
		"      --exclude-file FILE  patterns, one a line\n"
		"      --one-file-system    do not cross mount points in SOURCE\n"
		"      --spec FILE          add or override entries (repeatable)\n"
		"      --pseudo-file FILE   mksquashfs pseudo definitions;  --pseudo LINE  one\n"
		"      --ignore-errors      skip unreadable files with a warning\n"
		"  -q, --quiet              only errors\n"
		"      --progress           progress bar even when stderr is not a terminal\n"
		"      --no-progress        no progress bar\n"
		"      --json               print a JSON summary on standard output\n"
		"  -h, --help               --version\n\n"
		"mksquashfs spellings are accepted too: -comp -b -noappend -all-root\n"
		"-force-uid -force-gid -no-xattrs -no-fragments -always-use-fragments\n"
		"-no-duplicates -no-exports -no-sparse -processors -mkfs-time -all-time\n"
		"-e PATTERN... -ef -pf -p -sort -quiet -no-progress -Xname VALUE -Xhc.\n\n"
		"Codec options (-X):\n");
	for (size_t i = 0; names[i]; i++) {
		const char *h = ff_comp_option_help(names[i]);

		fprintf(out, "  %-5s ", names[i]);
		for (; h && *h; h++)
			fputs(*h != '\n' ? (char[]){ *h, 0 } : h[1] ? "\n        " : "", out);
		fputc('\n', out);
	}
	fprintf(out, "\nExit status: 0 image written, 1 the image could not be built,\n"
		     "2 usage error.\n");
}

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	return -1;
}

static int push(struct list *l, const char *v)
{
	if (l->n == MAX_LIST)
		return usage_error("too many list options (max %s)%s", "4096", "");
	l->v[l->n++] = v;
	return 0;
}

static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_block_size(const char *opt, const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!errno && (*end == 'K' || *end == 'k') && end[1] == '\0')
		v *= 1024;
	else if (!errno && (*end == 'M' || *end == 'm') && end[1] == '\0')
		v *= 1024 * 1024;
	else if (*end)
		v = 0;
	if (errno || *s == '-' || v < 4096 || v > 1048576 || (v & (v - 1)))
		return usage_error("%s: '%s' is not a power of two between 4K and 1M", opt, s);
	*out = (uint32_t)v;
	return 0;
}

static int parse_time(const char *opt, const char *s, int64_t *out)
{
	uint64_t v;

	if (parse_u64(s, UINT32_MAX, &v) < 0)
		return usage_error("%s: '%s' is not a time in seconds since 1970 (0..4294967295)",
				   opt, s);
	*out = (int64_t)v;
	return 0;
}

static int parse_owner(const char *opt, const char *s, int is_group, int64_t *out)
{
	uint64_t v;

	if (parse_u64(s, UINT32_MAX, &v) == 0) {
		*out = (int64_t)v;
		return 0;
	}
	if (!is_group && getpwnam(s)) {
		*out = getpwnam(s)->pw_uid;
		return 0;
	}
	if (is_group && getgrnam(s)) {
		*out = getgrnam(s)->gr_gid;
		return 0;
	}
	return usage_error("%s: '%s' is not a number or a known name", opt, s);
}

static int parse_jobs(const char *opt, const char *s, unsigned *out)
{
	uint64_t v;

	if (parse_u64(s, 1024, &v) < 0 || v == 0)
		return usage_error("%s: '%s' is not a thread count (1..1024)", opt, s);
	*out = (unsigned)v;
	return 0;
}

static int handle_list_opt(struct args *a, int c, const char *arg)
{
	switch (c) {
	case 'X': return push(&a->comp_opts, arg);
	case 'e': return push(&a->excludes, arg);
	case O_EXCLUDE_FILE: return push(&a->exclude_files, arg);
	case O_SPEC: return push(&a->specs, arg);
	case O_PSEUDO_FILE: return push(&a->pseudo_files, arg);
	case O_PSEUDO: return push(&a->pseudo_lines, arg);
	default: return 1;
	}
}

static int handle_value_opt(struct args *a, int c, const char *opt, const char *arg)
{
	switch (c) {
	case 'c': a->comp_name = arg; return 0;
	case 'b': return parse_block_size(opt, arg, &a->block_size);
	case 'j': return parse_jobs(opt, arg, &a->jobs);
	case O_FORCE_UID: return parse_owner(opt, arg, 0, &a->force_uid);
	case O_FORCE_GID: return parse_owner(opt, arg, 1, &a->force_gid);
	case O_MTIME:
		if (parse_time(opt, arg, &a->mkfs_time) < 0)
			return -1;
		a->clamp_time = a->mkfs_time;
		return 0;
	case O_MKFS_TIME: return parse_time(opt, arg, &a->mkfs_time);
	case O_ALL_TIME: return parse_time(opt, arg, &a->all_time);
	case O_SORT: a->sort_file = arg; return 0;
	default: return handle_list_opt(a, c, arg);
	}
}

static int handle_flag(struct args *a, int c)
{
	switch (c) {
	case O_ALL_ROOT: a->all_root = 1; break;
	case O_NO_XATTRS: a->no_xattrs = 1; break;
	case O_NO_FRAGMENTS: a->no_fragments = 1; break;
	case O_ALWAYS_FRAGMENTS: a->always_fragments = 1; break;
	case O_NO_DEDUP: a->no_dedup = 1; break;
	case O_NO_EXPORTS: a->no_exports = 1; break;
	case O_NO_SPARSE: a->no_sparse = 1; break;
	case O_ONE_FS: a->one_fs = 1; break;
	case O_IGNORE_ERRORS: a->ignore_errors = 1; break;
	case 'q': a->quiet = 1; a->progress = 0; break;
	case O_PROGRESS: a->progress = 2; break;
	case O_NO_PROGRESS: a->progress = 0; break;
	case O_JSON: a->json = 1; break;
	case O_NOAPPEND: break;
	default: return 1;
	}
	return 0;
}

/* -Xname VALUE / -Xhc / -Xname=VALUE (mksquashfs) become --comp-opt=... */
static char *translate_x(char **argv, int *i, int argc)
{
	const char *name = argv[*i] + 2;
	char *out;
	int r;

	if (strchr(name, '=') || !strcmp(name, "hc") || *i + 1 >= argc) {
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

/* Rewrites mksquashfs spellings into long options.  After SOURCE and IMAGE
 * (mksquashfs order) "-e" takes every following word that is not an option,
 * as mksquashfs does; before them it takes one pattern, like --exclude. */
static char **translate(struct args *a, int argc, char **argv, int *new_argc)
{
	char **out = calloc((size_t)argc * 2 + 1, sizeof(*out));
	int n = 0;

	if (!out)
		return NULL;
	out[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		size_t k;

		for (k = 0; k < sizeof(drop_in) / sizeof(drop_in[0]); k++)
			if (!strcmp(arg, drop_in[k][0]))
				break;
		if (k < sizeof(drop_in) / sizeof(drop_in[0])) {
			if (drop_in[k][1])
				out[n++] = (char *)drop_in[k][1];
		} else if (!strcmp(arg, "-e") && count_positionals(out, n) >= 2) {
			while (i + 1 < argc && argv[i + 1][0] != '-') {
				out[n++] = "--exclude";
				out[n++] = argv[++i];
			}
		} else if (!strncmp(arg, "-X", 2) && arg[2]) {
			out[n++] = translate_x(argv, &i, argc);
			if (!out[n - 1] || push(&a->owned, out[n - 1]) < 0) {
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
	struct list owned = a->owned;

	memset(a, 0, sizeof(*a));
	a->owned = owned;
	a->comp_name = "gzip";
	a->block_size = 128 * 1024;
	a->mkfs_time = a->clamp_time = a->all_time = -1;
	a->force_uid = a->force_gid = -1;
	a->progress = 1; /* on when stderr is a terminal */
}

static int source_date_epoch(struct args *a)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");

	if (!s || a->mkfs_time >= 0)
		return 0;
	if (parse_time("SOURCE_DATE_EPOCH", s, &a->mkfs_time) < 0)
		return -1;
	a->clamp_time = a->mkfs_time;
	return 0;
}

static int positional(struct args *a, int argc, char **argv, int first)
{
	int n = argc - first;
	int have_defs = a->specs.n || a->pseudo_files.n || a->pseudo_lines.n;

	if (n == 2) {
		a->source = argv[first];
		a->image = argv[first + 1];
	} else if (n == 1 && have_defs) {
		a->image = argv[first];
	} else {
		return usage_error("expected SOURCE and IMAGE%s%s",
				   n > 2 ? " (got more; put -e patterns last)" : "",
				   n == 1 ? " (only --spec/--pseudo builds without SOURCE)" : "");
	}
	return 0;
}

/* Returns 0 to go on, 1 after --help/--version, -1 on a usage error. */
static int parse_args(struct args *a, int argc, char **argv)
{
	int c, idx = -1;

	defaults(a);
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:X:b:j:e:qhV", long_opts, &idx)) != -1) {
		char opt[64];
		int r;

		if (idx >= 0)
			snprintf(opt, sizeof(opt), "--%s", long_opts[idx].name);
		else
			snprintf(opt, sizeof(opt), "-%c", c);
		idx = -1;

		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == O_VERSION || c == 'V') {
			printf(PROG " (flashfs-tools) 0.1\n");
			return 1;
		}
		if (c == '?')
			return usage_error("bad option%s%s", "", "");
		r = optarg ? handle_value_opt(a, c, opt, optarg) : handle_flag(a, c);
		if (r)
			return -1;
	}
	if (a->always_fragments && a->no_fragments)
		return usage_error("%s and %s contradict each other", "--always-fragments",
				   "--no-fragments");
	if (source_date_epoch(a) < 0)
		return -1;
	return positional(a, argc, argv, optind);
}

static struct ff_comp *make_comp(const struct args *a)
{
	struct ff_err err = {0};
	struct ff_comp *comp = ff_comp_new(a->comp_name, a->block_size, &err);

	if (!comp) {
		usage_error("--compressor: %s%s", err.msg, "");
		return NULL;
	}
	for (size_t i = 0; i < a->comp_opts.n; i++)
		if (ff_comp_set_option_str(comp, a->comp_opts.v[i], &err) < 0) {
			usage_error("--comp-opt '%s': %s", a->comp_opts.v[i], err.msg);
			ff_comp_free(comp);
			return NULL;
		}
	return comp;
}

static void warn_cb(void *ctx, const char *msg)
{
	const struct args *a = ctx;

	if (!a->quiet)
		fprintf(stderr, PROG ": warning: %s\n", msg);
}

/* Reads --exclude-file patterns into the exclude list (lines kept for the
 * life of the process). */
static int load_exclude_files(struct args *a)
{
	for (size_t i = 0; i < a->exclude_files.n; i++) {
		FILE *f = fopen(a->exclude_files.v[i], "r");
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;

		if (!f) {
			fprintf(stderr, PROG ": %s: %s\n", a->exclude_files.v[i], strerror(errno));
			return -1;
		}
		while ((len = getline(&line, &cap, f)) > 0) {
			line[strcspn(line, "\r\n")] = '\0';
			if (*line && *line != '#') {
				char *copy = strdup(line);

				if (!copy || push(&a->owned, copy) < 0 || push(&a->excludes, copy) < 0)
					break;
			}
		}
		free(line);
		fclose(f);
	}
	return 0;
}

/* An image inside the source directory would be read into itself. */
static int check_image_location(const struct args *a)
{
	char src[PATH_MAX], dir[PATH_MAX], *slash, img[PATH_MAX];
	struct stat st;
	size_t n;

	if (!a->source || strcmp(a->source, "-") == 0 || !realpath(a->source, src))
		return 0;
	snprintf(img, sizeof(img), "%s", a->image);
	slash = strrchr(img, '/');
	if (slash)
		*slash = '\0';
	if (!realpath(slash ? (*img ? img : "/") : ".", dir))
		return 0;
	n = strlen(src);
	if (stat(src, &st) == 0 && S_ISDIR(st.st_mode) &&
	    (!strcmp(dir, src) || (!strncmp(dir, src, n) && (dir[n] == '/' || n == 1)))) {
		fprintf(stderr, PROG ": %s: the image would be inside SOURCE %s; refusing\n",
			a->image, a->source);
		return -1;
	}
	if (stat(src, &st) == 0 && !S_ISDIR(st.st_mode) && realpath(a->image, img) &&
	    !strcmp(img, src)) {
		fprintf(stderr, PROG ": %s: IMAGE and SOURCE are the same file\n", a->image);
		return -1;
	}
	return 0;
}

static int add_source(struct ff_tree *tree, const struct args *a, struct ff_err *err)
{
	struct stat st;

	if (!a->source)
		return 0;
	if (strcmp(a->source, "-") == 0)
		return ff_tree_add_tar(tree, "-", err);
	if (stat(a->source, &st) < 0)
		return ff_err_sys(err, errno, "%s: cannot read SOURCE", a->source);
	if (S_ISDIR(st.st_mode))
		return ff_tree_add_dir(tree, a->source, err);
	return ff_tree_add_tar(tree, a->source, err);
}

static int add_definitions(struct ff_tree *tree, const struct args *a, struct ff_err *err)
{
	for (size_t i = 0; i < a->specs.n; i++)
		if (ff_tree_add_spec(tree, a->specs.v[i], err) < 0)
			return -1;
	for (size_t i = 0; i < a->pseudo_files.n; i++)
		if (ff_tree_add_pseudo_file(tree, a->pseudo_files.v[i], err) < 0)
			return -1;
	for (size_t i = 0; i < a->pseudo_lines.n; i++)
		if (ff_tree_add_pseudo_line(tree, a->pseudo_lines.v[i], err) < 0)
			return -1;
	if (a->sort_file && ff_tree_load_sort(tree, a->sort_file, err) < 0)
		return -1;
	return 0;
}

static struct ff_tree *build_tree(struct args *a, struct ff_err *err)
{
	struct ff_tree_opts to = {
		.all_root = a->all_root, .force_uid = a->force_uid, .force_gid = a->force_gid,
		.all_time = a->all_time, .clamp_time = a->clamp_time, .no_xattrs = a->no_xattrs,
		.one_file_system = a->one_fs, .ignore_errors = a->ignore_errors,
		.excludes = a->excludes.v, .n_excludes = a->excludes.n,
		.warn = warn_cb, .warn_ctx = a,
	};
	struct ff_tree *tree = ff_tree_new(&to, err);

	if (!tree)
		return NULL;
	if (add_source(tree, a, err) < 0 || add_definitions(tree, a, err) < 0 ||
	    ff_tree_finish(tree, err) < 0) {
		ff_tree_free(tree);
		return NULL;
	}
	return tree;
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

static void run_warn(void *ctx, const char *msg)
{
	warn_cb(((struct run *)ctx)->a, msg);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_summary(const struct args *a, const struct ff_comp *comp,
			  const struct ff_sqfs_write_stats *s, double secs)
{
	double ratio = s->data_in ? (double)s->bytes_used / (double)s->data_in : 0.0;

	if (a->json) {
		printf("{\"image\":");
		json_string(a->image);
		printf(",\"compressor\":\"%s\",\"block_size\":%u,"
		       "\"bytes_used\":%" PRIu64 ",\"image_size\":%" PRIu64 ",\"data_in\":%" PRIu64
		       ",\"data_out\":%" PRIu64 ",\"ratio\":%.4f,\"inodes\":%" PRIu64
		       ",\"files\":%" PRIu64 ",\"dirs\":%" PRIu64 ",\"symlinks\":%" PRIu64
		       ",\"special\":%" PRIu64 ",\"hardlinks\":%" PRIu64 ",\"fragments\":%" PRIu64
		       ",\"duplicates\":%" PRIu64 ",\"sparse_blocks\":%" PRIu64 ",\"ids\":%u"
		       ",\"xattr_ids\":%u,\"seconds\":%.3f}\n",
		       ff_comp_name(comp), a->block_size, s->bytes_used, s->image_size,
		       s->data_in, s->data_out, ratio, s->inode_count, s->n_files, s->n_dirs,
		       s->n_symlinks, s->n_special, s->n_hardlinks, s->n_fragment_blocks,
		       s->n_dup_files, s->n_sparse_blocks, s->n_ids, s->n_xattr_ids, secs);
		return;
	}
	if (a->quiet)
		return;
	printf("%s: %s, %u-byte blocks, %" PRIu64 " bytes (%.1f%% of %" PRIu64 " data bytes)\n"
	       "  %" PRIu64 " inodes: %" PRIu64 " files, %" PRIu64 " dirs, %" PRIu64
	       " symlinks, %" PRIu64 " special; %" PRIu64 " duplicates, %" PRIu64
	       " fragment blocks, %u ids, %u xattr sets; %.2f s\n",
	       a->image, ff_comp_name(comp), a->block_size, s->bytes_used, ratio * 100.0,
	       s->data_in, s->inode_count, s->n_files, s->n_dirs, s->n_symlinks, s->n_special,
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
		.no_exports = a->no_exports, .no_sparse = a->no_sparse, .no_xattrs = a->no_xattrs,
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
		return 1;
	}
	print_summary(a, comp, &st, now() - t0);
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

static int run(struct args *a)
{
	struct ff_err err = {0};
	struct ff_comp *comp = make_comp(a);
	struct ff_tree *tree;
	int ret;

	if (!comp)
		return 2;
	if (ff_comp_kernel_unsupported(comp))
		warn_cb(a, "the Linux kernel cannot mount images compressed with this codec "
			   "(unsquashfs and flashfs can read them)");
	if (check_image_location(a) < 0 || load_exclude_files(a) < 0) {
		ff_comp_free(comp);
		return 2;
	}
	tree = build_tree(a, &err);
	if (!tree) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		ff_comp_free(comp);
		return 1;
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
	for (size_t i = 0; i < a.owned.n; i++)
		free((char *)a.owned.v[i]);
	free(args);
	return r;
}
