#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The romfs reader against genromfs (the oracle that writes the format):
# images of a generated tree read back as the tree (contents, types, the
# kernel's modes, devices, hard links); info and check report the
# superblock; damaged images (truncated, bad checksums, loops, offsets past
# the end, random bytes) are refused or reported cleanly, never a crash or
# a hang.
. "$(dirname "$0")/romfs_lib.sh"

romfs_tree "$T/src"
genromfs -f "$T/a.img" -d "$T/src" -V "read test" 2> "$T/gen.err"
is "$?" 0 "genromfs builds the image"

flashfs info "$T/a.img" > "$T/info" 2>&1
is "$?" 0 "info exits 0"
ok "info names the format and the volume" \
	sh -c "grep -q '^format *romfs' '$T/info' && grep -q '^volume_name *read test' '$T/info'"
ok "info shows the checksum as ok" grep -q '^checksum_ok *yes' "$T/info"
flashfs check "$T/a.img" > "$T/check" 2>&1
is "$?" 0 "check finds the genromfs image clean"
flashfs info --json "$T/a.img" > "$T/info.json" 2>&1
ok "info --json follows docs/schemas/info.schema.json" \
	python3 "$FF_TOP/tests/tools/json_validate.py" "$FF_TOP/docs/schemas/info.schema.json" \
	"$T/info.json"

flashfs extract -C "$T/out" "$T/a.img" > "$T/ex.out" 2>&1
is "$?" 0 "extract exits 0"
same_manifest "extracted tree equals the source (modes, devices, hard links)" \
	"$T/src" "$T/out" $romfs_manifest_opts
is "$(flashfs cat "$T/a.img" /sub/big.bin | md5sum)" "$(md5sum < "$T/src/sub/big.bin")" \
	"cat gives a file's bytes"
ok "ls -l shows uid/gid 0 and the kernel's modes" \
	sh -c "flashfs ls -l '$T/a.img' / | grep -q '^-rwxr-xr-x 0/0 .*run.sh' &&
	       flashfs ls -l '$T/a.img' / | grep -q '^lrwxrwxrwx 0/0 .*link -> short'"

if [ -e /dev/fuse ] && command -v fusermount3 > /dev/null; then
	mkdir -p "$T/mnt"
	flashfs mount "$T/a.img" "$T/mnt" > /dev/null 2>&1
	for i in $(seq 50); do mountpoint -q "$T/mnt" && break; sleep 0.1; done
	same_manifest "mounted (FUSE): the tree" "$T/src" "$T/mnt" $romfs_manifest_opts
	fusermount3 -u "$T/mnt"
else
	skip "no /dev/fuse or fusermount3" "mounted (FUSE): the tree"
fi

# -a and -A move data; the reader follows the offsets.  (genromfs 0.5.2
# crashes on a gap above 4096 bytes: its zero buffer is that big.)
genromfs -f "$T/al.img" -d "$T/src" -V al -a 1024 -A 4096,big.bin 2> /dev/null
flashfs extract -C "$T/out_al" "$T/al.img" > /dev/null 2>&1
same_manifest "an -a 1024 -A 4096 image reads as the tree" "$T/src" "$T/out_al" \
	$romfs_manifest_opts
# -x '.*' leaves subdirectories without "." and ".."
genromfs -f "$T/nodots.img" -d "$T/src" -V nd -x '.*' 2> /dev/null
flashfs extract -C "$T/out_nd" "$T/nodots.img" > /dev/null 2>&1
is "$?" 0 "an image without . and .. entries extracts"
same_manifest "... as the tree" "$T/src" "$T/out_nd" $romfs_manifest_opts

# Damage.  Each must end cleanly (exit below 128) within the timeout.
cp "$T/a.img" "$T/sb.img"
printf '\x01' | dd of="$T/sb.img" bs=1 seek=20 conv=notrunc status=none
fails "a bad superblock checksum: check fails" flashfs check "$T/sb.img"
ok "... and says so" sh -c "flashfs check '$T/sb.img' 2>&1 | grep -q 'checksum'"

cp "$T/a.img" "$T/hdr.img"
off=$(romfs_patch "$T/hdr.img" short size 5)
printf '\x00\x00\x00\x01' | dd of="$T/hdr.img" bs=1 seek=$((off + 12)) conv=notrunc status=none
ok "a bad header checksum: check names it" \
	sh -c "flashfs check '$T/hdr.img' 2>&1 | grep -q 'header at offset $off.*bad checksum'"

cp "$T/a.img" "$T/loop.img"
off=$(romfs_patch "$T/loop.img" zero next 0)
romfs_patch "$T/loop.img" zero next "$off" > /dev/null
ok "a chain that loops on itself: check reports a loop" \
	sh -c "timeout 20 flashfs check '$T/loop.img' 2>&1 | grep -q 'loop'"

cp "$T/a.img" "$T/past.img"
romfs_patch "$T/past.img" short size 0x7ffffff0 > /dev/null
fails "a size past the end: check fails" timeout 20 flashfs check "$T/past.img"
fails "... and cat of that file fails" timeout 20 flashfs cat "$T/past.img" /short

cp "$T/a.img" "$T/hl.img"
off=$(romfs_patch "$T/hl.img" hard1 spec 0)
romfs_patch "$T/hl.img" hard1 spec "$off" > /dev/null
fails "a hard link to itself: check fails" timeout 20 flashfs check "$T/hl.img"

size=$(stat -c %s "$T/a.img")
head -c $((size / 3)) "$T/a.img" > "$T/trunc.img"
fails "a truncated image: check fails" timeout 20 flashfs check "$T/trunc.img"
ok "... naming the truncation" \
	sh -c "flashfs check '$T/trunc.img' 2>&1 | grep -q 'truncated'"

crashes=0
for seed in $(seq 1 150); do
	damage "$T/a.img" "$T/r.img" "$seed" 8
	timeout 20 flashfs check "$T/r.img" > /dev/null 2>&1
	rc=$?
	[ "$rc" -ge 124 ] && crashes=$((crashes + 1)) && echo "# seed $seed: check exit $rc"
	timeout 20 flashfs extract -C "$T/r_out" -f "$T/r.img" > /dev/null 2>&1
	rc=$?
	[ "$rc" -ge 124 ] && crashes=$((crashes + 1)) && echo "# seed $seed: extract exit $rc"
	rm -rf "$T/r_out"
done
is "$crashes" 0 "150 randomly damaged images: no crash or hang in check and extract"

# Real images from the field are make check-field's job (never in the
# repository, so never in make check).
done_testing
