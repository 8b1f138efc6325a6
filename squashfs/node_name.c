/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Node paths for the writer's messages. */
#include "squashfs/node_info.h"

#include <stdio.h>

const char *sqfs_node_name(const struct ff_node *n, char *buf, size_t cap)
{
	if (!n->parent) {
		snprintf(buf, cap, "/");
		return buf;
	}
	if (ff_node_path(n, buf, cap) < 0)
		snprintf(buf, cap, "%s", ff_node_name(n));
	return buf;
}
