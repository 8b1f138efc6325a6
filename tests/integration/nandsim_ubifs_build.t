#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 29, item 4a: our ffmkfs.ubifs images (each compressor, the big LPT
# model, -F, the test key hash, several LEBs of index) written into UBI
# volumes on the kernel's NAND simulator in a qemu guest, mounted with the
# kernel's UBIFS debug checks on (index, LEB properties, the whole file
# system), their tree equal to the source, then written to, synced and
# remounted; one also through mkfs.ubi --ubifs and ubiformat -f; dmesg must stay
# free of UBIFS errors and warnings.  The work is
# nandsim-tests/ubifs-build-check.sh (scenarios/ubifs_build.sh), which
# prints TAP; the console log stays in build/nandsim/logs/.
. "$(dirname "$0")/../lib.sh"

need_root
"$FF_TOP/nandsim-tests/ubifs-build-check.sh" -b "$FF_BIN"
