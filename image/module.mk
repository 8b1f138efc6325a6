# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# image/: the registry (registry.c, the only list of formats) and the one
# pipeline that detects, unwraps and opens an image; the blob scan.
image_USES := squashfs yaffs2 ubi ubifs cramfs romfs erofs squashfs_legacy jffs2 compress common
image_PKGS := blkid
