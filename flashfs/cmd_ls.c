/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs ls [-l] [-R] [--names] [--json] IMAGE [PATH] */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "flashfs/cli.h"
#include "flashfs/commands.h"
#include "common/hmap.h"
#include "common/json.h"

#define LS_SCHEMA "flashfs-ls/1" /* docs/schemas/ls.schema.json */

#define MAX_DEPTH 1024

struct ls {
	struct ff_fs *fs;
	const char *image;
	int lng, rec, names, errors, json;
	struct ff_hmap seen; /* directories entered (loop guard) */
	struct ff_json j;
};

static void owner(const struct ls *l, char *buf, size_t cap, uint32_t uid, uint32_t gid)
{
	struct passwd *pw = l->names ? getpwuid(uid) : NULL;
	struct group *gr = l->names ? getgrgid(gid) : NULL;
	char u[32], g[32];

	snprintf(u, sizeof(u), "%u", uid);
	snprintf(g, sizeof(g), "%u", gid);
	snprintf(buf, cap, "%s/%s", pw ? pw->pw_name : u, gr ? gr->gr_name : g);
}

static const char *type_name(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symlink";
	case S_IFBLK: return "block-device";
	case S_IFCHR: return "char-device";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	default: return "file";
	}
}

/* One record of flashfs-ls/1 (docs/schemas/ls.schema.json). */
static void print_json(struct ls *l, const struct ff_stat *st, const char *path,
		       const char *target)
{
	struct ff_json *j = &l->j;

	ff_json_begin_object(j);
	ff_json_kv_str(j, "path", path);
	ff_json_kv_str(j, "type", type_name(st->mode));
	ff_json_kv_uint(j, "mode", st->mode & 07777);
	ff_json_kv_uint(j, "uid", st->uid);
	ff_json_kv_uint(j, "gid", st->gid);
	ff_json_kv_uint(j, "size", st->size);
	ff_json_key(j, "mtime");
	ff_json_int(j, st->mtime);
	ff_json_kv_uint(j, "nlink", st->nlink);
	ff_json_kv_uint(j, "ino", st->ino);
	ff_json_key(j, "target");
	if (S_ISLNK(st->mode))
		ff_json_str(j, target);
	else
		ff_json_null(j);
	ff_json_key(j, "rdev");
	if (S_ISCHR(st->mode) || S_ISBLK(st->mode)) {
		ff_json_begin_object(j);
		ff_json_kv_uint(j, "major", st->rdev_major);
		ff_json_kv_uint(j, "minor", st->rdev_minor);
		ff_json_end_object(j);
	} else {
		ff_json_null(j);
	}
	ff_json_end_object(j);
}

static void print_text(struct ls *l, const struct ff_stat *st, const char *path,
		       const char *target)
{
	char mode[11], own[80], size[48], when[32];
	time_t t = (time_t)st->mtime;
	struct tm tm;

	ff_mode_string(st->mode, mode);
	owner(l, own, sizeof(own), st->uid, st->gid);
	if (S_ISCHR(st->mode) || S_ISBLK(st->mode))
		snprintf(size, sizeof(size), "%u,%u", st->rdev_major, st->rdev_minor);
	else
		snprintf(size, sizeof(size), "%llu", (unsigned long long)st->size);
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
	printf("%s %-15s %10s %s %s%s%s\n", mode, own, size, when, path, target[0] ? " -> " : "",
	       target);
}

static void print_long(struct ls *l, uint64_t h, const char *path)
{
	char target[4097] = "";
	struct ff_stat st;
	int r = l->fs->ops->getattr(l->fs, h, &st);

	if (r < 0) {
		fprintf(stderr, "flashfs ls: %s: %s: %s\n", l->image, path, strerror(-r));
		l->errors++;
		return;
	}
	if (S_ISLNK(st.mode)) {
		ssize_t n = l->fs->ops->readlink(l->fs, h, target, sizeof(target) - 1);

		if (n < 0) {
			l->errors++;
			n = 0;
		}
		target[n < (ssize_t)sizeof(target) - 1 ? n : (ssize_t)sizeof(target) - 1] = '\0';
	}
	if (l->json)
		print_json(l, &st, path, target);
	else
		print_text(l, &st, path, target);
}

