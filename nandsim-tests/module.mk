# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# nandsim-tests/: end-to-end checks on the Linux kernel's NAND simulator,
# booted under qemu (see nandsim-tests/run-guest.sh).  Not a C library
# folder: the top Makefile includes this file on its own line.
# Console logs are kept in build/nandsim/logs/.
nandsim-check: all
	$(TEST_ENV) nandsim-tests/nandsim-check.sh -b $(abspath $(BUILD)/bin)
	$(TEST_ENV) nandsim-tests/ubifs-build-check.sh -b $(abspath $(BUILD)/bin)

MANPAGES += docs/man/flashfs-flash.1 docs/man/flashfs-dump.1

# ---- kernel oracles for the UBIFS and romfs readers (issues 28, 29) ----
# One guest boot each: UBIFS power-cut dumps, UBIFS over bad blocks, our
# romfs images on romfs.ko, our EROFS images on the 6.1 kernel's erofs.ko
# (nandsim-tests/README.md).
.PHONY: nandsim-check-oracles
nandsim-check: nandsim-check-oracles
nandsim-check-oracles: all
	$(TEST_ENV) nandsim-tests/ubifs-kernel-check.sh -b $(abspath $(BUILD)/bin) -s powercut
	$(TEST_ENV) nandsim-tests/ubifs-kernel-check.sh -b $(abspath $(BUILD)/bin) -s badblocks
	$(TEST_ENV) nandsim-tests/romfs-kernel-check.sh -b $(abspath $(BUILD)/bin)
	$(TEST_ENV) nandsim-tests/erofs-kernel-check.sh -b $(abspath $(BUILD)/bin)
