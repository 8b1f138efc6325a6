#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 31: our ffmkfs.erofs images (lz4 and lz4hc, 64 KiB pclusters,
# ztailpacking, fragments, all-fragments, dedupe, uncompressed) mounted by
# the Debian 6.1 kernel's erofs.ko in the qemu guest and compared with the
# manifest of their source: the host's 6.18 kernel is not the only one a
# board runs.  The work is nandsim-tests/erofs-kernel-check.sh
# (scenarios/erofs.sh); the console log stays in build/nandsim/logs/.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/erofs-kernel-check.sh" -b "$FF_BIN"
