#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# demo.sh — the project's main job on the bundled embedded rootfs:
#   1. create the rootfs (bench/rootfs/make-embedded-rootfs.sh)
#   2. build it as SquashFS with every codec (mkfs.squashfs)
#   3. build it as YAFFS2 for a 2K-page NAND (mkfs.yaffs2)
#   4. mount one of each with `flashfs mount`, list it, compare with the source
#   5. a quick `flashfs bench`: recommendation table, CSV, JSON, plot
#   6. its self-check against a plain library loop: interleaved pairs, a
#      95% interval for the speed ratio; "inconclusive" on a busy machine
#      is an answer, DIFFERS (the whole interval beyond +-10%) a failure
# and a summary of where everything is.  A step whose program fails is
# reported and makes the demo exit 1 — nothing is pretended.
#
# Environment: FF_BIN (programs, default build/bin), DEMO_OUT (default
# build/demo), ROOTFS (default build/embedded-rootfs).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${FF_BIN:-$top/build/bin}
out=${DEMO_OUT:-$top/build/demo}
rootfs=${ROOTFS:-$top/build/embedded-rootfs}
export PATH="$bin:$PATH"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
failed=()
mnt=""

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
fail() { echo "DEMO STEP FAILED: $*" >&2; failed+=("$*"); }
cleanup() {
	[ -n "$mnt" ] && mountpoint -q "$mnt" 2>/dev/null && { fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt"; }
	return 0
}
trap cleanup EXIT

mkdir -p "$out/images" "$out/logs"

say "1. embedded rootfs"
"$top/bench/rootfs/make-embedded-rootfs.sh" "$rootfs" || { fail "rootfs"; exit 1; }
src=$rootfs/root
files=$(find "$src" | wc -l)

say "2. SquashFS with every codec (128 KiB blocks, --all-root, /dev from dev.spec)"
printf '%-6s %12s %8s %8s\n' codec bytes ratio seconds
src_kb=$(du -sk --apparent-size "$src" | cut -f1)
for c in gzip lzo xz lzma lz4 zstd; do
	img=$out/images/rootfs-$c.sqfs
	t0=$(date +%s.%N)
	if mkfs.squashfs -q --noappend -c "$c" -b 128K --all-root --spec "$rootfs/dev.spec" "$src" "$img" \
		> "$out/logs/mkfs-$c.log" 2>&1; then
		t1=$(date +%s.%N)
		sz=$(stat -c %s "$img")
		printf '%-6s %12d %7.1f%% %8.2f%s\n' "$c" "$sz" \
			"$(echo "$sz $src_kb" | awk '{print 100 * $1 / ($2 * 1024)}')" \
			"$(echo "$t0 $t1" | awk '{print $2 - $1}')" \
			"$([ $c = lzma ] && echo '   (the kernel cannot mount lzma)')"
	else
		fail "mkfs.squashfs -c $c (log: $out/logs/mkfs-$c.log)"
		tail -n 5 "$out/logs/mkfs-$c.log"
	fi
done

say "3. YAFFS2 for a 2K-page NAND (2048+64, 64 pages per block)"
yimg=$out/images/rootfs-2k.yaffs2
if mkfs.yaffs2 --page-size 2048 --oob-size 64 --pages-per-block 64 --all-root \
	--spec "$rootfs/dev.spec" "$src" "$yimg" > "$out/logs/mkfs-yaffs2.log" 2>&1; then
	echo "$yimg: $(stat -c %s "$yimg") bytes"
	cat "$out/logs/mkfs-yaffs2.log"
else
	fail "mkfs.yaffs2 (log: $out/logs/mkfs-yaffs2.log)"
	tail -n 5 "$out/logs/mkfs-yaffs2.log"
fi

# mount_and_list IMAGE — flashfs mount, list, count entries against the source
mount_and_list() {
	local img=$1 n
	mnt=$(mktemp -d "$out/mnt.XXXXXX")
	if ! flashfs mount "$img" "$mnt" > "$out/logs/mount.log" 2>&1; then
		fail "flashfs mount $(basename "$img") (log: $out/logs/mount.log)"
		tail -n 5 "$out/logs/mount.log"
		rmdir "$mnt"; mnt=""
		return
	fi
	ls -l "$mnt" "$mnt/dev" | head -n 30
	echo "..."
	n=$(find "$mnt" | wc -l)
	# the spec adds /dev entries the source directory does not have
	echo "$(basename "$img"): $n entries mounted (source directory: $files + dev.spec)"
	[ "$n" -ge "$files" ] || fail "$(basename "$img"): only $n entries mounted, source has $files"
	cmp -s "$mnt/bin/busybox" "$src/bin/busybox" || fail "$(basename "$img"): /bin/busybox differs"
	fusermount3 -u "$mnt" 2>/dev/null || umount "$mnt"
	rmdir "$mnt"; mnt=""
}

say "4. mount one of each with flashfs mount"
if [ ! -c /dev/fuse ]; then
	fail "no /dev/fuse: cannot mount"
else
	for img in "$out/images/rootfs-zstd.sqfs" "$yimg"; do
		[ -f "$img" ] && mount_and_list "$img"
	done
fi

say "5. quick benchmark (flashfs bench --quick)"
flashfs bench --quick --target-flash slc-nand --json "$out/bench.json" \
	--csv "$out/bench.csv" --plot "$out/bench.svg" "$src" | tee "$out/bench.txt"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || fail "flashfs bench (exit $rc)"
[ -s "$out/bench.svg" ] || fail "no plot written"

say "6. self-check: harness figures against a plain library loop"
# Paired, interleaved measurements judged by a distribution-free interval:
# noise makes the answer "inconclusive", not DIFFERS (a false DIFFERS needs
# the interval to miss the true median, under 2.5% odds, by more than the
# band), so DIFFERS here is a fault and fails the demo like any other step.
flashfs bench --quick --self-check -q -c gzip:level=9 -c lz4 -c zstd:level=19 "$src" \
	> "$out/selfcheck.txt" 2>&1
rc=$?
cat "$out/selfcheck.txt"
[ "$rc" -eq 0 ] || fail "flashfs bench --self-check (exit $rc: see $out/selfcheck.txt)"

say "Summary"
echo "rootfs:        $src ($files entries; $rootfs/dev.spec for /dev)"
echo "images:        $out/images/ ($(ls "$out/images" | tr '\n' ' '))"
echo "bench report:  $out/bench.txt  $out/bench.csv  $out/bench.json (schema docs/schemas/bench.schema.json)"
echo "self-check:    $out/selfcheck.txt"
echo "plot:          $out/bench.svg"
echo "logs:          $out/logs/"
if [ ${#failed[@]} -gt 0 ]; then
	echo
	echo "DEMO FAILED in ${#failed[@]} step(s):"
	printf '  - %s\n' "${failed[@]}"
	exit 1
fi
echo "demo: all steps ok"
