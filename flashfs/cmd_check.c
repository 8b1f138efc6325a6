/* flashfs check IMAGE */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "flashfs/cli.h"
#include "flashfs/commands.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs check [OPTIONS] IMAGE\n\n"
		   "Walk every inode, directory, block and table and report problems.\n\n"
		   "  -q, --quiet      print nothing when the image is clean\n" FF_CLI_HELP
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 clean, 1 problems found, 2 usage error or unreadable image.\n");
}

static void report(void *ctx, const char *what)
{
	fprintf(stderr, "flashfs: %s: %s\n", (const char *)ctx, what);
}

static int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},
		FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	struct ff_open_opts oo = {0};
	struct ff_fs *fs;
	int c, quiet = 0;
	long n;

	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		int r = ff_cli_option("check", c, optarg, &oo);

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (c == 'q') {
			quiet = 1;
			continue;
		}
		usage(c == 'h' ? stdout : stderr);
		return c == 'h' ? 0 : 2;
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	if (ff_cli_open("check", argv[optind], &oo, &fs) < 0)
		return 2;
	n = fs->ops->check(fs, report, argv[optind]);
	ff_fs_close(fs);
	if (n < 0) {
		fprintf(stderr, "flashfs check: %s: %s\n", argv[optind], strerror((int)-n));
		return 2;
	}
	if (n > 0) {
		fprintf(stderr, "flashfs check: %s: %ld problem%s found\n", argv[optind], n,
			n == 1 ? "" : "s");
		return 1;
	}
	if (!quiet)
		printf("%s: clean\n", argv[optind]);
	return 0;
}

const struct ff_command ff_command_check = {"check", cmd_check,
	"verify every structure and block"};
