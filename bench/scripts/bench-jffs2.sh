#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-jffs2.sh — ffmkfs.jffs2 against mtd-utils' mkfs.jffs2 (zlib, the
# default options, 128 KiB erase blocks) on a Debian minbase rootfs when
# one is there (build/rootfs/minbase, from `make bench-rootfs`), else on
# a generated ~50 MB tree: wall and CPU seconds of each (best of
# BENCH_RUNS, 3), their ratio, and whether the images are the same bytes.
# Not a test: the machine may be shared.
set -u
bin=${FF_BIN:-build/bin}
top=${FF_TOP:-.}
runs=${BENCH_RUNS:-3}
command -v mkfs.jffs2 > /dev/null || { echo "bench-jffs2: mkfs.jffs2 not installed" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-jffs2.XXXXXX")
trap 'rm -rf "$work"' EXIT

src=$top/build/rootfs/minbase
if [ ! -d "$src" ]; then
	src=$work/tree
	mkdir -p "$src"
	# text-like and random files, 4 KiB .. 1 MiB, about 50 MB in all
	python3 - "$src" <<'PY'
import os, random, sys
r = random.Random(1)
root, total, i = sys.argv[1], 0, 0
words = [bytes(r.choice(b"abcdefghijklmnop ") for _ in range(r.randint(2, 9))) for _ in range(500)]
while total < 50 << 20:
    d = os.path.join(root, "d%02d" % (i % 40))
    os.makedirs(d, exist_ok=True)
    n = r.choice((4096, 10000, 50000, 200000, 1 << 20))
    data = os.urandom(n) if i % 5 == 0 else b" ".join(r.choice(words) for _ in range(n // 5))[:n]
    open(os.path.join(d, "f%05d" % i), "wb").write(data)
    total += n
    i += 1
PY
	find "$src" -exec touch -h -d @1600000000 {} +
fi

# best TOOL ARGS... — "wall cpu" of the fastest of $runs runs
best() {
	local i t0 t1
	for i in $(seq "$runs"); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %S' -o "$work/t" "$@" > /dev/null 2>&1 || return 1
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" '{printf "%.3f %.3f\n", b - a, $1 + $2}' "$work/t"
	done | sort -n | head -1
}

echo "source: $src ($(du -sh "$src" | cut -f1)), $(nproc) CPUs, erase block 128 KiB, zlib"
ref=$(best mkfs.jffs2 -e 128KiB -r "$src" -o "$work/ref.img")
our=$(best "$bin/ffmkfs.jffs2" -e 128KiB -r "$src" -o "$work/our.img")
printf '%-14s %9s %9s\n' tool "wall s" "cpu s"
printf '%-14s %9s %9s\n' mkfs.jffs2 $ref ffmkfs.jffs2 $our
awk -v a="${ref%% *}" -v b="${our%% *}" 'BEGIN {printf "wall ratio mkfs.jffs2 / ffmkfs.jffs2: %.2f\n", a / b}'
if cmp -s "$work/ref.img" "$work/our.img"; then
	echo "images: identical ($(stat -c %s "$work/our.img") bytes)"
else
	echo "images: DIFFERENT"; exit 1
fi
