# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ubifs/: the UBIFS reader (superblock, master node, the on-flash index,
# the journal replayed as the kernel mounts it; check.c, check_tree.c and
# check_lpt.c for `flashfs check`) and builder (write_*.c, writer.c: one
# file per node kind, xattrs, the LEB properties tree, the index); data
# codecs from zlib, liblzo2 and libzstd; the node CRC from zlib,
# liblzma's crc64 for the builder's UUID.
ubifs_USES := common compress tree
ubifs_PKGS := zlib lzo2 libzstd liblzma
