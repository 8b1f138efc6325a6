#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# A small cache budget still caches.  The reader's block cache is sharded;
# a budget split over more shards than it holds blocks gave each shard less
# than one block, so nothing was kept and a fragment block was read and
# decoded again for every file whose tail it holds.  Counted with strace:
# preads of the image while extracting, and while reading over FUSE.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
command -v strace > /dev/null || skip_all "strace not installed"

# 300 small files share a fragment block or two; three large files have
# whole 1 MiB data blocks.
mkdir -p "$T/src/small" "$T/src/big"
for i in $(seq 1 300); do echo "file $i $(seq 1 $((i % 50)))" > "$T/src/small/f$i"; done
for i in 1 2 3; do seq 1 $((400000 * i)) > "$T/src/big/b$i"; done
mksquashfs "$T/src" "$T/img" -b 1M -comp gzip -noappend -quiet -no-progress > /dev/null

# LeakSanitizer cannot run under ptrace; the counts mean the same without it.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

strace -f -c -o "$T/extract.st" -e trace=pread64 flashfs extract --cache-size 1M -C "$T/out" "$T/img"
is "$?" 0 "extract with a 1M cache on 1M blocks succeeds"
ok "extract: content as the source" diff -r "$T/src" "$T/out"
n=$(syscall_count "$T/extract.st" pread64)
ok "extract: each block read about once (got $n preads for 300 small files)" test "$n" -lt 60

traced_mount_diff pread64 "$T/mount.st" "$T/src" "$T/img" "$T/mnt" -o cache=1M
n=$(syscall_count "$T/mount.st" pread64)
ok "mount: each block read about once (got $n preads for 300 small files)" test "$n" -lt 60
done_testing
