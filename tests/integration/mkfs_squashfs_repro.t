#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Deterministic output: the same tree gives the same bytes whatever -j, and
# whatever order the source directory lists its entries in (a copy on ext4
# or the scratch file system, and one on tmpfs, which lists in reverse
# creation order), and whether the writer makes an image or a dry run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/mkfs_squashfs_lib.sh"

need_root
command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"

# File times differ between two copies made a second apart; --mtime clamps
# every time newer than it, so both copies describe the same tree.
OPTS="-q --mtime 1500000000 -b 16K"
make_tree "$T/a" 16384

for c in gzip xz zstd; do
	ok "$c -j1: build" mkfs.squashfs $OPTS -c $c -j 1 "$T/a" "$T/$c-j1.sqfs"
	ok "$c -j2: build" mkfs.squashfs $OPTS -c $c -j 2 "$T/a" "$T/$c-j2.sqfs"
	ok "$c: -j1 and -j2 give identical bytes" cmp "$T/$c-j1.sqfs" "$T/$c-j2.sqfs"
done
ok "-j8 on 2 cores: identical bytes" mkfs.squashfs $OPTS -c gzip -j 8 "$T/a" "$T/gzip-j8.sqfs"
ok "-j8 equals -j1" cmp "$T/gzip-j1.sqfs" "$T/gzip-j8.sqfs"

mkdir -p "$T/tmpfs"
if mount -t tmpfs -o size=200m,mode=755 none "$T/tmpfs" 2>/dev/null; then
	make_tree "$T/tmpfs/b" 16384
	# the two copies must really list differently for this to test anything
	if [ "$(ls -U "$T/a/dir300" | head -c 200)" = "$(ls -U "$T/tmpfs/b/dir300" | head -c 200)" ]; then
		skip "both copies list entries in the same order" "readdir order independence"
	else
		ok "tmpfs copy: build" mkfs.squashfs $OPTS -c gzip -j 2 "$T/tmpfs/b" "$T/copy.sqfs"
		ok "a copy listed in another order gives identical bytes" cmp "$T/gzip-j1.sqfs" "$T/copy.sqfs"
	fi
	umount "$T/tmpfs"
else
	skip "cannot mount tmpfs" "readdir order independence"
fi

# SOURCE_DATE_EPOCH means the same as --mtime.
ok "SOURCE_DATE_EPOCH: build" env SOURCE_DATE_EPOCH=1500000000 \
	mkfs.squashfs -q -b 16K -c gzip "$T/a" "$T/sde.sqfs"
ok "SOURCE_DATE_EPOCH gives the --mtime image" cmp "$T/gzip-j1.sqfs" "$T/sde.sqfs"

# --json reports the size the image has: bytes_used the superblock's,
# image_size the file's (padded).
mkfs.squashfs --json --mtime 1500000000 -b 16K "$T/a" "$T/json.sqfs" > "$T/json.out" 2>/dev/null
used=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bytes_used"])' "$T/json.out" 2>/dev/null)
is "$used" "$(python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1],"rb").read(96), 40)[0])' "$T/json.sqfs")" \
	"--json bytes_used equals the superblock's"
size=$(stat -c %s "$T/json.sqfs")
is "$((size % 4096))" "0" "image padded to 4 KiB"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["image_size"])' "$T/json.out")" "$size" \
	"--json image_size equals the file size"

done_testing
