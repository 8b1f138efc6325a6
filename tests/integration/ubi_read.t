#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs on UBI images built by mtd-utils' ubinize around mksquashfs (and
# mkfs.yaffs2) images.  Oracles: unsquashfs's extraction of the same
# SquashFS images, and UBI PEBs edited by tests/tools/ubi_edit.py (its own
# Python encoder) to play out the kernel's attach rules: the newest copy of
# a LEB wins by sequence number, a wear-leveling copy only with a sound data
# CRC, damaged headers and erased PEBs are skipped, the volume table comes
# from the sound copy; flashfs check names the PEB of every problem.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
. "$(dirname "$0")/ubi_lib.sh"

cd "$T" || exit 2
ubi_fixture

{ ubi_ini_kernel_rootfs; cat <<'INI'; } > ab.ini
[rootfs_b]
mode=ubi
image=b.sqfs
vol_id=3
vol_name=rootfs_b
[data]
mode=ubi
vol_id=2
vol_size=1MiB
vol_name=data
vol_flags=autoresize
INI

for geom in "2K/128K:-p 128KiB -m 2048" "512/16K sub-pages:-p 16KiB -m 512 -s 256" \
	"4K/256K:-p 256KiB -m 4096"; do
	name=${geom%%:*}
	# shellcheck disable=SC2086
	ubinize -o ab.ubi ${geom#*:} -Q 42 ab.ini > /dev/null
	rm -rf out outb && mkdir out outb
	ok "$name: flashfs extract of the rootfs volume" flashfs extract -C out ab.ubi
	same_manifest "$name: rootfs tree = unsquashfs's" unsq_a out
	ok "$name: --volume rootfs_b" flashfs extract -C outb --volume rootfs_b ab.ubi
	same_manifest "$name: rootfs_b tree = unsquashfs's" unsq_b outb
	is "$(flashfs cat --volume 3 ab.ubi /etc/version)" "slot b" "$name: --volume 3 (by ID)"
	ok "$name: flashfs check: clean" flashfs check -q ab.ubi
done

flashfs info ab.ubi > info.txt
grep -q '^ubi_volume_0 .*"kernel" static.*used 5000 bytes.*CRC ok' info.txt
ok "info: static kernel volume, 5000 bytes, CRC ok" test $? = 0
grep -q '^ubi_volume_2 .*"data" dynamic.*mapped 0.*flags autoresize' info.txt
ok "info: empty autoresize data volume" test $? = 0
grep -q '^volume_format  *squashfs' info.txt
ok "info: the opened volume holds squashfs" test $? = 0
flashfs info --json ab.ubi | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d["ubi"]["peb_size"] != 262144)'
ok "info --json parses, PEB size detected" test $? = 0

out=$(flashfs ls --volume nosuch ab.ubi / 2>&1)
is "$?" 2 "--volume nosuch: exit 2"
case $out in *'rootfs_b'*) ok "--volume nosuch: lists the volumes" true ;;
*) ok "--volume nosuch: lists the volumes ($out)" false ;; esac
sed 's/vol_name=rootfs$/vol_name=main/' ab.ini > nodefault.ini
ubinize -o nd.ubi -p 128KiB -m 2048 -Q 1 nodefault.ini > /dev/null
fails "several volumes, none named rootfs: an error" flashfs ls nd.ubi /
ok "--peb-size given" flashfs ls --peb-size 128K nd.ubi --volume main /
fails "--peb-size wrong" flashfs ls --peb-size 64K nd.ubi --volume main /

# YAFFS2 inside a volume.
mkfs.yaffs2 -q srcb y.img
printf '[y]\nmode=ubi\nimage=y.img\nvol_id=0\nvol_name=yaffs\n' > y.ini
ubinize -o y.ubi -p 128KiB -m 2048 -Q 1 y.ini > /dev/null
is "$(flashfs cat y.ubi /etc/version)" "slot b" "YAFFS2 image in a UBI volume"

