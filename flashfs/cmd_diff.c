/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs diff [-q] [--json] [--no-...] [OPTIONS] OLD NEW
 *
 * OLD and NEW are images of any format or host directories; diff/diff.c
 * compares them and this file words the records.  The report is built in
 * memory and printed only when the comparison finished, so a tree that
 * cannot be read leaves no partial output. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/json.h"
#include "flashfs/cli.h"
#include "flashfs/commands.h"
#include "diff/diff.h"

struct report {
	FILE *out;
	int json, quiet;
	struct ff_json j;
};

/* Text form of bytes: printable ASCII as it is, anything else as \xNN. */
static void put_bytes(FILE *f, const struct ff_diff_value *v)
{
	const unsigned char *p = v->bytes;
	size_t i;

	if (!v->present) {
		fputs("(none)", f);
		return;
	}
	fputc('"', f);
	for (i = 0; i < v->len; i++)
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
			fputc(p[i], f);
		else
			fprintf(f, "\\x%02x", p[i]);
	fputc('"', f);
}

static void put_time(FILE *f, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[40];

	if (gmtime_r(&tt, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		fputs(buf, f);
	else
		fprintf(f, "%lld", (long long)t);
}

static void put_value(FILE *f, enum ff_diff_attr a, const struct ff_diff_value *v)
{
	switch (a) {
	case FF_DIFF_TYPE: fputs(ff_diff_type_name((uint32_t)v->num), f); break;
	case FF_DIFF_MODE: fprintf(f, "%04llo", (unsigned long long)v->num); break;
	case FF_DIFF_MTIME: put_time(f, v->time); break;
	case FF_DIFF_RDEV: fprintf(f, "%u,%u", v->major, v->minor); break;
	case FF_DIFF_TARGET: case FF_DIFF_XATTR: case FF_DIFF_LINK: put_bytes(f, v); break;
	default: fprintf(f, "%llu", (unsigned long long)v->num); break;
	}
}

static void text_entry(FILE *f, const struct ff_diff_entry *e)
{
	size_t i;

	if (e->kind != FF_DIFF_CHANGED) {
		fprintf(f, "%s %s (%s)\n", e->kind == FF_DIFF_ADDED ? "added" : "removed", e->path,
			ff_diff_type_name(e->kind == FF_DIFF_ADDED ? e->to_mode : e->from_mode));
		return;
	}
	fprintf(f, "changed %s:", e->path);
	for (i = 0; i < e->n_changes; i++) {
		const struct ff_diff_change *c = &e->changes[i];

		fprintf(f, "%s %s", i ? ";" : "", ff_diff_attr_name(c->attr));
		if (c->attr == FF_DIFF_CONTENTS) {
			fprintf(f, " differ from byte %llu", (unsigned long long)c->offset);
			continue;
		}
		if (c->attr == FF_DIFF_XATTR)
			fprintf(f, " %s", c->name);
		fputc(' ', f);
		put_value(f, c->attr, &c->from);
		fputs(" -> ", f);
		put_value(f, c->attr, &c->to);
	}
	fputc('\n', f);
}

/* An xattr value in JSON: its bytes in lowercase hex, or null. */
static void json_hex(struct ff_json *j, const struct ff_diff_value *v)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *p = v->bytes;
	char *s;
	size_t i;

	if (!v->present || !(s = malloc(2 * v->len + 1))) {
		ff_json_null(j);
		return;
	}
	for (i = 0; i < v->len; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[2 * v->len] = '\0';
	ff_json_str(j, s);
	free(s);
}

static void json_value(struct ff_json *j, enum ff_diff_attr a, const struct ff_diff_value *v)
{
	switch (a) {
	case FF_DIFF_TYPE: ff_json_str(j, ff_diff_type_name((uint32_t)v->num)); break;
	case FF_DIFF_MTIME: ff_json_int(j, v->time); break;
	case FF_DIFF_RDEV:
		ff_json_begin_object(j);
		ff_json_kv_uint(j, "major", v->major);
		ff_json_kv_uint(j, "minor", v->minor);
		ff_json_end_object(j);
		break;
	case FF_DIFF_XATTR: json_hex(j, v); break;
	case FF_DIFF_TARGET: case FF_DIFF_LINK:
		if (v->present)
			ff_json_str(j, v->bytes);
		else
			ff_json_null(j);
		break;
	default: ff_json_uint(j, v->num); break;
	}
}

static void json_change(struct ff_json *j, const struct ff_diff_change *c)
{
	ff_json_begin_object(j);
	ff_json_kv_str(j, "attribute", ff_diff_attr_name(c->attr));
	if (c->attr == FF_DIFF_CONTENTS) {
		ff_json_kv_uint(j, "first_difference", c->offset);
	} else {
		if (c->attr == FF_DIFF_XATTR)
			ff_json_kv_str(j, "name", c->name);
		ff_json_key(j, "old");
		json_value(j, c->attr, &c->from);
		ff_json_key(j, "new");
		json_value(j, c->attr, &c->to);
	}
	ff_json_end_object(j);
}

static void json_entry(struct ff_json *j, const struct ff_diff_entry *e)
{
	static const char *const kinds[] = {"added", "removed", "changed"};
	size_t i;

	ff_json_begin_object(j);
	ff_json_kv_str(j, "path", e->path);
	ff_json_kv_str(j, "kind", kinds[e->kind]);
	if (e->kind != FF_DIFF_ADDED)
		ff_json_kv_str(j, "old_type", ff_diff_type_name(e->from_mode));
	if (e->kind != FF_DIFF_REMOVED)
		ff_json_kv_str(j, "new_type", ff_diff_type_name(e->to_mode));
	if (e->kind == FF_DIFF_CHANGED) {
		ff_json_key(j, "changes");
		ff_json_begin_array(j);
		for (i = 0; i < e->n_changes; i++)
			json_change(j, &e->changes[i]);
		ff_json_end_array(j);
	}
	ff_json_end_object(j);
}

static int on_entry(void *ctx, const struct ff_diff_entry *e)
{
	struct report *r = ctx;

	if (r->quiet)
		return 1; /* the exit status is all that is asked */
	if (r->json)
		json_entry(&r->j, e);
	else
		text_entry(r->out, e);
	return 0;
}

static void json_side(struct ff_json *j, const char *key, const char *path, struct ff_fs *fs)
{
	ff_json_key(j, key);
	ff_json_begin_object(j);
	ff_json_kv_str(j, "path", path);
	ff_json_kv_str(j, "format", fs->ops->format);
	ff_json_end_object(j);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: flashfs diff [-q] [--json] [--no-...] [OPTIONS] OLD NEW\n\n"
		"Compare two trees: images of any format flashfs reads, or host directories.\n"
		"OLD and NEW may name a UBI volume each as IMAGE:VOLUME (a name or an ID,\n"
		"when IMAGE:VOLUME is no file itself), e.g. flash.img:rootfs_a flash.img:rootfs_b.\n"
		"Reports entries added, removed and changed (type, mode, owner, mtime, size,\n"
		"contents, symlink target, device number, xattrs, hard links).\n\n"
		"  -q, --quiet            print nothing; the exit status tells\n"
		"  --json                 print one JSON object (schema flashfs-diff/1)\n"
		"  -P, --no-permissions   do not compare permission bits\n"
		"  -O, --no-owner         do not compare uid and gid\n"
		"  --no-times             do not compare modification times\n"
		"  -T, --timestamps       compare modification times (the default)\n"
		"  -C, --no-contents      do not compare file contents (sizes still are)\n"
		"  --no-xattrs            do not compare extended attributes\n"
		"  --no-links             do not compare hard-link structure\n"
		"  --volume-a V, --volume-b V\n"
		"                         the UBI volume of OLD, of NEW (over --volume)\n"
		"The image options apply to both sides (and not to directories):\n" FF_CLI_HELP
		"  -h, --help             this text\n\n"
		"Exit status: 0 the same, 1 different, 2 usage error or a tree that cannot\n"
		"be read.\n");
}

enum { OPT_JSON = 0x2000, OPT_NO_TIMES, OPT_NO_XATTRS, OPT_NO_LINKS, OPT_VOL_A, OPT_VOL_B };

/* 0 when c was one of diff's own options (applied to *ign or *r), -1 if not. */
static int own_option(int c, unsigned *ign, struct report *r)
{
	switch (c) {
	case 'q': r->quiet = 1; return 0;
	case OPT_JSON: r->json = 1; return 0;
	case 'P': *ign |= 1u << FF_DIFF_MODE; return 0;
	case 'O': *ign |= 1u << FF_DIFF_UID | 1u << FF_DIFF_GID; return 0;
	case OPT_NO_TIMES: *ign |= 1u << FF_DIFF_MTIME; return 0;
	case 'T': *ign &= ~(1u << FF_DIFF_MTIME); return 0;
	case 'C': *ign |= 1u << FF_DIFF_CONTENTS; return 0;
	case OPT_NO_XATTRS: *ign |= 1u << FF_DIFF_XATTR; return 0;
	case OPT_NO_LINKS: *ign |= 1u << FF_DIFF_LINK; return 0;
	default: return -1;
	}
}

/* Parses the options; returns -1 to go on, else the exit code.  vol[i]:
 * --volume-a / --volume-b. */
static int parse(int argc, char **argv, struct ff_open_opts *oo, unsigned *ign,
		 struct report *r, const char *vol[2])
{
	static const struct option opts[] = {
		{"quiet", no_argument, NULL, 'q'}, {"json", no_argument, NULL, OPT_JSON},
		{"no-permissions", no_argument, NULL, 'P'}, {"no-owner", no_argument, NULL, 'O'},
		{"no-times", no_argument, NULL, OPT_NO_TIMES},
		{"timestamps", no_argument, NULL, 'T'}, {"no-contents", no_argument, NULL, 'C'},
		{"no-xattrs", no_argument, NULL, OPT_NO_XATTRS},
		{"no-links", no_argument, NULL, OPT_NO_LINKS}, {"help", no_argument, NULL, 'h'},
		{"volume-a", required_argument, NULL, OPT_VOL_A},
		{"volume-b", required_argument, NULL, OPT_VOL_B},
		FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	int c, k;

	optind = 1;
	while ((c = getopt_long(argc, argv, "qPOTCh", opts, NULL)) != -1) {
		if ((k = ff_cli_option("diff", c, optarg, oo)) < 0)
			return 2;
		if (k || own_option(c, ign, r) == 0)
			continue;
		if (c == OPT_VOL_A || c == OPT_VOL_B) {
			vol[c == OPT_VOL_B] = optarg;
			continue;
		}
		usage(c == 'h' ? stdout : stderr);
		return c == 'h' ? 0 : 2;
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}
	return -1;
}

/* Compares, writing the report to r->out; the exit code. */
static int compare(struct report *r, const char *const name[2], struct ff_fs *fs[2],
		   unsigned ign)
{
	struct ff_diff_opts o = {.ignore = ign, .from_name = name[0], .to_name = name[1]};
	struct ff_err err = {0};
	long n;

	ff_json_init(&r->j, r->out, 1);
	if (r->json) {
		ff_json_begin_object(&r->j);
		ff_json_kv_str(&r->j, "schema", "flashfs-diff/1");
		json_side(&r->j, "old", name[0], fs[0]);
		json_side(&r->j, "new", name[1], fs[1]);
		ff_json_key(&r->j, "differences");
		ff_json_begin_array(&r->j);
	}
	n = ff_diff(fs[0], fs[1], &o, on_entry, r, &err);
	if (n < 0) {
		fprintf(stderr, "flashfs diff: %s\n", err.msg);
		return 2;
	}
	if (r->json) {
		ff_json_end_array(&r->j);
		ff_json_kv_bool(&r->j, "equal", n == 0);
		ff_json_end_object(&r->j);
		ff_json_finish(&r->j);
	}
	return n ? 1 : 0;
}

/* One side's image and volume: IMAGE:VOLUME when that is no file itself
 * but IMAGE is (a path with a colon of its own still opens as it is). */
static int open_side(const char *word, const char *vol, const struct ff_open_opts *oo,
		     struct ff_fs **fs, char **path)
{
	struct ff_open_opts o = *oo;
	const char *colon = strrchr(word, ':');
	struct stat st;

	*path = NULL;
	if (colon && colon[1] && stat(word, &st) < 0 &&
	    (*path = strndup(word, (size_t)(colon - word))) && stat(*path, &st) == 0) {
		o.ubi_volume = colon + 1;
		word = *path;
	}
	if (vol)
		o.ubi_volume = vol;
	return ff_cli_open("diff", word, &o, fs);
}

static int cmd_diff(int argc, char **argv)
{
	struct ff_open_opts oo = {.directories = 1};
	struct report r = {0};
	struct ff_fs *fs[2] = {NULL, NULL};
	const char *name[2], *vol[2] = {NULL, NULL};
	char *path[2] = {NULL, NULL};
	char *text = NULL;
	size_t len = 0;
	unsigned ign = 0;
	int rc = parse(argc, argv, &oo, &ign, &r, vol);

	if (rc >= 0)
		return rc;
	name[0] = argv[optind];
	name[1] = argv[optind + 1];
	rc = 2;
	if (open_side(name[0], vol[0], &oo, &fs[0], &path[0]) == 0 &&
	    open_side(name[1], vol[1], &oo, &fs[1], &path[1]) == 0 &&
	    (r.out = open_memstream(&text, &len))) {
		rc = compare(&r, name, fs, ign);
		fclose(r.out);
		if (rc < 2 && !r.quiet)
			fwrite(text, 1, len, stdout);
	} else if (fs[1] && !r.out) {
		perror("flashfs diff: report buffer");
	}
	free(text);
	free(path[0]);
	free(path[1]);
	ff_fs_close(fs[0]);
	ff_fs_close(fs[1]);
	return rc;
}

const struct ff_command ff_command_diff = {"diff", cmd_diff,
	"compare two images or directories (exit 1 when they differ)"};
