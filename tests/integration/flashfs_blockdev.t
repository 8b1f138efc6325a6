#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Images on block devices and inside firmware blobs: flashfs info/ls/
# extract/check/mount on a loop device holding a mksquashfs image (sized
# with BLKGETSIZE64, not fstat's 0), the same commands with --offset on a
# blob with the image 4096 bytes in, the hint naming that offset when none
# is given (SquashFS and YAFFS2), and mount(8)'s offset= and loop spellings
# through mount.fuse.flashfs.  Trees are compared with unsquashfs' output.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
fuse_need
for tool in mksquashfs unsquashfs losetup; do
	command -v $tool >/dev/null || skip_all "$tool missing"
done

fuse_make_tree "$T/src" 50
mksquashfs "$T/src" "$T/img.sqfs" -noappend -quiet -no-progress >/dev/null || skip_all "mksquashfs failed"
unsquashfs -q -n -d "$T/ref" "$T/img.sqfs" >/dev/null || skip_all "unsquashfs failed"
head -c 4096 /dev/urandom >"$T/blob.bin"
cat "$T/img.sqfs" >>"$T/blob.bin"
head -c 1000 /dev/urandom >>"$T/blob.bin"
M=$T/mnt
mkdir -p "$M"
BYTES_USED=$(flashfs info "$T/img.sqfs" | awk '$1 == "bytes_used" {print $2}')

LOOPS=()
cleanup() {
	local l
	_tap_cleanup
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	[ -n "${HELPER:-}" ] && rm -f /sbin/mount.fuse.flashfs
}
trap cleanup EXIT
loop_of() { # FILE [losetup options] — attach, remember for cleanup
	local l
	l=$(losetup -f --show -r "$@") || return 1
	LOOPS+=("$l")
	echo "$l"
}

# every command on IMAGE (with OPTS) against the reference tree; NAME names the case
all_commands() {
	local name=$1 img=$2
	shift 2
	flashfs info "$@" "$img" >"$T/info" 2>&1
	is "$?" 0 "$name: info exits 0"
	is "$(awk '$1 == "bytes_used" {print $2}' "$T/info")" "$BYTES_USED" \
		"$name: info gives the superblock's bytes_used"
	is "$(flashfs ls -R "$@" "$img" 2>&1)" "$(flashfs ls -R "$T/img.sqfs")" "$name: ls -R"
	rm -rf "$T/out"
	ok "$name: extract" flashfs extract -C "$T/out" "$@" "$img"
	same_manifest "$name: extracted tree as unsquashfs'" "$T/ref" "$T/out"
	ok "$name: check" flashfs check -q "$@" "$img"
	ok "$name: mount" fuse_mount "$M" "$img" "$@"
	same_manifest "$name: mounted tree as unsquashfs'" "$T/ref" "$M"
	fuse_umount "$M"
}

# --- a loop device holding the image
L=$(loop_of "$T/img.sqfs") || skip_all "losetup failed"
all_commands "loop device" "$L"

# --- a firmware blob: 4096 random bytes, the image, a trailer
all_commands "blob --offset 4096" "$T/blob.bin" --offset 4096
ok "blob: mount -o offset=4096" fuse_mount "$M" "$T/blob.bin" -o offset=4096
same_manifest "blob: mounted with -o offset= tree as unsquashfs'" "$T/ref" "$M"
fuse_umount "$M"
ok "blob: flashfs --offset 4096 mount (global option)" flashfs --offset 4096 mount "$T/blob.bin" "$M"
same_manifest "blob: mounted with the global --offset" "$T/ref" "$M"
fuse_umount "$M"
flashfs info "$T/blob.bin" >/dev/null 2>"$T/err"
is "$?" 2 "blob without --offset: exit 2"
ok "blob without --offset: says where the image is" \
	grep -q "^flashfs info: $T/blob.bin: no image at offset 0; a SquashFS image (version 4.0, little-endian, gzip, .*) is at offset 4096: try --offset 4096\$" "$T/err"
flashfs mount "$T/blob.bin" "$M" 2>"$T/err"
is "$?" 2 "mount of the blob without offset=: exit 2"
ok "mount of the blob: hint in mount's spelling" grep -q "try -o offset=4096" "$T/err"
LB=$(loop_of "$T/blob.bin")
flashfs ls "$LB" >/dev/null 2>"$T/err"
ok "blob on a loop device: the hint too" grep -q "is at offset 4096: try --offset 4096" "$T/err"
losetup -d "$LB" # mount(8) refuses a second loop device over the same bytes below

# --- YAFFS2 behind 8192 zero bytes
mkdir -p "$T/ysrc/d"
echo small >"$T/ysrc/d/f"
seq 100000 >"$T/ysrc/seq"
ok "mkfs.yaffs2" mkfs.yaffs2 "$T/ysrc" "$T/y.img"
{ head -c 8192 /dev/zero; cat "$T/y.img"; } >"$T/yblob"
flashfs info "$T/yblob" >/dev/null 2>"$T/err"
is "$?" 2 "YAFFS2 blob without --offset: exit 2"
ok "YAFFS2 blob: says where the image is" \
	grep -q "no image at offset 0; a YAFFS2 image (.*) is at offset 8192: try --offset 8192" "$T/err"
is "$(flashfs ls -R --offset 8192 "$T/yblob" 2>&1)" "$(flashfs ls -R "$T/y.img" 2>&1)" \
	"YAFFS2 blob: ls -R --offset 8192"

# --- nothing anywhere: the plain message, exit 2
head -c 3000000 /dev/urandom >"$T/junk"
flashfs info "$T/junk" >/dev/null 2>"$T/err"
is "$?" 2 "random bytes: exit 2"
ok "random bytes: not an image, no offset offered" \
	bash -c "grep -q 'not an image flashfs knows' '$T/err' && ! grep -q 'try' '$T/err'"
flashfs info --offset 1 "$T/img.sqfs" >/dev/null 2>"$T/err"
is "$?" 2 "wrong --offset: exit 2"

# --- mount(8): offset= and loop through /sbin/mount.fuse.flashfs
helper=$(command -v mount.fuse.flashfs)
if [ -z "$helper" ] || [ -e /sbin/mount.fuse.flashfs ]; then
	skip "mount.fuse.flashfs not built, or /sbin/mount.fuse.flashfs exists already" "mount(8) -o offset="
	skip "as above" "mount(8) -o loop"
else
	HELPER=1
	cp "$helper" /sbin/mount.fuse.flashfs
	ok "mount -t fuse.flashfs -o offset=4096 (a loop device made by mount(8))" \
		mount -t fuse.flashfs -o ro,offset=4096 "$T/blob.bin" "$M"
	same_manifest "mount(8) offset=: tree as unsquashfs'" "$T/ref" "$M"
	ok "umount" umount "$M"
	ok "mount -t fuse.flashfs -o loop" mount -t fuse.flashfs -o loop,ro "$T/img.sqfs" "$M"
	same_manifest "mount(8) loop: tree as unsquashfs'" "$T/ref" "$M"
	ok "umount" umount "$M"
	rm -f /sbin/mount.fuse.flashfs
	HELPER=
fi

done_testing
