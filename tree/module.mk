# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# tree/: the source-tree model both builders share.
tree_USES := tar compress common
