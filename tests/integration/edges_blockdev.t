#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.squashfs writes to a block device as IMAGE, as mksquashfs does
# (issue 32 item 6): in place (no temporary beside a /dev node), sized with
# BLKGETSIZE64, refused while mounted, and an image larger than the device
# is refused saying by how many bytes.  A device that holds a SquashFS
# image is not replaced silently: --noappend says so.  Oracle: the kernel
# mounts the loop device and its tree equals the source.
. "$(dirname "$0")/../lib.sh"
need_root
command -v losetup >/dev/null || skip_all "losetup (util-linux) missing"

mkdir -p "$T/src/d"
head -c 2M /dev/urandom >"$T/src/d/big"
seq 1 30000 >"$T/src/text"
ln -s d/big "$T/src/link"
truncate -s 6M "$T/dev.img"
LOOP=$(losetup -f --show "$T/dev.img") || skip_all "no loop device"
mkdir "$T/mnt"
trap 'umount "$T/mnt" 2>/dev/null; losetup -d "$LOOP"; _tap_cleanup' EXIT

ok "mkfs.squashfs SOURCE $LOOP" mkfs.squashfs -q "$T/src" "$LOOP"
ok "it is still the block device" test -b "$LOOP"
ok "the kernel mounts it" mount -o ro "$LOOP" "$T/mnt"
same_manifest "the kernel's tree equals the source" "$T/src" "$T/mnt"
mkfs.squashfs -q -noappend "$T/src" "$LOOP" 2>"$T/err"
is "$?" 2 "while mounted: exit 2"
ok "... the device is named busy" grep -q "$LOOP: cannot open the block device (mounted or in use)" "$T/err"
umount "$T/mnt"

mkfs.squashfs -q "$T/src" "$LOOP" 2>"$T/err"
is "$?" 2 "a device holding an image, without --noappend: exit 2"
ok "... says to give --noappend" grep -q "give --noappend to replace it" "$T/err"
echo new >"$T/src/new"
ok "--noappend replaces it" mkfs.squashfs -q -noappend "$T/src" "$LOOP"
mount -o ro "$LOOP" "$T/mnt"
same_manifest "the kernel reads the new tree" "$T/src" "$T/mnt"
umount "$T/mnt"

head -c 7M /dev/urandom >"$T/src/huge"
mkfs.squashfs -q -noappend "$T/src" "$LOOP" 2>"$T/err"
is "$?" 2 "an image larger than the device: exit 2"
ok "... says by how much" \
	grep -Eq "$LOOP: the image needs [0-9]+ bytes, the device has 6291456: [0-9]+ bytes too small" "$T/err"
need=$(sed -n 's/.*needs \([0-9]*\) bytes.*/\1/p' "$T/err")
is "$(( need - 6291456 ))" "$(sed -n 's/.*: \([0-9]*\) bytes too small.*/\1/p' "$T/err")" "... the difference adds up"
ok "no temporary beside the device node" bash -c "! ls /dev | grep -q '^$(basename "$LOOP").tmp'"

done_testing
