#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.ubifs on the host: the same bytes at 1 and 2 workers and from a
# copy of the source whose directories were filled in another order; our
# reader (flashfs extract) gives the source back from our images and from
# Debian's mkfs.ubifs images of the same tree (the real oracle for the
# format: both must read the same); flashfs check is clean on ours; the
# command lines of Buildroot, Yocto and OpenWrt; option errors.  The
# kernel's view is nandsim-tests/ubifs-build-check.sh (qemu guest).
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ubifs > /dev/null || skip_all "mkfs.ubifs (mtd-utils) not installed"
need_root

S=$T/src
mkdir -p "$S/dir/sub" "$S/many"
printf 'hello\n' > "$S/small"
head -c 4096 /dev/urandom > "$S/exact4k"
seq 1 100000 > "$S/seq.txt"
head -c 300000 /dev/urandom > "$S/dir/sub/rnd"
chown 1000:100 "$S/dir/sub/rnd"
truncate -s 3M "$S/sparse"
printf 'x' | dd of="$S/sparse" bs=1 seek=2000000 conv=notrunc status=none
: > "$S/empty"
ln -s small "$S/link"
ln -s "/a/long/target/$(printf 'y%.0s' {1..300})" "$S/longlink"
mknod "$S/chr" c 4 5
mknod "$S/blk" b 259 70000
mkfifo "$S/fifo"
ln "$S/small" "$S/hard1"
ln "$S/small" "$S/dir/hard2"
touch "$S/$(printf 'n%.0s' {1..255})"
for i in $(seq 1 300); do echo "$i" > "$S/many/file_$i"; done
# extended attributes of each namespace, on files, directories, a symlink
# and a device; a large value (the host's file system takes ~4000 bytes;
# UBIFS' limit, 4096, is below); many on one file
setfattr -n user.comment -v "a small value" "$S/small"
setfattr -n trusted.overlay.opaque -v y "$S/dir"
setfattr -n security.capability -v 0x0100000200200000000000000000000000000000 "$S/exact4k"
setfattr -h -n trusted.sym -v 0x00ff "$S/link"
setfattr -n security.selinux -v "system_u:object_r:device_t:s0" "$S/chr"
setfattr -n user.big -v "0x$(head -c 3000 /dev/urandom | od -An -tx1 -v | tr -d ' \n')" "$S/seq.txt"
for i in $(seq 1 40); do setfattr -n "user.attr_$i" -v "value $i" "$S/dir/sub/rnd"; done

# the same tree, directories filled in reverse order
S2=$T/src2
mkdir -p "$S2"
(cd "$S" && find . -mindepth 1 -type d | sort -r | while read -r d; do mkdir -p "$S2/$d"; done)
(cd "$S" && find . -mindepth 1 ! -type d | sort -r | while read -r f; do
	cp -a --no-preserve=links "$f" "$S2/$f"; done)
rm "$S2/hard1" "$S2/dir/hard2"
ln "$S2/small" "$S2/dir/hard2"
ln "$S2/small" "$S2/hard1"
(cd "$S" && getfattr -R -h -d -m - -e hex .) | (cd "$S2" && setfattr -h --restore=-)
(cd "$S" && find . -exec touch -h -r {} "$S2/{}" \;)

G="-m 2048 -e 126976 -c 400"
for c in lzo zlib zstd none favor_lzo; do
	ok "$c: ffmkfs.ubifs builds" ffmkfs.ubifs $G -x "$c" -r "$S" -o "$T/$c.img"
	rm -rf "$T/out"
	flashfs extract -C "$T/out" "$T/$c.img" > /dev/null 2>&1
	same_manifest "$c: our reader gives the source back (xattrs too)" "$S" "$T/out"
	ok "$c: flashfs check finds ours clean" flashfs check "$T/$c.img"
	mkfs.ubifs $G -x "$c" -r "$S" -o "$T/deb-$c.img" > /dev/null 2>&1
	rm -rf "$T/out2"
	flashfs extract -C "$T/out2" "$T/deb-$c.img" > /dev/null 2>&1
	# Debian's mkfs.ubifs is built without xattr support: it stores none
	same_manifest "$c: Debian's image of the same tree reads the same" "$T/out" "$T/out2" --no-xattrs
done

ok "determinism: --threads 1" ffmkfs.ubifs $G --threads 1 -r "$S" -o "$T/j1.img"
ok "determinism: --threads 2" ffmkfs.ubifs $G --threads 2 -r "$S" -o "$T/j2.img"
ok "determinism: reversed directory order" ffmkfs.ubifs $G --threads 2 -r "$S2" -o "$T/j3.img"
ok "the same bytes at 1 and 2 workers" cmp "$T/j1.img" "$T/j2.img"
ok "the same bytes from the reordered source" cmp "$T/j1.img" "$T/j3.img"
ok "--uuid sets the UUID" ffmkfs.ubifs $G --uuid 01234567-89ab-cdef-0123-456789abcdef \
	-r "$S" -o "$T/uuid.img"
is "$(flashfs info "$T/uuid.img" | awk '$1 == "uuid" {print $2}')" \
	01234567-89ab-cdef-0123-456789abcdef "the UUID given is the image's"

# The build systems' command lines, unchanged
ok "Buildroot's command line" ffmkfs.ubifs -d "$S" -e 0x1f000 -c 2048 -m 0x800 -x lzo \
	-o "$T/br.img"
ok "Yocto's command line" ffmkfs.ubifs -r "$S" -o "$T/yocto.img" -m 2048 -e 126976 -c 1900 -F
ok "OpenWrt's command line (KiB sizes)" ffmkfs.ubifs --space-fixup --squash-uids \
	--compr=zstd --min-io-size=2048 --leb-size=124KiB --max-leb-cnt=2048 -d "$S" -o "$T/owrt.img"
