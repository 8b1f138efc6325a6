# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 29, item 4c: bad blocks and bit flips.  nandsim with eraseblocks 3,
# 9 and 40 bad and bitflips=1 (up to one flipped bit per page read, which
# the ECC corrects); the kernel makes a UBIFS through UBI, writes a tree
# and syncs; nanddump takes the flash while mounted, each of its ways:
#
#   bb-skip     -o, bad blocks left out (nanddump's default, --bb=skipbad)
#   bb-dump     -o --bb=dumpbad: bad blocks kept, known by their OOB marker
#   bb-pad      -o --bb=padbad: bad blocks as 0xff, data and OOB
#   bb-plain    page data only, bad blocks left out (a plain UBI image)
#   bb-journal  -o --bb=dumpbad after more work fsync'ed but not committed
#
# The truth for each is the kernel's live tree at the time of the dump
# (everything was on flash); it goes back to the host with the dump, where
# flashfs extract must give the same (ubifs-kernel-check.sh).  At the end
# the kernel remounts and must still see the last tree.
CHIP="2k-128m parts=64 badblocks=3,9,40 bitflips=1"
mkdir -p /mnt/u
modprobe ubifs 2> /dev/null
PATH=/data/bin:$PATH
have_xattrs=no
command -v setfattr > /dev/null && command -v getfattr > /dev/null && have_xattrs=yes

bb_xattr() {
	[ $have_xattrs = yes ] && setfattr "$@"
	return 0
}

bb_write() {
	cd /mnt/u || return 1
	mkdir -p deep/a/b/c/d/e/f/g etc bin many dev
	seq 1 30000 > etc/numbers.txt
	head -c 250000 /dev/urandom > bin/big.bin
	i=1
	while [ $i -le 40 ]; do
		seq $i $((i * 31)) > "many/file-$i.txt"
		i=$((i + 1))
	done
	ln bin/big.bin bin/hard
	ln -s ../etc/numbers.txt bin/link
	mkfifo dev/fifo
	mknod dev/null c 1 3
	truncate -s 400000 etc/sparse
	echo deep > deep/a/b/c/d/e/f/g/leaf.txt
	bb_xattr -n user.comment -v "a value" etc/numbers.txt
	bb_xattr -n trusted.overlay.opaque -v y deep/a
	cd /
	sync
}

bb_more() {
	cd /mnt/u || return 1
	echo appended >> etc/numbers.txt
	truncate -s 1000 bin/big.bin
	mv many/file-1.txt deep/a/moved.txt
	rm many/file-2.txt many/file-3.txt
	seq 1 30000 > many/late.txt
	bb_xattr -n user.comment -v "another value" etc/numbers.txt
	cd /
	find /mnt/u \( -type f -o -type d \) -print0 | xargs -0 sync
}

# bb_dump NAME [nanddump options] — the dump, with the live tree as truth
bb_dump() {
	_n=$1
	shift
	ff_manifest /mnt/u > "/tmp/$_n.manifest" || return 1
	: > "/tmp/$_n.xattrs"
	[ $have_xattrs = yes ] && ff_xattrs /mnt/u > "/tmp/$_n.xattrs"
	nanddump -q "$@" -f "/tmp/$_n.img" /dev/mtd0 || return 1
	diag "  $_n: $(stat -c %s "/tmp/$_n.img") bytes"
	ns_export "/tmp/$_n.manifest" && ns_export "/tmp/$_n.xattrs" && ns_export "/tmp/$_n.img"
	_rc=$?
	rm -f "/tmp/$_n.img"
	return $_rc
}

same_file() { # WANT GOT
	cmp -s "$1" "$2" && return 0
	diff "$1" "$2" | head -n 20
	return 1
}

bb_remount() {
	umount /mnt/u && mount -t ubifs -o ro ubi0:fs /mnt/u || return 1
	ff_manifest /mnt/u > /tmp/remount.manifest
	same_file /tmp/bb-journal.manifest /tmp/remount.manifest
}

ns_load $CHIP || { result fail "nandsim loads"; return; }
diag "  bad blocks: $(cat /sys/class/mtd/mtd0/bad_blocks)"
ubiformat -y -q /dev/mtd0 && ubiattach -m 0 > /dev/null && ubimkvol /dev/ubi0 -N fs -m > /dev/null ||
	{ result fail "ubiformat, ubiattach, ubimkvol"; return; }
check "the kernel makes a fresh UBIFS over bad blocks 3, 9, 40" mount -t ubifs ubi0:fs /mnt/u || return
check "a tree written and synced" bb_write
check "bb-skip: nanddump -o (bad blocks skipped) sent" bb_dump bb-skip -o
check "bb-dump: nanddump -o --bb=dumpbad sent" bb_dump bb-dump -o --bb=dumpbad
check "bb-pad: nanddump -o --bb=padbad sent" bb_dump bb-pad -o --bb=padbad
check "bb-plain: nanddump without OOB (bad blocks skipped) sent" bb_dump bb-plain
check "more work, fsync'ed, no commit" bb_more
check "bb-journal: nanddump -o --bb=dumpbad sent" bb_dump bb-journal -o --bb=dumpbad
check "the kernel remounts with the last tree" bb_remount
ns_unload
diag "  nandsim flipped $(dmesg | grep -c 'flipping bit') bit(s) on reads"
if dmesg | grep -E 'UBIFS (error|warning)|UBI (error|warning)' > /tmp/ubifs.msgs; then
	diag "  UBI/UBIFS messages:"
	head -n 10 /tmp/ubifs.msgs | sed 's/^/NANDSIM-DIAG:     /'
fi
