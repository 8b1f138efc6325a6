/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* glibc's regcomp copies the subtree under a repetition once per count it
 * must match ("x+" becomes "x x*", "x{2,5}" five copies of x), so stacked
 * or nested repetitions grow exponentially: "-" followed by eighty '+'
 * made the options fuzzer's regcomp ask for more than 2.5 GB, and a
 * mutation of it with 82056 nodes took 39 s in its epsilon closures
 * (tests/fuzz/regress/options).  So the size of that tree is estimated
 * from the text first, the same way, and a pattern past the limit is
 * refused before regcomp sees it. */
#include "common/regex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CAP 1e18 /* saturate: past the limit the exact size does not matter */
#define DEPTH 256

static double clamp(double v)
{
	return v > CAP ? CAP : v;
}

/* What a group (or the whole pattern) has so far: the finished pieces and
 * the last one, which a repetition operator applies to; whether any piece
 * is repeated, and whether the last one holds a repetition. */
struct level {
	double done, last;
	int rep, last_rep;
};

static void piece(struct level *l, double size, int rep)
{
	l->done = clamp(l->done + l->last);
	l->last = size;
	l->last_rep = rep;
}

/* Past a bracket expression starting at p ('['): [^]...], [:alpha:],
 * [=a=], [.-.] inside.  At the terminating NUL when it does not end. */
static const char *skip_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++) {
		if (*p == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			const char *end = strchr(p + 2, p[1]);

			while (end && end[1] != ']')
				end = strchr(end + 1, p[1]);
			if (end)
				p = end + 1;
		}
	}
	return *p ? p + 1 : p;
}

/* "{m}", "{m,}" or "{m,n}" at p: the copies regcomp makes of the operand
 * (n, m + 1 for the open form), and *end past it; 0 when p is no count
 * (then '{' is an ordinary character). */
static double brace_copies(const char *p, const char **end)
{
	char *q;
	unsigned long m, n;

	if (p[1] < '0' || p[1] > '9')
		return 0;
	m = strtoul(p + 1, &q, 10);
	n = m;
	if (*q == ',') {
		q++;
		n = *q >= '0' && *q <= '9' ? strtoul(q, &q, 10) : m + 1;
	}
	if (*q != '}')
		return 0;
	*end = q + 1;
	return n > m ? (double)n : m ? (double)m : 1;
}

/* One repetition operator at p applied to l->last; the text past it, or
 * NULL when p holds none.  *nested is set when the last piece already held
 * a repetition. */
static const char *repeat(struct level *l, const char *p, int *nested)
{
	const char *end = p + 1;
	double copies = 0;

	switch (*p) {
	case '*': case '?':
		l->last = clamp(l->last + 1);
		break;
	case '+':
		l->last = clamp(2 * l->last + 1);
		break;
	case '{':
		copies = brace_copies(p, &end);
		if (!copies)
			return NULL;
		l->last = clamp(l->last * copies + 1);
		break;
	default:
		return NULL;
	}
	*nested |= l->last_rep;
	l->last_rep = l->rep = 1;
	return end;
}

/* Closes the group at l into the level below it. */
static struct level *close_group(struct level *l)
{
	double g = clamp(l->done + l->last + 1);
	int rep = l->rep;

	piece(--l, g, rep);
	l->rep |= rep;
	return l;
}

/* The nodes regcomp would build for text, and in *nested whether a
 * repetition applies to something already repeated. */
static double walk(const char *text, int *nested)
{
	struct level stack[DEPTH], *l = stack;
	const char *p = text, *next;

	memset(stack, 0, sizeof(stack));
	*nested = 0;
	while (*p) {
		if ((next = repeat(l, p, nested))) {
			p = next;
			continue;
		}
		switch (*p) {
		case '(':
			if (l == stack + DEPTH - 1)
				return CAP; /* deeper than any sane pattern */
			memset(++l, 0, sizeof(*l));
			p++;
			break;
		case ')':
			l = l > stack ? close_group(l) : (piece(l, 1, 0), l);
			p++;
			break;
		case '|':
			l->done = clamp(l->done + l->last + 1);
			l->last = 0;
			l->last_rep = 0;
			p++;
			break;
		case '[':
			piece(l, 1, 0);
			p = skip_bracket(p);
			break;
		case '\\':
			piece(l, 1, 0);
			p += p[1] ? 2 : 1;
			break;
		default:
			piece(l, 1, 0);
			p++;
		}
	}
	/* unclosed groups count as if closed */
	while (l > stack)
		l = close_group(l);
	return clamp(l->done + l->last);
}

double ff_regex_nodes(const char *text)
{
	int nested;

	return walk(text, &nested);
}

/* "\1".."\9" outside a bracket expression. */
static int has_backref(const char *p)
{
	while (*p) {
		if (*p == '[') {
			p = skip_bracket(p);
			continue;
		}
		if (*p == '\\' && p[1] >= '1' && p[1] <= '9')
			return 1;
		p += *p == '\\' && p[1] ? 2 : 1;
	}
	return 0;
}

int ff_regcomp_ere(regex_t *re, const char *text, struct ff_err *err)
{
	char msg[128];
	int rc, nested;
	double nodes = walk(text, &nested);

	if (has_backref(text))
		return ff_err_set(err, EINVAL, "'%s' is not a regular expression: a backreference "
				  "(\\1..\\9) is not extended regular expression syntax", text);
	if (nested)
		return ff_err_set(err, EINVAL, "'%s' is not a regular expression: a repetition of "
				  "something repeated ('a+*', '(ab*){2}') can take the C library "
				  "minutes to compile", text);
	if (nodes > FF_REGEX_MAX_NODES)
		return ff_err_set(err, EINVAL, "'%s' is not a regular expression: its repetitions "
				  "expand to more than %d nodes", text, FF_REGEX_MAX_NODES);
	rc = regcomp(re, text, REG_EXTENDED | REG_NOSUB);
	if (rc == 0)
		return 0;
	regerror(rc, re, msg, sizeof(msg));
	return ff_err_set(err, EINVAL, "'%s' is not a regular expression: %s", text, msg);
}
