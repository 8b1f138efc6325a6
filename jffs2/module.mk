# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# jffs2/: the JFFS2 format: reader (the kernel's scan and inode building) and
# writer (mkfs.jffs2's and sumtool's layouts; ffmkfs.jffs2 is in mkfs/module.mk).
jffs2_USES := tree compress common
jffs2_PKGS := zlib libdeflate lzo2 liblzma
