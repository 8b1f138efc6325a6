# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The nandsim scenarios of issue 7, run in one boot (sourced by the guest's
# init with guest/lib.sh loaded; cwd is /data, prepared by nandsim-check.sh).
#
# /data holds: manifest.tree (ff_manifest of the source tree), sqfs-*.img
# (SquashFS images of that tree, one per maker and codec), pages-*.img
# (synthetic raw pages + tag bytes for the MTD layer), y2-*.img (YAFFS2
# images of the tree, when mkfs.yaffs2 exists), and chips.txt.

mkdir -p /mnt/sq

sqfs_images() {
	ls sqfs-*.img 2>/dev/null
}

# mount_compare DEV — mount a SquashFS block device and compare the tree
mount_compare() {
	mount -t squashfs -o ro "$1" /mnt/sq || return 2
	same_manifest /mnt/sq manifest.tree
	_rc=$?
	umount /mnt/sq
	return $_rc
}

# erase_for IMAGE — erase the blocks an image needs, plus one
erase_for() {
	_eb=$(mtd_attr erasesize)
	flash_erase -q /dev/mtd0 0 $(( ($(stat -c %s "$1") + _eb - 1) / _eb + 1 ))
}

nandwrite_mount() {
	erase_for "$1" && nandwrite -q -p /dev/mtd0 "$1" && mount_compare /dev/mtdblock0
}

# ---- 1. SquashFS on raw NAND through mtdblock_ro ---------------------------
scenario_mtdblock() {
	ns_load 2k || { result fail "1: nandsim 2K/64 loads"; return; }
	for img in $(sqfs_images); do
		check "1: ${img%.img}: nandwrite -p, mount via mtdblock_ro, tree matches" \
			nandwrite_mount "$img"
	done
}

# ---- 2. SquashFS on UBI: static volumes, ubiblock --------------------------
ubi_volume_compare() { # ID IMAGE
	ubimkvol /dev/ubi0 -n "$1" -N "v$1" -t static -s "$(stat -c %s "$2")" > /dev/null &&
		ubiupdatevol "/dev/ubi0_$1" "$2" && ubiblock -c "/dev/ubi0_$1" &&
		mount_compare "/dev/ubiblock0_$1"
}

ubi_up() {
	ubiformat -y -q /dev/mtd0 && ubiattach -m 0 > /dev/null && [ -c /dev/ubi0 ]
}

scenario_ubi() {
	ns_load 2k-128m || { result fail "2: nandsim 2K/64 loads"; return; }
	check "2: ubiformat + ubiattach on 2K/64" ubi_up || return
	_id=0
	for img in $(sqfs_images); do
		check "2: ${img%.img}: static UBI volume (ubiupdatevol), ubiblock, tree matches" \
			ubi_volume_compare $_id "$img"
		_id=$((_id + 1))
	done
	ns_unload
}

# ---- 3. factory bad blocks --------------------------------------------------
bad_count_is() {
	_n=$(cat /sys/class/ubi/ubi0/bad_peb_count)
	diag "UBI sees $_n bad PEBs"
	[ "$_n" = "$1" ]
}

first_sqfs() {
	sqfs_images | grep -m1 xz || sqfs_images | head -n 1
}

scenario_badblocks_ubi() {
	ns_load 2k badblocks=1,5,6,40 || { result fail "3a: nandsim with badblocks= loads"; return; }
	check "3a: ubiformat + ubiattach over bad blocks" ubi_up || return
	check "3a: UBI counts the 4 factory bad blocks" bad_count_is 4
	check "3a: $(first_sqfs): on UBI over bad blocks, tree matches" \
		ubi_volume_compare 0 "$(first_sqfs)"
	ns_unload
}

# same_prefix FILE IMAGE — FILE starts with the bytes of IMAGE
same_prefix() {
	cmp -s -n "$(stat -c %s "$2")" "$1" "$2" && return 0
	cmp -n "$(stat -c %s "$2")" "$1" "$2" 2>&1 | head -n 3
	return 1
}

