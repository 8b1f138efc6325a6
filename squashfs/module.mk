# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# squashfs/: the SquashFS 4.0 format, reader and writer.
squashfs_USES := tree compress common
squashfs_PKGS := zlib
