# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mtd/: writing images to MTD flash and reading them back, through libmtd
# (static: -lmtd, no pkg-config file).
mtd_USES := common
mtd_LDLIBS := -lmtd
