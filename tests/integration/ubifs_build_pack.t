#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.ubifs' placement over many LEBs: nodes of every size (stored 4 KiB
# blocks, compressed ones, file tails, inodes, entries) fill each LEB's gap
# from a window of waiting nodes.  The same bytes at 1 and 2 workers with
# lzo and zstd; flashfs check clean; the tree read back; and the image no
# larger than Debian's mkfs.ubifs makes of the same tree with the same
# options (issue 29's size goal), since the gaps it leaves are filled.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ubifs > /dev/null || skip_all "mkfs.ubifs (mtd-utils) not installed"

S=$T/src
mkdir -p "$S/rnd" "$S/txt" "$S/small"
for i in $(seq 1 40); do
	head -c $((i * 7919 + 1000)) /dev/urandom > "$S/rnd/f$i"
	seq "$i" 3 $((i * 4000)) > "$S/txt/t$i"
done
for i in $(seq 1 200); do printf 'file %d\n' "$i" > "$S/small/s$i"; done

G="-m 2048 -e 126976 -c 200"
for x in lzo zstd; do
	ok "$x: --threads 1" ffmkfs.ubifs $G -x "$x" --threads 1 -r "$S" -o "$T/$x-1.img"
	ok "$x: --threads 2" ffmkfs.ubifs $G -x "$x" --threads 2 -r "$S" -o "$T/$x-2.img"
	ok "$x: the same bytes at 1 and 2 workers" cmp "$T/$x-1.img" "$T/$x-2.img"
	ok "$x: flashfs check finds it clean" flashfs check "$T/$x-1.img"
	rm -rf "$T/out"
	flashfs extract -C "$T/out" "$T/$x-1.img" > /dev/null 2>&1
	same_manifest "$x: the tree read back" "$S" "$T/out" --no-xattrs
	mkfs.ubifs $G -x "$x" -r "$S" -o "$T/deb-$x.img"
	ours=$(stat -c %s "$T/$x-1.img")
	theirs=$(stat -c %s "$T/deb-$x.img")
	ok "$x: no larger than mkfs.ubifs' image ($ours <= $theirs bytes)" test "$ours" -le "$theirs"
done
done_testing
