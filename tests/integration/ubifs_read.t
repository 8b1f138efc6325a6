#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The UBIFS reader against the real oracle, Debian's mkfs.ubifs: a generated
# tree (files of several sizes, one over a LEB, a sparse file, an empty one,
# symlinks, devices, a fifo, a socket, hard links, a 255-byte name, a
# directory of 300 entries) in every compressor and several geometries
# (NAND pages of 512, 2048 and 4096 bytes; fanout 3 for a deep index; the
# test key hash, under which names sharing 4 bytes collide), each
# extracted and compared with its source.  Debian's mkfs.ubifs is built
# without xattr support, so xattrs are not compared here.  Then damage:
# a cut image, a bad superblock CRC, a broken index node, random bytes.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ubifs > /dev/null || skip_all "mkfs.ubifs (mtd-utils) not installed"
[ "$(id -u)" = 0 ] || skip_all "devices in the source tree need root"

S=$T/src
mkdir -p "$S/dir/sub" "$S/many"
printf 'hello\n' > "$S/small"
head -c 4096 /dev/urandom > "$S/exact4k"
head -c 10000 /dev/urandom > "$S/mid"
seq 1 100000 > "$S/seq.txt"
head -c 300000 /dev/urandom > "$S/dir/sub/rnd"
head -c 300000 /dev/urandom > "$S/overleb" # > one 253952-byte LEB
truncate -s 3M "$S/sparse"
printf 'x' | dd of="$S/sparse" bs=1 seek=2000000 conv=notrunc status=none
: > "$S/empty"
ln -s small "$S/link"
ln -s "/a/long/target/$(printf 'y%.0s' {1..300})" "$S/longlink"
mknod "$S/chr" c 4 5
mknod "$S/blk" b 259 70000
mkfifo "$S/fifo"
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$S/sock"
ln "$S/small" "$S/hard1"
ln "$S/small" "$S/dir/hard2"
touch "$S/$(printf 'n%.0s' {1..255})"
for i in $(seq 1 300); do echo "$i" > "$S/many/file_$i"; done

plan 32

run() { # NAME MKFS-OPTIONS...
	local name=$1 img=$T/$1.img
	shift
	if ! mkfs.ubifs "$@" -r "$S" -o "$img" > "$T/mkfs.out" 2>&1; then
		skip "mkfs.ubifs $* failed: $(head -c 200 "$T/mkfs.out")" "$name extract"
		skip "mkfs.ubifs failed" "$name check"
		return
	fi
	rm -rf "$T/out"
	flashfs extract -C "$T/out" "$img" > /dev/null 2> "$T/ex.err"
	same_manifest "$name: extraction equals the source" "$S" "$T/out" --no-xattrs
	ok "$name: check finds it clean" flashfs check "$img"
}

run lzo -x lzo -m 2048 -e 126976 -c 200
run zlib -x zlib -m 2048 -e 126976 -c 200
run zstd -x zstd -m 2048 -e 126976 -c 200
run none -x none -m 2048 -e 126976 -c 200
run favor_lzo -x favor_lzo -m 2048 -e 126976 -c 200
run page4k -m 4096 -e 253952 -c 100
run page512 -m 512 -e 15872 -c 2000
run fanout3 -f 3 -m 2048 -e 126976 -c 200
run testhash -k test -m 2048 -e 126976 -c 200
run fixup -F -m 2048 -e 129024 -c 200

img=$T/lzo.img
flashfs info "$img" > "$T/info" 2>&1
ok "info names the format, LEB size and compressor" \
	sh -c "grep -q '^format *ubifs' '$T/info' && grep -q '^leb_size *126976' '$T/info' &&
	       grep -q '^compressor *lzo' '$T/info'"
is "$(flashfs cat "$img" /sparse | md5sum)" "$(md5sum < "$S/sparse")" "cat of a sparse file"

# Damage.
head -c 300000 "$img" > "$T/cut.img"
fails "an image cut inside its index is refused or reported" \
	sh -c "flashfs check '$T/cut.img' && flashfs extract -C '$T/cutout' '$T/cut.img'"
cp "$img" "$T/sbcrc.img"
printf '\x5a' | dd of="$T/sbcrc.img" bs=1 seek=200 conv=notrunc status=none
fails "a superblock with a bad CRC is refused" flashfs info "$T/sbcrc.img"
ok "the refusal names the CRC" sh -c "flashfs info '$T/sbcrc.img' 2>&1 | grep -q 'bad CRC'"
# a byte of LEB 12 (file data: the main area of a fresh image is packed)
cp "$img" "$T/leaf.img"
printf '\x55' | dd of="$T/leaf.img" bs=1 seek=$((12 * 126976 + 200)) conv=notrunc status=none
flashfs check "$T/leaf.img" > "$T/leaf.out" 2>&1
is "$?" 1 "a damaged leaf node: check exits 1"
ok "check names the LEB" grep -q "LEB 12:" "$T/leaf.out"
# a data node's CRC field alone damaged: check names the bad CRC, but the
# file reads right, as the kernel reads data by default (no_chk_data_crc)
off=$(python3 -c "
import struct, sys
b = open(sys.argv[1], 'rb').read()
for o in range(0, len(b) - 24, 8):
    if b[o:o + 4] == b'\x31\x18\x10\x06' and b[o + 20] == 1:
        print(o); break" "$img")
cp "$img" "$T/dcrc.img"
printf '\x5a\xa5' | dd of="$T/dcrc.img" bs=1 seek=$((off + 4)) conv=notrunc status=none
flashfs check "$T/dcrc.img" > "$T/dcrc.out" 2>&1
is "$?" 1 "a data node with a bad CRC: check exits 1"
ok "check names its bad CRC" grep -q "LEB $((off / 126976)):$((off % 126976)).*bad CRC" "$T/dcrc.out"
rm -rf "$T/out"
flashfs extract -C "$T/out" "$T/dcrc.img" > /dev/null 2>&1
same_manifest "extract reads its data without the data CRC (no_chk_data_crc)" "$S" "$T/out" --no-xattrs
# the index root from the master node, damaged: nothing can be read
root=$(sed -n 's/^index_root *LEB \([0-9]*\):\([0-9]*\).*/\1 \2/p' "$T/info")
set -- $root
cp "$img" "$T/idx.img"
printf '\x55' | dd of="$T/idx.img" bs=1 seek=$(($1 * 126976 + $2 + 40)) conv=notrunc status=none
fails "a damaged index root is refused" flashfs ls "$T/idx.img"
ok "the refusal names the root's LEB and offset" \
	sh -c "flashfs ls '$T/idx.img' 2>&1 | grep -q 'LEB $1:$2'"
