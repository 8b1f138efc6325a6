#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs on raw NAND dumps of UBI devices: each page followed by its OOB,
# as `nanddump -o` writes them.  The dumps are made here from images of
# mtd-utils' ubinize (around mksquashfs images) by tests/tools/ubi_edit.py,
# its own Python code: pages interleaved with erased OOB, one block marked
# bad in its OOB (holding a newer copy of the rootfs LEB that must not be
# read) and erased PEBs.  Oracle: unsquashfs's extraction of the SquashFS
# images.  The same from a kernel-written device: nandsim_ubi.t.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
. "$(dirname "$0")/ubi_lib.sh"
. "$(dirname "$0")/fuse_lib.sh"

cd "$T" || exit 2
ubi_fixture
ubi_ini_kernel_rootfs > u.ini

extract_is() { # NAME IMAGE [options]
	local name=$1 img=$2
	shift 2
	rm -rf x && mkdir x
	ok "$name: extract" flashfs extract -C x "$@" "$img"
	same_manifest "$name: tree = unsquashfs's" unsq_a x
}

# PAGE OOB PEB ubinize-options
for geom in "2048 64 131072 -m 2048" "512 16 16384 -m 512 -s 256" "4096 128 262144 -m 4096" \
	"2048 128 131072 -m 2048 -s 512" "4096 224 262144 -m 4096"; do
	set -- $geom
	page=$1 oob=$2 peb=$3
	shift 3
	name="$page+$oob"
	ubinize -o u.ubi -p "$peb" "$@" -Q 9 u.ini > /dev/null
	# rootfs LEB 0 again, newer, holding b.sqfs: in a block marked bad
	n=$($EDIT u.ubi "$peb" append-copy 3)
	$EDIT u.ubi "$peb" data "$n" b.sqfs
	$EDIT u.ubi "$peb" vid "$n" sqnum=99 data_size="$(stat -c %s b.sqfs)"
	$EDIT u.ubi "$peb" append-erased 2
	$EDIT u.ubi "$peb" nand-dump d.img "$page" "$oob" "$n"
	case $oob in 64|16|128) extract_is "$name: detected" d.img ;;
	*) fails "$name: an OOB size outside the usual ones is not guessed" flashfs ls d.img / ;;
	esac
	extract_is "$name: --page-size --oob-size" d.img --page-size "$page" --oob-size "$oob"
	flashfs info --page-size "$page" --oob-size "$oob" d.img > info.txt
	grep -q "^ubi_nand_page_size  *$page\$" info.txt && grep -q "^ubi_nand_oob_size  *$oob\$" info.txt &&
		grep -q '^ubi_nand_bad_blocks  *1$' info.txt && grep -q '^ubi_free_pebs  *2$' info.txt &&
		grep -q "^ubi_volume_0 .*static.*used 5000 bytes.*CRC ok" info.txt
	ok "$name: info: page + OOB, 1 bad block, 2 free PEBs, static volume CRC ok" test $? = 0
	ok "$name: check: clean" flashfs check -q --page-size "$page" --oob-size "$oob" d.img
done

# the last geometry's dump once more, without the bad-block marker: then
# the newer copy is read, which shows the marker is what kept it out
ubinize -o u.ubi -p 131072 -m 2048 -Q 9 u.ini > /dev/null
n=$($EDIT u.ubi 131072 append-copy 3)
$EDIT u.ubi 131072 data "$n" b.sqfs
$EDIT u.ubi 131072 vid "$n" sqnum=99 data_size="$(stat -c %s b.sqfs)"
$EDIT u.ubi 131072 nand-dump good.img 2048 64
$EDIT u.ubi 131072 nand-dump bad.img 2048 64 "$n"
is "$(flashfs cat good.img /etc/version)" "slot b" "no marker: the newer copy of the LEB is read"
fails "marked bad: it is not" flashfs cat bad.img /etc/version
ok "ls works on the dump" flashfs ls bad.img /dir
fails "--page-size 1000: refused" flashfs ls --page-size 1000 bad.img /
fails "--page-size 4096 on a 2048+64 dump: refused" flashfs ls --page-size 4096 --oob-size 128 bad.img /
case $(flashfs ls --page-size 4096 --oob-size 128 bad.img / 2>&1) in
*bad.img*) ok "  ... naming the image" true ;; *) ok "  ... naming the image" false ;; esac

