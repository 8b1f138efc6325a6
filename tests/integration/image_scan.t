#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The format registry's pipeline (issue 27): flashfs scan finds every image
# in a blob at its exact offset, unaligned ones included, and none in
# random bytes; the --offset hint uses the same scan; an image the registry
# detects but cannot read says what it is; an empty UBI volume is called
# empty; a UBI volume is read in place (a TMPDIR too small for a copy is
# no obstacle).  Images come from mksquashfs, mkfs.yaffs2 and ubinize; the
# extracted trees are compared with the sources.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
command -v ubinize > /dev/null || skip_all "ubinize (mtd-utils) not installed"
cd "$T" || exit 2

mkdir -p src/etc src/bin && seq 1 20000 > src/etc/numbers && echo hi > src/bin/hi
ln -s ../etc/numbers src/bin/link
mksquashfs src a.sqfs -noappend -quiet -no-progress -all-root > /dev/null
mkfs.yaffs2 -q --all-root src y.img > /dev/null
printf '%s\n' '[rootfs]' mode=ubi image=a.sqfs vol_id=0 vol_size=1MiB vol_name=rootfs \
	'[data]' mode=ubi vol_id=1 vol_size=512KiB vol_name=data vol_flags=autoresize > u.ini
ubinize -o u.ubi -p 128KiB -m 2048 -Q 7 u.ini > /dev/null

# A blob: a kernel-like header of random bytes, then each image at an
# offset that is no multiple of 512 (nor of 4), random bytes between.
head -c 4660 /dev/urandom > blob                       # squashfs at 0x1234
cat a.sqfs >> blob
head -c $((0x30001 - $(stat -c %s blob))) /dev/urandom >> blob   # UBI at 0x30001
cat u.ubi >> blob
pad=$(( (0x200000 - $(stat -c %s blob)) ))
head -c $pad /dev/urandom >> blob                      # YAFFS2 at 0x200000
cat y.img >> blob   # last: a YAFFS2 image runs to the end of what holds it

flashfs scan blob > scan.txt
is "$?" 0 "scan: exit 0 when images are found"
is "$(awk '$2 ~ /^0x/ {print $1, $3}' scan.txt | tr '\n' ' ')" \
	"4660 squashfs 196609 ubi 2097152 yaffs2 " "scan: each image at its exact offset"
flashfs scan --json blob > scan.json
is "$(python3 -c 'import json; d=json.load(open("scan.json")); print(len(d["images"]), d["images"][0]["offset"], d["images"][0]["version"], d["images"][0]["byte_order"])')" \
	"3 4660 4.0 little" "scan --json: three images, the first's offset, version and byte order"
ok "scan --json: valid against scan.schema.json" \
	python3 "$FF_TOP/tests/tools/json_validate.py" "$FF_TOP/docs/schemas/scan.schema.json" scan.json
ok "scan --json: the UBI image's volumes" python3 -c "
import json, sys; d = json.load(open('scan.json'))
sys.exit([v['name'] for v in d['images'][1]['contents']['ubi']['volumes']] != ['rootfs', 'data'])"
flashfs formats --json > formats.json
ok "formats --json: valid against formats.schema.json" \
	python3 "$FF_TOP/tests/tools/json_validate.py" "$FF_TOP/docs/schemas/formats.schema.json" formats.json
ok "formats: the registry lists SquashFS as read and built" \
	bash -c "flashfs formats | grep -q '^squashfs .* yes .* yes .* mkfs.squashfs  *yes\$'"
ok "formats: EROFS has a build hook, with the -E words it takes" \
	python3 -c "import json,sys; f={x['name']: x for x in json.load(open('formats.json'))['formats'] if x['build']}; \
sys.exit(not ('erofs' in f and 'noinline_data' in [g['name'] for g in f['erofs']['build_options']['flags']]))"
ok "scan --json: the SquashFS size is bytes_used" python3 -c "
import json, sys; d = json.load(open('scan.json'))
sys.exit(d['images'][0]['size'] != $(unsquashfs -s a.sqfs | awk '/^Filesystem size/ {print $3}'))"

flashfs ls blob > /dev/null 2> hint.txt
is "$?" 2 "ls of the blob without --offset: exit 2"
ok "the hint names the unaligned offset" grep -q "is at offset 4660: try --offset 4660" hint.txt
mkdir o1 o2 o3
ok "extract --offset 4660 (SquashFS)" flashfs extract --offset 4660 -C o1 blob
same_manifest "SquashFS in the blob = its source" src o1
ok "extract --offset 196609 (UBI, volume rootfs)" flashfs extract --offset 196609 -C o2 blob
same_manifest "UBI in the blob = its source" src o2
ok "extract --offset 2097152 (YAFFS2)" flashfs extract --offset 2097152 -C o3 blob
same_manifest "YAFFS2 in the blob = its source" src o3

