# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# erofs/: the EROFS reader and writer (superblock, inodes, directories, xattrs, the
# flat, chunked and compressed layouts, decoded with liblz4, liblzma, zlib
# and libzstd).
erofs_USES := tree compress common
erofs_PKGS := zlib libdeflate liblz4 liblzma libzstd
