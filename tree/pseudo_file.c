/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mksquashfs pseudo file definitions (-pf FILE, -p LINE), squashfs-tools
 * 4.5 syntax:
 *
 *   NAME d|m MODE UID GID              NAME b|c MODE UID GID MAJOR MINOR
 *   NAME f MODE UID GID COMMAND...     NAME s MODE UID GID TARGET
 *   NAME i MODE UID GID s|f            NAME p MODE UID GID (fifo)
 *   NAME l|L LINKNAME                  NAME x XATTR=VALUE
 *
 * The upper-case D M B C F S I forms take a TIME before MODE.  UID and GID
 * may be names.  'f' runs COMMAND with /bin/sh -c and stores its output. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>

struct pseudo {
	const char *line;
	struct ff_tokens t;
	char type;          /* lower-case type letter */
	int has_time;
	int64_t mtime;
	uint32_t mode, uid, gid;
	int first_arg;      /* index of the first word after GID */
	char *path;
};

static int owner(const char *w, int is_uid, uint32_t *out, struct ff_err *err)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	if (ff_parse_u32(w, 10, UINT32_MAX, out) == 0)
		return 0;
	if (is_uid && getpwnam_r(w, &pw, buf, sizeof(buf), &pwp) == 0 && pwp) {
		*out = pw.pw_uid;
		return 0;
	}
	if (!is_uid && getgrnam_r(w, &gr, buf, sizeof(buf), &grp) == 0 && grp) {
		*out = gr.gr_gid;
		return 0;
	}
	return ff_err_set(err, EINVAL, "unknown %s \"%s\"", is_uid ? "user" : "group", w);
}

/* TIME? MODE UID GID after the type letter. */
static int parse_attrs(struct pseudo *p, struct ff_err *err)
{
	int i = 2 + p->has_time;

	if (p->t.n < i + 3)
		return ff_err_set(err, EINVAL, "type '%s' needs %sMODE UID GID", p->t.v[1],
				  p->has_time ? "TIME " : "");
	if (p->has_time && ff_parse_i64(p->t.v[2], &p->mtime))
		return ff_err_set(err, EINVAL, "bad time \"%s\"", p->t.v[2]);
	if (ff_parse_u32(p->t.v[i], 8, 07777, &p->mode))
		return ff_err_set(err, EINVAL, "bad mode \"%s\" (octal 0..7777)", p->t.v[i]);
	if (owner(p->t.v[i + 1], 1, &p->uid, err) || owner(p->t.v[i + 2], 0, &p->gid, err))
		return -1;
	p->first_arg = i + 3;
	return 0;
}

static int need_args(const struct pseudo *p, int n, const char *what, struct ff_err *err)
{
	if (p->t.n - p->first_arg != n)
		return ff_err_set(err, EINVAL, "type '%c' needs %s", p->type, what);
	return 0;
}

/* Create (or replace) the entry p->path as `type`. */
static struct ff_node *make_node(struct ff_tree *tree, struct pseudo *p, uint32_t type,
				 struct ff_err *err)
{
	struct ff_node *n = ff_tree_put_path(tree, p->path, type, err);

	if (!n)
		return NULL;
	n->mode = type | p->mode;
	n->uid = p->uid;
	n->gid = p->gid;
	/* no time given: mksquashfs' default, the build time (or
	 * SOURCE_DATE_EPOCH, which clamp_time holds then) */
	n->mtime = p->has_time ? p->mtime : tree->opts.clamp_time >= 0 ? tree->opts.clamp_time
									 : (int64_t)time(NULL);
	if (tree->opts.pseudo_override && ff_tree_keep_owner(tree, p->path, p->uid, p->gid, err))
		return NULL;
	return n;
}

static int run_command(struct ff_tree *tree, struct ff_node *n, const char *cmd,
		       struct ff_err *err)
{
	struct ff_spool *sp = ff_tree_spool(tree, err);
	FILE *f = sp ? popen(cmd, "r") : NULL;
	int status, rc;

