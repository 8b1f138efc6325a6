#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 19, item 4: UBI on the kernel's NAND simulator in a qemu guest
# (nandsim-tests/scenarios/ubi.sh).  (a) our mkfs.ubi image with a SquashFS
# volume, written by flashfs flash (also over bad blocks) and by
# ubiformat -f, attaches, and its ubiblock mounts with the source's tree;
# (b) nanddump -o of devices the kernel wrote (ubiupdatevol; once with bad
# blocks, dumped both skipping and keeping them) come back to the host and
# our reader extracts the same tree; (c) under nandsim bitflips=, and with a
# torn LEB copy (newer sqnum, broken data CRC), the kernel and our reader
# read the same tree.  The work is nandsim-tests/nandsim-check.sh -s ubi,
# which prints TAP (or a SKIP with the reason where qemu or the kernel
# package cannot be had); the console log stays in build/nandsim/logs/.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/nandsim-check.sh" -b "$FF_BIN" -s ubi
