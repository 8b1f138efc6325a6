# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ubi/: the UBI on-disk format (EC and VID headers, volume table), the
# ubinize-compatible writer behind mkfs.ubi and the attach-style scan that
# image/ uses to open a volume.
ubi_USES := common
ubi_PKGS := zlib
