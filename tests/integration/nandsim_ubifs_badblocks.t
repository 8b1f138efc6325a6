#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 29, item 4c: a UBIFS the kernel wrote on nandsim with eraseblocks 3,
# 9 and 40 bad and bitflips=1, dumped while mounted by nanddump each way
# (bad blocks skipped, kept, padded with 0xff; with and without OOB; once
# more after uncommitted, fsync'ed work): our reader must give the
# kernel's live tree from each dump, and flashfs check must find it clean.
# The work is nandsim-tests/ubifs-kernel-check.sh -s badblocks
# (scenarios/ubifs_badblocks.sh); the console log stays in
# build/nandsim/logs/.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/ubifs-kernel-check.sh" -b "$FF_BIN" -s badblocks
