/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* An inode's extended attributes, as names and values the VFS would show:
 * the prefix id gives the namespace ("user.", "security.", "trusted.",
 * the two POSIX ACL names), and ACL values are turned from JFFS2's stored
 * form into the xattr form (acl.c as facts). */
#ifndef FF_JFFS2_XATTR_H
#define FF_JFFS2_XATTR_H

#include <stddef.h>
#include <stdint.h>

#include "jffs2/tree.h"

/* Returns non-zero to stop the walk. */
typedef int (*j2_xattr_visit_fn)(void *ctx, const char *name, size_t name_len,
				 const uint8_t *value, size_t value_len);

/* Every attribute of in, in binding order; 0, or -ENOMEM. */
int j2_xattr_walk(const struct j2_scan *s, const struct j2_ino *in, j2_xattr_visit_fn fn,
		  void *ctx);

/* The POSIX ACL xattr value for a JFFS2 ACL of n bytes in byte order big:
 * its length, or -1 when the stored ACL is malformed.  out needs room for
 * 4 + 8 * entries, at most 4 + 2 * n bytes. */
long j2_acl_to_xattr(const uint8_t *acl, size_t n, int big, uint8_t *out);

#endif
