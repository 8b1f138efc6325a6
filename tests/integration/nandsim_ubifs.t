#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 29, item 4b: the power-cut oracle.  In a qemu guest the kernel makes
# a UBIFS on nandsim and runs a workload (create, append, overwrite,
# truncate, rename, unlink, hard links, symlinks, xattrs, a deep directory,
# a file deleted while open); nanddump -o takes the flash while mounted:
# after a sync, after fsync'ed but uncommitted work (journal only), in the
# middle of a workload, and once with its last written page torn.  Each
# dump is loaded into a fresh nandsim and mounted by the kernel (journal
# replay, recovery): that mount's manifest and xattrs are the truth, and
# our reader (flashfs extract) on the same dump must give exactly them;
# flashfs check must find each dump clean.  The work is
# nandsim-tests/ubifs-kernel-check.sh -s powercut
# (scenarios/ubifs_powercut.sh); the console log stays in build/nandsim/logs/.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/ubifs-kernel-check.sh" -b "$FF_BIN" -s powercut