flashfs_dump_equals() { # IMAGE [dump options]
	_img=$1
	shift
	flashfs dump -q "$@" --length "$(stat -c %s "$_img")" /dev/mtd0 /tmp/dump.img &&
		same_prefix /tmp/dump.img "$_img" && [ "$(stat -c %s /tmp/dump.img)" = "$(stat -c %s "$_img")" ]
}

scenario_badblocks_flash() {
	_img=$(first_sqfs)
	_size=$(stat -c %s "$_img")
	ns_load 2k badblocks=0,2,3,9 || { result fail "3b: nandsim with badblocks= loads"; return; }
	check "3b: flashfs flash $_img over bad blocks 0,2,3,9" flashfs flash -q "$_img" /dev/mtd0
	check "3b: flashfs dump skips the same blocks, returns the image byte for byte" \
		flashfs_dump_equals "$_img"
	nanddump -q --bb=skipbad -l "$_size" -f /tmp/nanddump.img /dev/mtd0 > /dev/null 2>&1
	check "3b: nanddump --bb=skipbad (oracle) reads back what flashfs flash wrote" \
		same_prefix /tmp/nanddump.img "$_img"
	check "3b: mtdblock_ro sees block 1 first (image shifted past bad block 0)" \
		sh -c "dd if=/dev/mtdblock0 bs=131072 skip=1 count=1 2>/dev/null > /tmp/b1 && cmp -s -n 131072 /tmp/b1 '$_img'"
	flash_erase -q /dev/mtd0 0 0
	nandwrite -q -p /dev/mtd0 "$_img"
	check "3b: flashfs dump of a nandwrite (oracle) image returns it byte for byte" \
		flashfs_dump_equals "$_img"
	truncate -s $((2045 * 131072)) /tmp/big.img
	check_fails "3b: flashfs flash refuses an image larger than the good blocks" \
		flashfs flash --raw /tmp/big.img /dev/mtd0
	check "3b: ... with a message naming the sizes" grep -q 'too small.*2045 erase blocks.*2044 good' /tmp/refused.out
	rm -f /tmp/big.img /tmp/dump.img /tmp/nanddump.img
}

# ---- 4. pages + tags through MTD_OPS_AUTO_OOB (and YAFFS2 images) ------------
# only_ecc_differs IMAGE RAWDUMP PAGE OOB ECC_FIRST — every difference lies in
# the OOB bytes the kernel's ECC owns (the image leaves them 0xff)
only_ecc_differs() {
	[ "$(stat -c %s "$1")" = "$(stat -c %s "$2")" ] || { ls -l "$1" "$2"; return 1; }
	cmp -l "$1" "$2" | awk -v raw=$(($3 + $4)) -v ecc=$(($3 + $5)) '
		{ o = ($1 - 1) % raw; if (o < ecc) { bad++; if (bad < 5) print "byte", $1 - 1, "page offset", o } }
		END { exit bad > 0 }'
}

# LAYOUT raw: page data only (no OOB), as for inband tags
pages_case() { # CHIP IMAGE LAYOUT ECC_FIRST [BADBLOCKS]
	_chip=$1 _img=$2 _lay=$3 _eccf=$4
	ns_load "$_chip" ${5:+badblocks=$5} || { result fail "4: nandsim $_chip loads"; return; }
	_pg=$(mtd_attr writesize)
	_oob=$(mtd_attr oobsize)
	_tag=" $_chip${5:+ (bad blocks $5)}"
	_opt="--oob-layout $_lay"
	_how="AUTO OOB"
	[ "$_lay" = raw ] && _opt="--raw" _how="data only"
	check "4:$_tag: flashfs flash $_opt ($_how) + verify" \
		flashfs flash -q $_opt "$_img" /dev/mtd0
	[ "$_lay" = raw ] && _opt=""
	check "4:$_tag: flashfs dump $_opt returns the image" \
		flashfs_dump_equals "$_img" $_opt
	if [ "$_lay" = linux ]; then
		nanddump -q -o --bb=skipbad -l $(( $(stat -c %s "$_img") / (_pg + _oob) * _pg )) \
			-f /tmp/raw.img /dev/mtd0 > /dev/null 2>&1
		check "4:$_tag: nanddump -o (oracle): tags at the kernel's raw OOB place" \
			only_ecc_differs "$_img" /tmp/raw.img "$_pg" "$_oob" "$_eccf"
		flash_erase -q /dev/mtd0 0 0
		nandwrite -q -o /dev/mtd0 "$_img"
		check "4:$_tag: nandwrite -o (oracle) image read by flashfs dump --oob-layout linux" \
			flashfs_dump_equals "$_img" --oob-layout "$_lay"
	fi
	rm -f /tmp/raw.img /tmp/dump.img
}

