# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
yaffs2_USES := tree compress common

# yaffs2/ builds only its library; the mkfs.yaffs2 program and its man page are declared in mkfs/module.mk.
