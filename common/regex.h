/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Compiling a POSIX extended regular expression a user (or an attacker)
 * wrote: mksquashfs -regex excludes, -xattrs-exclude / -xattrs-include. */
#ifndef FF_COMMON_REGEX_H
#define FF_COMMON_REGEX_H

#include "common/error.h"

#include <regex.h>

/* The most nodes ff_regcomp_ere lets glibc's regcomp build.  Not memory
 * but time bounds it: regcomp's epsilon closures cost about the square of
 * the nodes when repetitions nest ("a*+*+*+..." at 8189 nodes took 2 s,
 * at 82056 nodes 39 s, where CI's options fuzzer stopped it); at 2048 the
 * worst seen is 0.1 s.  An exclude pattern is a few dozen nodes. */
#define FF_REGEX_MAX_NODES 2048

/* regcomp(re, text, REG_EXTENDED | REG_NOSUB), refusing first a pattern
 * whose repetitions would expand past FF_REGEX_MAX_NODES, one that repeats
 * something already repeated ("a+*", "(ab*){2}": glibc's epsilon closures
 * took minutes on "a.aa{0,3}{5,9}+{1,}{5,9}", 1363 nodes), and one with a
 * backreference (\1..\9: not POSIX extended syntax, and glibc matches it
 * by backtracking, exponential in the worst case).  0, or -1 with "'TEXT'
 * is not a regular expression: why" in err (nothing to free). */
int ff_regcomp_ere(regex_t *re, const char *text, struct ff_err *err);

/* The estimate itself, for tests: the nodes regcomp would build for text
 * (saturating; unbalanced text is estimated as far as it goes). */
double ff_regex_nodes(const char *text);

#endif