scenario_pages() {
	[ -f pages-2k.img ] && pages_case 2k pages-2k.img linux 40
	[ -f pages-2k.img ] && pages_case 2k pages-2k.img linux 40 0,3
	[ -f pages-4k.img ] && pages_case 4k pages-4k.img linux 80
	[ -f pages-512.img ] && pages_case 512 pages-512.img raw 0 2
}

yaffs2_extract_compare() { # IMAGE
	rm -rf /tmp/x
	mkdir /tmp/x
	flashfs extract --no-progress -C /tmp/x "$1" && same_manifest /tmp/x manifest.tree
}

# Each reads the chip back one way and hands the dump to our reader.
y2_flashfs_dump() { # IMAGE
	flashfs dump -q --oob-layout linux --length "$(stat -c %s "$1")" /dev/mtd0 /tmp/y.img &&
		yaffs2_extract_compare /tmp/y.img
}

y2_nanddump() { # IMAGE — as many pages as the image has
	_pg=$(mtd_attr writesize)
	nanddump -q -o --bb=skipbad -l $(( $(stat -c %s "$1") / (_pg + $(mtd_attr oobsize)) * _pg )) \
		-f /tmp/y.img /dev/mtd0 && yaffs2_extract_compare /tmp/y.img
}

# flash_erase fails on a chip with bad blocks (after erasing the good ones)
y2_nandwrite_flashfs_dump() { # IMAGE
	flash_erase -q /dev/mtd0 0 0
	nandwrite -q -o /dev/mtd0 "$1" && y2_flashfs_dump "$1"
}

y2_nanddump_only_ecc_differs() { # IMAGE ECC_FIRST
	_pg=$(mtd_attr writesize)
	_oob=$(mtd_attr oobsize)
	nanddump -q -o --bb=skipbad -l $(( $(stat -c %s "$1") / (_pg + _oob) * _pg )) \
		-f /tmp/raw.img /dev/mtd0 && only_ecc_differs "$1" /tmp/raw.img "$_pg" "$_oob" "$2"
}

# mkfs.yaffs2 images (default linux layout, data ECC left erased): the MTD
# side always; our reader on the dumps when flashfs reads YAFFS2.
# y2_flash_round CHIP IMAGE LAYOUT WHAT [BADBLOCKS] — load the chip, flashfs
# flash the image, flashfs dump it back byte for byte; sets _tag
y2_flash_round() {
	ns_load "$1" ${5:+badblocks=$5} || { result fail "4: nandsim $1 loads"; return 1; }
	_tag="$2 on $1${5:+ (bad blocks $5)}"
	check "4: $_tag: flashfs flash ($4, verified)" flashfs flash -q "$2" /dev/mtd0
	check "4: $_tag: flashfs dump --oob-layout $3 returns the image byte for byte" \
		flashfs_dump_equals "$2" --oob-layout "$3"
}

yaffs2_case() { # CHIP IMAGE ECC_FIRST [BADBLOCKS]
	_chip=$1 _img=$2 _eccf=$3
	y2_flash_round "$_chip" "$_img" linux "layout detected, AUTO OOB" "$4" || return
	check "4: $_tag: nanddump -o (oracle): tags where the kernel puts them" \
		y2_nanddump_only_ecc_differs "$_img" "$_eccf"
	if [ -f have-yaffs2-reader ]; then
		check "4: $_tag: flashfs dump, our reader sees the source tree" y2_flashfs_dump "$_img"
		check "4: $_tag: nanddump -o (oracle) read by our reader" y2_nanddump "$_img"
		check "4: $_tag: nandwrite -o (oracle), flashfs dump, reader sees the tree" \
			y2_nandwrite_flashfs_dump "$_img"
	fi
	rm -rf /tmp/y.img /tmp/raw.img /tmp/x
}

