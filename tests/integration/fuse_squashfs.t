#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs mount on SquashFS images of every codec, from mksquashfs and from
# our mkfs.squashfs: every object (type, mode, owner, size, mtime, content,
# symlink target, rdev, hard-link group, xattrs) must match the source tree,
# and inode numbers must be the ones the kernel shows for the same image.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
fuse_need
command -v mksquashfs >/dev/null || skip_all "mksquashfs missing"

fuse_make_tree "$T/src"
mksq() { mksquashfs "$T/src" "$2" -comp "$1" -noappend -quiet -no-progress >/dev/null; }
mksq gzip "$T/mksquashfs-gzip.sqfs" || skip_all "mksquashfs failed"

check_image() { # NAME IMAGE
	local name=$1 img=$2 mnt=$T/mnt-$1
	ok "$name: mounts" fuse_mount "$mnt" "$img"
	if ! mountpoint -q "$mnt"; then
		skip "not mounted" "$name: contents"
		return
	fi
	is "$(findmnt -no FSTYPE "$mnt")" fuse.flashfs "$name: listed as fuse.flashfs"
	same_manifest "$name: every object matches the source" "$T/src" "$mnt"
	is "$(stat -c %i "$mnt/a/hard2") $(stat -c %i "$mnt/owned/hard3")" \
	   "$(stat -c %i "$mnt/hard") $(stat -c %i "$mnt/hard")" "$name: hard links share an inode number"
	is "$(stat -c %h "$mnt/hard")" 3 "$name: link count 3"
	is "$(ls "$mnt/many" | wc -l)" 1500 "$name: 1500 entries in one directory"
	ok "$name: unmounts" fuse_umount "$mnt"
}

for c in gzip lzo xz lzma lz4 zstd; do
	img=$T/mksquashfs-$c.sqfs
	if [ -f "$img" ] || mksq "$c" "$img"; then
		check_image "mksquashfs-$c" "$img"
	else
		skip "mksquashfs cannot write $c here" "mksquashfs-$c"
	fi
done

# Real inode numbers: the kernel's view of the same image is the oracle.
img=$T/mksquashfs-gzip.sqfs
mkdir -p "$T/kernel"
if mount -o loop,ro "$img" "$T/kernel" 2>/dev/null; then
	fuse_mount "$T/mnt-ino" "$img"
	(cd "$T/kernel" && find . -printf '%i %n %p\n' | sort -k3) > "$T/ino.kernel"
	(cd "$T/mnt-ino" && find . -printf '%i %n %p\n' | sort -k3) > "$T/ino.fuse"
	ok "inode numbers and link counts as the kernel shows them" cmp "$T/ino.kernel" "$T/ino.fuse"
	same_manifest "same objects as the kernel mount" "$T/kernel" "$T/mnt-ino" --dir-nlink --root-entry
	fuse_umount "$T/mnt-ino"
	umount "$T/kernel"
else
	skip "loop mount not possible here" "inode numbers as the kernel shows them"
fi

# Our own builder, where it exists.
if mkfs.squashfs --help >/dev/null 2>&1; then
	for c in gzip lzo xz lz4 zstd; do
		img=$T/ours-$c.sqfs
		if mkfs.squashfs -comp "$c" "$T/src" "$img" >"$T/mkfs.log" 2>&1; then
			check_image "mkfs.squashfs-$c" "$img"
		else
			ok "mkfs.squashfs -comp $c builds" false
		fi
	done
else
	skip "mkfs.squashfs not in this build yet" "images from our mkfs.squashfs"
fi

done_testing
