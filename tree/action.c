/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The mksquashfs action parser (see action.h): text to struct ff_action.
 *
 * Lexing follows mksquashfs' description: the special characters are
 * ( ) , @ ! && || and blanks; "..." quotes (only '\' is special inside);
 * a backslash outside quotes makes the next character ordinary. */
#include "tree/action_priv.h"
#include "tree/tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tree/arg_value.h"

#define MAX_ARGS 16

struct lex {
	const char *p;
	const char *text; /* the whole action, for messages */
	struct ff_err *err;
};

static int fail(struct lex *lx, const char *fmt, const char *what)
{
	char msg[256];

	snprintf(msg, sizeof(msg), fmt, what);
	return ff_err_set(lx->err, EINVAL, "action '%s': %s", lx->text, msg);
}

static void skip_blanks(struct lex *lx)
{
	while (*lx->p == ' ' || *lx->p == '\t')
		lx->p++;
}

static int special(const char *p)
{
	return strchr("(),@! \t", *p) || !strncmp(p, "&&", 2) || !strncmp(p, "||", 2);
}

/* One word (a name or an argument) into a new string; NULL on error. */
static char *word(struct lex *lx, int in_args)
{
	size_t cap = strlen(lx->p) + 1, n = 0;
	char *out = malloc(cap);

	if (!out) {
		ff_err_set(lx->err, ENOMEM, "action: out of memory");
		return NULL;
	}
	skip_blanks(lx);
	while (*lx->p && !(special(lx->p) && !(in_args && *lx->p == '!'))) {
		if (*lx->p == '"') {
			for (lx->p++; *lx->p && *lx->p != '"'; lx->p++)
				out[n++] = *lx->p == '\\' && lx->p[1] ? *++lx->p : *lx->p;
			if (*lx->p != '"') {
				free(out);
				fail(lx, "%s", "unterminated \"");
				return NULL;
			}
			lx->p++;
			continue;
		}
		if (*lx->p == '\\' && lx->p[1])
			lx->p++;
		out[n++] = *lx->p++;
	}
	out[n] = '\0';
	skip_blanks(lx);
	return out;
}

static void free_args(char **args, int n)
{
	for (int i = 0; i < n; i++)
		free(args[i]);
}

/* chmod(u=rw,go=r) and perm(u=rw,go=r): the commas belong to the mode, so
 * the arguments are joined again into args[0]. */
static int join_args(struct lex *lx, char **args, int *n)
{
	size_t len = 0;
	char *joined;

	for (int i = 0; i < *n; i++)
		len += strlen(args[i]) + 1;
	if (*n < 2)
		return 0;
	if (!(joined = malloc(len)))
		return ff_err_set(lx->err, ENOMEM, "action: out of memory");
	strcpy(joined, args[0]);
	for (int i = 1; i < *n; i++) {
		strcat(joined, ",");
		strcat(joined, args[i]);
	}
	free_args(args, *n);
	args[0] = joined;
	*n = 1;
	return 0;
}

/* "(a, b)" after a name, or nothing: *n arguments. */
static int arguments(struct lex *lx, char **args, int *n, const char *name)
{
	*n = 0;
	skip_blanks(lx);
	if (*lx->p != '(')
		return 0;
	lx->p++;
	skip_blanks(lx);
	if (*lx->p == ')') {
		lx->p++;
		return 0;
	}
	for (;;) {
		if (*n == MAX_ARGS) {
			free_args(args, *n);
			return fail(lx, "%s: too many arguments", name);
		}
		if (!(args[*n] = word(lx, 1))) {
			free_args(args, *n);
			return -1;
		}
		(*n)++;
		if (*lx->p == ',') {
			lx->p++;
			continue;
		}
		if (*lx->p == ')') {
			lx->p++;
			skip_blanks(lx);
			return 0;
		}
		free_args(args, *n);
		return fail(lx, "%s: expected ',' or ')' in the arguments", name);
	}
}

/* [<-|>+]NUMBER[KMG] */
static int number_arg(struct lex *lx, const char *name, const char *s, struct ff_act_expr *e)
{
	char *end;

	e->cmp = (*s == '<' || *s == '-') ? -1 : (*s == '>' || *s == '+') ? 1 : 0;
	s += e->cmp != 0;
	if (*s < '0' || *s > '9')
		return fail(lx, "%s: the argument is not a number ([<->+]N[KMG])", name);
	errno = 0;
	e->num = strtoull(s, &end, 10);
	if (*end && !end[1] && strchr("kKmMgG", *end))
		e->num <<= strchr("kK", *end) ? 10 : strchr("mM", *end) ? 20 : 30;
	else if (*end || errno)
		return fail(lx, "%s: the argument is not a number ([<->+]N[KMG])", name);
	return 0;
}

static int type_arg(struct lex *lx, const char *s, struct ff_act_expr *e)
{
	static const char letters[] = "fdlbcps";
	static const uint32_t modes[] = { S_IFREG, S_IFDIR, S_IFLNK, S_IFBLK, S_IFCHR, S_IFIFO,
					  S_IFSOCK };
	const char *at = *s && !s[1] ? strchr(letters, *s) : NULL;

	if (!at)
		return fail(lx, "type(%s): not one of f d l b c p s", s);
	e->mode = modes[at - letters];
	return 0;
}

static int perm_arg(struct lex *lx, const char *s, struct ff_act_expr *e)
{
	uint32_t probe = 0;

	e->cmp = (*s == '-' || *s == '/') ? *s : 0;
	s += e->cmp != 0;
	if (ff_mode_expr_apply(s, &probe) < 0)
		return fail(lx, "perm(%s): not an octal or symbolic mode", s);
	e->mode = probe & 07777;
	return 0;
}

static const struct {
	const char *name;
	enum ff_act_test test;
	int nargs;
} tests[] = {
	{ "name", FF_T_NAME, 1 }, { "pathname", FF_T_PATHNAME, 1 },
	{ "subpathname", FF_T_SUBPATHNAME, 1 }, { "type", FF_T_TYPE, 1 },
	{ "size", FF_T_SIZE, 1 }, { "filesize", FF_T_FILESIZE, 1 },
	{ "dirsize", FF_T_DIRSIZE, 1 }, { "perm", FF_T_PERM, 1 }, { "uid", FF_T_UID, 1 },
	{ "gid", FF_T_GID, 1 }, { "depth", FF_T_DEPTH, 1 }, { "true", FF_T_TRUE, 0 },
	{ "false", FF_T_FALSE, 0 },
};

static int test_args(struct lex *lx, const char *name, char *arg, struct ff_act_expr *e)
{
	switch (e->test) {
	case FF_T_NAME: case FF_T_PATHNAME: case FF_T_SUBPATHNAME:
		e->pattern = arg;
		return 0;
	case FF_T_TYPE: return type_arg(lx, arg, e);
	case FF_T_PERM: return perm_arg(lx, arg, e);
	case FF_T_TRUE: case FF_T_FALSE: return 0;
	default: return number_arg(lx, name, arg, e);
	}
}

static void expr_free(struct ff_act_expr *e)
{
	if (!e)
		return;
	expr_free(e->l);
	expr_free(e->r);
	free(e->pattern);
	free(e);
}

static struct ff_act_expr *new_expr(struct lex *lx, enum ff_act_op op)
{
	struct ff_act_expr *e = calloc(1, sizeof(*e));

	if (!e)
		ff_err_set(lx->err, ENOMEM, "action: out of memory");
	else
		e->op = op;
	return e;
}

static struct ff_act_expr *test(struct lex *lx)
{
	char *name = word(lx, 0), *args[MAX_ARGS];
	struct ff_act_expr *e = NULL;
	size_t i = 0;
	int n;

	if (!name)
		return NULL;
	while (i < sizeof(tests) / sizeof(tests[0]) && strcmp(tests[i].name, name))
		i++;
	if (!*name)
		fail(lx, "%s", *lx->p ? "expected a test" : "the expression ends too early");
	else if (i == sizeof(tests) / sizeof(tests[0]))
		fail(lx, "unknown or unsupported test '%s'", name);
	else if (arguments(lx, args, &n, name) == 0 &&
		 (tests[i].test != FF_T_PERM || join_args(lx, args, &n) == 0)) {
		if (n != tests[i].nargs)
			fail(lx, tests[i].nargs ? "%s: needs one argument" : "%s: takes no argument",
			     name);
		else if ((e = new_expr(lx, FF_ACT_TEST)) != NULL) {
			e->test = tests[i].test;
			if (test_args(lx, name, n ? args[0] : NULL, e) < 0) {
				expr_free(e);
				e = NULL;
			} else if (e->pattern) {
				n = 0; /* the pattern is e's now */
			}
		}
		free_args(args, n);
	}
	free(name);
	return e;
}

static struct ff_act_expr *expression(struct lex *lx);

static struct ff_act_expr *unary(struct lex *lx)
{
	struct ff_act_expr *e, *inner;

	skip_blanks(lx);
	if (*lx->p == '!') {
		lx->p++;
		if (!(inner = unary(lx)))
			return NULL;
		if (!(e = new_expr(lx, FF_ACT_NOT)))
			expr_free(inner);
		else
			e->l = inner;
		return e;
	}
	if (*lx->p != '(')
		return test(lx);
	lx->p++;
	if (!(e = expression(lx)))
		return NULL;
	skip_blanks(lx);
	if (*lx->p != ')') {
		expr_free(e);
		fail(lx, "%s", "missing ')'");
		return NULL;
	}
	lx->p++;
	return e;
}

/* Left to right, no precedence (mksquashfs' rule). */
static struct ff_act_expr *expression(struct lex *lx)
{
	struct ff_act_expr *l = unary(lx), *e;

	while (l) {
		enum ff_act_op op;

		skip_blanks(lx);
		if (!strncmp(lx->p, "&&", 2))
			op = FF_ACT_AND;
		else if (!strncmp(lx->p, "||", 2))
			op = FF_ACT_OR;
		else
			return l;
		lx->p += 2;
		if (!(e = new_expr(lx, op))) {
			expr_free(l);
			return NULL;
		}
		e->l = l;
		if (!(e->r = unary(lx))) {
			expr_free(e);
			return NULL;
		}
		l = e;
	}
	return NULL;
}

static const struct {
	const char *name;
	enum ff_act_kind kind;
	int nargs;
} kinds[] = {
	{ "exclude", FF_A_EXCLUDE, 0 }, { "prune", FF_A_PRUNE, 0 }, { "chmod", FF_A_CHMOD, 1 },
	{ "uid", FF_A_UID, 1 }, { "gid", FF_A_GID, 1 }, { "guid", FF_A_GUID, 2 },
	{ "fragment", FF_A_FRAGMENT, 1 },
};

static int owner_arg(struct lex *lx, const char *s, int is_group, uint32_t *out)
{
	int64_t v;

	if (ff_arg_owner(is_group ? "gid" : "uid", s, is_group, &v, lx->err))
		return ff_err_prefix(lx->err, "action '%s'", lx->text);
	*out = (uint32_t)v;
	return 0;
}

static int action_args(struct lex *lx, struct ff_action *act, char **args)
{
	uint32_t probe = 0;

	switch (act->kind) {
	case FF_A_CHMOD:
		if (ff_mode_expr_apply(args[0], &probe) < 0)
			return fail(lx, "chmod(%s): not an octal or symbolic mode", args[0]);
		/* fall through */
	case FF_A_FRAGMENT:
		act->arg = args[0];
		args[0] = NULL;
		return 0;
	case FF_A_UID: return owner_arg(lx, args[0], 0, &act->uid);
	case FF_A_GID: return owner_arg(lx, args[0], 1, &act->gid);
	case FF_A_GUID:
		return owner_arg(lx, args[0], 0, &act->uid) || owner_arg(lx, args[1], 1, &act->gid)
		       ? -1 : 0;
	default: return 0;
	}
}

/* "NAME[(ARGS)] @" */
static int action_head(struct lex *lx, struct ff_action *act)
{
	char *name = word(lx, 0), *args[MAX_ARGS] = { NULL, NULL };
	size_t i = 0;
	int n = 0, rc = -1;

	if (!name)
		return -1;
	while (i < sizeof(kinds) / sizeof(kinds[0]) && strcmp(kinds[i].name, name))
		i++;
	if (!*name)
		fail(lx, "%s", "no action before '@'");
	else if (i == sizeof(kinds) / sizeof(kinds[0]))
		fail(lx, "unknown or unsupported action '%s'", name);
	else if (arguments(lx, args, &n, name) == 0 &&
		 (kinds[i].kind != FF_A_CHMOD || join_args(lx, args, &n) == 0)) {
		act->kind = kinds[i].kind;
		if (n != kinds[i].nargs)
			fail(lx, "%s: wrong number of arguments", name);
		else if (*lx->p != '@')
			fail(lx, "%s", "expected '@' after the action");
		else if (action_args(lx, act, args) == 0)
			rc = 0;
		lx->p += rc == 0;
		free_args(args, n);
	}
	free(name);
	return rc;
}

static void action_clear(struct ff_action *act)
{
	free(act->text);
	free(act->arg);
	expr_free(act->expr);
}

int ff_actions_add(struct ff_actions *a, const char *text, enum ff_action_log log,
		   struct ff_err *err)
{
	struct ff_action act = { .log = log };
	struct lex lx = { .p = text, .text = text, .err = err };

	if (action_head(&lx, &act) == 0 && (act.expr = expression(&lx)) != NULL) {
		skip_blanks(&lx);
		if (*lx.p)
			fail(&lx, "unexpected '%s' after the expression", lx.p);
		else if ((act.text = strdup(text)) != NULL && ff_vec_push(&a->v, &act) == 0) {
			return 0;
		} else {
			ff_err_set(err, ENOMEM, "action: out of memory");
		}
	}
	action_clear(&act);
	return -1;
}

struct ff_actions *ff_actions_new(void)
{
	struct ff_actions *a = malloc(sizeof(*a));

	if (a)
		ff_vec_init(&a->v, sizeof(struct ff_action));
	return a;
}

void ff_actions_free(struct ff_actions *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->v.len; i++)
		action_clear(FF_VEC_AT(&a->v, struct ff_action, i));
	ff_vec_free(&a->v);
	free(a);
}