# An offset0 image (tags at raw OOB 0) goes to the chip through AUTO OOB
# like any other and comes back in its own layout.
yaffs2_offset0() {
	ns_load 2k badblocks=2 || { result fail "4: nandsim 2k loads"; return; }
	check "4: y2-2k-offset0.img on 2k (bad block 2): flashfs flash (offset0 detected)" \
		flashfs flash -q y2-2k-offset0.img /dev/mtd0
	check "4: y2-2k-offset0.img: flashfs dump --oob-layout offset0 returns it byte for byte" \
		flashfs_dump_equals y2-2k-offset0.img --oob-layout offset0
	if [ -f have-yaffs2-reader ]; then
		check "4: y2-2k-offset0.img: our reader sees the tree in the dump" \
			yaffs2_extract_compare /tmp/dump.img
	fi
	rm -rf /tmp/dump.img /tmp/x
}

# 512-byte pages: an inband image holds page data only (the tags end each
# page), so it goes to the chip with plain nandwrite and comes back with
# nanddump without -o; flashfs flash writes it without OOB.
y2_inband_nandwrite() { # IMAGE
	flash_erase -q /dev/mtd0 0 0
	nandwrite -q /dev/mtd0 "$1" && y2_inband_dump_compare "$1"
}

y2_inband_dump_compare() { # IMAGE — flashfs dump (layout given), our reader
	flashfs dump -q --oob-layout inband --length "$(stat -c %s "$1")" /dev/mtd0 /tmp/y.img &&
		cmp /tmp/y.img "$1" && yaffs2_extract_compare /tmp/y.img
}

y2_inband_nanddump() { # IMAGE
	nanddump -q --bb=skipbad -l "$(stat -c %s "$1")" -f /tmp/y.img /dev/mtd0 &&
		cmp /tmp/y.img "$1" && yaffs2_extract_compare /tmp/y.img
}

yaffs2_inband_case() { # CHIP IMAGE [BADBLOCKS]
	_chip=$1 _img=$2
	y2_flash_round "$_chip" "$_img" inband "inband detected, data only" "$3" || return
	if [ -f have-yaffs2-reader ]; then
		check "4: $_tag: flashfs dump, our reader sees the source tree" \
			y2_inband_dump_compare "$_img"
		check "4: $_tag: nanddump (oracle, no OOB) read by our reader" \
			y2_inband_nanddump "$_img"
		check "4: $_tag: nandwrite (oracle, page data only), flashfs dump, reader sees the tree" \
			y2_inband_nandwrite "$_img"
		check "4: $_tag: ... and nanddump of the nandwrite image read by our reader" \
			y2_inband_nanddump "$_img"
	fi
	rm -rf /tmp/y.img /tmp/dump.img /tmp/x
}

scenario_yaffs2() {
	[ -f y2-512.img ] && yaffs2_inband_case 512 y2-512.img && yaffs2_inband_case 512 y2-512.img 1,4
	[ -f y2-2k.img ] && yaffs2_case 2k y2-2k.img 40 && yaffs2_case 2k y2-2k.img 40 1,4
	[ -f y2-4k.img ] && yaffs2_case 4k y2-4k.img 80 && yaffs2_case 4k y2-4k.img 80 0,7
	[ -f y2-2k-offset0.img ] && yaffs2_offset0
	[ -f have-yaffs2-reader ] || result ok "4: YAFFS2 dumps read by our reader # SKIP flashfs cannot read YAFFS2 yet"
}

