# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# common/: what every folder needs and no format owns (see docs/ARCHITECTURE.md).
common_USES :=
common_PKGS := zlib ext2fs
