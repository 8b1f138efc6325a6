#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Oracle: mtd-utils' ubinize (Debian 2.1.5).  With the same configuration
# file, geometry options and -Q, mkfs.ubi's image must equal ubinize's byte
# for byte: NAND 2K/128K, 4K/256K, 512/16K with 256-byte sub-pages, NOR-like
# 1-byte I/O, explicit -O, -e, -x; static and dynamic volumes, volumes with
# no image, alignment, autoresize, skip-check.  Bad files and options give
# exit 2, a message naming FILE:LINE or the option, and no image.
. "$(dirname "$0")/../lib.sh"
command -v ubinize > /dev/null || skip_all "ubinize (mtd-utils) not installed"

cd "$T" || exit 2
head -c 300000 /dev/urandom > root.img
head -c 4097 /dev/urandom > kernel.img
head -c 131072 /dev/urandom > exact.img
head -c 1 /dev/urandom > one.img

# same NAME INI OPTIONS... — both tools build INI; the images must be equal.
same() {
	local name=$1 ini=$2
	shift 2
	rm -f ref.ubi our.ubi
	if ! ubinize -o ref.ubi "$@" "$ini" > ubinize.out 2>&1; then
		ok "$name: ubinize builds it" false
		cat ubinize.out >&2
		return
	fi
	ok "$name: mkfs.ubi builds it" mkfs.ubi -o our.ubi "$@" "$ini"
	ok "$name: byte-identical to ubinize ($(stat -c %s ref.ubi) bytes)" cmp ref.ubi our.ubi
}

cat > multi.ini <<'INI'
# kernel, rootfs (A/B), and an empty data volume that grows on first attach
[kernel]
mode=ubi
image=kernel.img
vol_id=0
vol_type=static
vol_name=kernel

[RootFS]
Mode = ubi
image = root.img
vol_id = 1
vol_size = 1MiB ; inline comment
vol_type = dynamic
vol_name = "rootfs"

[rootfs_b]
mode=ubi
image='root.img'
vol_id=3
vol_type=dynamic
vol_name=rootfs_b
vol_alignment=2048

[data]
mode=ubi
vol_id=2
vol_size=0x80000
vol_name=da\
ta
vol_flags=autoresize
INI

cat > static.ini <<'INI'
[fw]
mode=ubi
image=exact.img
vol_id=5
vol_type=static
vol_name=firmware
vol_flags=skip-check
[tiny]
mode=ubi
image=one.img
vol_id=6
vol_type=static
vol_name=tiny
[ro]
mode=ubi
image=root.img
vol_id=7
vol_size=2MiB
vol_type=static
vol_name=rootfs
INI

for seq in 0 1 12345 0xdeadbeef 4294967295; do
	same "2K/128K -Q $seq" multi.ini -p 128KiB -m 2048 -Q "$seq"
done
same "4K/256K" multi.ini -p 256KiB -m 4096 -Q 7
same "512/16K, 256-byte sub-pages" multi.ini -p 16KiB -m 512 -s 256 -Q 9
same "2K/128K, 512-byte sub-pages" multi.ini -p 128KiB -m 2048 -s 512 -Q 9
same "2K/128K, -O 2048" multi.ini -p 128KiB -m 2048 -O 2048 -Q 3
same "2K/128K, -O 512 -s 512" multi.ini -p 131072 -m 2048 -s 512 -O 512 -Q 3
same "-e 42 -x 1, long options" multi.ini --peb-size=128KiB --min-io-size=2048 \
	--erase-counter=42 --ubi-ver=1 --image-seq=77
same "NOR: 64K PEB, 1-byte I/O" multi.ini -p 64KiB -m 1 -Q 5
same "static volumes, skip-check" static.ini -p 128KiB -m 2048 -Q 11
same "static volumes, 512/16K" static.ini -p 16KiB -m 512 -s 256 -Q 11

# --squashfs DIR in one step = mkfs.squashfs, then ubinize on the result.
mkdir -p tree/etc && echo one > tree/etc/a && ln -s a tree/etc/b && head -c 200000 /dev/urandom > tree/blob
export SOURCE_DATE_EPOCH=1600000000
ok "--squashfs: builds" mkfs.ubi -o one.ubi -p 128KiB -m 2048 -Q 8 --squashfs tree --all-root \
	--squashfs-comp xz --vol-size 4MiB --vol-flags autoresize
ok "--squashfs: mkfs.squashfs alone" mkfs.squashfs -q -c xz --all-root tree two.sqfs
printf '[rootfs]\nmode=ubi\nimage=two.sqfs\nvol_id=0\nvol_size=4MiB\nvol_name=rootfs\nvol_flags=autoresize\n' > two.ini
ubinize -o two.ubi -p 128KiB -m 2048 -Q 8 two.ini > /dev/null 2>&1
ok "--squashfs: same bytes as mkfs.squashfs + ubinize" cmp one.ubi two.ubi
ok "--squashfs with an ini file: the lowest free volume ID" \
	mkfs.ubi -o both.ubi -p 128KiB -m 2048 -Q 8 --squashfs tree --vol-name extra multi.ini
{ cat multi.ini; printf '[e]\nmode=ubi\nimage=two.sqfs\nvol_id=4\nvol_name=extra\n'; } > both.ini
mkfs.squashfs -q --noappend tree two.sqfs
ubinize -o both-ref.ubi -p 128KiB -m 2048 -Q 8 both.ini > /dev/null 2>&1
ok "  ... ID 4, after 0-3; same bytes as ubinize" cmp both.ubi both-ref.ubi
unset SOURCE_DATE_EPOCH