is "$(flashfs info "$T/owrt.img" | awk '$1 == "compressor" {print $2}')" zstd "--compr=zstd is used"
ok "-D device table and -U" sh -c "printf '/dev d 755 0 0 - - - - -\n/dev/ttyS c 666 0 5 4 64 0 1 3\n' \
	> $T/dt && ffmkfs.ubifs $G -U -D $T/dt -r $S -o $T/dt.img"
is "$(flashfs ls -l "$T/dt.img" /dev 2>&1 | grep -c ttyS)" 3 "the device table made 3 devices"
ok "--spec and --pf pseudo files" sh -c "echo 'extra d 700 1 2' > $T/pf &&
	ffmkfs.ubifs $G --pf $T/pf -r $S -o $T/pf.img && flashfs ls $T/pf.img / | grep -q extra"
ok "a tar archive as the source" sh -c "tar --xattrs --xattrs-include='*' -C $S -cf $T/src.tar . &&
	ffmkfs.ubifs $G -r $T/src.tar -o $T/tar.img"
rm -rf "$T/out"
flashfs extract -C "$T/out" "$T/tar.img" > /dev/null 2>&1
same_manifest "the tar's image reads as the source" "$S" "$T/out"
ok "an empty file system (no -r)" ffmkfs.ubifs $G -o "$T/empty.img"
ok "the empty one is clean" flashfs check "$T/empty.img"

# mkfs.ubi --ubifs DIR -- OPTIONS: one step, the same image as
# ffmkfs.ubifs then Debian's ubinize; -e and -m from the UBI geometry,
# -c from --vol-size
U="-p 128KiB -m 2048 -s 512 -Q 7"
ok "mkfs.ubi --ubifs builds" mkfs.ubi -o "$T/one.ubi" $U --ubifs "$S" --vol-size 8MiB -- -x zstd
rm -rf "$T/out" && flashfs extract -C "$T/out" "$T/one.ubi" > /dev/null 2>&1
same_manifest "mkfs.ubi --ubifs: our reader gives the source back" "$S" "$T/out"
ffmkfs.ubifs -m 2048 -e 129024 -c 65 -x zstd -r "$S" -o "$T/two.ubifs"
printf '[rootfs]\nmode=ubi\nimage=%s\nvol_id=0\nvol_size=8MiB\nvol_type=dynamic\nvol_name=rootfs\n' \
	"$T/two.ubifs" > "$T/two.ini"
ubinize -o "$T/two.ubi" $U "$T/two.ini" > /dev/null 2>&1
ok "the same bytes as ffmkfs.ubifs then Debian's ubinize" cmp "$T/one.ubi" "$T/two.ubi"
ok "mkfs.ubi --ubifs: -c, source options before --" mkfs.ubi -o "$T/three.ubi" $U \
	--ubifs "$S" --all-root --vol-flags autoresize -- -c 100 -x lzo -F
is "$(flashfs ls -l "$T/three.ubi" /dir/sub 2>&1 | awk '{print $2}' | sort -u)" "0/0" \
	"--all-root before -- applied"
fails "mkfs.ubi --ubifs without -c or --vol-size" mkfs.ubi -o "$T/bad.ubi" $U --ubifs "$S"
fails "mkfs.ubi --ubifs with -o after --" mkfs.ubi -o "$T/bad.ubi" $U --ubifs "$S" --vol-size 8MiB \
	-- -o "$T/x"
fails "mkfs.ubi --ubifs and --squashfs" mkfs.ubi -o "$T/bad.ubi" $U --ubifs "$S" --squashfs "$S" \
	--vol-size 8MiB
fails "mkfs.ubi --ubifs: -e larger than UBI's LEB" mkfs.ubi -o "$T/bad.ubi" $U --ubifs "$S" \
	--vol-size 8MiB -- -e 131072
ok "no UBI image left by the failures" test ! -e "$T/bad.ubi"

# Option errors: exit 2, no output left
fails "no -m" ffmkfs.ubifs -e 126976 -c 400 -r "$S" -o "$T/bad.img"
fails "-m not a power of 2" ffmkfs.ubifs -m 2000 -e 126976 -c 400 -r "$S" -o "$T/bad.img"
fails "LEB too small" ffmkfs.ubifs -m 2048 -e 8192 -c 400 -r "$S" -o "$T/bad.img"
fails "-c below 17" ffmkfs.ubifs -m 2048 -e 126976 -c 10 -r "$S" -o "$T/bad.img"
fails "unknown compressor" ffmkfs.ubifs $G -x lz4 -r "$S" -o "$T/bad.img"
fails "tree larger than -c" ffmkfs.ubifs -m 2048 -e 126976 -c 20 -r "$S" -o "$T/bad.img"
mkdir -p "$T/one" && echo 1 > "$T/one/f"
max=$(printf 'v%.0s' {1..4096})
ok "an xattr value of 4096 bytes (the largest)" ffmkfs.ubifs $G -r "$T/one" -o "$T/max.img" \
	--xattrs-add "user.max=$max"
# the host's disk file system cannot hold it: read it back into a tmpfs
mkdir -p "$T/tm" && mount -t tmpfs tmpfs "$T/tm" &&
	flashfs extract -C "$T/tm/out" "$T/max.img" > /dev/null 2>&1
is "$(getfattr --absolute-names --only-values -n user.max "$T/tm/out/f")" "$max" "it reads back"
umount "$T/tm"
fails "an xattr value over 4096 bytes" ffmkfs.ubifs $G -r "$S" -o "$T/bad.img" \
	--xattrs-add "user.huge=$(printf 'v%.0s' {1..4097})"
ok "no image left by the failures" test ! -e "$T/bad.img"
done_testing
