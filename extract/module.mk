# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright (C) 2026 The flashfs-tools authors
# extract/: the extraction service behind `flashfs extract` and libflashfs's
# <flashfs/extract.h>: an image opened through image/'s pipeline (or every
# image a blob scan finds) unpacked into a directory, nothing printed.
# Part of libflashfs (LIBFF_MODULES): it needs neither libfuse3 nor libmtd.
extract_USES := image common
