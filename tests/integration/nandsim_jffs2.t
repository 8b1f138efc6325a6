#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 30 (3b): JFFS2 written by the kernel in the qemu guest, on mtdram
# with 64 KiB (NOR-like) erase blocks: a workload of node versions,
# truncations, renames, unlinks, hard links, symlinks, devices, xattrs and
# fill/delete cycles that make the garbage collector move nodes; dumped
# synced but mounted, mid-write (a power cut) and after umount.  The
# kernel's own view of each dump (written to a fresh mtdram, mounted) is
# the truth: flashfs extract of the dump must give the same manifest and
# xattrs, and flashfs check must find the synced dumps clean.  The work
# is nandsim-tests/jffs2-check.sh (scenarios/jffs2.sh); the console log
# stays in build/nandsim/logs/jffs2.log.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/jffs2-check.sh" -b "$FF_BIN" -s workload
