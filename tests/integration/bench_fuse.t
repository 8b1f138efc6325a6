#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# make bench-fuse's script on a small tree: it mounts the image with
# flashfs, squashfuse_ll and the kernel (and the newest squashfuse_ll when
# ANCHORS names it), runs the four workloads, and prints one row per test
# with every ratio.  The random-order workload reads every file once, in
# an order that is shuffled and the same in every run.  randread (its random-read
# workload) reads what it is told and names a file it cannot open.
. "$(dirname "$0")/../lib.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root (drop_caches, loop mounts)"
[ -e /dev/fuse ] || skip_all "no /dev/fuse"
for p in mksquashfs squashfuse_ll fusermount3 python3; do
	command -v "$p" > /dev/null || skip_all "$p not installed"
done

mkdir -p "$T/src/d/e"
head -c 300000 /dev/urandom > "$T/src/d/big"
seq 1 20000 > "$T/src/d/e/text"
ln -s big "$T/src/d/link"
for i in $(seq 1 30); do echo "$i" > "$T/src/d/f$i"; done

printf '8192 d/big\n4096 d/e/text\n' > "$T/list"
ok "randread reads the listed pairs" "$FF_TOOLS/randread" "$T/src" "$T/list"
printf '0 d/missing\n' > "$T/bad"
out=$("$FF_TOOLS/randread" "$T/src" "$T/bad" 2>&1); rc=$?
is "$rc" 1 "randread: a file it cannot open is a failure"
ok "randread: the message names the file" grep -q "d/missing: No such file" <<< "$out"
printf 'x\n' > "$T/worse"
fails "randread: a malformed line is refused" "$FF_TOOLS/randread" "$T/src" "$T/worse"

ROOTFS=$T/src CODECS=lz4 RUNS=1 BENCH_DIR=$T/bench \
	"$FF_TOP/fuse/bench-fuse.sh" > "$T/out" 2> "$T/err"
is "$?" 0 "bench-fuse.sh runs to the end"
is "$(grep -cE '^lz4 +(tar|shuf|rand|find) +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+x +[0-9.]+x$' "$T/out")" 4 \
	"one row per workload, with both ratios"
ok "the load average is printed" grep -q "^load average after: [0-9.]" "$T/out"
ok "nothing is left mounted" sh -c "! mountpoint -q '$T/bench/mnt'"

# the random-order list: every regular file once, not in name order
(cd "$T/src" && find . -type f | LC_ALL=C sort) > "$T/files"
tr '\0' '\n' < "$T/bench/shuf.list" > "$T/shuf"
is "$(LC_ALL=C sort "$T/shuf")" "$(cat "$T/files")" "shuf: every file is read once"
fails "shuf: in shuffled order" cmp -s "$T/shuf" "$T/files"

# ANCHORS: a third mounter and its ratio; the shuffled order is the same
mkdir -p "$T/anchors"
ln -s "$(command -v squashfuse_ll)" "$T/anchors/squashfuse_ll-9.9"
ROOTFS=$T/src CODECS=lz4 RUNS=1 TESTS=shuf BENCH_DIR=$T/bench2 ANCHORS=$T/anchors \
	"$FF_TOP/fuse/bench-fuse.sh" > "$T/out2" 2> "$T/err2"
is "$?" 0 "with ANCHORS: runs to the end"
is "$(grep -cE '^lz4 +shuf( +[0-9.]+){4}( +[0-9.]+x){3}$' "$T/out2")" 1 \
	"with ANCHORS: one row, four mounters, three ratios"
ok "with ANCHORS: the newest is named" grep -q "newest: $T/anchors/squashfuse_ll-9.9" "$T/out2"
ok "shuf: the same order in another run" cmp "$T/bench/shuf.list" "$T/bench2/shuf.list"
ANCHORS=$T/src ROOTFS=$T/src CODECS=lz4 RUNS=1 TESTS=shuf BENCH_DIR=$T/bench3 \
	"$FF_TOP/fuse/bench-fuse.sh" > /dev/null 2> "$T/err3"
is "$?" 2 "ANCHORS without squashfuse_ll: exit 2"
ok "ANCHORS without squashfuse_ll: the message names it" grep -q "ANCHORS=$T/src" "$T/err3"
done_testing
