/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The -action unit's own: a parsed action list as action.c builds it and
 * action_eval.c applies it.  Nothing outside these two files sees it; the
 * rest of tree/ and the programs use tree/action.h. */
#ifndef FF_TREE_ACTION_PRIV_H
#define FF_TREE_ACTION_PRIV_H

#include <stdint.h>

#include "common/vec.h"
#include "tree/action.h"

enum ff_act_op { FF_ACT_AND, FF_ACT_OR, FF_ACT_NOT, FF_ACT_TEST };
enum ff_act_test {
	FF_T_NAME, FF_T_PATHNAME, FF_T_SUBPATHNAME, FF_T_TYPE, FF_T_SIZE, FF_T_FILESIZE,
	FF_T_DIRSIZE, FF_T_PERM, FF_T_UID, FF_T_GID, FF_T_DEPTH, FF_T_TRUE, FF_T_FALSE,
};
enum ff_act_kind { FF_A_EXCLUDE, FF_A_PRUNE, FF_A_CHMOD, FF_A_UID, FF_A_GID, FF_A_GUID,
		   FF_A_FRAGMENT };

struct ff_act_expr {
	enum ff_act_op op;
	struct ff_act_expr *l, *r;  /* NOT uses l */
	enum ff_act_test test;
	char *pattern;              /* name, pathname, subpathname; perm's mode text */
	int cmp;                    /* -1 less, 0 equal, 1 greater; perm: 0 exact, '-' all, '/' any */
	uint64_t num;
	uint32_t mode;              /* type: S_IFMT value */
};

struct ff_action {
	enum ff_act_kind kind;
	enum ff_action_log log;
	char *text;                 /* the action as given, for messages */
	char *arg;                  /* chmod mode text, fragment name */
	uint32_t uid, gid;
	struct ff_act_expr *expr;
};

struct ff_actions {
	struct ff_vec v;            /* struct ff_action, in the order given */
};

#endif
