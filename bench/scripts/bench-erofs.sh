#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-erofs.sh — ffmkfs.erofs against erofs-utils' mkfs.erofs: Debian's
# 1.5, and 1.9.3 when ANCHORS=DIR holds mkfs.erofs-1.9.3 (built by
# ../shared/tools/build-anchors.sh; DIR/bin and /tmp/erofs-anchors/bin are
# tried too),
# at the same codec, level, pcluster and -E options, on a generated tree
# (small configs, text and noise files of 300 B .. 2 MiB, BENCH_MB, 40),
# on BENCH_SMALL (default 20000) small files, and on a Debian minbase
# rootfs when one is at /var/tmp/minbase (or BENCH_MINBASE).  For each:
# wall and CPU seconds (best of BENCH_RUNS, 3), peak RSS and image bytes
# of each tool, and our ratios to each (size, wall, RSS: below 1.00 is
# ours smaller / faster / leaner).  Ours and 1.9.3 run with --workers=2,
# 1.5 has one thread.  Not a test: the machine may be shared.
set -u
. "$(dirname "$0")/lib.sh"
command -v mkfs.erofs > /dev/null || { echo "bench-erofs: mkfs.erofs not installed" >&2; exit 2; }
new=
for d in "${ANCHORS:-}" "${ANCHORS:+$ANCHORS/bin}" /tmp/erofs-anchors/bin; do
	[ -n "$d" ] && [ -x "$d/mkfs.erofs-1.9.3" ] && { new=$d/mkfs.erofs-1.9.3; break; }
done

gen=$work/gen
gen_tree "$gen" "${BENCH_MB:-40}"
small=$work/small
python3 "$top/bench/scripts/gen-small-tree.py" "${BENCH_SMALL:-20000}" "$small" > /dev/null
trees="$gen $small"
minbase=${BENCH_MINBASE:-/var/tmp/minbase}
[ -d "$minbase" ] && trees="$trees $minbase"
find "$small" -exec touch -h -d @1600000000 {} +

# row NAME IMG "WALL CPU RSS"
row() {
	# shellcheck disable=SC2086
	set -- "$1" "$2" $3
	printf '  %-16s %10s %8s %8s %9s\n' "$1" "$(stat -c %s "$2")" "$3" "$4" "$5"
}

# ratios NAME OURS_IMG OURS THEIR_IMG THEIRS: ours over theirs
ratios() {
	# shellcheck disable=SC2086
	set -- "$1" "$(stat -c %s "$2")" "$(stat -c %s "$4")" $3 $5
	awk -v n="$1" -v s1="$2" -v s2="$3" -v w1="$4" -v m1="$6" -v w2="$7" -v m2="$9" 'BEGIN {
		printf "  ours / %-11s size %.3f  wall %.2f  rss %.2f\n", n, s1 / s2, w1 / w2, m1 / m2 }'
}

one() {
	local src=$1 old o9='' oo
	shift
	echo "== $(basename "$src"): $* =="
	printf '  %-16s %10s %8s %8s %9s\n' tool bytes "wall s" "cpu s" "rss KiB"
	oo=$(best "$bin/ffmkfs.erofs" "$@" -T 0 --workers=2 "$work/our.img" "$src")
	[ -n "$oo" ] || { echo "  ffmkfs.erofs failed"; return; }
	old=$(best mkfs.erofs "$@" -T 0 "$work/old.img" "$src")
	if [ -n "$old" ]; then row "mkfs.erofs 1.5" "$work/old.img" "$old"
	else echo "  mkfs.erofs 1.5   cannot (these options)"; fi
	[ -n "$new" ] && o9=$(best "$new" "$@" -T 0 --workers=2 "$work/new.img" "$src")
	[ -n "$o9" ] && row "mkfs.erofs 1.9.3" "$work/new.img" "$o9"
	row ffmkfs.erofs "$work/our.img" "$oo"
	[ -n "$old" ] && ratios 1.5 "$work/our.img" "$oo" "$work/old.img" "$old"
	[ -n "$o9" ] && ratios 1.9.3 "$work/our.img" "$oo" "$work/new.img" "$o9"
	return 0
}

echo "$(nproc) CPUs; mkfs.erofs 1.5${new:+ and 1.9.3 ($new)}; best of $runs"
for src in $trees; do
	echo "source: $src ($(du -sh "$src" | cut -f1), $(find "$src" | wc -l) entries)"
	one "$src" -zlz4hc,9 -C65536
	one "$src" -zlz4hc,9 -C65536 -Eztailpacking
	one "$src" -zlzma,6 -C131072 -Eztailpacking
	one "$src" -zlz4hc,9 -C65536 -Efragments
	one "$src" -zlz4hc,9 -C65536 -Eall-fragments
	one "$src" -zlz4
done
