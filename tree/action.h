/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mksquashfs actions (-action, -action-file and their -log-, -true-,
 * -false- forms): "ACTION[(ARGS)] @ EXPRESSION", where the expression joins
 * tests with &&, || and ! (no precedence, left to right, as mksquashfs) and
 * brackets.
 *
 *   actions: exclude, prune (both drop the entry and everything below it),
 *            chmod(MODE), uid(UID|USER), gid(GID|GROUP), guid(U, G),
 *            fragment(NAME) (accepted: our fragment packing stays global)
 *   tests:   name(GLOB), pathname(GLOB), subpathname(GLOB), type(f|d|l|b|c|p|s),
 *            size(N), filesize(N), dirsize(N), perm(MODE|-MODE|/MODE),
 *            uid(N), gid(N), depth(N), true, false
 *   N is [<-|>+]NUMBER[K|M|G].
 *
 * Any other action or test is refused with a message naming it.  A unit of
 * its own inside tree/: action.c parses, action_eval.c applies a list to a
 * tree in ff_tree_finish (which is why it cannot sit above tree/); their
 * shared types are in action_priv.h. */
#ifndef FF_TREE_ACTION_H
#define FF_TREE_ACTION_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

enum ff_action_log {
	FF_ACTION_LOG_NONE,
	FF_ACTION_LOG_ALL,   /* -log-action: every evaluation */
	FF_ACTION_LOG_TRUE,  /* -true-action: where the expression is true */
	FF_ACTION_LOG_FALSE, /* -false-action: where it is false */
};

struct ff_actions;

struct ff_actions *ff_actions_new(void);
void ff_actions_free(struct ff_actions *a);
/* Parse one action; errors name the action text and the problem. */
int ff_actions_add(struct ff_actions *a, const char *text, enum ff_action_log log,
		   struct ff_err *err);
/* An action file: one action a line, '\' at a line end continues it, '#'
 * lines are comments; errors carry "FILE:LINE". */
int ff_actions_add_file(struct ff_actions *a, const char *path, enum ff_action_log log,
			struct ff_err *err);
size_t ff_actions_count(const struct ff_actions *a);

/* For ff_tree_finish (before hard links are resolved): exclude first,
 * then chmod/uid/gid/guid, then prune.  Log lines go to the tree's
 * opts.log. */
struct ff_tree;
int ff_actions_apply(struct ff_tree *tree, const struct ff_actions *a, struct ff_err *err);

#endif
