/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs check [--json] IMAGE */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "flashfs/cli.h"
#include "flashfs/commands.h"

#define CHECK_SCHEMA "flashfs-check/1" /* docs/schemas/check.schema.json */

struct out {
	const char *image;
	int json;
	struct ff_json j;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs check [OPTIONS] IMAGE\n\n"
		   "Walk every inode, directory, block and table and report problems.\n\n"
		   "  -q, --quiet      print nothing when the image is clean\n"
		   "  --json           print one JSON object: the problems as records and a\n"
		   "                   verdict (schema " CHECK_SCHEMA ")\n" FF_CLI_HELP
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 clean, 1 problems found, 2 usage error or unreadable image.\n");
}

/* The decimal numbers in s, in order ("inode 12: size 40 > 32" -> 12 40 32). */
static void numbers(struct ff_json *j, const char *s)
{
	ff_json_begin_array(j);
	for (const char *p = s; *p; p++) {
		if (!isdigit((unsigned char)*p) || (p > s && isalnum((unsigned char)p[-1])))
			continue;
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			ff_json_uint(j, strtoull(p, (char **)&p, 16));
		} else {
			ff_json_uint(j, strtoull(p, (char **)&p, 10));
		}
		p--;
	}
	ff_json_end_array(j);
}

/* "inode 12: size 40 > 32": where "inode 12", what the rest. */
static void record(struct ff_json *j, const char *msg)
{
	const char *colon = strstr(msg, ": ");
	char where[256];

	ff_json_begin_object(j);
	ff_json_key(j, "where");
	if (colon && (size_t)(colon - msg) < sizeof(where)) {
		snprintf(where, sizeof(where), "%.*s", (int)(colon - msg), msg);
		ff_json_str(j, where);
		msg = colon + 2;
	} else {
		ff_json_null(j);
	}
	ff_json_kv_str(j, "what", msg);
	ff_json_key(j, "numbers");
	numbers(j, msg);
	ff_json_end_object(j);
}

static void report(void *ctx, const char *what)
{
	struct out *o = ctx;

	if (o->json)
		record(&o->j, what);
	else
		fprintf(stderr, "flashfs: %s: %s\n", o->image, what);
}

static void json_begin(struct out *o, const char *format)
{
	ff_json_init(&o->j, stdout, 0);
	ff_json_begin_object(&o->j);
	ff_json_kv_str(&o->j, "schema", CHECK_SCHEMA);
	ff_json_kv_str(&o->j, "image", o->image);
	ff_json_key(&o->j, "format");
	if (format)
		ff_json_str(&o->j, format);
	else
		ff_json_null(&o->j);
	ff_json_key(&o->j, "problems");
	ff_json_begin_array(&o->j);
}

/* n: problems found, or -errno when the image could not be read (error:
 * why, or NULL for strerror). */
static void json_end(struct out *o, long n, const char *error)
{
	ff_json_end_array(&o->j);
	ff_json_kv_uint(&o->j, "problem_count", n > 0 ? (uint64_t)n : 0);
	ff_json_kv_str(&o->j, "verdict", n < 0 ? "unreadable" : n ? "damaged" : "clean");
	ff_json_key(&o->j, "error");
	if (n < 0)
		ff_json_str(&o->j, error ? error : strerror((int)-n));
	else
		ff_json_null(&o->j);
	ff_json_end_object(&o->j);
	ff_json_finish(&o->j);
}

static int verdict(const struct out *o, long n, int quiet)
{
	if (o->json)
		return n < 0 ? 2 : n > 0;
	if (n < 0) {
		fprintf(stderr, "flashfs check: %s: %s\n", o->image, strerror((int)-n));
		return 2;
	}
	if (n > 0) {
		fprintf(stderr, "flashfs check: %s: %ld problem%s found\n", o->image, n,
			n == 1 ? "" : "s");
		return 1;
	}
	if (!quiet)
		printf("%s: clean\n", o->image);
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},
		{"json", no_argument, NULL, 'j'}, FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	struct ff_open_opts oo = {0};
	struct out o = {0};
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
		if (c == 'q' || c == 'j') {
			quiet |= c == 'q';
			o.json |= c == 'j';
			continue;
		}
		usage(c == 'h' ? stdout : stderr);
		return c == 'h' ? 0 : 2;
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	o.image = argv[optind];
	oo.keep_container = 1;
	if (ff_cli_open("check", o.image, &oo, &fs) < 0) {
		if (o.json) {
			json_begin(&o, NULL);
			json_end(&o, -EIO, "cannot open the image (the reason is on stderr)");
		}
		return 2;
	}
	if (o.json)
		json_begin(&o, fs->ops->format);
	n = fs->ops->check(fs, report, &o);
	ff_fs_close(fs);
	if (o.json)
		json_end(&o, n, NULL);
	return verdict(&o, n, quiet);
}

const struct ff_command ff_command_check = {"check", cmd_check,
	"verify every structure and block"};