	if (!sp)
		return -1;
	if (!f)
		return ff_err_sys(err, errno, "cannot run \"%s\"", cmd);
	ff_node_clear_src(n);
	rc = ff_spool_append_fd(sp, fileno(f), &n->spool_off, &n->size, err);
	status = pclose(f);
	if (rc)
		return -1;
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status))
		return ff_err_set(err, EIO, "command \"%s\" failed (%s %d)", cmd,
				  WIFEXITED(status) ? "exit status" : "signal",
				  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return 0;
}

static int device(struct ff_tree *tree, struct pseudo *p, struct ff_err *err)
{
	struct ff_node *n;
	uint32_t maj, min;

	if (need_args(p, 2, "MAJOR MINOR", err))
		return -1;
	if (ff_parse_u32(p->t.v[p->first_arg], 10, 0xfff, &maj) ||
	    ff_parse_u32(p->t.v[p->first_arg + 1], 10, 0xfffff, &min))
		return ff_err_set(err, EINVAL, "bad device number \"%s %s\"", p->t.v[p->first_arg],
				  p->t.v[p->first_arg + 1]);
	n = make_node(tree, p, p->type == 'b' ? S_IFBLK : S_IFCHR, err);
	if (!n)
		return -1;
	n->rdev_major = maj;
	n->rdev_minor = min;
	return 0;
}

static int modify(struct ff_tree *tree, struct pseudo *p, struct ff_err *err)
{
	struct ff_node *n = ff_tree_lookup(tree, p->path);

	if (!n)
		return ff_err_set(err, ENOENT, "\"%s\" does not exist", p->path);
	if (ff_node_link(n))
		n = ff_node_link(n);
	n->mode = (n->mode & S_IFMT) | p->mode;
	n->uid = p->uid;
	n->gid = p->gid;
	if (p->has_time)
		n->mtime = p->mtime;
	if (tree->opts.pseudo_override)
		return ff_tree_keep_owner(tree, p->path, p->uid, p->gid, err);
	return 0;
}

static int special(struct ff_tree *tree, struct pseudo *p, struct ff_err *err)
{
	const char *kind;

	if (p->type == 'p')
		return need_args(p, 0, "MODE UID GID only", err) ? -1
			: make_node(tree, p, S_IFIFO, err) ? 0 : -1;
	if (need_args(p, 1, "s (socket) or f (fifo)", err))
		return -1;
	kind = p->t.v[p->first_arg];
	if (strcmp(kind, "s") && strcmp(kind, "f"))
		return ff_err_set(err, EINVAL, "type 'i' needs s (socket) or f (fifo), not \"%s\"", kind);
	return make_node(tree, p, kind[0] == 's' ? S_IFSOCK : S_IFIFO, err) ? 0 : -1;
}

static int with_attrs(struct ff_tree *tree, struct pseudo *p, struct ff_err *err)
{
	struct ff_node *n;

	if (parse_attrs(p, err))
		return -1;
	switch (p->type) {
	case 'd':
		return need_args(p, 0, "MODE UID GID only", err) ? -1
			: make_node(tree, p, S_IFDIR, err) ? 0 : -1;
	case 'm':
		return need_args(p, 0, "MODE UID GID only", err) ? -1 : modify(tree, p, err);
	case 'b': case 'c':
		return device(tree, p, err);
	case 'i': case 'p':
		return special(tree, p, err);
	case 's':
		if (need_args(p, 1, "a TARGET", err) || !(n = make_node(tree, p, S_IFLNK, err)))
			return -1;
		return ff_node_set_target(n, p->t.v[p->first_arg], strlen(p->t.v[p->first_arg]), err);
	}
	/* 'f': the command is the rest of the line, exactly as written */
	if (p->t.n <= p->first_arg)
		return ff_err_set(err, EINVAL, "type 'f' needs a COMMAND");
	if (!(n = make_node(tree, p, S_IFREG, err)))
		return -1;
	return run_command(tree, n, p->line + p->t.start[p->first_arg], err);
}