# ---- 5. bit flips on read ----------------------------------------------------
# The MTD's ECC covers page data only: the tag bytes kept in OOB are not
# checked by it (YAFFS2 tags carry their own ECC, which our reader checks),
# so a flip that nandsim puts there comes back as read, by any tool.
# PAGE OOB ECC_FIRST: differences in the free OOB bytes before the ECC
# bytes are allowed, at most one byte a page (nandsim bitflips=1 flips one
# bit of a page read); a difference in page data, in OOB bytes the dump
# does not read from the chip, or more than one a page, is wrong.
only_oob_flips() { # IMAGE DUMP PAGE OOB ECC_FIRST
	cmp -l "$1" "$2" | awk -v pg="$3" -v raw=$(($3 + $4)) -v ecc=$(($3 + $5)) '
		{ p = int(($1 - 1) / raw); o = ($1 - 1) % raw
		  if (o < pg) { bad++; print "page", p, "data byte", o, "differs" }
		  else if (o >= ecc) { bad++; print "page", p, "OOB byte", o - pg, "(not read from the chip) differs" }
		  else if (++n[p] > 1) { bad++; print "page", p, "OOB: more than one byte differs" }
		  else tags++ }
		END { print tags + 0, "OOB byte(s) flipped, not covered by the ECC"; exit bad > 0 }'
}

# Each dump must equal the image, or say that it does not (exit 1).
dump_never_silently_wrong() { # IMAGE ROUNDS [--oob-of PAGE OOB ECC_FIRST] [dump options]
	_img=$1 _n=$2 _bad=0 _pg= _oob=
	rm -f /tmp/of.out
	shift 2
	[ "$1" = --oob-of ] && { _pg=$2 _oob=$3 _eccf=$4; shift 4; }
	while [ "$_n" -gt 0 ]; do
		flashfs dump "$@" --length "$(stat -c %s "$_img")" /dev/mtd0 /tmp/bf.img > /tmp/bf.out 2>&1
		_rc=$?
		diag "  $(grep 'ECC' /tmp/bf.out)"
		if [ $_rc = 0 ] && ! cmp -s /tmp/bf.img "$_img"; then
			if [ -n "$_pg" ] && only_oob_flips "$_img" /tmp/bf.img "$_pg" "$_oob" "$_eccf" > /tmp/of.out; then
				diag "  $(tail -n 1 /tmp/of.out)"
			else
				cat /tmp/of.out 2> /dev/null
				echo "dump differs from the image but exit status was 0"
				_bad=1
			fi
		fi
		[ $_rc -ge 2 ] && { cat /tmp/bf.out; _bad=1; }
		_n=$((_n - 1))
	done
	rm -f /tmp/bf.img /tmp/of.out
	return $_bad
}

ubi_fresh_compare() { # IMAGE
	ubi_up && ubi_volume_compare 0 "$1"
}

mount_never_silently_wrong() { # DEV
	if ! mount -t squashfs -o ro "$1" /mnt/sq 2> /tmp/mount.err; then
		cat /tmp/mount.err
		# a flip in the superblock or a metadata block fails the mount: reported
		grep -q 'Input/output error' /tmp/mount.err || return 2
		diag "  mtdblock_ro: the mount failed with an I/O error (reported, not wrong)"
		return 0
	fi
	ff_manifest /mnt/sq > /tmp/manifest.got
	umount /mnt/sq
	awk 'NR == FNR { want[$1] = $0; next }
	     { if ($0 != want[$1]) { if ($7 == "unreadable") eio++; else { bad++; print "different:", $0 } } }
	     END { print eio + 0, "objects unreadable (I/O error),", bad + 0, "different"; exit bad > 0 }' \
		manifest.tree /tmp/manifest.got > /tmp/nsw.out
	_rc=$?
	cat /tmp/nsw.out
	diag "  mtdblock_ro: $(tail -n 1 /tmp/nsw.out)"
	return $_rc
}

# One read-back of a YAFFS2 image under bit flips: the dump reports ECC
# failures (exit 1), or our reader (tags ECC) must give back the tree.
y2_read_under_flips() { # IMAGE
	flashfs dump --oob-layout linux --length "$(stat -c %s "$1")" /dev/mtd0 /tmp/y.img \
		> /tmp/bf.out 2>&1
	_rc=$?
	diag "  $(grep 'ECC' /tmp/bf.out)"
	[ $_rc = 1 ] && return 0
	[ $_rc = 0 ] || { cat /tmp/bf.out; return 1; }
	flashfs info /tmp/y.img > /tmp/info.out 2>&1
	diag "  reader: $(grep -E 'tags_ecc_(fixed|unfixed)|^problems' /tmp/info.out | tr -s ' \n' '  ')"
	yaffs2_extract_compare /tmp/y.img
}

