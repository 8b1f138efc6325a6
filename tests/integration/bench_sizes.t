#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs bench predicts image sizes: for every codec and several block
# sizes, the harness's image_size must equal, to the byte, the size of the
# image mkfs.squashfs really builds for the same settings (the bench runs
# the writer's own code without writing).  mksquashfs is a second oracle
# for gzip.
. "$(dirname "$0")/../lib.sh"

command -v python3 > /dev/null || skip_all "python3 not installed"
[ -x "$FF_BIN/mkfs.squashfs" ] || skip_all "mkfs.squashfs not built"

# A tree with what changes the block layout: sizes around block
# boundaries, empty and all-zero (sparse) files, duplicates, hard links,
# symlinks, a directory of 300 entries, nesting.
python3 - "$T/src" <<'PY'
import os, random, sys
root = sys.argv[1]
rnd = random.Random(8)
words = [''.join(rnd.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(rnd.randint(2, 9)))
         for _ in range(400)]
def text(n):
    out = []
    size = 0
    while size < n:
        w = rnd.choice(words) + (' ' if rnd.random() < 0.9 else '\n')
        out.append(w)
        size += len(w)
    return ''.join(out)[:n].encode()
def put(path, data):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb') as f:
        f.write(data)
for n in (0, 1, 100, 4095, 4096, 4097, 65535, 65536, 65537, 131071, 131072, 131073,
          262144 + 7, 1048576 + 5, 1500000):
    put('sizes/f%d' % n, text(n))
put('bin/random', bytes(rnd.getrandbits(8) for _ in range(200000)))
put('zeros/sparse', bytes(1048576 * 2))
put('zeros/mixed', bytes(131072) + text(131072) + bytes(131072))
put('dup/a', text(70000))
with open(os.path.join(root, 'dup/a'), 'rb') as f:
    d = f.read()
put('dup/b', d)
put('dup/deep/c', d)
for i in range(300):
    put('many/entry-%03d' % i, text(i * 37 % 900))
os.link(os.path.join(root, 'sizes/f4097'), os.path.join(root, 'sizes/hardlink'))
os.symlink('../sizes/f1', os.path.join(root, 'dup/link'))
os.symlink('x' * 200, os.path.join(root, 'dup/longlink'))
os.makedirs(os.path.join(root, 'a/b/c/d/e/f'))
# extended attributes, so the xattr table counts too (where the file
# system under the test directory keeps user.* attributes)
try:
    for i in range(20):
        os.setxattr(os.path.join(root, 'many/entry-%03d' % i), 'user.k%d' % (i % 3),
                    ('value-%d' % i).encode() * (i + 1))
    os.setxattr(os.path.join(root, 'sizes'), 'user.dir', b'x' * 300)
except OSError:
    pass
PY

json_size() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["image_size"])' "$1"; }
json_used() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["bytes_used"])' "$1"; }
# bytes_used from the image's superblock (little-endian u64 at offset 40)
sb_used() { python3 -c 'import struct,sys; f=open(sys.argv[1],"rb"); f.seek(40); print(struct.unpack("<Q", f.read(8))[0])' "$1"; }

# check CODEC BLOCK [extra flags for both]
check() {
	local codec=$1 bs=$2 flags=${3:-} want got
	shift 2
	if ! flashfs bench --fs squashfs -q -j2 --min-time 0 --repeats 1 -c "$codec" -b "$bs" $flags \
		--json "$T/r.json" "$T/src" > "$T/bench.out" 2>&1; then
		ok "bench $codec $bs $flags" sh -c "cat '$T/bench.out'; false"
		return
	fi
	if ! mkfs.squashfs -q --noappend -c "$codec" -b "$bs" $flags "$T/src" "$T/img" > "$T/mkfs.out" 2>&1; then
		skip "mkfs.squashfs -c $codec failed: $(head -c 200 "$T/mkfs.out")" "size $codec $bs $flags"
		return
	fi
	want=$(stat -c %s "$T/img")
	got=$(json_size "$T/r.json")
	echo "# $codec $bs $flags: mkfs.squashfs $want, harness $got, diff $((got - want))"
	is "$got" "$want" "size $codec $bs $flags: harness vs mkfs.squashfs, padded"
	is "$(json_used "$T/r.json")" "$(sb_used "$T/img")" "bytes_used $codec $bs $flags: to the byte"
}

for codec in gzip lzo xz lz4 zstd; do
	for bs in 4K 128K 1M; do
		check "$codec" "$bs"
	done
done
check gzip 64K --always-fragments
check zstd 64K --no-fragments
check lz4 32K --no-dedup

# mksquashfs as a second oracle (same splitting rules; zlib, as it compresses)
if command -v mksquashfs > /dev/null; then
	mksquashfs "$T/src" "$T/m.img" -comp gzip -b 131072 -noappend -no-progress -quiet \
		-no-xattrs > /dev/null 2>&1
	flashfs bench --fs squashfs -q --min-time 0 --repeats 1 -c gzip:zlib -b 128K --json "$T/r.json" "$T/src"
	want=$(stat -c %s "$T/m.img")
	got=$(json_size "$T/r.json")
	echo "# gzip 128K: mksquashfs $want, harness $got"
	ok "size gzip 128K: harness $got vs mksquashfs $want" \
		test $(( got > want ? got - want : want - got )) -le 8194
else
	skip "mksquashfs not installed" "size vs mksquashfs"
fi

# an existing image as the corpus gives the same prediction as its tree
if mkfs.squashfs -q -c gzip -b 128K "$T/src" "$T/g.img" > /dev/null 2>&1 &&
	flashfs bench --fs squashfs -q --min-time 0 --repeats 1 -c gzip -b 128K --json "$T/i.json" "$T/g.img" \
		> "$T/img.out" 2>&1; then
	got=$(json_size "$T/i.json")
	want=$(stat -c %s "$T/g.img")
	is "$got" "$want" "image as corpus: harness vs the image's size, to the byte"
else
	skip "image reader or mkfs not ready: $(head -c 200 "$T/img.out" 2>/dev/null)" "image as corpus"
fi
done_testing
