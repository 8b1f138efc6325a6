#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# LZO and the build (issue 32): liblzo2 is GPL-2.0-or-later, so `make LZO=0`
# builds without it.  Under `make check-nolzo` (FF_NOLZO=1, the programs of
# build/nolzo) LZO images made by Debian's tools and every LZO option of our
# builders are refused with an error that names LZO and the build, nothing
# is written, nothing links liblzo2, and the other codecs still build and
# read.  In the default build (make check) the same images and options
# work: the file checks whichever build it is given.
. "$(dirname "$0")/../lib.sh"

NOLZO=${FF_NOLZO:-0}
S=$T/src
mkdir -p "$S/etc" "$S/bin"
for i in $(seq 1 40); do echo "line $i of a config file" >> "$S/etc/conf"; done
head -c 200000 /dev/urandom > "$S/bin/blob"
seq 1 20000 > "$S/bin/text"
G="-m 2048 -e 126976 -c 200"

# refused NAME IMAGE CMD... — in the LZO=0 build: fails, says LZO and
# LZO=0, leaves no IMAGE; in the default build: succeeds.
refused() {
	local name=$1 img=$2
	shift 2
	if [ "$NOLZO" = 1 ]; then
		fails "$name: refused" "$@"
		"$@" > "$T/out" 2>&1
		ok "$name: the error names LZO and the build" grep -q "LZO is not in this build.*LZO=0" "$T/out"
		ok "$name: nothing written" test ! -e "$img"
	else
		ok "$name: builds" "$@"
	fi
	rm -f "$img"
}

# unread NAME IMAGE — reading an LZO image: refused by name, or read.
unread() {
	local name=$1 img=$2
	if [ "$NOLZO" = 1 ]; then
		fails "$name: flashfs cat fails" flashfs cat "$img" etc/conf
		flashfs cat "$img" etc/conf > "$T/out" 2>&1
		ok "$name: the error names LZO and the build" grep -q "LZO is not in this build.*LZO=0" "$T/out"
	else
		is "$(flashfs cat "$img" etc/conf | md5sum)" "$(md5sum < "$S/etc/conf")" "$name: flashfs cat reads it"
	fi
}

# The builders' LZO options.
refused "mkfs.squashfs -comp lzo" "$T/l.sqfs" mkfs.squashfs -q "$S" "$T/l.sqfs" -comp lzo
refused "ffmkfs.ubifs -x lzo" "$T/l.ubifs" ffmkfs.ubifs $G -x lzo -r "$S" -o "$T/l.ubifs"
refused "ffmkfs.ubifs -x favor_lzo" "$T/l.ubifs" ffmkfs.ubifs $G -x favor_lzo -r "$S" -o "$T/l.ubifs"
refused "ffmkfs.ubifs, lzo by default" "$T/l.ubifs" ffmkfs.ubifs $G -r "$S" -o "$T/l.ubifs"
refused "ffmkfs.jffs2 -X lzo" "$T/l.jffs2" ffmkfs.jffs2 -X lzo -r "$S" -o "$T/l.jffs2"
refused "mkfs.yaffs2 -z lzo" "$T/l.yaffs2" mkfs.yaffs2 -z lzo "$S" "$T/l.yaffs2"

# LZO images from the oracles.
if command -v mksquashfs > /dev/null; then
	mksquashfs "$S" "$T/o.sqfs" -comp lzo -no-progress -quiet > /dev/null 2>&1
	unread "mksquashfs -comp lzo" "$T/o.sqfs"
	if command -v lzop > /dev/null; then
		mksquashfs "$S" "$T/g.sqfs" -comp gzip -no-progress -quiet > /dev/null 2>&1
		lzop -q -o "$T/g.sqfs.lzo" "$T/g.sqfs"
		unread "a gzip SquashFS in an lzop stream" "$T/g.sqfs.lzo"
	else
		skip "lzop not installed" "lzop stream"
	fi
else
	skip "mksquashfs not installed" "mksquashfs -comp lzo"
fi
if command -v mkfs.ubifs > /dev/null; then
	mkfs.ubifs $G -x lzo -r "$S" -o "$T/o.ubifs" > /dev/null 2>&1
	unread "mkfs.ubifs -x lzo" "$T/o.ubifs"
else
	skip "mkfs.ubifs (mtd-utils) not installed" "mkfs.ubifs -x lzo"
fi
if command -v mkfs.jffs2 > /dev/null; then
	mkfs.jffs2 -X lzo -r "$S" -o "$T/o.jffs2" > /dev/null 2>&1
	unread "mkfs.jffs2 -X lzo" "$T/o.jffs2"
else
	skip "mkfs.jffs2 (mtd-utils) not installed" "mkfs.jffs2 -X lzo"
fi

# Every other codec, in either build: written and read back.
for c in gzip xz zstd lz4; do
	mkfs.squashfs -q --noappend -comp "$c" "$S" "$T/$c.sqfs" > /dev/null 2>&1
	is "$(flashfs cat "$T/$c.sqfs" bin/text | md5sum)" "$(md5sum < "$S/bin/text")" \
		"mkfs.squashfs -comp $c: written and read"
done
for c in zlib zstd; do
	ffmkfs.ubifs $G -x "$c" -r "$S" -o "$T/$c.ubifs" > /dev/null 2>&1
	is "$(flashfs cat "$T/$c.ubifs" bin/text | md5sum)" "$(md5sum < "$S/bin/text")" \
		"ffmkfs.ubifs -x $c: written and read"
done
ffmkfs.jffs2 -r "$S" -o "$T/z.jffs2" > /dev/null 2>&1
is "$(flashfs cat "$T/z.jffs2" bin/text | md5sum)" "$(md5sum < "$S/bin/text")" \
	"ffmkfs.jffs2 (zlib, rtime): written and read"
mkfs.yaffs2 -z xz "$S" "$T/x.yaffs2" > /dev/null 2>&1
is "$(flashfs cat "$T/x.yaffs2" bin/text | md5sum)" "$(md5sum < "$S/bin/text")" \
	"mkfs.yaffs2 -z xz: written and read"

# What links liblzo2.
lib=$(ls "$FF_BUILD"/lib/libflashfs.so.* 2> /dev/null | head -n 1)
for f in "$FF_BIN/flashfs" "$FF_BIN/mkfs.squashfs" "$FF_BIN/ffmkfs.ubifs" "$FF_BIN/ffmkfs.jffs2" "$lib"; do
	n=$(ldd "$f" 2> /dev/null | grep -c liblzo2)
	if [ "$NOLZO" = 1 ]; then
		is "$n" 0 "$(basename "$f") does not link liblzo2"
	else
		is "$n" 1 "$(basename "$f") links liblzo2"
	fi
done
done_testing
