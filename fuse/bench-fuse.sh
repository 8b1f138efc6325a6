#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# make bench-fuse: `flashfs mount` against Debian's squashfuse_ll, the newest
# squashfuse_ll (when ANCHORS=DIR holds squashfuse_ll-VERSION, as
# build-anchors.sh makes it) and the kernel's loop mount, on the Debian
# minbase rootfs, one mksquashfs image per codec.
#
#   tar    cold whole-tree read: tar -cf - -C MNT . | wc -c
#   shuf   cold random-order read of every file, erofs-utils' published
#          workload: `find -type f | shuf`, then one xargs cat of the list.
#          The order is fixed (shuf --random-source= a file drawn from a
#          seeded generator), so every mounter reads the same sequence.
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
# median of RUNS runs (default 3), the mounters taking turns within a run;
# ratios are flashfs / other, lower is better.  The load average is printed
# before and after: on a shared machine only the ratios of one run compare.
#
# Environment: FF_BIN (programs), FF_TOOLS (test tools: randread), FF_TOP
# (source tree), ROOTFS (a directory to use; default BENCH_SRC, else
# /var/tmp/minbase, else build/rootfs/minbase made by bench-rootfs.sh),
# CODECS, TESTS (default "tar shuf rand find"), RUNS, BENCH_DIR (scratch),
# ANCHORS (a directory with squashfuse_ll-VERSION), FLASHFS_OPTS (extra
# mount options for flashfs, e.g. "-o readahead=1M").
set -eu

FF_TOP=${FF_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
FF_BIN=${FF_BIN:-$FF_TOP/build/bin}
ROOTFS=${ROOTFS:-${BENCH_SRC:-}}
[ -z "$ROOTFS" ] && [ -d /var/tmp/minbase ] && ROOTFS=/var/tmp/minbase
ROOTFS_GIVEN=$ROOTFS
ROOTFS=${ROOTFS:-$FF_TOP/build/rootfs/minbase}
CODECS=${CODECS:-gzip lzo xz lz4 zstd}
TESTS=${TESTS:-tar shuf rand find}
RUNS=${RUNS:-3}
BENCH_DIR=${BENCH_DIR:-$FF_TOP/build/bench-fuse}
FF_TOOLS=${FF_TOOLS:-$FF_TOP/build/tests/tools}
FLASHFS=$FF_BIN/flashfs
RANDREAD=$FF_TOOLS/randread

die() { echo "bench-fuse: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "needs root (drop_caches, loop mounts)"
[ -x "$FLASHFS" ] || die "$FLASHFS not built"
[ -x "$RANDREAD" ] || die "$RANDREAD not built"
for p in mksquashfs squashfuse_ll fusermount3 python3 shuf xargs; do
	command -v "$p" >/dev/null || die "$p missing (scripts/install-deps)"
done

# The newest squashfuse_ll, when ANCHORS names a build of it.
SQLL_NEW=
if [ -n "${ANCHORS:-}" ]; then
	for f in "$ANCHORS"/squashfuse_ll-* "$ANCHORS"/squashfuse_ll; do
		[ -x "$f" ] && { SQLL_NEW=$f; break; }
	done
	[ -n "$SQLL_NEW" ] || die "ANCHORS=$ANCHORS: no squashfuse_ll in it"
fi
KINDS="flashfs squashfuse ${SQLL_NEW:+newest} kernel"

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

# The random-order list: every regular file, in a fixed shuffled order.
python3 -c 'import random, sys; sys.stdout.buffer.write(random.Random(33).randbytes(1 << 20))' \
	>"$BENCH_DIR/random-source"
(cd "$ROOTFS" && find . -type f -print0 | LC_ALL=C sort -z |
	shuf -z --random-source="$BENCH_DIR/random-source") >"$BENCH_DIR/shuf.list"

do_mount() { # KIND IMAGE
	case $1 in
	flashfs) "$FLASHFS" mount ${FLASHFS_OPTS:-} "$2" "$MNT" ;;
	squashfuse) squashfuse_ll "$2" "$MNT" ;;
	newest) "$SQLL_NEW" "$2" "$MNT" ;;
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
	shuf) (cd "$MNT" && xargs -0 -a "$BENCH_DIR/shuf.list" cat) | wc -c >/dev/null ;;
	find) find "$MNT" -ls >/dev/null ;;
	rand) "$RANDREAD" "$MNT" "$BENCH_DIR/rand.list" ;;
	esac
}

# Load the workload's program (and find's user-name lookups) outside the
# mount, so that the timed run reads only the image from disk.
warm_tool() { # TEST
	case $1 in
	tar) tar -cf - -C / --no-recursion . | wc -c >/dev/null ;;
	shuf) xargs -0 cat </dev/null | wc -c >/dev/null ;;
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

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }

echo "bench-fuse: $(nproc) CPUs, $(uname -r), rootfs $ROOTFS $(du -sh "$ROOTFS" | cut -f1)," \
     "$(find "$ROOTFS" -type f | wc -l) files; median of $RUNS cold runs, seconds"
echo "squashfuse: Debian's squashfuse_ll${SQLL_NEW:+; newest: $SQLL_NEW}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-5s %9s %11s' codec test flashfs squashfuse
[ -n "$SQLL_NEW" ] && printf ' %8s' newest
printf ' %8s %13s' kernel "vs squashfuse"
[ -n "$SQLL_NEW" ] && printf ' %10s' "vs newest"
printf ' %10s\n' "vs kernel"
for c in $CODECS; do
	img=$BENCH_DIR/rootfs-$c.sqfs
	[ -f "$img" ] || mksquashfs "$ROOTFS" "$img" -comp "$c" -noappend -quiet -no-progress \
		>/dev/null || die "mksquashfs -comp $c failed"
	for t in $TESTS; do
		declare -A res=()
		for k in $KINDS; do : >"$BENCH_DIR/$k.times"; done
		for r in $(seq "$RUNS"); do
			for k in $KINDS; do
				measure "$k" "$img" "$t" >>"$BENCH_DIR/$k.times"
			done
		done
		for k in $KINDS; do res[$k]=$(median <"$BENCH_DIR/$k.times"); done
		printf '%-5s %-5s %9s %11s' "$c" "$t" "${res[flashfs]}" "${res[squashfuse]}"
		[ -n "$SQLL_NEW" ] && printf ' %8s' "${res[newest]}"
		printf ' %8s %13s' "${res[kernel]}" "$(ratio "${res[flashfs]}" "${res[squashfuse]}")"
		[ -n "$SQLL_NEW" ] && printf ' %10s' "$(ratio "${res[flashfs]}" "${res[newest]}")"
		printf ' %10s\n' "$(ratio "${res[flashfs]}" "${res[kernel]}")"
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
