#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 7: images on the kernel's own NAND simulator (nandsim) in a qemu
# guest — SquashFS over mtdblock_ro and UBI, bad blocks, flashfs flash/dump
# with AUTO OOB, YAFFS2 images read back by our reader, bit flips, and a
# geometry mismatch (scenarios/all.sh; the UBI ones are nandsim_ubi.t).
# All the work is nandsim-tests/nandsim-check.sh, which
# prints TAP (or a SKIP with the reason where qemu or the kernel package
# cannot be had); the console log of the boot stays in build/nandsim/logs/.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/nandsim-check.sh" -b "$FF_BIN" -s all
