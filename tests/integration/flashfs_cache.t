#!/bin/bash
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

# preads FILE — the pread64 count in an `strace -c` summary
preads() { awk '$NF == "pread64" {print $4}' "$1" | grep . || echo 0; }
# LeakSanitizer cannot run under ptrace; the counts mean the same without it.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0

strace -f -c -o "$T/extract.st" -e trace=pread64 flashfs extract --cache-size 1M -C "$T/out" "$T/img"
is "$?" 0 "extract with a 1M cache on 1M blocks succeeds"
ok "extract: content as the source" diff -r "$T/src" "$T/out"
n=$(preads "$T/extract.st")
ok "extract: each block read about once (got $n preads for 300 small files)" test "$n" -lt 60

mkdir -p "$T/mnt"
strace -f -c -o "$T/mount.st" -e trace=pread64 flashfs mount -f -o cache=1M "$T/img" "$T/mnt" &
for i in $(seq 100); do mountpoint -q "$T/mnt" && break; sleep 0.1; done
ok "mount: content as the source" diff -r "$T/src" "$T/mnt"
fusermount3 -u "$T/mnt"
wait
n=$(preads "$T/mount.st")
ok "mount: each block read about once (got $n preads for 300 small files)" test "$n" -lt 60
done_testing
