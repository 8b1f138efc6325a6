/* flashfs extract [-C DIR] [-j N] [--force] IMAGE [PATH...] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flashfs/cli.h"
#include "flashfs/commands.h"
#include "flashfs/extract.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs extract [-C DIR] [-j N] [--force] [OPTIONS] IMAGE [PATH...]\n\n"
		   "Unpack the image (or the given paths in it) into DIR.  As root, owners,\n"
		   "device nodes, sockets and all xattrs are restored too; otherwise a warning\n"
		   "is printed once for each kind of metadata that had to be skipped.\n"
		   "Entries named '.', '..' or containing '/', duplicate names, and anything\n"
		   "that would be written through a symlink are refused.  Names equal when\n"
		   "case is ignored are warned about where the target may ignore case (vfat,\n"
		   "exFAT, NTFS, SMB, casefold directories, FUSE), and there the second is an\n"
		   "error and never replaces the first, even with --force.\n\n"
		   "  -C, --directory DIR  target directory (default: squashfs-root)\n"
		   "  -j, --jobs N         decompress with N threads (default: all CPUs)\n"
		   "  -f, --force          replace existing files (never directories)\n"
		   "  --progress           progress lines even when stderr is not a terminal\n"
		   "  --no-progress        no progress bar on a terminal\n"
		   "  --warn-case          warn about names equal when case is ignored on any\n"
		   "                       target\n" FF_CLI_HELP
		   "  -h, --help           this text\n\n"
		   "Exit status: 0 ok, 1 some entries refused or failed, 2 usage error or\n"
		   "unreadable image.\n");
}

static void report_damage(void *ctx, const char *what)
{
	fprintf(stderr, "flashfs extract: %s: %s\n", (const char *)ctx, what);
}

/* Damage the open already found (a YAFFS2 image cut short) fails the
 * extraction even when every entry present was written. */
static int damage(struct ff_fs *fs, const char *image)
{
	long n;

	if (!fs->ops->open_problems)
		return 0;
	n = fs->ops->open_problems(fs, report_damage, (void *)image);
	if (n > 0)
		fprintf(stderr, "flashfs extract: %s: damaged image (%ld problem%s above;"
			" `flashfs check` lists them): the extraction is incomplete\n", image, n,
			n == 1 ? "" : "s");
	return n > 0;
}

/* The library reports; only this prints. */
static void on_warning(void *ctx, const struct ff_warning *w)
{
	const char *image = ctx;

	switch (w->kind) {
	case FF_WARN_NOT_PERMITTED:
		fprintf(stderr, "flashfs extract: warning: %s (not root?); skipped where needed\n",
			w->msg);
		break;
	case FF_WARN_CASE_COLLISION:
		fprintf(stderr, "flashfs extract: warning: %s: %s: %s\n", image,
			w->path ? w->path : "/", w->msg);
		break;
	default:
		fprintf(stderr, "flashfs extract: %s: %s: %s\n", image, w->path ? w->path : "/",
			w->msg);
		break;
	}
}

static int cmd_extract(int argc, char **argv)
{
	static const struct option opts[] = {
		{"directory", required_argument, NULL, 'C'}, {"jobs", required_argument, NULL, 'j'},
		{"force", no_argument, NULL, 'f'}, {"no-progress", no_argument, NULL, 'P'},
		{"progress", no_argument, NULL, 'p'}, {"warn-case", no_argument, NULL, 'W'},
		{"help", no_argument, NULL, 'h'}, FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	struct ff_extract_opts eo = {.dir = "squashfs-root", .progress = 1, .umask_cleared = 1};
	/* Whole data blocks are decoded straight into the workers' buffers, so
	 * the cache only holds fragments and metadata; a smaller budget than
	 * the readers' 64 MiB keeps the heap, and its first-touch page faults,
	 * small. */
	struct ff_open_opts oo = { .cache_bytes = 16u << 20};
	struct ff_fs *fs;
	struct ff_err err = {0};
	int c, rc;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	eo.jobs = cpus > 0 ? (int)cpus : 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "C:j:fh", opts, NULL)) != -1) {
		int r = ff_cli_option("extract", c, optarg, &oo);
		char *end;

		if (r < 0)
			return 2;
		if (r)
			continue;
		switch (c) {
		case 'C': eo.dir = optarg; break;
		case 'f': eo.force = 1; break;
		case 'P': eo.progress = 0; break;
		case 'p': eo.progress = 2; break;
		case 'W': eo.warn_case = 1; break;
		case 'j':
			eo.jobs = (int)strtol(optarg, &end, 10);
			if (*end || eo.jobs < 1 || eo.jobs > 1024) {
				fprintf(stderr, "flashfs extract: bad job count '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	eo.image = argv[optind];
	if (ff_cli_open("extract", eo.image, &oo, &fs) < 0)
		return 2;
	umask(0); /* modes are restored exactly, not filtered */
	eo.warn = on_warning;
	eo.warn_ctx = (void *)eo.image;
	rc = ff_extract(fs, &eo, argv + optind + 1, argc - optind - 1, &err);
	if (rc == 2)
		fprintf(stderr, "flashfs extract: %s\n", err.msg);
	if (rc < 2 && damage(fs, eo.image))
		rc = 1;
	ff_fs_close(fs);
	return rc;
}

const struct ff_command ff_command_extract = {"extract", cmd_extract,
	"unpack an image into a directory"};