# Nothing in 64 MiB of random bytes, nor a hint.
head -c 64M /dev/urandom > rand
flashfs scan rand > rand.txt
is "$?" 1 "scan of 64 MiB of random bytes: exit 1"
is "$(tail -n 1 rand.txt)" "0 images found" "scan of random bytes: 0 found"
flashfs info rand > /dev/null 2> rand.err
ok "info of random bytes: no offset offered" bash -c "grep -q 'not an image flashfs knows' rand.err && ! grep -q try rand.err"

# Detected, not read: a tar archive and an ext4 image say what they are.
tar -C src -cf t.tar .
flashfs ls t.tar > /dev/null 2> tar.err
is "$?" 2 "a tar archive: exit 2"
ok "a tar archive: named as one" grep -q "a tar archive.*not a flash image flashfs reads" tar.err
if command -v mkfs.ext4 > /dev/null; then
	truncate -s 4M e.img && mkfs.ext4 -q -F e.img
	flashfs info e.img > /dev/null 2> ext.err
	ok "an ext4 image: named by libblkid" grep -q "(ext4" ext.err
else
	skip "mkfs.ext4 not installed" "an ext4 image: named by libblkid"
fi

# An empty (autoresize, never written) volume is called empty, and no hint
# points at the other volume's superblock.
flashfs ls --volume data u.ubi > /dev/null 2> empty.err
is "$?" 2 "--volume data (empty): exit 2"
ok "--volume data: says the volume is empty" \
	bash -c "grep -q 'UBI volume \"data\": is empty' empty.err && ! grep -q try empty.err"
flashfs info --volume data u.ubi > info.txt 2>&1
ok "info --volume data still lists the UBI layer" grep -q '^ubi_volume_0 .*"rootfs"' info.txt

# Read in place: a volume of 48 MiB through a TMPDIR of 1 MiB, which a
# copy of the volume would not fit in.
head -c 48M /dev/urandom > src/big
mksquashfs src big.sqfs -noappend -quiet -no-progress -all-root -noD > /dev/null
printf '%s\n' '[rootfs]' mode=ubi image=big.sqfs vol_id=0 vol_name=rootfs > big.ini
ubinize -o big.ubi -p 128KiB -m 2048 big.ini > /dev/null
mkdir small && mount -t tmpfs -o size=1m tmpfs small
is "$(TMPDIR=$T/small flashfs cat big.ubi /big | md5sum)" "$(md5sum < src/big)" \
	"a 48 MiB volume is read through a 1 MiB TMPDIR (no copy)"
umount small
rm -f src/big
# The other file systems, each from its Debian tool, at odd offsets in one
# blob; JFFS2 stores no size, so its probe walks its nodes to find the end.
mkdir fs && echo hello > fs/a && seq 1 3000 > fs/b && mkdir fs/d && ln -s a fs/l
mkfs.cramfs fs c.img > /dev/null && genromfs -d fs -f r.img && mkfs.erofs e.img fs > /dev/null &&
	mkfs.jffs2 -r fs -o j.img -e 65536 && mkfs.ubifs -r fs -m 2048 -e 126976 -c 100 -o f.ubifs ||
	fail "the other formats' images could not be made"
head -c 3001 /dev/urandom > blob2
want=
for i in c.img:cramfs r.img:romfs e.img:erofs j.img:jffs2 f.ubifs:ubifs; do
	size=$(stat -c %s "${i%%:*}")   # romfs: its own size (genromfs pads the file)
	[ "${i#*:}" = romfs ] && size=$(od -An -tu4 --endian=big -j8 -N4 r.img | tr -d ' ')
	want="$want$(stat -c %s blob2) ${i#*:} $size "
	cat "${i%%:*}" >> blob2
	head -c $((1001 + RANDOM % 4000)) /dev/urandom >> blob2
done
flashfs scan blob2 > scan2.txt
is "$(awk '$2 ~ /^0x/ {print $1, $3, $4}' scan2.txt | tr '\n' ' ')" "$want" \
	"scan: CramFS, romfs, EROFS, JFFS2, UBIFS each at its offset, with its size"
ok "extract --all: every one of them" flashfs extract --all -C all2 blob2
for d in all2/*; do   # CramFS and romfs store no times
	case $d in *cramfs | *romfs) mt=--no-mtime ;; *) mt= ;; esac
	same_manifest "extract --all: ${d#all2/} = its source" fs "$d" $mt
done

done_testing
