# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Fuzzing (libFuzzer + ASan + UBSan, clang).  Included at the end of the
# top-level Makefile.
#
#   make fuzz FUZZ_SECONDS=N   seed corpora, then each target for N seconds
#   make fuzz-ci               the reproducible short pass CI runs: fixed
#                              seeds, FUZZ_CI_SEED, a fixed number of runs
#                              per target (tests/fuzz/run-fuzz.sh)
#   make fuzz-regress          every committed seed and regression input once
#                              through each target (no fuzzing)
#   make fuzz-bins             just build build/fuzz/fuzz_<target>
#
# The libraries are rebuilt with clang and the sanitizers into FUZZ_BUILD
# by a nested make (the top Makefile honours CC, BUILD, CFLAGS, LDFLAGS),
# and each target is linked there with -fsanitize=fuzzer.  Crashes land in
# FUZZ_BUILD/artifacts/<target>/; minimised reproducers belong in
# tests/fuzz/regress/<target>/ (see docs/fuzzing.md).

FUZZ_BUILD   ?= build/fuzz
FUZZ_SECONDS ?= 60
FUZZ_CI_SEED ?= 1
FUZZ_CC      ?= clang
FUZZ_TARGETS := squashfs yaffs2 ubi decompress cstream spec pseudo tar action image
# the formats that arrived with the registry (each folder's parser)
FUZZ_TARGETS += ubifs cramfs romfs erofs squashfs_legacy jffs2
# mkfs.squashfs' option parser (mkfs/squashfs_args.c)
FUZZ_TARGETS += options
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_LDFLAGS := $(FUZZ_SAN)
# Libraries the parsers live in (with what they use, in layer order).
FUZZ_MODULES := image squashfs yaffs2 ubi jffs2 squashfs_legacy erofs romfs cramfs ubifs tree
FUZZ_MODULES += mkfs
FUZZ_SUPPORT := tests/fuzz/fuzz_util.c tests/fuzz/fuzz_tree_common.c

FUZZ_SUB := $(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) \
            CFLAGS="$(FUZZ_CFLAGS)" LDFLAGS="$(FUZZ_LDFLAGS)" FUZZ_INNER=1

.PHONY: fuzz fuzz-bins fuzz-ci fuzz-regress fuzz-seeds

ifeq ($(FUZZ_INNER),1)
# Inside the nested make: BUILD is FUZZ_BUILD and CC is clang.
FUZZ_LIBS := $(call link_libs,$(FUZZ_MODULES))

fuzz-bins: $(foreach t,$(FUZZ_TARGETS),$(BUILD)/fuzz_$(t)) $(BUILD)/seed_blocks

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SUPPORT) tests/fuzz/*.h $(FUZZ_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_SUPPORT) \
		$(call link_flags,$(FUZZ_MODULES))

$(BUILD)/seed_blocks: tests/fuzz/seed_blocks.c $(FUZZ_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(call link_flags,$(FUZZ_MODULES))
else
# make does not see a change of flags, so objects built with other flags
# (an older fuzz.mk) are dropped first.
fuzz-bins:
	@mkdir -p $(FUZZ_BUILD)
	@if [ "$$(cat $(FUZZ_BUILD)/.flags 2>/dev/null)" != "$(FUZZ_CC) $(FUZZ_CFLAGS)" ]; then \
		rm -rf $(FUZZ_BUILD)/obj $(FUZZ_BUILD)/lib; \
		echo "$(FUZZ_CC) $(FUZZ_CFLAGS)" > $(FUZZ_BUILD)/.flags; fi
	@$(FUZZ_SUB) fuzz-bins

# Seeds need the regular programs (from $(BUILD)) to build small images.
fuzz-seeds: all fuzz-bins
	rm -rf $(FUZZ_BUILD)/seeds
	tests/fuzz/make-seeds.sh $(abspath $(BUILD)/bin) $(FUZZ_BUILD)/seeds
	mkdir -p $(FUZZ_BUILD)/seeds/decompress
	$(FUZZ_BUILD)/seed_blocks $(FUZZ_BUILD)/seeds/decompress

# Fuzzing time accumulates: FUZZ_BUILD/corpus/<target> is kept between runs.
fuzz: fuzz-seeds
	tests/fuzz/run-fuzz.sh fuzz $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# A fresh corpus each time, so the pass depends only on the commit and seed.
fuzz-ci: fuzz-seeds
	tests/fuzz/run-fuzz.sh ci $(FUZZ_BUILD) $(FUZZ_CI_SEED) $(FUZZ_TARGETS)
endif

# Runs each committed seed and regression input once (no fuzzing).
fuzz-regress: fuzz-bins
	tests/fuzz/run-fuzz.sh regress $(FUZZ_BUILD) $(FUZZ_TARGETS)
