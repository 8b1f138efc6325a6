# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# romfs/: the Linux romfs format (Documentation/filesystems/romfs.rst): the
# reader behind `flashfs`, and the genromfs-compatible writer behind
# mkfs.romfs (declared in mkfs/module.mk).
romfs_USES := tree common
