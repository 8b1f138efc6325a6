#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs check on UBIFS, the space accounting (issue 29, item 2): the LEB
# properties tree against the LEBs and the index, and the master node's
# totals.  Images of the same tree from Debian's mkfs.ubifs (the oracle:
# its accounting is what the kernel mounts) and from ffmkfs.ubifs are
# clean; each then damaged by tests/tools/ubifs_lprops_patch.py (one
# pnode entry, or the master's total, its CRC made right again so only
# the accounting is wrong) must be reported with the LEB, the place of
# its properties and the numbers.  The kernel-written side is in
# nandsim-tests/scenarios/ubifs_build.sh (flashfs check of each volume
# after the kernel wrote and committed to it).
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ubifs > /dev/null || skip_all "mkfs.ubifs (mtd-utils) not installed"

S=$T/src
mkdir -p "$S/d"
head -c 400000 /dev/urandom > "$S/rnd"
seq 1 60000 > "$S/seq"
for i in $(seq 1 200); do echo "$i" > "$S/d/f$i"; done
# like TEXT ERE NAME: TEXT has a line matching ERE
like() { ok "$3" grep -Eq -- "$2" <<< "$1"; }
PATCH=$FF_TOP/tests/tools/ubifs_lprops_patch.py
G="-m 2048 -e 126976 -c 200"
mkfs.ubifs $G -r "$S" -o "$T/deb.img" > /dev/null 2>&1
ffmkfs.ubifs $G -r "$S" -o "$T/ours.img"

for who in deb ours; do
	img=$T/$who.img
	ok "$who: clean" flashfs check "$img"
	main=$(flashfs info "$img" | awk '$1 == "main_first_leb" {print $2}')
	idx=$(flashfs info "$img" | awk '$1 == "index_root" {split($3, a, ":"); print a[1]}')
	# a data LEB's dirty space, 8 bytes more
	cp "$img" "$T/p.img"
	python3 "$PATCH" "$T/p.img" dirty "$main" 8 > /dev/null
	out=$(flashfs check "$T/p.img" 2>&1)
	is "$?" 1 "$who: dirty space changed: check fails"
	like "$out" "LEB $main \(properties at LPT LEB [0-9]+:[0-9]+\): [0-9]+ bytes dirty, but the index uses [0-9]+ of its [0-9]+ written bytes" \
		"$who: the LEB, its properties' place and the numbers named"
	like "$out" "master node at LEB [12]:[0-9]+: total_dirty [0-9]+, the LEB properties sum to [0-9]+" \
		"$who: the master's total no longer matches"
	# free space that holds nodes
	cp "$img" "$T/p.img"
	python3 "$PATCH" "$T/p.img" free "$main" 2048 > /dev/null
	like "$(flashfs check "$T/p.img" 2>&1)" "LEB $main .*bytes free, but its nodes end at offset" \
		"$who: free space changed: named"
	# the index LEB no longer marked as one
	cp "$img" "$T/p.img"
	python3 "$PATCH" "$T/p.img" index "$idx" 0 > /dev/null
	out=$(flashfs check "$T/p.img" 2>&1)
	like "$out" "LEB $idx .*holds index nodes but is not marked an index LEB" \
		"$who: index flag cleared: named"
	like "$out" "idx_lebs [0-9]+, the LEB properties sum to" "$who: and the master's idx_lebs"
	# a data LEB marked as index
	cp "$img" "$T/p.img"
	python3 "$PATCH" "$T/p.img" index "$main" 0 > /dev/null
	like "$(flashfs check "$T/p.img" 2>&1)" "LEB $main .*marked an index LEB but holds leaf nodes" \
		"$who: index flag set on a data LEB: named"
	# the master's total alone
	cp "$img" "$T/p.img"
	python3 "$PATCH" "$T/p.img" total_dirty 0 16 > /dev/null
	out=$(flashfs check "$T/p.img" 2>&1)
	like "$out" "total_dirty [0-9]+, the LEB properties sum to" "$who: master total_dirty: named"
	is "$(printf '%s\n' "$out" | grep -c 'LEB properties sum\|bytes dirty\|bytes free')" 1 \
		"$who: and nothing else"
done
done_testing
