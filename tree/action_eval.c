/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Applying parsed mksquashfs actions (action.c) to a tree in
 * ff_tree_finish, in mksquashfs' stages: exclude, then chmod/uid/gid/guid
 * (and the accepted fragment), then prune.  Paths are relative to the root
 * without a leading '/'; the root's entries are at depth 1. */
#include "tree/action_priv.h"
#include "tree/tree_priv.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GLOB_FLAGS (FNM_PATHNAME | FNM_PERIOD | FNM_EXTMATCH)

struct eval {
	struct ff_tree *tree;
	struct ff_node *n, *meta; /* the entry, and the node holding its metadata */
	char path[4096];
	unsigned depth;
};

static int compare(uint64_t v, int cmp, uint64_t want)
{
	return cmp < 0 ? v < want : cmp > 0 ? v > want : v == want;
}

/* The pattern's n components against the path's first n components. */
static int subpath_match(const char *pat, const char *path)
{
	unsigned parts = 1;
	char prefix[4096];
	const char *p = path;

	for (const char *c = pat; *c; c++)
		parts += *c == '/';
	while (p && parts--)
		p = strchr(p + (p != path), '/');
	snprintf(prefix, sizeof(prefix), "%.*s", p ? (int)(p - path) : (int)strlen(path), path);
	return fnmatch(pat, prefix, GLOB_FLAGS) == 0;
}

static int perm_match(const struct ff_act_expr *e, uint32_t mode)
{
	uint32_t m = mode & 07777;

	if (e->cmp == '-')
		return (m & e->mode) == e->mode;
	if (e->cmp == '/')
		return (m & e->mode) != 0 || e->mode == 0;
	return m == e->mode;
}

static int run_test(const struct eval *ev, const struct ff_act_expr *e)
{
	const struct ff_node *m = ev->meta;

	switch (e->test) {
	case FF_T_NAME: return fnmatch(e->pattern, ff_node_name(ev->n), GLOB_FLAGS) == 0;
	case FF_T_PATHNAME: return fnmatch(e->pattern, ev->path, GLOB_FLAGS) == 0;
	case FF_T_SUBPATHNAME: return subpath_match(e->pattern, ev->path);
	case FF_T_TYPE: return (m->mode & S_IFMT) == e->mode;
	case FF_T_SIZE: return compare(m->size, e->cmp, e->num);
	case FF_T_FILESIZE: return S_ISREG(m->mode) && compare(m->size, e->cmp, e->num);
	case FF_T_DIRSIZE: return S_ISDIR(m->mode) && compare(m->size, e->cmp, e->num);
	case FF_T_PERM: return perm_match(e, m->mode);
	case FF_T_UID: return compare(m->uid, e->cmp, e->num);
	case FF_T_GID: return compare(m->gid, e->cmp, e->num);
	case FF_T_DEPTH: return compare(ev->depth, e->cmp, e->num);
	case FF_T_TRUE: return 1;
	default: return 0;
	}
}

static int eval_expr(const struct eval *ev, const struct ff_act_expr *e)
{
	switch (e->op) {
	case FF_ACT_AND: return eval_expr(ev, e->l) && eval_expr(ev, e->r);
	case FF_ACT_OR: return eval_expr(ev, e->l) || eval_expr(ev, e->r);
	case FF_ACT_NOT: return !eval_expr(ev, e->l);
	default: return run_test(ev, e);
	}
}

static void log_result(const struct eval *ev, const struct ff_action *act, int hit)
{
	char msg[FF_ERR_MSG_MAX];
	int len;

	if (act->log == FF_ACTION_LOG_NONE || !ev->tree->opts.log ||
	    (act->log == FF_ACTION_LOG_TRUE && !hit) || (act->log == FF_ACTION_LOG_FALSE && hit))
		return;
	len = snprintf(msg, sizeof(msg), "/%.400s: %s", ev->path, hit ? "true" : "false");
	if (len > 0 && (size_t)len < sizeof(msg))
		snprintf(msg + len, sizeof(msg) - (size_t)len, " for %s", act->text);
	ev->tree->opts.log(ev->tree->opts.log_ctx, msg);
}

static int stage_of(enum ff_act_kind k)
{
	return k == FF_A_EXCLUDE ? 1 : k == FF_A_PRUNE ? 3 : 2;
}

