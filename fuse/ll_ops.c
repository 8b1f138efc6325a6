/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The complete operation table.  forget is left to libfuse (it answers
 * with no reply): handles are stable, so lookup counts need no tracking. */
#include "fuse/ll.h"

#include <string.h>

void ff_fuse_ops(struct fuse_lowlevel_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ff_fuse_ops_node(ops);
	ff_fuse_ops_dir(ops);
	ff_fuse_ops_file(ops);
	ff_fuse_ops_xattr(ops);
	ff_fuse_ops_readonly(ops);
}
