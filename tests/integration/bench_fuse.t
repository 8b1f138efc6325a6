#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# make bench-fuse's script on a small tree: it mounts the image with
# flashfs, squashfuse_ll and the kernel, runs the three workloads, and
# prints one row per test with both ratios.  randread (its random-read
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
is "$(grep -cE '^lz4 +(tar|rand|find) +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+x +[0-9.]+x$' "$T/out")" 3 \
	"one row per workload, with both ratios"
ok "nothing is left mounted" sh -c "! mountpoint -q '$T/bench/mnt'"
done_testing