size_t ff_actions_count(const struct ff_actions *a)
{
	return a ? a->v.len : 0;
}

struct file_ctx {
	struct ff_actions *a;
	enum ff_action_log log;
	char *pending; /* a line continued with '\' */
};

static int file_line(void *ctx, const char *line, unsigned lineno, struct ff_err *err)
{
	struct file_ctx *f = ctx;
	size_t len = strlen(line), have = f->pending ? strlen(f->pending) : 0;
	int cont = len && line[len - 1] == '\\';
	char *joined = realloc(f->pending, have + len + 1);
	int rc = 0;

	(void)lineno;
	if (!joined)
		return ff_err_set(err, ENOMEM, "action file: out of memory");
	memcpy(joined + have, line, len - (size_t)cont);
	joined[have + len - (size_t)cont] = '\0';
	f->pending = joined;
	if (cont)
		return 0;
	if (joined[strspn(joined, " \t")] && joined[strspn(joined, " \t")] != '#')
		rc = ff_actions_add(f->a, joined, f->log, err);
	free(f->pending);
	f->pending = NULL;
	return rc;
}

int ff_actions_add_file(struct ff_actions *a, const char *path, enum ff_action_log log,
			struct ff_err *err)
{
	struct file_ctx f = { .a = a, .log = log };
	int rc = ff_lines_each(path, file_line, &f, err);

	if (rc == 0 && f.pending && f.pending[strspn(f.pending, " \t")])
		rc = ff_err_set(err, EINVAL, "%s: the last action ends with '\\'", path);
	free(f.pending);
	return rc;
}
