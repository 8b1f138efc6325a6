#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 28: our mkfs.romfs images (every object kind, odd names, hard links,
# big files, many entries, empty directories, -a and -A alignment, an empty
# tree) mounted by the Debian 6.1 kernel's romfs.ko in the qemu guest, from
# an mtdram MTD device and from a loop device, and compared with the
# manifest of their source.  romfs keeps no owners or times (the kernel
# shows 0) and its hard links come back with nlink 1 and the target's
# inode number: the hard-link column is left out and the groups are
# checked by inode number (nandsim-tests/romfs-kernel-check.sh says more).
# The work is nandsim-tests/romfs-kernel-check.sh (scenarios/romfs.sh); the
# console log stays in build/nandsim/logs/.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/romfs-kernel-check.sh" -b "$FF_BIN"