# Scan semantics on one small volume: PEB 2 holds LEB 0 of the rootfs.
printf '[r]\nmode=ubi\nimage=b.sqfs\nvol_id=0\nvol_size=1MiB\nvol_name=rootfs\n' > one.ini
ubinize -o base.ubi -p 128KiB -m 2048 -Q 7 one.ini > /dev/null
mksquashfs src/dir c.sqfs -noappend -quiet -no-progress > /dev/null
unsquashfs -q -n -d unsq_c c.sqfs > /dev/null
P=131072
newer() { # FILE COPY_FLAG DATA_CRC — base.ubi plus a newer copy of LEB 0 holding c.sqfs
	cp base.ubi "$1"
	n=$($EDIT "$1" $P append-copy 2)
	$EDIT "$1" $P data "$n" c.sqfs
	$EDIT "$1" $P vid "$n" sqnum=5 copy_flag="$2" data_size="$(stat -c %s c.sqfs)" \
		data_crc="$3"
}
tree_is() { # NAME IMAGE DIR
	rm -rf x && mkdir x
	flashfs extract -C x "$2" > /dev/null 2>&1
	same_manifest "$1" "$3" x
}
newer n1.ubi 0 0
tree_is "a newer copy (higher sqnum) wins" n1.ubi unsq_c
newer n2.ubi 1 auto
tree_is "a newer wear-leveling copy with a sound data CRC wins" n2.ubi unsq_c
ok "  ... and check is clean (the old copy is no problem)" flashfs check -q n2.ubi
newer n3.ubi 1 0x12345678
tree_is "a newer copy with a bad data CRC loses to the older" n3.ubi unsq_b
out=$(flashfs check n3.ubi 2>&1)
is "$?" 1 "  ... check exit 1"
case $out in *"PEB 3: volume 0 LEB 0: copy with bad data CRC"*) ok "  ... check names PEB 3" true ;;
*) ok "  ... check names PEB 3 ($out)" false ;; esac
newer n4.ubi 0 0
$EDIT n4.ubi $P flip 3 $((2048 + 41))
tree_is "a newer copy with a damaged VID header is skipped" n4.ubi unsq_b
case $(flashfs check n4.ubi 2>&1) in *"PEB 3: VID header CRC mismatch"*) ok "  ... check names PEB 3" true ;;
*) ok "  ... check names PEB 3" false ;; esac
cp base.ubi e.ubi
$EDIT e.ubi $P flip 2 10
tree_is "a damaged EC header with a sound VID header is still read" e.ubi unsq_b
case $(flashfs check e.ubi 2>&1) in *"PEB 2: EC header CRC mismatch"*) ok "  ... check names PEB 2" true ;;
*) ok "  ... check names PEB 2" false ;; esac
cp base.ubi v.ubi
$EDIT v.ubi $P flip 0 $((4096 + 20))
tree_is "volume table copy 0 damaged: copy 1 is used" v.ubi unsq_b
case $(flashfs check v.ubi 2>&1) in *"PEB 0: volume table copy 0, record 0: CRC mismatch"*)
	ok "  ... check names PEB 0" true ;; *) ok "  ... check names PEB 0" false ;; esac
$EDIT v.ubi $P flip 1 $((4096 + 20))
out=$(flashfs ls v.ubi / 2>&1)
is "$?" 2 "both volume table copies damaged: exit 2"
case $out in *"no sound volume table"*) ok "  ... says so" true ;; *) ok "  ... says so ($out)" false ;; esac
cp base.ubi f.ubi
$EDIT f.ubi $P append-erased 3
grep -q '^ubi_free_pebs  *3$' <(flashfs info f.ubi)
ok "erased PEBs are free PEBs" test $? = 0
ok "  ... and no problem" flashfs check -q f.ubi
ubinize -o k.ubi -p 128KiB -m 2048 -Q 7 ab.ini > /dev/null
$EDIT k.ubi $P flip 2 5000
grep -q '^ubi_volume_0 .*CRC BAD' <(flashfs info k.ubi 2>/dev/null)
ok "static volume with flipped data: CRC BAD in info" test $? = 0
case $(flashfs check k.ubi 2>&1) in *'PEB 2: volume 0 "kernel" LEB 0: data CRC mismatch'*)
	ok "  ... check names PEB 2" true ;; *) ok "  ... check names PEB 2" false ;; esac

# FUSE mount of a volume.
if [ -c /dev/fuse ] && command -v fusermount3 > /dev/null; then
	mkdir -p mnt
	ubinize -o ab.ubi -p 128KiB -m 2048 -Q 42 ab.ini > /dev/null
	if flashfs mount -o volume=rootfs_b ab.ubi mnt && mountpoint -q mnt; then
		same_manifest "mount -o volume=rootfs_b: tree = unsquashfs's" unsq_b mnt
		fusermount3 -u mnt
	else
		ok "mount -o volume=rootfs_b" false
	fi
else
	skip "no FUSE here" "mount -o volume=rootfs_b"
fi
done_testing