# a damaged EC header in a dump: named by PEB by check, tree still whole
cp u.ubi e.ubi
$EDIT e.ubi 131072 flip 2 10
$EDIT e.ubi 131072 nand-dump e.img 2048 64 "$n"
case $(flashfs check e.img 2>&1) in *"PEB 2: EC header CRC mismatch"*) ok "check on a dump names PEB 2" true ;;
*) ok "check on a dump names PEB 2" false ;; esac
extract_is "damaged EC header in a dump" e.img

# A dump read without ECC (nanddump -n, a chip read out): its OOBs carry
# the kernel's software Hamming codes (written here by nand_flip.py from
# the code's definition; nandsim_ubifs_badblocks.t has the kernel's own),
# and bits flip in its data.  One per 256 bytes is repaired as the chip's
# ECC would have; two are named by check.
FLIP="python3 $FF_TOP/tests/tools/nand_flip.py"
for geom in "2048 64 131072" "4096 128 262144"; do
	set -- $geom
	page=$1 oob=$2 peb=$3 name="ECC $1+$2"
	ubinize -o u.ubi -p "$peb" -m "$page" -Q 9 u.ini > /dev/null
	$EDIT u.ubi "$peb" nand-dump plain.img "$page" "$oob"
	$FLIP plain.img codes.img "$page" "$oob" $((peb / page)) codes > /dev/null
	is "$(flashfs info codes.img | awk '$1 == "ubi_nand_ecc" {print $2}')" hamming "$name: the codes are found"
	is "$(flashfs info plain.img | awk '$1 == "ubi_nand_ecc" {print $2}')" none "$name: erased OOBs: no codes"
	flips=$($FLIP codes.img flipped.img "$page" "$oob" $((peb / page)) single)
	extract_is "$name: $flips bits flipped, repaired" flipped.img
	flashfs info flipped.img > info.txt
	ok "$name: info counts the repairs, none beyond" \
		awk '$1 == "ubi_nand_ecc_corrected" && $2 > 0 {c = 1} $1 == "ubi_nand_ecc_failed" && $2 == 0 {f = 1} END {exit !(c && f)}' info.txt
	ok "$name: check: clean" flashfs check -q flipped.img
	$FLIP plain.img flipped-plain.img "$page" "$oob" $((peb / page)) single > /dev/null
	rm -rf x && mkdir x
	flashfs extract -C x flipped-plain.img > /dev/null 2>&1
	fails "$name: the same flips without the codes: the tree is not whole" \
		sh -c "$MANIFEST unsq_a > m.a && $MANIFEST x > m.b && cmp -s m.a m.b"
	$FLIP codes.img double.img "$page" "$oob" $((peb / page)) double > /dev/null
	flashfs check double.img > check.txt 2>&1
	is "$?" 1 "$name: two flips in one step: check fails"
	ok "  ... naming PEB 0, page 0 and the ECC" grep -q "PEB 0, page 0: 1 of its 256-byte steps have more flipped bits than the Hamming ECC repairs" check.txt
done

if [ -c /dev/fuse ] && command -v fusermount3 > /dev/null; then
	if fuse_mount "$T/mnt" bad.img; then
		ok "flashfs mount of the dump" true
		same_manifest "  ... tree = unsquashfs's" unsq_a "$T/mnt"
		fuse_umount "$T/mnt"
	else
		ok "flashfs mount of the dump" false
	fi
else
	skip "no FUSE here (/dev/fuse or fusermount3 missing)" "flashfs mount of the dump"
fi
done_testing
