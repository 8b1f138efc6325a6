/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* chmod-style mode expressions, as mksquashfs' -root-mode, -force-file-mode,
 * -force-dir-mode and the chmod action take them: an octal number, or
 * comma-separated clauses [ugoa]*[+-=][rwxXst]* (X: execute when the entry
 * is a directory or already executable by someone). */
#include "tree/tree_priv.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int octal(const char *s, uint32_t *out)
{
	uint32_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '7' || v > 07777)
			return -1;
		v = v * 8 + (uint32_t)(*s - '0');
	}
	if (v > 07777)
		return -1;
	*out = v;
	return 0;
}

static uint32_t who_mask(const char **p)
{
	uint32_t m = 0;

	for (;; (*p)++) {
		switch (**p) {
		case 'u': m |= 04700; break;
		case 'g': m |= 02070; break;
		case 'o': m |= 01007; break;
		case 'a': m |= 07777; break;
		default: return m ? m : 07777;
		}
	}
}

static uint32_t perm_bits(const char **p, uint32_t mode)
{
	uint32_t b = 0;

	for (;; (*p)++) {
		switch (**p) {
		case 'r': b |= 0444; break;
		case 'w': b |= 0222; break;
		case 'x': b |= 0111; break;
		case 'X': b |= (S_ISDIR(mode) || (mode & 0111)) ? 0111 : 0; break;
		case 's': b |= 06000; break;
		case 't': b |= 01000; break;
		default: return b;
		}
	}
}

/* Apply one clause at *p; -1 when it is malformed. */
static int clause(const char **p, uint32_t *mode)
{
	uint32_t who = who_mask(p), perm = *mode & 07777;
	char op = **p;

	if (op != '+' && op != '-' && op != '=')
		return -1;
	while (**p == '+' || **p == '-' || **p == '=') {
		uint32_t bits;

		op = *(*p)++;
		bits = perm_bits(p, *mode) & who;
		if (op == '+')
			perm |= bits;
		else if (op == '-')
			perm &= ~bits;
		else
			perm = (perm & ~who) | bits;
	}
	*mode = (*mode & ~07777u) | perm;
	return **p == ',' || !**p ? 0 : -1;
}

int ff_mode_expr_apply(const char *expr, uint32_t *mode)
{
	uint32_t v;
	const char *p = expr;

	if (octal(expr, &v) == 0) {
		*mode = (*mode & ~07777u) | v;
		return 0;
	}
	for (;;) {
		if (clause(&p, mode) < 0)
			return -1;
		if (!*p)
			return 0;
		p++;
	}
}

int ff_mode_expr_check(const char *opt, const char *expr, struct ff_err *err)
{
	uint32_t probe = S_IFREG | 0644;

	if (ff_mode_expr_apply(expr, &probe) < 0)
		return ff_err_set(err, EINVAL, "%s: '%s' is not an octal mode or a symbolic "
				  "mode like u+rwx,go-w", opt, expr);
	return 0;
}