static int hard_link(struct ff_tree *tree, struct pseudo *p, struct ff_err *err)
{
	if (p->t.n != 3)
		return ff_err_set(err, EINVAL, "type '%c' needs one LINKNAME", p->type);
	return ff_tree_put_link(tree, p->path, p->t.v[2], err) ? 0 : -1;
}

static int xattr(struct ff_tree *tree, struct pseudo *p, struct ff_err *err)
{
	struct ff_node *n = ff_tree_lookup(tree, p->path);

	if (p->t.n != 3)
		return ff_err_set(err, EINVAL, "type 'x' needs one NAME=VALUE");
	if (!n)
		return ff_err_set(err, ENOENT, "\"%s\" does not exist", p->path);
	return ff_node_set_xattr_text(n, p->t.v[2], err);
}

static int pseudo_define(struct ff_tree *tree, struct pseudo *p, struct ff_err *err)
{
	const char *ty;

	if (p->t.n < 2)
		return ff_err_set(err, EINVAL, "expected NAME TYPE ...");
	ty = p->t.v[1];
	if (strlen(ty) != 1 || !strchr("dmbcfsiplxDMBCFSIL", ty[0]))
		return ff_err_set(err, EINVAL, "unknown pseudo file type \"%s\"", ty);
	p->type = (char)(ty[0] | 0x20);
	p->has_time = strchr("DMBCFSI", ty[0]) != NULL;
	if (!(p->path = strdup(p->t.v[0])))
		return ff_err_set(err, ENOMEM, "out of memory");
	if (ff_path_normalise(p->path, err))
		return ff_err_prefix(err, "\"%s\"", p->t.v[0]);
	if (!*p->path && p->type != 'd' && p->type != 'm' && p->type != 'x')
		return ff_err_set(err, EINVAL, "the root can only be modified");
	if (p->type == 'x')
		return xattr(tree, p, err);
	/* mksquashfs ignores a definition of an entry the sources already
	 * have (only 'm' changes one) */
	if (*p->path && p->type != 'm' && ff_tree_lookup(tree, p->path)) {
		ff_tree_warn(tree, FF_WARN_IGNORED, p->path, "pseudo definition: exists in the "
			     "source; ignored (exclude it with -e to replace it)");
		return 0;
	}
	if (p->type == 'l')
		return hard_link(tree, p, err);
	return with_attrs(tree, p, err);
}

static int pseudo_line(void *ctx, const char *line, unsigned lineno, struct ff_err *err)
{
	struct pseudo p = { .line = line };
	int rc;

	(void)lineno;
	if (ff_tokenize(line, &p.t, err))
		rc = -1;
	else
		rc = p.t.n ? pseudo_define(ctx, &p, err) : 0;
	free(p.path);
	ff_tokens_free(&p.t);
	return rc;
}

int ff_tree_add_pseudo_file(struct ff_tree *tree, const char *path, struct ff_err *err)
{
	int rc;

	if (ff_tree_check_open(tree, err))
		return -1;
	tree->implied = &tree->opts.pseudo_dirs; /* -pd */
	rc = ff_lines_each(path, pseudo_line, tree, err);
	tree->implied = NULL;
	return rc;
}

int ff_tree_add_pseudo_line(struct ff_tree *tree, const char *line, struct ff_err *err)
{
	int rc;

	if (ff_tree_check_open(tree, err))
		return -1;
	tree->implied = &tree->opts.pseudo_dirs; /* -pd */
	rc = pseudo_line(tree, line, 1, err);
	tree->implied = NULL;
	if (rc)
		return ff_err_prefix(err, "pseudo definition \"%.60s\"", line);
	return 0;
}
