#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.squashfs compresses gzip with libdeflate by default.  The kernel
# mounts those images and unsquashfs extracts them to the source tree, for
# the default level 9 (no options block), level 6 (a block holding 6) and
# level 12 (a block holding 12, which zlib has not got); the images are not
# the -X zlib ones (which mkfs_squashfs_parity.t compares with mksquashfs'),
# so a silent fall-back to zlib fails here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/flashfs_sqfs_tree.sh"
need_root
command -v unsquashfs > /dev/null || skip_all "unsquashfs not installed"
command -v setfattr > /dev/null || skip_all "attr tools not installed"

make_tree "$T/src"
# Real machine code, the bulk of a firmware image.
cp -p "$(command -v ls)" "$(command -v sort)" "$T/src/sub/"
mkdir -p "$T/mnt"

ok "-X zlib: build" mkfs.squashfs -q -X zlib "$T/src" "$T/zlib.img"

# check NAME IMAGE — kernel mount and unsquashfs both give the source
check() {
	if mount -o loop,ro "$2" "$T/mnt" 2> "$T/mount.err"; then
		same_manifest "$1: the kernel's mount equals the source" "$T/src" "$T/mnt"
		umount "$T/mnt"
	else
		ok "$1: the kernel mounts the image ($(cat "$T/mount.err"))" false
	fi
	rm -rf "$T/out"
	ok "$1: unsquashfs extracts it" unsquashfs -q -n -d "$T/out" "$2"
	same_manifest "$1: unsquashfs' extraction equals the source" "$T/src" "$T/out"
	fails "$1: the image is not the -X zlib one" cmp -s "$2" "$T/zlib.img"
}

for opt in "" level=6 level=12; do
	name=${opt:-default}
	img=$T/$name.img
	ok "$name: build" mkfs.squashfs -q ${opt:+-X "$opt"} "$T/src" "$img" || continue
	check "$name" "$img"
done

# What the options block says (unsquashfs reads it; 12 is not a zlib level).
opts() { flashfs info "$1" | awk '$1 == "compressor_options" {print $2}'; }
is "$(opts "$T/default.img")" "none" "default: no options block stored (level 9), and info invents none"
is "$(opts "$T/level=6.img")" "level=6,window=15,strategy=default" "level=6: recorded"
is "$(opts "$T/level=12.img")" "libdeflate,level=12" "level=12: recorded as libdeflate's"
ok "level=6: unsquashfs -stat shows compression-level 6" \
	sh -c "unsquashfs -stat '$T/level=6.img' 2>&1 | grep -q 'compression-level 6'"
fails "default: unsquashfs -stat shows no options block" \
	sh -c "unsquashfs -stat '$T/default.img' 2>&1 | grep -q 'compression-level'"
done_testing
