# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# diff/: the comparison behind `flashfs diff` (flashfs/cmd_diff.c words its
# records): two trees walked in step through common/fs.h, whatever their
# formats.  Part of libflashfs (LIBFF_MODULES), with no public API yet.
diff_USES := common