y2_reads_never_silently_wrong() { # IMAGE ROUNDS
	_n=$2
	while [ "$_n" -gt 0 ]; do
		y2_read_under_flips "$1" || return 1
		_n=$((_n - 1))
	done
}

# clear_oob_bit IMAGE PAGE FROM — program page PAGE's OOB once more with
# one bit cleared in the first raw OOB byte at or after FROM that has a bit
# set in the image (its offset is left in $oob_used).  NAND programming (and
# nandsim) only turns 1s into 0s and the free OOB bytes are outside the data
# ECC, so this is a real single-bit error in the tags the chip returns.
clear_oob_bit() {
	_pg=$(mtd_attr writesize)
	_raw=$((_pg + $(mtd_attr oobsize)))
	oob_used=$3
	while [ "$oob_used" -lt 30 ]; do
		_v=$(od -An -tu1 -j $(($2 * _raw + _pg + oob_used)) -N1 "$1" | tr -d ' ')
		[ "$_v" != 0 ] && break
		oob_used=$((oob_used + 1))
	done
	[ "$oob_used" -lt 30 ] || return 1
	_b=1
	while [ $((_v & _b)) = 0 ]; do _b=$((_b * 2)); done
	diag "  page $2 OOB byte $oob_used: 0x$(printf %02x "$_v") -> 0x$(printf %02x $((_v & ~_b & 255)))"
	tr '\000' '\377' < /dev/zero | head -c "$_raw" > /tmp/oob.img
	printf "\\$(printf %o $((_v & ~_b & 255)))" |
		dd of=/tmp/oob.img bs=1 seek=$((_pg + oob_used)) conv=notrunc 2> /dev/null
	nandwrite -q -O -s $(($2 * _pg)) /dev/mtd0 /tmp/oob.img
}

reader_reports() { # IMAGE FIELD VALUE — flashfs info of a dump says so
	flashfs dump -q --oob-layout linux --length "$(stat -c %s "$1")" /dev/mtd0 /tmp/y.img &&
		flashfs info /tmp/y.img > /tmp/info.out 2>&1
	grep -E 'tags_ecc|problems' /tmp/info.out
	grep -q "^$2 *$3\$" /tmp/info.out
}

# Deterministic tag errors through the real MTD stack: one flipped bit in
# a page's tags is corrected and counted; two are reported, not trusted.
yaffs2_tag_errors() {
	ns_load 2k || { result fail "5: nandsim 2k loads"; return; }
	flashfs flash -q y2-2k.img /dev/mtd0
	check "5: one tag bit cleared on the chip (page 0)" clear_oob_bit y2-2k.img 0 2
	check "5: our reader corrects it and counts it (tags_ecc_fixed 1)" \
		reader_reports y2-2k.img tags_ecc_fixed 1
	check "5: ... and the tree is whole" yaffs2_extract_compare /tmp/y.img
	clear_oob_bit y2-2k.img 1 2 && clear_oob_bit y2-2k.img 1 $((oob_used + 1))
	check "5: two tag bits cleared in page 1: reported uncorrectable (tags_ecc_unfixed 1)" \
		reader_reports y2-2k.img tags_ecc_unfixed 1
	rm -f /tmp/y.img /tmp/oob.img
}

yaffs2_bitflips() {
	ns_unload
	ns_load 2k bitflips=2 || { result fail "5: nandsim bitflips=2 loads"; return; }
	flashfs flash -q --no-verify y2-2k.img /dev/mtd0
	check "5: bitflips=2: YAFFS2 read back x4: tree equal, or the ECC failure reported" \
		y2_reads_never_silently_wrong y2-2k.img 4
	rm -f /tmp/y.img
}

# Without random flips, one tag bit cleared on the chip: the ECC does not
# see it, the dump exits 0 with that OOB byte alone differing, and the
# check above accepts it (its other cases fail; see its comment).
pages_tag_flip() { # IMAGE (2K pages)
	ns_load 2k || { result fail "5: nandsim 2k loads"; return; }
	flashfs flash -q --oob-layout linux "$1" /dev/mtd0
	check "5: a tag bit cleared on the chip (page 0)" clear_oob_bit "$1" 0 2
	check "5: ... comes back in the dump (exit 0), which differs from the image" \
		dump_differs "$1"
	check "5: ... in that one OOB byte alone, which the OOB rule accepts" \
		one_oob_flip "$1"
	rm -f /tmp/bf.img /tmp/oob.img
}

