#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.squashfs against the real readers, for every codec: a tree holding
# every kind of object (see mkfs_squashfs_lib.sh) is built, mounted with the
# kernel and compared object by object (type, mode, owner, size, mtime,
# content hash, target, rdev, hard-link identity, xattrs, directory link
# counts) with the source;
# unsquashfs -lls must list it and sqfsdiff must find the same contents as
# in a mksquashfs image of the same tree.  lzma, which the kernel cannot
# mount, is checked through an unsquashfs extraction.  Option variants
# (fragments, dedup, sparse, exports, block sizes) go through the kernel too.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/mkfs_squashfs_lib.sh"

need_root
command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"
grep -qw squashfs /proc/filesystems || modprobe squashfs 2>/dev/null ||
	skip_all "kernel has no squashfs"

S=$T/src
make_tree "$S" 16384
$MANIFEST --dir-nlink "$S" > "$T/src.manifest"

# check_mount NAME IMAGE — kernel mount equals the source.
check_mount() {
	local name=$1 img=$2 m=$T/mnt
	if ! mount_image "$img" "$m" 2> "$T/mount.err"; then
		is "$(cat "$T/mount.err")" "" "$name: kernel mounts it"
		return
	fi
	$MANIFEST --dir-nlink "$m" > "$T/img.manifest" 2>&1
	umount "$m"
	ok "$name: kernel mount matches the source" diff "$T/src.manifest" "$T/img.manifest"
}

# sqfsdiff reports inode flavour (basic vs extended) next to content; only
# content matters here (mksquashfs checks zero blocks only in files with
# holes, we check every block, so an all-zero file differs in flavour).
content_diff() {
	sqfsdiff --old "$1" --new "$2" > "$T/sqfsdiff.out" 2>&1
	local rc=$?
	[ "$rc" -le 1 ] || { cat "$T/sqfsdiff.out"; return 1; }
	! grep -v -e 'has a basic type$' -e 'has an extended type$' "$T/sqfsdiff.out"
}

mksquashfs "$S" "$T/ref.sqfs" -b 16K -noappend -quiet -no-progress > /dev/null 2>&1
have_ref=$?

for c in gzip lzo xz lz4 zstd; do
	img=$T/$c.sqfs
	ok "$c: build" mkfs.squashfs -q -c "$c" -b 16K "$S" "$img"
	ok "$c: unsquashfs -lls lists it" unsquashfs -lls "$img"
	check_mount "$c" "$img"
	[ "$c" = gzip ] && ok "$c: export table maps every inode number" check_export "$img"
	if [ "$have_ref" = 0 ]; then
		ok "$c: sqfsdiff finds the contents of mksquashfs' image" content_diff "$img" "$T/ref.sqfs"
	else
		skip "mksquashfs could not build the reference" "$c: sqfsdiff"
	fi
done

# lzma: the kernel has no legacy-lzma decompressor; unsquashfs extracts it.
ok "lzma: build (with a warning about the kernel)" mkfs.squashfs -q -c lzma -b 16K "$S" "$T/lzma.sqfs"
mkfs.squashfs -c lzma -b 16K "$S" "$T/lzma2.sqfs" 2> "$T/lzma.err" > /dev/null
ok "lzma: the kernel warning names the problem" grep -q "kernel cannot mount" "$T/lzma.err"
ok "lzma: unsquashfs -lls lists it" unsquashfs -lls "$T/lzma.sqfs"
if unsquashfs -q -n -d "$T/lzma.out" "$T/lzma.sqfs" > /dev/null 2>&1; then
	# unsquashfs does not recreate sockets
	same_manifest "lzma: unsquashfs extraction matches the source" "$S" "$T/lzma.out" --no-special
else
	ok "lzma: unsquashfs extracts it" false
fi

# Option variants, all through the kernel.
variant() {
	local name=$1
	shift
	ok "$name: build" mkfs.squashfs -q --noappend "$@" "$S" "$T/v.sqfs"
	check_mount "$name" "$T/v.sqfs"
}
variant "--no-fragments" -b 16K --no-fragments
variant "--always-fragments" -b 16K --always-fragments
variant "--no-dedup --no-sparse --no-exports" -b 16K --no-dedup --no-sparse --no-exports
variant "-b 4K" -b 4K -c zstd
variant "-b 1M, default codec" -b 1M
variant "xz with a compressor-options block" -b 16K -c xz -X bcj=x86 -X dict-size=8K
variant "gzip level 1, window 10" -b 16K -X level=1 -X window=10
variant "mksquashfs spellings" -comp lz4 -Xhc -b 64K -no-duplicates -always-use-fragments -noappend

done_testing
