#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The FUSE mounter on hostile images: each mutated image (tests/fuzz/mutate.py
# emit) is mounted with `flashfs mount`, walked (find, stat, ls -lR, read
# every file, list xattrs) under a timeout, and the mount must still answer
# afterwards.  A damaged file may fail with EIO; the daemon must not die or
# hang.  A mount that is refused must be refused with exit 1/2 and a message.
#   FF_FUSE_MUTATIONS=N (default 40), FF_MUTATE_SEED=S (default 1)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
. "$(dirname "$0")/harden_lib.sh"

fuse_need
command -v mkfs.squashfs > /dev/null || skip_all "mkfs.squashfs not built"
count=${FF_FUSE_MUTATIONS:-40}
seed=${FF_MUTATE_SEED:-1}

harden_tree "$T/src"
ok "valid images built" harden_images "$T/src" "$T/img"

# walk MNT — everything a user could do; returns 0 unless something hung.
walk() {
	local mnt=$1
	timeout 60 find "$mnt" -xdev > /dev/null 2>&1
	[ $? -eq 124 ] && return 1
	timeout 60 ls -lR "$mnt" > /dev/null 2>&1
	[ $? -eq 124 ] && return 1
	timeout 60 getfattr -R -d -m - "$mnt" > /dev/null 2>&1
	[ $? -eq 124 ] && return 1
	timeout 120 find "$mnt" -xdev -type f -exec cat {} + > /dev/null 2>&1
	[ $? -eq 124 ] && return 1
	timeout 60 find "$mnt" -xdev -type l -exec readlink {} + > /dev/null 2>&1
	[ $? -eq 124 ] && return 1
	return 0
}

# One known-bad file: garbage over the data blocks of a SquashFS image (the
# compressed ones: SquashFS has no checksums, so only a codec notices) must
# give EIO for the damaged files while the rest of the mount keeps working.
cp "$T/img/sqfs-gzip.img" "$T/eio.img"
python3 - "$T/eio.img" <<'PY'
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
inode_start = struct.unpack_from("<Q", d, 64)[0]
# Data blocks and fragments lie between the superblock and the inode table.
for o in range(200, inode_start - 8, 7):
    d[o] ^= 0x5a
open(p, "wb").write(d)
PY
mnt=$T/mnt-eio
if fuse_mount "$mnt" "$T/eio.img"; then
	err=$(cat "$mnt/usr/lib/text" 2>&1 > /dev/null)
	case $err in
	*"Input/output error"*) ok "damaged file reads fail with EIO" true ;;
	*) ok "damaged file reads fail with EIO (got: ${err:-success})" false ;;
	esac
	ok "the mount still answers after EIO" ls "$mnt/etc/init.d"
	ok "undamaged metadata still readable" test "$(readlink "$mnt/usr/rel-link")" = ../etc/passwd
	fuse_umount "$mnt"
else
	ok "mount of an image with damaged data blocks" false
fi

$MUTATE emit --out "$T/mut" --seed "$seed" --count "$count" "$T"/img/* > "$T/mut.list"
mounted=0
refused=0
while IFS=$'\t' read -r name what; do
	img=$T/mut/$name
	mnt=$T/m/$name
	mkdir -p "$mnt"
	out=$(timeout 30 flashfs mount "$img" "$mnt" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		refused=$((refused + 1))
		if [ $rc -gt 2 ] || [ -z "$out" ]; then
			ok "$name ($what): refused with exit $rc and a message" false
		fi
		continue
	fi
	mounted=$((mounted + 1))
	if ! mountpoint -q "$mnt"; then
		ok "$name ($what): mount appeared" false
		continue
	fi
	if ! walk "$mnt"; then
		ok "$name ($what): walk finished without hanging" false
	elif ! timeout 10 stat "$mnt" > /dev/null 2>&1 || ! mountpoint -q "$mnt"; then
		ok "$name ($what): mount still up after the walk" false
	fi
	fuse_umount "$mnt" || umount -l "$mnt"
	rm -rf "$img"
done < "$T/mut.list"
ok "$count mutated images: $mounted mounted, walked and still up; $refused refused cleanly" \
	test $((mounted + refused)) -eq "$count"
ok "some mutated images mounted (the test reaches the FUSE paths)" test "$mounted" -gt 0
done_testing
