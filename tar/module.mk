# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# tar/: the tar archive format (headers, PAX records, sparse maps, the
# possibly compressed stream); tree/tar_source.c puts members into the tree.
tar_USES := compress common
