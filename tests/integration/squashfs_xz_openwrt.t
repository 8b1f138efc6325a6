#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# An xz options block a reader cannot interpret must not stop a read (issue
# 28 item 1).  OpenWrt 12.09/14.07 images store a block whose first word
# reads as dictionary size 589844 (0x90014), which no xz dictionary can be;
# each xz block names its own dictionary, so the image reads all the same.
# The image here is mksquashfs' own (-Xbcj x86 makes it store a block) with
# that one word overwritten; the reference tree is its source.
. "$(dirname "$0")/../lib.sh"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"

mkdir -p "$T/src/bin" "$T/src/etc"
seq 1 30000 > "$T/src/etc/numbers"
printf 'hello\n' > "$T/src/bin/hello"
ln -s ../etc/numbers "$T/src/bin/link"
mksquashfs "$T/src" "$T/ow.sqfs" -noappend -quiet -no-progress -comp xz -Xbcj x86 \
	-all-root > /dev/null
# Superblock 96 bytes, then the options block's 2-byte header, then the
# dictionary word: 14 00 09 00 as in the OpenWrt firmwares.
printf '\x14\x00\x09\x00' | dd of="$T/ow.sqfs" bs=1 seek=98 conv=notrunc status=none

flashfs info "$T/ow.sqfs" > "$T/info" 2> "$T/info.err"
is "$?" 0 "info reads the image despite the options block"
ok "info warns once, naming the dictionary size" \
	sh -c "[ \$(grep -c 'dictionary size 589844' '$T/info.err') = 1 ]"
ok "info shows the block as stored, not as a filter list" \
	sh -c "grep -q 'stored=14000900' '$T/info' && ! grep -q 'bcj=' '$T/info'"
flashfs extract -C "$T/out" "$T/ow.sqfs" > /dev/null 2>&1
is "$?" 0 "extract exits 0"
same_manifest "extracted tree equals the source" "$T/src" "$T/out"
is "$(flashfs cat "$T/ow.sqfs" /etc/numbers 2> /dev/null | md5sum)" \
	"$(md5sum < "$T/src/etc/numbers")" "cat gives the file's bytes"
flashfs check "$T/ow.sqfs" > /dev/null 2>&1
is "$?" 0 "check finds the image clean"
# What we write stays strict: appending would carry options we cannot read.
printf 'x\n' > "$T/new"
mkfs.squashfs "$T/new" "$T/ow.sqfs" > "$T/app.out" 2>&1
is "$?" 2 "appending to it is refused (exit 2)"
ok "the refusal says the options block was not understood" \
	grep -q "options block was not understood" "$T/app.out"
done_testing