static void list_dir(struct ls *l, uint64_t dir, const char *prefix, int depth)
{
	struct ff_dirlist e;
	size_t i;
	int r;

	if (depth > MAX_DEPTH || ff_hmap_get(&l->seen, dir)) {
		fprintf(stderr, "flashfs ls: %s: %s: directory loop or nesting too deep\n", l->image,
			prefix[0] ? prefix : "/");
		l->errors++;
		return;
	}
	ff_hmap_put(&l->seen, dir, (void *)1);
	r = ff_fs_list_dir(l->fs, dir, FF_LIST_PARTIAL, &e);
	if (r < 0) {
		fprintf(stderr, "flashfs ls: %s: %s: %s\n", l->image, prefix[0] ? prefix : "/",
			strerror(-r));
		l->errors++;
	}
	for (i = 0; i < e.n; i++) {
		size_t len = strlen(prefix) + strlen(e.v[i].name) + 2;
		char *path = malloc(len);

		if (!path)
			break;
		if (l->rec || l->json)
			snprintf(path, len, "%s/%s", prefix, e.v[i].name);
		else
			snprintf(path, len, "%s", e.v[i].name);
		if (l->lng || l->json)
			print_long(l, e.v[i].handle, path);
		else
			printf("%s\n", path);
		if (l->rec && S_ISDIR(e.v[i].mode))
			list_dir(l, e.v[i].handle, path, depth + 1);
		free(path);
	}
	ff_dirlist_free(&e);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs ls [-l] [-R] [--names] [--json] [OPTIONS] IMAGE [PATH]\n\n"
		   "List a directory of the image (default the root).\n\n"
		   "  -l, --long       mode, owner, size (major,minor for devices), mtime (UTC),\n"
		   "                   name and symlink target\n"
		   "  -R, --recursive  list subdirectories too, as full paths\n"
		   "  --names          show owners as user/group names where known\n"
		   "  --json           one JSON object, a record per entry with full paths\n"
		   "                   (schema " LS_SCHEMA ")\n" FF_CLI_HELP
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 ok, 1 some entries could not be read, 2 usage error or unreadable image.\n");
}

static int run(struct ls *l, const char *path)
{
	struct ff_stat st;
	uint64_t h;
	int r = ff_fs_resolve(l->fs, path, &h);
	char prefix[4096];

	if (r == 0)
		r = l->fs->ops->getattr(l->fs, h, &st);
	if (r < 0) {
		fprintf(stderr, "flashfs ls: %s: %s: %s\n", l->image, path, strerror(-r));
		return r == -ENOENT || r == -ENOTDIR ? 1 : 2;
	}
	/* JSON paths are absolute in the image: "/etc/passwd" */
	snprintf(prefix, sizeof(prefix), "%s%s", l->json && path[0] != '/' ? "/" : "", path);
	if (!S_ISDIR(st.mode)) {
		if (l->lng || l->json)
			print_long(l, h, prefix);
		else
			printf("%s\n", path);
		return l->errors ? 1 : 0;
	}
	while (strlen(prefix) > 0 && prefix[strlen(prefix) - 1] == '/')
		prefix[strlen(prefix) - 1] = '\0';
	list_dir(l, h, prefix, 0);
	return l->errors ? 1 : 0;
}

static void begin_json(struct ls *l)
{
	ff_json_init(&l->j, stdout, 0);
	ff_json_begin_object(&l->j);
	ff_json_kv_str(&l->j, "schema", LS_SCHEMA);
	ff_json_kv_str(&l->j, "image", l->image);
	ff_json_kv_bool(&l->j, "recursive", l->rec);
	ff_json_key(&l->j, "entries");
	ff_json_begin_array(&l->j);
}

static int cmd_ls(int argc, char **argv)
{
	static const struct option opts[] = {
		{"long", no_argument, NULL, 'l'}, {"recursive", no_argument, NULL, 'R'},
		{"names", no_argument, NULL, 'n'}, {"help", no_argument, NULL, 'h'},
		{"json", no_argument, NULL, 'j'},
		FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	struct ff_open_opts oo = {0};
	struct ls l = {0};
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "lRh", opts, NULL)) != -1) {
		int r = ff_cli_option("ls", c, optarg, &oo);

		if (r < 0)
			return 2;
		if (r)
			continue;
		switch (c) {
		case 'l': l.lng = 1; break;
		case 'R': l.rec = 1; break;
		case 'n': l.names = 1; break;
		case 'j': l.json = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc || argc - optind > 2) {
		usage(stderr);
		return 2;
	}
	l.image = argv[optind];
	if (ff_cli_open("ls", l.image, &oo, &l.fs) < 0)
		return 2;
	if (l.json)
		begin_json(&l);
	rc = run(&l, optind + 1 < argc ? argv[optind + 1] : "/");
	if (l.json) {
		ff_json_end_array(&l.j);
		ff_json_kv_uint(&l.j, "errors", (uint64_t)l.errors);
		ff_json_end_object(&l.j);
		ff_json_finish(&l.j);
	}
	ff_hmap_free(&l.seen, NULL);
	ff_fs_close(l.fs);
	return rc;
}

const struct ff_command ff_command_ls = {"ls", cmd_ls,
	"list directories (-l long, -R recursive)"};
