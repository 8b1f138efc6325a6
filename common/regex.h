/* Compiling a POSIX extended regular expression a user (or an attacker)
 * wrote: mksquashfs -regex excludes, -xattrs-exclude / -xattrs-include. */
#ifndef FF_COMMON_REGEX_H
#define FF_COMMON_REGEX_H

#include "common/error.h"

#include <regex.h>

/* The most nodes ff_regcomp_ere lets glibc's regcomp build (about 100
 * bytes each); a{32767}, POSIX's largest count, still fits. */
#define FF_REGEX_MAX_NODES 131072

/* regcomp(re, text, REG_EXTENDED | REG_NOSUB), refusing first a pattern
 * whose repetitions would expand past FF_REGEX_MAX_NODES.  0, or -1 with
 * "'TEXT' is not a regular expression: why" in err (nothing to free). */
int ff_regcomp_ere(regex_t *re, const char *text, struct ff_err *err);

/* The estimate itself, for tests: the nodes regcomp would build for text
 * (saturating; unbalanced text is estimated as far as it goes). */
double ff_regex_nodes(const char *text);

#endif
