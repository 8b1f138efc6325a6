/* Command-line option values shared by the mkfs programs: counts, sizes,
 * times and owners.  A bad value gives -1 and an ff_err naming the option
 * and the value, e.g. "--force-uid: 'nobody2' is not a number or a known
 * user"; the main prints it and exits 2. */
#ifndef FF_TREE_ARG_VALUE_H
#define FF_TREE_ARG_VALUE_H

#include <stdint.h>

#include "common/error.h"

/* A decimal number in min..max. */
int ff_arg_u32(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
	       struct ff_err *err);
/* A decimal number of bytes with an optional K or M suffix (1024-based),
 * in min..max. */
int ff_arg_size(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		struct ff_err *err);
/* A byte offset with an optional K, M or G suffix (1024-based), as
 * mksquashfs -offset takes it; at most 2^62. */
int ff_arg_offset(const char *opt, const char *s, uint64_t *out, struct ff_err *err);
/* Seconds since 1970, 0..4294967295 (what both image formats can hold). */
int ff_arg_time(const char *opt, const char *s, int64_t *out, struct ff_err *err);
/* A uid or gid: a number, or a user or group name from the host's
 * passwd/group databases. */
int ff_arg_owner(const char *opt, const char *s, int is_group, int64_t *out,
		 struct ff_err *err);

#endif