dump_differs() { # IMAGE
	flashfs dump -q --oob-layout linux --length "$(stat -c %s "$1")" /dev/mtd0 /tmp/bf.img &&
		! cmp -s "$1" /tmp/bf.img
}

one_oob_flip() { # IMAGE
	only_oob_flips "$1" /tmp/bf.img 2048 64 40 > /tmp/of.out
	_rc=$?
	cat /tmp/of.out
	[ $_rc = 0 ] && grep -q '^1 OOB byte' /tmp/of.out
}

scenario_bitflips() {
	_img=$(first_sqfs)
	ns_load 2k bitflips=1 || { result fail "5: nandsim bitflips=1 loads"; return; }
	nandwrite -q -p /dev/mtd0 "$_img"
	check "5: bitflips=1: flashfs dump x4 identical or error reported" \
		dump_never_silently_wrong "$_img" 4
	diag "nandsim so far flipped $(dmesg | grep -c 'flipping bit') bits (its kernel log)"
	# mtdblock_ro fails a read on any ECC event, corrected or not, so objects
	# may be unreadable; none may read back different
	check "5: bitflips=1: via mtdblock_ro every object equal or unreadable, never different" \
		mount_never_silently_wrong /dev/mtdblock0
	flash_erase -q /dev/mtd0 0 0
	check "5: bitflips=1: SquashFS on UBI (ubiblock), tree matches" \
		ubi_fresh_compare "$_img"
	ns_unload
	ns_load 2k bitflips=1
	if [ -f pages-2k.img ]; then
		flash_erase -q /dev/mtd0 0 0
		flashfs flash -q --no-verify --oob-layout linux pages-2k.img /dev/mtd0
		check "5: bitflips=1: pages + tags dump x4 identical (but for OOB flips) or error reported" \
			dump_never_silently_wrong pages-2k.img 4 --oob-of 2048 64 40 --oob-layout linux
		pages_tag_flip pages-2k.img
	fi
	[ -f y2-2k.img ] && [ -f have-yaffs2-reader ] && yaffs2_bitflips && yaffs2_tag_errors
}

# ---- 6. geometry mismatch -----------------------------------------------------
scenario_geometry() {
	ns_load 4k || { result fail "6: nandsim 4K loads"; return; }
	_img=pages-2k.img
	[ -f y2-2k.img ] && _img=y2-2k.img
	check_fails "6: a 2K YAFFS2 image (--chip nandsim-2k-256m) is refused on a 4K chip" \
		flashfs flash --chip nandsim-2k-256m --oob-layout linux "$_img" /dev/mtd0
	check "6: ... with a message naming both geometries" \
		grep -q 'geometry mismatch.*2048+64.*4096+128' /tmp/refused.out
	if [ -f y2-2k.img ]; then
		check_fails "6: y2-2k.img (geometry detected) is refused on a 4K chip" \
			flashfs flash y2-2k.img /dev/mtd0
		check "6: ... naming both geometries" \
			grep -q 'geometry mismatch.*2048+64.*4096+128' /tmp/refused.out
	fi
	check "6: nothing was written to the 4K chip" \
		sh -c 'nanddump -q -l 262144 -f /tmp/g.img /dev/mtd0 &&
			tr "\000" "\377" < /dev/zero | head -c 262144 > /tmp/ff.img && cmp /tmp/g.img /tmp/ff.img'
	rm -f /tmp/g.img /tmp/ff.img
}

for s in scenario_mtdblock scenario_ubi scenario_badblocks_ubi scenario_badblocks_flash \
	scenario_pages scenario_yaffs2 scenario_bitflips scenario_geometry; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	$s
	diag "$s: $(awk -v t0="$t0" '{printf "%.1f", $1 - t0}' /proc/uptime) s"
done
ns_unload
