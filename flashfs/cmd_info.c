/* flashfs info [--json] IMAGE */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "flashfs/cli.h"
#include "flashfs/commands.h"

struct out {
	int json;
	struct ff_json j;
	int have_format; /* a format's own info may repeat the "format" key */
};

static void put(void *ctx, const char *key, const char *value, int is_number)
{
	struct out *o = ctx;

	if (!strcmp(key, "format") && o->have_format++)
		return;
	if (!o->json) {
		printf("%-20s %s\n", key, value);
		return;
	}
	ff_json_key(&o->j, key);
	if (is_number)
		ff_json_number_text(&o->j, value);
	else
		ff_json_str(&o->j, value);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs info [--json] [OPTIONS] IMAGE\n\n"
		   "Show the format, compressor and options, block size, sizes and counts.\n\n"
		   "  --json           print one JSON object\n" FF_CLI_HELP
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 ok, 2 usage error or unreadable image.\n");
}

static int cmd_info(int argc, char **argv)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'},
		FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	struct ff_open_opts oo = {0};
	struct out o = {0};
	struct ff_statfs sf;
	struct ff_fs *fs;
	char num[32];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int r = ff_cli_option("info", c, optarg, &oo);

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (c == 'j') {
			o.json = 1;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	if (ff_cli_open("info", argv[optind], &oo, &fs) < 0)
		return 2;
	ff_json_init(&o.j, stdout, 1);
	if (o.json)
		ff_json_begin_object(&o.j);
	put(&o, "format", fs->ops->format, 0);
	if (fs->ops->statfs(fs, &sf) == 0) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)sf.total_bytes);
		put(&o, "image_size", num, 1);
	}
	fs->ops->info(fs, put, &o);
	if (o.json) {
		ff_json_end_object(&o.j);
		ff_json_finish(&o.j);
	}
	ff_fs_close(fs);
	return 0;
}

const struct ff_command ff_command_info = {"info", cmd_info,
	"show format, compressor, sizes and counts"};