static void change(struct ff_node *m, const struct ff_action *act)
{
	switch (act->kind) {
	case FF_A_CHMOD: ff_node_mode_apply(act->arg, m); break;
	case FF_A_UID: m->uid = act->uid; break;
	case FF_A_GID: m->gid = act->gid; break;
	case FF_A_GUID: m->uid = act->uid; m->gid = act->gid; break;
	default: break; /* fragment: accepted, packing stays global */
	}
}

/* Run one stage's actions on one entry; 1 when it is to be removed. */
static int run_stage(struct eval *ev, const struct ff_actions *a, int stage)
{
	int removed = 0;

	for (size_t i = 0; i < a->v.len; i++) {
		const struct ff_action *act = FF_VEC_AT(&a->v, struct ff_action, i);
		int hit;

		if (stage_of(act->kind) != stage)
			continue;
		hit = eval_expr(ev, act->expr);
		log_result(ev, act, hit);
		if (hit && stage == 2)
			change(ev->meta, act);
		removed |= hit && stage != 2;
	}
	return removed;
}

static struct ff_node *primary(struct ff_node *n, uint32_t limit)
{
	while (ff_node_link(n) && limit--)
		n = ff_node_link(n);
	return n;
}

#define MARK 1u

/* Marks (priv = MARK) every entry a stage removes; its subtree is not
 * visited. */
static void walk(struct eval *ev, struct ff_node *dir, const struct ff_actions *a, int stage)
{
	size_t save = strlen(ev->path);

	ev->depth++;
	for (uint32_t i = 0; i < dir->n_children; i++) {
		struct ff_node *c = dir->children[i];

		snprintf(ev->path + save, sizeof(ev->path) - save, "%s%s", save ? "/" : "",
			 ff_node_name(c));
		ev->n = c;
		ev->meta = primary(c, ev->tree->count + 1);
		if (c->priv == MARK)
			continue;
		if (run_stage(ev, a, stage))
			c->priv = MARK;
		else if (S_ISDIR(c->mode))
			walk(ev, c, a, stage);
	}
	ev->path[save] = '\0';
	ev->depth--;
}

static void mark_below(struct ff_node *n)
{
	for (uint32_t i = 0; i < n->n_children; i++) {
		n->children[i]->priv = MARK;
		mark_below(n->children[i]);
	}
}

/* A hard-link group whose primary goes keeps its first surviving name as
 * the new primary; every survivor then points straight at its primary. */
static int rehome_links(struct ff_tree *tree)
{
	struct ff_node *n, *p;

	for (n = tree->root; n; n = ff_tree_next(tree, n)) {
		if (n->priv == MARK || !ff_node_link(n))
			continue;
		p = primary(n, tree->count + 1);
		if (p->priv == MARK && ff_node_take_content(n, p))
			return -1;
	}
	for (n = tree->root; n; n = ff_tree_next(tree, n))
		if (n->priv != MARK && ff_node_link(n))
			ff_node_set_link(n, primary(n, tree->count + 1)); /* has its ext */
	return 0;
}

static void remove_marked(struct ff_node *dir)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < dir->n_children; i++) {
		struct ff_node *c = dir->children[i];

		if (c->priv == MARK) {
			ff_tree_free_subtree(c);
			continue;
		}
		dir->children[kept++] = c;
		remove_marked(c);
	}
	dir->n_children = kept;
}

int ff_actions_apply(struct ff_tree *tree, const struct ff_actions *a, struct ff_err *err)
{
	struct eval ev = { .tree = tree };
	int any = 0;
	struct ff_node *n;

	(void)err;
	if (!a || !a->v.len)
		return 0;
	for (int stage = 1; stage <= 3; stage++) {
		/* mksquashfs changes the root too (it cannot exclude it) */
		if (stage == 2) {
			ev.n = ev.meta = tree->root;
			run_stage(&ev, a, stage);
		}
		walk(&ev, tree->root, a, stage);
	}
	for (n = tree->root; n; n = ff_tree_next(tree, n))
		if (n->priv == MARK) {
			mark_below(n);
			any = 1;
		}
	if (any) {
		if (rehome_links(tree))
			return ff_err_set(err, ENOMEM, "actions: out of memory for hard links");
		remove_marked(tree->root);
	}
	for (n = tree->root; n; n = ff_tree_next(tree, n))
		n->priv = 0;
	return 0;
}
