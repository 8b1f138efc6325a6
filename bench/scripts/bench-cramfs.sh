#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-cramfs.sh — the two byte-identical builders against the tools they
# replace: ffmkfs.cramfs against util-linux's mkfs.cramfs (4 KiB blocks,
# ours on every CPU by default; BENCH_CRAMFS_JOBS=N gives -j N), and
# mkfs.romfs against genromfs (-V fixed, else each names the volume after
# the time), on a Debian minbase rootfs when one is there (lib.sh's
# rootfs_or_tree: BENCH_SRC, /var/tmp/minbase, build/rootfs/minbase), else
# on a generated ~50 MB tree.  Each pair takes turns BENCH_RUNS (3) times;
# printed: wall and CPU seconds and peak RSS of each one's fastest run, the
# ratios ours / theirs, and whether the images are the same bytes.
# Ours fsync the image, theirs do not: on a disk that counts in our wall
# time (the file system of BENCH_WORK is printed; put it on tmpfs to
# compare the work alone).
# Not a test: nothing is judged on time (the machine may be shared: the
# load average is printed before and after); exit 1 only when a tool fails
# or the images differ.
set -u
. "$(dirname "$0")/lib.sh"
src=$(rootfs_or_tree)
jobs=${BENCH_CRAMFS_JOBS:+-j $BENCH_CRAMFS_JOBS}

# pair THEIRS OURS CMD_THEIRS CMD_OURS — the two take turns; a table row
# each, the ratios, and cmp of $work/ref.img and $work/our.img
pair() {
	local ref our rw rc rm ow oc om
	rm -f "$work/ref.img" "$work/our.img"
	turns "$3" "$4" || { echo "failed: $3 or $4"; return 1; }
	ref=$(fastest "$work/a")
	our=$(fastest "$work/b")
	# shellcheck disable=SC2086 # the rows are three words each
	printf '%-15s %9s %9s %9s\n' tool "wall s" "cpu s" "rss KiB" "$1" $ref "$2" $our
	read -r rw rc rm <<< "$ref"
	read -r ow oc om <<< "$our"
	echo "ratio $2 / $1: wall $(ratio "$ow" "$rw"), cpu $(ratio "$oc" "$rc"), rss $(ratio "$om" "$rm")"
	if cmp -s "$work/ref.img" "$work/our.img"; then
		echo "images: identical ($(stat -c %s "$work/our.img") bytes)"
	else
		echo "images: DIFFERENT ($(stat -c %s "$work/ref.img") and $(stat -c %s "$work/our.img") bytes)"
		return 1
	fi
}

fail=0
echo "source: $src ($(du -sh "$src" | cut -f1), $(find "$src" | wc -l) entries), $(nproc) CPUs;" \
	"fastest of $runs, taking turns; load $(loadavg)"
# ours fsync the image before putting it in place, theirs do not: on a disk
# that is in our wall time (BENCH_WORK=/dev/shm/... leaves it out)
echo "images in $work ($(stat -f -c %T "$work")); ours are fsync'd, theirs are not"
if command -v mkfs.cramfs > /dev/null; then
	echo "== cramfs: -b 4096; ffmkfs.cramfs ${jobs:-(-j: the CPUs)}"
	pair mkfs.cramfs ffmkfs.cramfs "mkfs.cramfs -b 4096 $src $work/ref.img" \
		"$bin/ffmkfs.cramfs -b 4096 $jobs $src $work/our.img" || fail=1
else
	echo "== cramfs: skipped, mkfs.cramfs (util-linux) not installed"
fi
if command -v genromfs > /dev/null; then
	echo "== romfs: -V bench"
	pair genromfs mkfs.romfs "genromfs -V bench -d $src -f $work/ref.img" \
		"$bin/mkfs.romfs -V bench -d $src -f $work/our.img" || fail=1
else
	echo "== romfs: skipped, genromfs not installed"
fi
echo "load after: $(loadavg)"
exit $fail