# The CRCs are UBI's: a header changed by one bit no longer compares.
python3 - our.ubi <<'PY'
import sys, zlib
b = open(sys.argv[1], 'rb').read()
crc = lambda d: zlib.crc32(d) ^ 0xFFFFFFFF
ok = int.from_bytes(b[60:64], 'big') == crc(b[:60])
sys.exit(0 if ok else 1)
PY
ok "EC header CRC is zlib crc32 ^ 0xFFFFFFFF (checked in Python)" test $? = 0

# Bad input: exit 2, the file and line or the option, no image left.
bad() {
	local name=$1 want=$2 out rc
	shift 2
	rm -f bad.ubi
	out=$(mkfs.ubi -o bad.ubi "$@" 2>&1)
	rc=$?
	is "$rc" 2 "$name: exit 2"
	case $out in
	*"$want"*) ok "$name: message names '$want'" true ;;
	*) ok "$name: message names '$want'" false; echo "#   got: $out" ;;
	esac
	ok "$name: no image" test ! -e bad.ubi
	ls bad.ubi.tmp.* > /dev/null 2>&1 && ok "$name: no temporary left" false
}

printf '[a]\nmode=ubi\nvol_id=0\nthis line is wrong\n' > e1.ini
bad "syntax error" "e1.ini:4:" -p 128KiB -m 2048 e1.ini
printf '[a]\nmode=ubi\nimage=root.img\nvol_id=0\nvol_name=a\nvol_type=ro\n' > e2.ini
bad "bad vol_type" "e2.ini:6:" -p 128KiB -m 2048 e2.ini
printf '[a]\nmode=ubi\nimage=root.img\nvol_name=a\n' > e3.ini
bad "no vol_id" "e3.ini:1:" -p 128KiB -m 2048 e3.ini
printf '[a]\nmode=ubi\nimage=root.img\nvol_id=0\nvol_size=1000\nvol_name=a\n' > e4.ini
bad "image larger than vol_size" "e4.ini:5:" -p 128KiB -m 2048 e4.ini
printf '[a]\nmode=ubi\nimage=root.img\nvol_id=0\nvol_size=12XiB\nvol_name=a\n' > e5.ini
bad "bad vol_size suffix" "e5.ini:5:" -p 128KiB -m 2048 e5.ini
printf '[a]\nmode=ubi\nimage=nonexistent\nvol_id=0\nvol_name=a\n' > e6.ini
bad "missing image" "e6.ini:3:" -p 128KiB -m 2048 e6.ini
printf '[a]\nmode=ubi\nimage=root.img\nvol_id=0\nvol_name=a\n[b]\nmode=ubi\nimage=root.img\nvol_id=0\nvol_name=b\n' > e7.ini
bad "duplicate vol_id" "e7.ini:6:" -p 128KiB -m 2048 e7.ini
printf '[a]\nmode=ubi\nvol_size=1MiB\nvol_id=0\nvol_name=a\nvol_flags=autoresize\n[b]\nmode=ubi\nvol_size=1MiB\nvol_id=1\nvol_name=b\nvol_flags=autoresize\n' > e8.ini
bad "two autoresize volumes" "e8.ini:7:" -p 128KiB -m 2048 e8.ini
printf '[a]\nmode=ubi\nimage=root.img\nvol_id=0\nvol_name=a\nvol_flags=skip-check\n' > e9.ini
bad "skip-check on a dynamic volume" "e9.ini:1:" -p 128KiB -m 2048 e9.ini
printf '[a]\nmode=ubi\nimage=root.img\nvol_id=200\nvol_name=a\n' > e10.ini
bad "volume ID too high" "e10.ini:4:" -p 128KiB -m 2048 e10.ini
printf '[a]\nvol_id=0\n' > e11.ini
bad "no mode key" "e11.ini:1:" -p 128KiB -m 2048 e11.ini
printf 'mode=ubi\n' > e12.ini
bad "key outside a section" "e12.ini:1:" -p 128KiB -m 2048 e12.ini
bad "bad -p" "-p/--peb-size 'lots'" -p lots -m 2048 multi.ini
bad "-m 2Q (no such suffix)" "-m/--min-io-size '2Q': not a size" -p 128KiB -m 2Q multi.ini
bad "-m not a power of two" "min. I/O size 3" -p 128KiB -m 3 multi.ini
bad "-s larger than -m" "sub-page size 4096" -p 128KiB -m 2048 -s 4096 multi.ini
bad "-O inside the EC header" "VID header offset 8" -p 128KiB -m 2048 -O 8 multi.ini
bad "bad -Q" "-Q/--image-seq '4294967296'" -p 128KiB -m 2048 -Q 4294967296 multi.ini
bad "no -p" "-p/--peb-size is required" -m 2048 multi.ini
bad "PEB over 2 MiB" "PEB size 4194304" -p 4MiB -m 2048 multi.ini
bad "missing ini file" "nonexistent.ini" -p 128KiB -m 2048 nonexistent.ini
bad "--squashfs: bad --vol-type" "--vol-type" -p 128KiB -m 2048 --squashfs tree --vol-type ro
bad "--squashfs: missing directory" "nosuchdir" -p 128KiB -m 2048 --squashfs nosuchdir
bad "--squashfs: volume ID taken" "volume ID 1 is also used" -p 128KiB -m 2048 \
	--squashfs tree --vol-id 1 --vol-name x multi.ini
done_testing
