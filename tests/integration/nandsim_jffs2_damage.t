#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 30 (3c): ffmkfs.jffs2 and mkfs.jffs2 images damaged on the host
# (tests/tools/jffs2_damage.py: a bad data CRC, a bad header CRC, a bad
# name CRC, a torn last node, a zeroed erase block), and big-endian
# images (the kernel mounts jffs2dump's little-endian conversion), each
# mounted by the kernel in the qemu guest on mtdram: its tree is the
# truth our extract must give, and flashfs check must report the damage.
# Then an ffmkfs.jffs2 -n image written to nandsim's NAND mounts with the
# source's tree.  The work is nandsim-tests/jffs2-check.sh
# (scenarios/jffs2_damage.sh); the log is build/nandsim/logs/jffs2-damage.log.
. "$(dirname "$0")/../lib.sh"

need_root
command -v mkfs.jffs2 > /dev/null && command -v jffs2dump > /dev/null ||
	skip_all "mkfs.jffs2 and jffs2dump (mtd-utils) not installed"
"$FF_TOP/nandsim-tests/jffs2-check.sh" -b "$FF_BIN" -s damage
