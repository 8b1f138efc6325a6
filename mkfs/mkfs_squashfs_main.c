/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.squashfs: build a SquashFS 4.0 image from a directory, a tar archive
 * and/or spec files.  This file only reports: squashfs_args.c parses the
 * options (GNU long options and mksquashfs' spellings), squashfs_build.c
 * runs tree/ and the squashfs/ writer. */
#include <flashfs/version.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/info.h"
#include "common/json.h"
#include "common/malloc_tune.h"
#include "common/progress.h"
#include "compress/compress.h"
#include "tree/tree.h"
#include "mkfs/mksquashfs_words.h"
#include "mkfs/squashfs_args.h"
#include "mkfs/squashfs_build.h"

#define PROG "mkfs.squashfs"

/* The temporary image, for the signal handler (process state: main only). */
static const char *volatile tmp_slot;

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

/* One line for each mksquashfs option that changes nothing here. */
static void print_notes(const struct ff_sqfs_args *a)
{
	for (size_t i = 0; !a->quiet && i + 1 < a->notes.n; i += 2)
		fprintf(stderr, PROG ": note: %s: %s\n", a->notes.v[i], a->notes.v[i + 1]);
}

/* What one run reports: the bar, the time, the entries left out. */
struct run {
	struct ff_sqfs_args *a;
	struct ff_progress *bar;
	uint64_t bytes, files;
	unsigned skipped;	/* source entries --ignore-errors left out */
	double t0;
};

/* Source and writer warnings, on a line of their own (not at the end of
 * the bar).  The entries --ignore-errors leaves out are counted: the count
 * decides the exit status (mkfs_squashfs_errors.t). */
static void warn_cb(void *ctx, const struct ff_warning *w)
{
	struct run *r = ctx;
	char text[1536], line[1600];

	if (w->kind == FF_WARN_SKIPPED)
		r->skipped++;
	if (r->a->quiet)
		return;
	snprintf(line, sizeof(line), PROG ": warning: %s\n",
		 ff_warning_text(w, text, sizeof(text)));
	ff_progress_message(r->bar, stderr, line);
}

/* --log-action, --true-action, --false-action lines. */
static void log_cb(void *ctx, const char *msg)
{
	(void)ctx;
	printf("action: %s\n", msg);
}

/* mksquashfs' own line, so that a second run of the same command says it
 * added to the first image rather than replacing it. */
static void appending_cb(void *ctx, const struct ff_fs *old, uint32_t block_size)
{
	const struct run *r = ctx;

	(void)old;
	if (r->a->quiet || r->a->json)
		return;
	printf("Appending to existing 4.0 filesystem on %s, block size %" PRIu32 "\n",
	       r->a->image, block_size);
	fflush(stdout);
}

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

static void print_json(const struct run *r, const struct ff_comp *comp,
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
		{"ids", s->n_ids}, {"xattr_ids", s->n_xattr_ids}, {"skipped", r->skipped},
	};
	struct ff_json j;

	ff_json_init(&j, stdout, 0);
	ff_json_begin_object(&j);
	ff_json_kv_str(&j, "schema", "mkfs.squashfs/1"); /* docs/schemas/mkfs.squashfs.schema.json */
	ff_json_kv_str(&j, "image", r->a->image);
	ff_json_kv_str(&j, "compressor", ff_comp_name(comp));
	ff_json_key(&j, "compressor_options");
	ff_json_begin_object(&j);
	ff_comp_options(comp, 0, ff_info_json, &j);
	ff_json_end_object(&j);
	ff_json_kv_uint(&j, "block_size", r->a->block_size);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		ff_json_kv_uint(&j, counts[i].key, counts[i].v);
	ff_json_kv_real(&j, "ratio", ratio, 4);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		ff_json_kv_uint(&j, more[i].key, more[i].v);
	ff_json_kv_bool(&j, "appended", r->a->appending);
	if (r->a->appending) {
		ff_json_kv_uint(&j, "appended_entries", r->a->appended);
		ff_json_kv_uint(&j, "old_entries", r->a->old_entries);
	}
	ff_json_kv_real(&j, "seconds", secs, 3);
	ff_json_end_object(&j);
	ff_json_finish(&j);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The hook after the image is written: the bar's end and the summary. */
static void print_summary(void *ctx, const struct ff_comp *comp,
			  const struct ff_sqfs_write_stats *s)
{
	const struct run *r = ctx;
	const struct ff_sqfs_args *a = r->a;
	double secs = now() - r->t0;
	double ratio = s->data_in ? (double)s->bytes_used / (double)s->data_in : 0.0;
	char data[96];

	if (r->bar)
		ff_progress_finish(r->bar);
	if (a->json) {
		print_json(r, comp, s, ratio, secs);
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
	if (a->appending)
		printf("  appended %" PRIu64 " entries to the %" PRIu64
		       " of the existing image (--noappend replaces it)\n",
		       a->appended, a->old_entries);
}

/* -info / -info-file: every entry of the finished tree, one a line. */
static int print_info(const struct ff_sqfs_args *a, const struct ff_tree *tree)
{
	FILE *f = a->info_file ? fopen(a->info_file, "w") : stdout;

	if (!f) {
		fprintf(stderr, PROG ": %s: cannot write the -info file: %s\n", a->info_file,
			strerror(errno));
		return 2;
	}
	ff_sqfs_info_write(tree, f);
	if (f != stdout && fclose(f)) {
		fprintf(stderr, PROG ": %s: cannot write the -info file\n", a->info_file);
		return 2;
	}
	return 0;
}

/* The hook between the tree and the image: -info, then the bar. */
static int tree_ready(void *ctx, const struct ff_tree *tree)
{
	struct run *r = ctx;
	const struct ff_sqfs_args *a = r->a;
	int ret = a->info ? print_info(a, tree) : 0;

	if (ret)
		return ret;
	r->t0 = now();
	if (a->progress == 2 || (a->progress == 1 && isatty(2)))
		r->bar = ff_progress_new(2, "files", a->progress == 2);
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

static int fail(int r, const struct ff_err *err)
{
	fprintf(stderr, PROG ": %s\n", err->msg);
	if (r == FF_SQFS_ARGS_USAGE)
		fputs("Try '" PROG " --help' for more information.\n", stderr);
	return 2;
}

static int run(struct ff_sqfs_args *a)
{
	struct run r = { .a = a };
	struct ff_sqfs_build_hooks h = {
		.warn = warn_cb, .log = log_cb, .tree = tree_ready, .progress = progress_cb,
		.appending = appending_cb,
		.written = print_summary, .ctx = &r, .tmp_path_slot = &tmp_slot,
	};
	struct ff_err err = {0};
	int ret = ff_sqfs_args_build(a, &h, &err);

	ff_progress_free(r.bar);
	if (ret < 0)
		return fail(ret, &err);
	if (ret > 0 || !r.skipped)
		return ret;
	fflush(stdout); /* the count is the last line, also when both go to one file */
	fprintf(stderr, PROG ": %s written, but %u unreadable source entr%s skipped "
		"(--ignore-errors)\n", a->image, r.skipped, r.skipped == 1 ? "y was" : "ies were");
	return 1;
}

int main(int argc, char **argv)
{
	static struct ff_sqfs_args a;
	struct ff_err err = {0};
	int r;

	ff_malloc_tune_for_trees();
	ff_sqfs_args_init(&a);
	r = ff_sqfs_args_parse(&a, argc, argv, &err);
	if (r == 0)
		r = ff_sqfs_args_finish(&a, getenv("SOURCE_DATE_EPOCH"), &err);
	if (r == FF_SQFS_ARGS_HELP)
		usage(stdout);
	else if (r == FF_SQFS_ARGS_VERSION)
		printf(PROG " (flashfs-tools) " FF_VERSION_STRING "\n");
	if (r < 0) {
		r = fail(r, &err);
	} else if (r > 0) {
		r = 0;
	} else {
		print_notes(&a);
		install_signals();
		r = run(&a);
	}
	ff_sqfs_args_free(&a);
	return r;
}
