#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The CramFS reader against util-linux's fsck.cramfs --extract on images
# util-linux's mkfs.cramfs made (little and big endian, block sizes 4 to
# 64 KiB, holes, the 512-byte pad): the extracted trees must be the same
# (manifest; times aside: fsck.cramfs leaves a directory's and a
# symlink's time as when it extracted them, cramfs stores none and we
# give 0).  Damaged copies: `flashfs check` must call damaged what
# fsck.cramfs calls damaged, and reading commands refuse cleanly.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/cramfs_lib.sh"
command -v mkfs.cramfs > /dev/null || skip_all "mkfs.cramfs (util-linux) not installed"
command -v fsck.cramfs > /dev/null || skip_all "fsck.cramfs (util-linux) not installed"
PATCH="python3 $FF_TOP/tests/tools/cramfs_patch.py"

cramfs_tree "$T/tree"

# same_as_fsck NAME IMAGE BLKSIZE — our extraction equals fsck.cramfs'.
same_as_fsck() {
	rm -rf "$T/ref" "$T/ours"
	fsck_ref "$2" "$3" "$T/ref"
	flashfs extract --no-progress -C "$T/ours" "$2" > /dev/null 2> "$T/err"
	is "$?" 0 "$1: flashfs extract exits 0"
	$MANIFEST --no-mtime "$T/ref" > "$T/m.ref"
	$MANIFEST --no-mtime "$T/ours" > "$T/m.ours"
	ok "$1: the tree equals fsck.cramfs --extract's" diff "$T/m.ref" "$T/m.ours"
}

for bs in 4096 8192 16384 65536; do
	for endian in little big; do
		mkfs.cramfs -b $bs -N $endian "$T/tree" "$T/img" > /dev/null 2>&1
		same_as_fsck "$bs-byte blocks, $endian endian" "$T/img" $bs
		is "$(flashfs info --json "$T/img" | python3 -c 'import json,sys; c=json.load(sys.stdin)["cramfs"]; print(c["block_size"], c["endian"], c["crc_state"])')" \
			"$bs $endian ok" "$bs, $endian: info finds the block size, byte order and CRC"
	done
done
mkfs.cramfs -z "$T/tree" "$T/holes.img" > /dev/null 2>&1
same_as_fsck "holes (-z)" "$T/holes.img" 4096
mkfs.cramfs -z -p -N big -b 16384 "$T/tree" "$T/holes-pad.img" > /dev/null 2>&1
same_as_fsck "holes, pad, big endian, 16 KiB" "$T/holes-pad.img" 16384
mkfs.cramfs -p "$T/tree" "$T/pad.img" > /dev/null 2>&1
same_as_fsck "512-byte pad" "$T/pad.img" 4096
ok "files read whole equal the source's" sh -c \
	"flashfs cat '$T/pad.img' /sub/deeper/random-150k | cmp - '$T/tree/sub/deeper/random-150k'"
flashfs check "$T/holes-pad.img" > /dev/null 2>&1
is "$?" 0 "check: a clean image is clean"

# damaged COPY-NAME PATCH-ARGS... — fsck.cramfs and flashfs check agree
# that the copy is damaged; extract refuses or reports it (exit != 0).
damaged() {
	local name=$1 ref ours
	shift
	cp "$T/img4" "$T/bad"
	$PATCH "$T/bad" "$@"
	rm -rf "$T/x"
	fsck.cramfs --extract="$T/x" "$T/bad" > /dev/null 2>&1
	ref=$?
	flashfs check "$T/bad" > "$T/check.out" 2>&1
	ours=$?
	ok "$name: fsck.cramfs ($ref) and flashfs check ($ours) both find damage" \
		test "$ref" -ne 0 -a "$ours" -ne 0 -a "$ours" -lt 128
	rm -rf "$T/x"
	fails "$name: flashfs extract fails cleanly" flashfs extract --no-progress -C "$T/x" "$T/bad"
}
mkfs.cramfs -b 4096 "$T/tree" "$T/img4" > /dev/null 2>&1
read -r _ _ size root table < <($PATCH "$T/img4" --info)
damaged "a data byte flipped (CRC)" --byte $((size - 4096 - 100))=0x55
damaged "the root listing's first entry cut to offset 0 (CRC fixed)" \
	--word $((root + 8))=0x0 --fix-crc
damaged "a block pointer past the end (CRC fixed)" --word "$table=0x7fffffff" --fix-crc
damaged "a block pointer before its block (CRC fixed)" --word "$table=$((table - 4))" --fix-crc
damaged "the superblock's size past the file" --word 4=$((size + 4096)) --fix-crc
damaged "the root inode not a directory" --word 64=0x81a4 --fix-crc
head -c 3000 "$T/img4" > "$T/cut"
fails "an image cut short is refused" flashfs ls "$T/cut"
ok "... saying why" grep -q "cut short\|past the end\|run past" <(flashfs ls "$T/cut" 2>&1)
head -c 60 "$T/img4" > "$T/tiny"
fails "60 bytes with the magic are refused" flashfs ls "$T/tiny"
done_testing
