#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-jffs2.sh — ffmkfs.jffs2 against mtd-utils' mkfs.jffs2 (zlib, the
# default options, 128 KiB erase blocks) on a Debian minbase rootfs when
# one is there (lib.sh's rootfs_or_tree: BENCH_SRC, /var/tmp/minbase,
# build/rootfs/minbase), else on a generated ~50 MB tree: wall and CPU
# seconds and peak RSS of each (best of BENCH_RUNS, 3), their ratio, and
# whether the images are the same bytes.
# Not a test: the machine may be shared.
set -u
. "$(dirname "$0")/lib.sh"
command -v mkfs.jffs2 > /dev/null || { echo "bench-jffs2: mkfs.jffs2 not installed" >&2; exit 2; }
src=$(rootfs_or_tree)

echo "source: $src ($(du -sh "$src" | cut -f1)), $(nproc) CPUs, erase block 128 KiB, zlib"
ref=$(best mkfs.jffs2 -e 128KiB -r "$src" -o "$work/ref.img")
our=$(best "$bin/ffmkfs.jffs2" -e 128KiB -r "$src" -o "$work/our.img")
printf '%-14s %9s %9s %9s\n' tool "wall s" "cpu s" "rss KiB"
printf '%-14s %9s %9s %9s\n' mkfs.jffs2 $ref ffmkfs.jffs2 $our
awk -v a="${ref%% *}" -v b="${our%% *}" 'BEGIN {printf "wall ratio mkfs.jffs2 / ffmkfs.jffs2: %.2f\n", a / b}'
if cmp -s "$work/ref.img" "$work/our.img"; then
	echo "images: identical ($(stat -c %s "$work/our.img") bytes)"
else
	echo "images: DIFFERENT"; exit 1
fi
