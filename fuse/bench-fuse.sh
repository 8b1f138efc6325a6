#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# make bench-fuse: `flashfs mount` against squashfuse_ll and the kernel's
# loop mount, on the Debian minbase rootfs, one mksquashfs image per codec.
#
#   tar    cold whole-tree read: tar -cf - -C MNT . | wc -c
#   rand   2000 cold 4 KiB preads at fixed pseudo-random (file, offset) pairs
#   find   cold metadata walk: find MNT -ls
#
# Every measurement mounts afresh after `echo 3 > drop_caches`, so neither
# the page cache nor a mounter's own cache carries over.  The workload's own
# program (tar, find, randread) is then loaded once more before the clock
# starts: the figure is the file system's time, not the time to read
# /usr/bin/find back from disk, which is the same for every mounter and
# pulls the ratios towards 1.  The random reads come from a small C program
# (tests/tools/randread.c) for the same reason: a Python loop doing them
# costs 0.12 s even with every page cached.  Each figure is the
# median of RUNS runs (default 3); ratios are flashfs / other, lower is
# better (issue 6 targets: <= 0.6 x squashfuse, <= 1.2 x kernel).
#
# Environment: FF_BIN (programs), FF_TOOLS (test tools: randread), FF_TOP
# (source tree), ROOTFS (a directory to use instead of build/rootfs/minbase),
# CODECS, RUNS, BENCH_DIR (scratch), FLASHFS_OPTS (extra mount options for
# flashfs, e.g. "-o readahead=1M").
set -eu

FF_TOP=${FF_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
FF_BIN=${FF_BIN:-$FF_TOP/build/bin}
ROOTFS_GIVEN=${ROOTFS:-}
ROOTFS=${ROOTFS:-$FF_TOP/build/rootfs/minbase}
CODECS=${CODECS:-gzip lzo xz lz4 zstd}
RUNS=${RUNS:-3}
BENCH_DIR=${BENCH_DIR:-$FF_TOP/build/bench-fuse}
FF_TOOLS=${FF_TOOLS:-$FF_TOP/build/tests/tools}
FLASHFS=$FF_BIN/flashfs
RANDREAD=$FF_TOOLS/randread

die() { echo "bench-fuse: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (drop_caches, loop mounts)"
[ -x "$FLASHFS" ] || die "$FLASHFS not built"
[ -x "$RANDREAD" ] || die "$RANDREAD not built"
for p in mksquashfs squashfuse_ll fusermount3 python3; do
	command -v "$p" >/dev/null || die "$p missing (scripts/install-deps)"
done

# The minbase rootfs is shared with the other bench-* targets.
if [ -z "${ROOTFS_GIVEN:-}" ]; then
	"$FF_TOP/bench/scripts/bench-rootfs.sh" "$ROOTFS" >&2 || die "no rootfs (make bench-rootfs)"
fi

mkdir -p "$BENCH_DIR/mnt"
MNT=$BENCH_DIR/mnt
cleanup() { mountpoint -q "$MNT" && { fusermount3 -u "$MNT" 2>/dev/null || umount "$MNT"; }; true; }
trap cleanup EXIT

# Fixed pseudo-random 4 KiB reads, drawn once from the source tree.
python3 - "$ROOTFS" >"$BENCH_DIR/rand.list" <<'EOF'
import os, random, sys
root = sys.argv[1]
files = []
for d, _, names in os.walk(root):
    for n in names:
        p = os.path.join(d, n)
        if os.path.isfile(p) and not os.path.islink(p) and os.path.getsize(p) > 4096:
            files.append((os.path.relpath(p, root), os.path.getsize(p)))
files.sort()
rnd = random.Random(6)
for _ in range(2000):
    rel, size = rnd.choice(files)
    print(rnd.randrange(0, size - 4096) // 4096 * 4096, rel)
EOF

do_mount() { # KIND IMAGE
	case $1 in
	flashfs) "$FLASHFS" mount ${FLASHFS_OPTS:-} "$2" "$MNT" ;;
	squashfuse) squashfuse_ll "$2" "$MNT" ;;
	kernel) mount -o loop,ro "$2" "$MNT" ;;
	esac
}

do_umount() {
	case $1 in
	kernel) umount "$MNT" ;;
	*) fusermount3 -u "$MNT" ;;
	esac
	while mountpoint -q "$MNT"; do sleep 0.05; done
}

workload() { # TEST
	case $1 in
	tar) tar -cf - -C "$MNT" . | wc -c >/dev/null ;;
	find) find "$MNT" -ls >/dev/null ;;
	rand) "$RANDREAD" "$MNT" "$BENCH_DIR/rand.list" ;;
	esac
}

# Load the workload's program (and find's user-name lookups) outside the
# mount, so that the timed run reads only the image from disk.
warm_tool() { # TEST
	case $1 in
	tar) tar -cf - -C / --no-recursion . | wc -c >/dev/null ;;
	find) find / -maxdepth 0 -ls >/dev/null ;;
	rand) "$RANDREAD" / /dev/null ;;
	esac
}

# One cold measurement in seconds.
measure() { # KIND IMAGE TEST
	local t0 t1
	do_mount "$1" "$2"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	warm_tool "$3"
	t0=$EPOCHREALTIME
	workload "$3"
	t1=$EPOCHREALTIME
	do_umount "$1"
	echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}'
}

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

echo "bench-fuse: $(nproc) CPUs, $(uname -r), rootfs $(du -sh "$ROOTFS" | cut -f1)," \
     "$(find "$ROOTFS" -type f | wc -l) files; median of $RUNS cold runs, seconds"
printf '%-5s %-5s %9s %11s %8s %13s %10s\n' codec test flashfs squashfuse kernel \
       "vs squashfuse" "vs kernel"
for c in $CODECS; do
	img=$BENCH_DIR/rootfs-$c.sqfs
	[ -f "$img" ] || mksquashfs "$ROOTFS" "$img" -comp "$c" -noappend -quiet -no-progress \
		>/dev/null || die "mksquashfs -comp $c failed"
	for t in tar rand find; do
		declare -A res=()
		for k in flashfs squashfuse kernel; do : >"$BENCH_DIR/$k.times"; done
		for r in $(seq "$RUNS"); do
			for k in flashfs squashfuse kernel; do
				measure "$k" "$img" "$t" >>"$BENCH_DIR/$k.times"
			done
		done
		for k in flashfs squashfuse kernel; do res[$k]=$(median <"$BENCH_DIR/$k.times"); done
		printf '%-5s %-5s %9s %11s %8s %13s %10s\n' "$c" "$t" "${res[flashfs]}" \
		       "${res[squashfuse]}" "${res[kernel]}" \
		       "$(awk -v a="${res[flashfs]}" -v b="${res[squashfuse]}" 'BEGIN {printf "%.2fx", a / b}')" \
		       "$(awk -v a="${res[flashfs]}" -v b="${res[kernel]}" 'BEGIN {printf "%.2fx", a / b}')"
	done
done
