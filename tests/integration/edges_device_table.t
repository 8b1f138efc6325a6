#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Buildroot's makedevs device table (device_table.txt), read by every
# builder through --device-table (tree/device_table.c), issue 32 item 6.
# The oracle is Debian's mkfs.jffs2 -D on the same tree and table: each
# builder's image must hold the tree mkfs.jffs2's image holds (flashfs
# diff, times aside), and the kernel's mount of the SquashFS image shows
# the nodes.  The r type (recursive, which mkfs.jffs2 lacks) is checked
# on the kernel's mount; bad lines are refused naming the file and line.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mkfs.jffs2 >/dev/null || skip_all "mkfs.jffs2 (mtd-utils) missing"
cd "$T" || exit 2

mkdir -p src/etc src/sbin src/var/www/html
echo secret >src/etc/shadow
echo prog >src/sbin/foo
echo page >src/var/www/html/index.html
cat >table <<'TABLE'
# Buildroot-style device table
#<name>		<type>	<mode>	<uid>	<gid>	<major>	<minor>	<start>	<inc>	<count>
/dev		d	755	0	0	-	-	-	-	-
/tmp		d	1777	0	0	-	-	-	-	-
/etc/shadow	f	600	0	0	-	-	-	-	-
/sbin/foo	f	4755	0	0	-	-	-	-	-
/dev/console	c	622	0	5	5	1	-	-	-
/dev/hda	b	640	0	6	3	0	0	0	-
/dev/hda	b	640	0	6	3	1	1	1	4
/dev/ttyS	c	666	0	0	4	64	0	1	3
/dev/mtd	c	640	0	0	90	0	0	2	3
/dev/initctl	p	600	0	0	-	-	-	-	-
TABLE
mkfs.jffs2 -r src -D table -o ref.jffs2 -e 0x10000 || skip_all "mkfs.jffs2 -D failed"

build() { # NAME CMD... — the image must equal mkfs.jffs2's
	local name=$1
	shift
	ok "$name --device-table" "$@"
}
build mkfs.squashfs mkfs.squashfs -q -noappend --device-table table src s.img
build mkfs.yaffs2 mkfs.yaffs2 -q --no-xattrs --device-table table src y.img
build ffmkfs.cramfs ffmkfs.cramfs --device-table table src c.img
build mkfs.romfs mkfs.romfs -f r.img -d src --device-table table --quiet
build "mkfs.ubi --squashfs" mkfs.ubi -q -o u.ubi -p 128KiB -m 2048 --squashfs src --device-table table
for img in s.img y.img c.img u.ubi; do
	ok "$img: the tree mkfs.jffs2 -D makes" flashfs diff --no-times ref.jffs2 "$img"
done
# romfs stores no owners and only some mode bits (as genromfs)
ok "r.img: the tree mkfs.jffs2 -D makes (owners and modes aside)" flashfs diff --no-times --no-owner --no-permissions ref.jffs2 r.img

mkdir mnt
mount -o loop,ro s.img mnt || skip_all "loop mount failed"
is "$(stat -c '%F %a %u:%g %t:%T' mnt/dev/hda3)" "block special file 640 0:6 3:3" "kernel: hda3 (start 1, inc 1)"
is "$(stat -c '%a %t:%T' mnt/dev/mtd2)" "640 5a:4" "kernel: mtd2 minor 4 (inc 2)"
is "$(stat -c '%a' mnt/tmp mnt/sbin/foo mnt/etc/shadow | tr '\n' ' ')" "1777 4755 600 " "kernel: d and f modes"
umount mnt

printf '/var/www\tr\t750\t33\t33\t-\t-\t-\t-\t-\n' >rtable
mkfs.squashfs -q -noappend --device-table rtable src r2.img
mount -o loop,ro r2.img mnt
is "$(stat -c '%a %u:%g' mnt/var/www mnt/var/www/html mnt/var/www/html/index.html | tr '\n' ' ')" \
	"750 33:33 750 33:33 750 33:33 " "r: the directory and everything below it"
is "$(stat -c '%a %u' mnt/var)" "755 0" "r: nothing above it"
umount mnt

printf '/dev/x c 666 0 0 1 3 - - -\n/dev/y q 600 0 0 - - - - -\n' >bad
mkfs.squashfs -q -noappend --device-table bad src bad.img 2>err
is "$?" 2 "a bad type: exit 2"
ok "... the file, line and type named" grep -q 'bad:2.*"/dev/y".*type "q" is not d, f, r, c, b or p' err
printf '/nosuch f 600 0 0 - - - - -\n' >bad2
mkfs.yaffs2 -q --device-table bad2 src bad.img 2>err
is "$?" 2 "f on a missing file: exit 2"
ok "... says it does not exist" grep -q '"nosuch" does not exist (type f changes an existing entry)' err
printf '/dev/z c 666 0 0 1\n' >bad3
mkfs.squashfs -q -noappend --device-table bad3 src bad.img 2>err
ok "a short line: the field count named" grep -q "6 fields, a device table line has 10" err

done_testing
