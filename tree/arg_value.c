/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Option values of the mkfs programs.  Numbers go through the same
 * strict parser as spec and pseudo files (no sign, no blanks, no junk). */
#include "tree/arg_value.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "common/size.h"
#include "tree/tree_priv.h"

int ff_arg_u32(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
	       struct ff_err *err)
{
	uint32_t v;

	if (ff_parse_u32(s, 10, max, &v) || v < min)
		return ff_err_set(err, EINVAL, "%s: '%s' is not a number from %u to %u", opt, s,
				  min, max);
	*out = v;
	return 0;
}

int ff_arg_size(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		struct ff_err *err)
{
	uint64_t v;

	if (ff_parse_size(s, &v) < 0 || v < min || v > max)
		return ff_err_set(err, EINVAL, "%s: '%s' is not a size from %u to %u bytes ("
				  FF_SIZE_SYNTAX ")", opt, s, min, max);
	*out = (uint32_t)v;
	return 0;
}

/* The syntax and the range get their own messages: "128KB" is no size,
 * "3000" is a size but not a power of two. */
int ff_arg_pow2(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		struct ff_err *err)
{
	uint64_t v;

	if (ff_parse_size(s, &v) < 0)
		return ff_err_set(err, EINVAL, "%s: '%s' is not a size (" FF_SIZE_SYNTAX ")",
				  opt, s);
	if (v < min || v > max || (v & (v - 1)))
		return ff_err_set(err, EINVAL, "%s: '%s' is not a power of two from %u to %u "
				  "bytes", opt, s, min, max);
	*out = (uint32_t)v;
	return 0;
}

int ff_arg_offset(const char *opt, const char *s, uint64_t *out, struct ff_err *err)
{
	uint64_t v;

	if (ff_parse_size(s, &v) < 0 || v > (UINT64_C(1) << 62))
		return ff_err_set(err, EINVAL, "%s: '%s' is not a byte offset up to 2^62 ("
				  FF_SIZE_SYNTAX ")", opt, s);
	*out = v;
	return 0;
}

int ff_arg_time(const char *opt, const char *s, int64_t *out, struct ff_err *err)
{
	uint32_t v;

	if (ff_parse_u32(s, 10, UINT32_MAX, &v))
		return ff_err_set(err, EINVAL, "%s: '%s' is not a time in seconds since 1970 "
				  "(0..4294967295)", opt, s);
	*out = v;
	return 0;
}

/* getpwnam_r/getgrnam_r: the reentrant forms, as library code must be. */
static int id_of_name(const char *name, int is_group, uint32_t *id)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	if (is_group) {
		if (getgrnam_r(name, &gr, buf, sizeof(buf), &grp) || !grp)
			return -1;
		*id = grp->gr_gid;
	} else {
		if (getpwnam_r(name, &pw, buf, sizeof(buf), &pwp) || !pwp)
			return -1;
		*id = pwp->pw_uid;
	}
	return 0;
}

int ff_arg_owner(const char *opt, const char *s, int is_group, int64_t *out,
		 struct ff_err *err)
{
	uint32_t v;

	if (ff_parse_u32(s, 10, UINT32_MAX, &v) && id_of_name(s, is_group, &v))
		return ff_err_set(err, EINVAL, "%s: '%s' is not a number or a known %s", opt, s,
				  is_group ? "group" : "user");
	*out = v;
	return 0;
}
