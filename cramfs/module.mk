# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# cramfs/: CramFS (Linux's compressed ROM file system), reader and writer.
# The ffmkfs.cramfs program and its man page are declared in mkfs/module.mk.
cramfs_USES := tree compress common
cramfs_PKGS := zlib
