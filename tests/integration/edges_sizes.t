#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# One size syntax in every program (issue 32 item 6): 131072, 0x20000,
# 128K, 128k and 128KiB mean the same byte count for every option that
# takes one, so each spelling must give the very same image; a word that
# is no size is called that, not "not a power of two".  The oracle for
# the images: mksquashfs -b 128K and ubinize -p 128KiB, byte for byte.
. "$(dirname "$0")/../lib.sh"
command -v mksquashfs >/dev/null || skip_all "mksquashfs missing (scripts/install-deps)"
command -v ubinize >/dev/null || skip_all "ubinize missing (scripts/install-deps)"

mkdir -p "$T/src/d"
head -c 300000 /dev/urandom >"$T/src/d/big"
seq 1 3000 >"$T/src/text"
ln -s d/big "$T/src/link"
find "$T/src" -exec touch -h -d @1600000000 {} +
export SOURCE_DATE_EPOCH=1600000000
cd "$T" || exit 2

# same_bytes NAME CMD_TEMPLATE — runs CMD with {} replaced by each spelling
# and {o} by an output name; all outputs must be identical.
same_bytes() {
	local name=$1 tmpl=$2 first="" sp out
	for sp in "${SPELL[@]}"; do
		out="out-$name-$sp"
		if ! eval "${tmpl//\{\}/$sp}" >"$out.log" 2>&1; then
			ok "$name: '$sp' accepted" false
			cat "$out.log" >&2
			continue
		fi
		ok "$name: '$sp' accepted" true
		[ -z "$first" ] && first=$out && continue
		ok "$name: '$sp' gives the bytes '${SPELL[0]}' gives" cmp "$first" "$out"
	done
}
SPELL=(131072 0x20000 128K 128k 128KiB)
O='$out'

same_bytes squashfs-b "mkfs.squashfs -q -noappend -b {} src $O"
is "$(unsquashfs -s out-squashfs-b-128KiB | sed -n 's/^Block size //p')" 131072 \
	"mkfs.squashfs -b 128KiB: unsquashfs reads 131072-byte blocks"

same_bytes ubi-p "mkfs.ubi -o $O -p {} -m 2048 -Q 7 --squashfs src -- -q"
printf '[rootfs]\nmode=ubi\nimage=%s\nvol_id=0\nvol_type=dynamic\nvol_name=rootfs\n' \
	"$T/ours.sqfs" >one.ini
mkfs.squashfs -q -noappend src ours.sqfs
ubinize -o theirs.ubi -p 128KiB -m 2048 -Q 7 one.ini >/dev/null 2>&1
ok "mkfs.ubi -p 128K: the bytes ubinize -p 128KiB writes" cmp theirs.ubi out-ubi-p-128K

SPELL=(4096 0x1000 4K 4k 4KiB)
same_bytes ubi-sqfs-block "mkfs.ubi -o $O -p 128K -m 2048 -Q 7 --squashfs src --squashfs-block-size {}"
same_bytes cramfs-b "ffmkfs.cramfs -b {} src $O"
same_bytes romfs-a "mkfs.romfs -f $O -d src -V v -a {} --quiet"
same_bytes romfs-A "mkfs.romfs -f $O -d src -V v -A {},/text --quiet"
SPELL=(2048 0x800 2K 2k 2KiB)
same_bytes yaffs2-page "mkfs.yaffs2 -q --page-size {} --oob-size 64 src $O"
SPELL=(64 0x40)
same_bytes yaffs2-oob "mkfs.yaffs2 -q --page-size 2KiB --oob-size {} src $O"
SPELL=(8192 0x2000 8K 8k 8KiB)
same_bytes squashfs-offset "mkfs.squashfs -q -noappend -offset {} src $O"

# the message says what is wrong with the word
mkfs.squashfs -q -noappend -b 128KB src bad.sqfs 2>err
is "$?" 2 "mkfs.squashfs -b 128KB: exit 2"
ok "-b 128KB: called no size, with the syntax" grep -q "'128KB' is not a size (4096, 0x1000" err
ok "-b 128KB: not called 'not a power of two'" bash -c "! grep -q 'power of two' err"
mkfs.squashfs -q -noappend -b 3000 src bad.sqfs 2>err
is "$?" 2 "mkfs.squashfs -b 3000: exit 2"
ok "-b 3000: not a power of two" grep -q "'3000' is not a power of two from 4096 to 1048576" err
mkfs.ubi -o bad.ubi -p 128KB -m 2048 --squashfs src 2>err
is "$?" 2 "mkfs.ubi -p 128KB: exit 2"
ok "mkfs.ubi -p 128KB: the syntax named" grep -q "not a size (4096, 0x1000" err
for sp in 8192 0x2000 8K 8k 8KiB; do
	is "$(flashfs ls --offset "$sp" out-squashfs-offset-8K 2>&1)" "$(printf 'd\nlink\ntext')" \
		"flashfs ls --offset $sp: the image at 8 KiB"
done
flashfs ls --peb-size 128KB out-ubi-p-128K 2>err
ok "flashfs --peb-size 128KB: called no size" grep -q "'128KB' is not a size" err

done_testing
