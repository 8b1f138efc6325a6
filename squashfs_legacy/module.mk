# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# squashfs_legacy/: SquashFS 1.x, 2.x and 3.x (both byte orders), read only.
squashfs_legacy_USES := compress common
squashfs_legacy_PKGS := zlib liblzma
