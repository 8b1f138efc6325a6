#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs mount under the read-ahead across files (prefetch=) and the read
# pool: a tree walk (tar), several walks at once, and a walk over a damaged
# image must give exactly what the kernel's loop mount gives, and exactly
# what the same mount gives with read-ahead off and one thread.  A small
# cache= makes the read-ahead run against the cache budget.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
fuse_need
command -v mksquashfs >/dev/null || skip_all "mksquashfs missing"

# 12 directories of 40 files: tiny ones sharing fragments, ones of a few
# blocks, and a few that are larger than the read-ahead window.
python3 - "$T/src" <<'EOF'
import os, random, sys
root = sys.argv[1]
rnd = random.Random(6)
words = [b'alpha', b'beta', b'gamma', b'delta', b'flash', b'block', b'inode', b'\n']
pool = bytearray()
while len(pool) < 1 << 18:
    pool += rnd.choice(words) if rnd.random() < 0.8 else os.urandom(8)
def data(n):  # compressible, and no two 4 KiB pieces in a row alike
    out = bytearray()
    while len(out) < n:
        at = rnd.randrange(0, len(pool) - 4096)
        out += pool[at:at + 4096]
    return bytes(out[:n])
for d in range(12):
    os.makedirs(os.path.join(root, 'd%02d' % d, 'sub'))
    for f in range(40):
        k = rnd.random()
        n = rnd.randrange(1, 6000) if k < 0.7 else rnd.randrange(100000, 600000) if k < 0.95 \
            else rnd.randrange(1500000, 2500000)
        sub = 'sub' if f % 7 == 3 else ''
        with open(os.path.join(root, 'd%02d' % d, sub, 'f%02d' % f), 'wb') as fp:
            fp.write(data(n))
EOF
mksquashfs "$T/src" "$T/img.sqfs" -comp gzip -noappend -quiet -no-progress >/dev/null ||
	skip_all "mksquashfs failed"
M=$T/mnt K=$T/kmnt
mkdir -p "$K"
mount -o loop,ro "$T/img.sqfs" "$K" || skip_all "no loop mount"
tar -cf - -C "$K" . | md5sum >"$T/want"
umount "$K"

walk_sum() { tar -cf - -C "$1" . 2>/dev/null | md5sum; }

for opts in cache=4M cache=4M,prefetch=0,threads=1 cache=64M,prefetch=32M,threads=3 \
	push=0 cache=4M,push=64; do
	fuse_mount "$M" "$T/img.sqfs" -o "$opts"
	is "$(walk_sum "$M")" "$(cat "$T/want")" "-o $opts: tar of the mount equals tar of the loop mount"
	fuse_umount "$M"
done

# push= stores the next small files of a directory into the page cache
# after each read, so a walk asks for far fewer of them: count the READ
# requests of a walk in the debug log, with it off and on (the default).
reads_of_walk() { # OPTS -> number of READ requests a tar of the mount made
	flashfs mount -d -o "$1" "$T/img.sqfs" "$M" 2>"$T/debug.log" & local pid=$!
	local i
	for i in $(seq 50); do mountpoint -q "$M" && break; sleep 0.1; done
	walk_sum "$M" >"$T/got.push"
	fusermount3 -u "$M"
	wait $pid
	grep -c 'opcode: READ ' "$T/debug.log"
}
off=$(reads_of_walk push=0)
is "$(cat "$T/got.push")" "$(cat "$T/want")" "push=0: tar of the mount equals tar of the loop mount"
on=$(reads_of_walk cache=64M)
is "$(cat "$T/got.push")" "$(cat "$T/want")" "push on: tar of the mount equals tar of the loop mount"
# Each small file (up to 128 KiB, one READ each without push) but the
# first of every 33 in its directory should be read from the page cache.
small=$(find "$T/src" -type f -size -129k | wc -l)
ok "push on: $((off - on)) fewer READs ($on, $off with push=0), at least half of the $small small files'" \
	test "$small" -gt 100 -a $(((off - on) * 2)) -ge "$small"

# Two walks and a reader of scattered blocks at once, read-ahead on.
fuse_mount "$M" "$T/img.sqfs" -o cache=4M
walk_sum "$M" >"$T/got1" & p1=$!
walk_sum "$M" >"$T/got2" & p2=$!
ok "scattered reads during the walks match the source" python3 - "$T/src" "$M" <<'PY'
import os, random, sys
src, mnt = sys.argv[1:]
files = sorted(os.path.join(d, n)[len(src):] for d, _, ns in os.walk(src) for n in ns)
rnd = random.Random(9)
for _ in range(400):
    rel = rnd.choice(files)
    size = os.path.getsize(src + rel)
    off = rnd.randrange(0, size)
    with open(src + rel, 'rb') as a, open(mnt + rel, 'rb') as b:
        a.seek(off); b.seek(off)
        if a.read(5000) != b.read(5000):
            sys.exit('%s differs at %d' % (rel, off))
PY
wait $p1 $p2
is "$(cat "$T/got1")" "$(cat "$T/want")" "concurrent walk 1 correct"
is "$(cat "$T/got2")" "$(cat "$T/want")" "concurrent walk 2 correct"
fuse_umount "$M"

# Damaged data: the same files fail (EIO) with read-ahead on as with it
# off, the rest reads the same, and the mount survives.  The read-ahead
# workers meet the bad blocks first; the errors must still reach readers.
python3 - "$T/img.sqfs" "$T/bad.sqfs" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
inode_start = struct.unpack_from('<Q', d, 64)[0]
for o in range(inode_start // 3, inode_start // 3 + 3000, 5):
    d[o] ^= 0x5a
open(sys.argv[2], 'wb').write(d)
PY
read_all() { # MNT -> one line per file: path and md5 or EIO
	(cd "$1" && find . -type f | sort | while read -r f; do
		sum=$(md5sum <"$f" 2>/dev/null) || sum=EIO
		printf '%s %s\n' "$f" "${sum%% *}"
	done)
}
fuse_mount "$M" "$T/bad.sqfs" -o cache=4M,prefetch=0,threads=1
read_all "$M" >"$T/bad.off"
fuse_umount "$M"
fuse_mount "$M" "$T/bad.sqfs" -o cache=4M
tar -cf - -C "$M" . 2>"$T/tar.err" | wc -c >/dev/null
# (tar, on the kernel's loop mount too, calls a read error "File shrank")
ok "tar over the damaged image names every damaged file" bash -c "
	grep ' EIO\$' '$T/bad.off' | cut -d' ' -f1 | while read -r f; do
		grep -qF \"\$f:\" '$T/tar.err' || exit 1
	done"
read_all "$M" >"$T/bad.on"
ok "the mount still answers after the errors" ls "$M/d00"
fuse_umount "$M"
ok "some files were damaged" grep -q ' EIO$' "$T/bad.off"
is "$(md5sum <"$T/bad.on")" "$(md5sum <"$T/bad.off")" "read-ahead on: same files fail, the rest reads the same"

done_testing
