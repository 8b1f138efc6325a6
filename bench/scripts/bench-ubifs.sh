#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-ubifs.sh — ffmkfs.ubifs against mtd-utils' mkfs.ubifs (Debian's,
# 2.1.5 at the time of writing) on a Debian minbase rootfs when one is
# there (BENCH_UBIFS_SRC, else /var/tmp/minbase, else build/rootfs/minbase
# from `make bench-rootfs`), else on a generated ~50 MB tree; with -x lzo
# and -x zstd, 2 KiB pages and 124 KiB LEBs: the median wall time of
# BENCH_RUNS (3) runs of each, CPU seconds, their ratio, the image sizes
# and their ratio.  Issue 29's goal: time ratio <= 0.50, size ratio <=
# 1.00.  Not a test: the machine may be shared (the load is printed).
set -u
bin=${FF_BIN:-build/bin}
top=${FF_TOP:-.}
runs=${BENCH_RUNS:-3}
command -v mkfs.ubifs > /dev/null || { echo "bench-ubifs: mkfs.ubifs not installed" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-ubifs.XXXXXX")
trap 'rm -rf "$work"' EXIT

src=${BENCH_UBIFS_SRC:-}
for d in /var/tmp/minbase "$top/build/rootfs/minbase"; do
	[ -z "$src" ] && [ -d "$d" ] && src=$d
done
if [ -z "$src" ]; then
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
G="-m 2048 -e 126976 -c 8000"

# median TOOL ARGS... — "wall cpu" of the median of $runs runs
median() {
	local i t0 t1
	for i in $(seq "$runs"); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %S' -o "$work/t" "$@" > /dev/null 2>&1 || return 1
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" '{printf "%.3f %.3f\n", b - a, $1 + $2}' "$work/t"
	done | sort -n | awk '{v[NR] = $0} END {print v[int((NR + 1) / 2)]}'
}

echo "source: $src ($(du -sh "$src" | cut -f1), $(find "$src" | wc -l) entries)," \
	"$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(mkfs.ubifs --version 2>&1 | head -n 1)"
printf '%-6s %-13s %9s %9s %12s\n' codec tool "wall s" "cpu s" "image bytes"
fail=0
for x in lzo zstd; do
	ref=$(median mkfs.ubifs $G -x "$x" -r "$src" -o "$work/ref.img") || { echo "mkfs.ubifs -x $x failed"; exit 2; }
	our=$(median "$bin/ffmkfs.ubifs" $G -x "$x" -r "$src" -o "$work/our.img") || { echo "ffmkfs.ubifs -x $x failed"; exit 2; }
	rs=$(stat -c %s "$work/ref.img")
	os=$(stat -c %s "$work/our.img")
	printf '%-6s %-13s %9s %9s %12s\n' "$x" mkfs.ubifs $ref "$rs" "$x" ffmkfs.ubifs $our "$os"
	awk -v a="${ref%% *}" -v b="${our%% *}" -v rs="$rs" -v os="$os" -v x="$x" 'BEGIN {
		t = b / a; s = os / rs
		printf "%-6s time ratio ffmkfs/mkfs %.2f (goal <= 0.50: %s), size ratio %.4f (goal <= 1.00: %s)\n",
			x, t, t <= 0.5 ? "met" : "MISSED", s, s <= 1.0 ? "met" : "MISSED" }'
	"$bin/flashfs" check "$work/our.img" > /dev/null 2>&1 || { echo "$x: our image is not clean"; fail=1; }
done
exit $fail
