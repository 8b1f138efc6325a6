#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Hostile images of the formats that came with the format registry: seeded
# random mutations (bit flips, truncations, byte runs, boundary values) of
# valid images made by each format's own Debian tool (mkfs.ubifs,
# mkfs.jffs2 in both byte orders, mkfs.erofs, mkfs.cramfs, genromfs) and of
# SquashFS 3.x in both byte orders (tests/tools/mksqfs3.py).  On each,
# `flashfs check`, `flashfs ls -lR` and `flashfs extract` must end with
# exit 0/1/2 within a timeout and extract must write nothing outside its
# target (tests/fuzz/mutate.py, as harden_mutate.t does for SquashFS,
# YAFFS2 and UBI).
#
#   FF_MUTATIONS=N     as harden_mutate.t; this test runs N/4 (default 500)
#   FF_MUTATE_SEED=S   the seed (default 1)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/harden_lib.sh"

for p in mkfs.ubifs mkfs.jffs2 mkfs.erofs mkfs.cramfs genromfs; do
	command -v $p > /dev/null || skip_all "$p not installed"
done
count=$(( ${FF_MUTATIONS:-2000} / 4 ))
seed=${FF_MUTATE_SEED:-1}
jobs=${FF_MUTATE_JOBS:-2}
keep=$FF_BUILD/harden-mutate-formats
flashfs=$(command -v flashfs)

harden_tree "$T/src"
I=$T/img
mkdir -p "$I"
ok "valid images of every new format built" sh -c "
	mkfs.ubifs -q -r '$T/src' -m 2048 -e 126976 -c 64 -x zlib -o '$I/ubifs-zlib.img' &&
	mkfs.ubifs -q -r '$T/src' -m 2048 -e 126976 -c 64 -x lzo -o '$I/ubifs-lzo.img' &&
	mkfs.jffs2 -q -r '$T/src' -e 16384 -l -o '$I/jffs2-le.img' &&
	mkfs.jffs2 -q -r '$T/src' -e 16384 -b -n -o '$I/jffs2-be.img' &&
	mkfs.erofs '$I/erofs-plain.img' '$T/src' > /dev/null &&
	mkfs.erofs -zlz4hc '$I/erofs-lz4.img' '$T/src' > /dev/null &&
	mkfs.cramfs '$T/src' '$I/cramfs.img' > /dev/null &&
	genromfs -d '$T/src' -f '$I/romfs.img' &&
	python3 '$FF_TOP/tests/tools/mksqfs3.py' '$T/src' '$I/sqfs3-le.img' &&
	python3 '$FF_TOP/tests/tools/mksqfs3.py' --be --comp lzma-raw '$T/src' '$I/sqfs3-be.img'"
for img in "$I"/*; do
	ok "unmutated $(basename "$img") checks clean" flashfs check -q "$img"
done

# The driver reaches the parsers: of 40 damaged images of each format, some
# must be flagged (a CRC or a bound), or the mutations would be landing in
# padding only.
for img in "$I"/*; do
	rm -rf "$T/probe"
	$MUTATE emit --out "$T/probe" --seed "$seed" --count 40 "$img" > /dev/null
	bad=0
	for m in "$T"/probe/*; do
		flashfs check -q "$m" > /dev/null 2>&1 || bad=$((bad + 1))
	done
	ok "$(basename "$img"): mutations are detected by check ($bad of 40 flagged)" \
		test "$bad" -gt 8
done

rm -rf "$keep"
ok "$count mutations of UBIFS, JFFS2, EROFS, CramFS, romfs and SquashFS 3.x (seed $seed): clean exits, no hangs, no escapes" \
	$MUTATE run $MUTATE_RUN_OPTS --flashfs "$flashfs" --work "$T/work" --keep "$keep" --jobs "$jobs" \
	--seed "$seed" --count "$count" "$I"/*
done_testing
