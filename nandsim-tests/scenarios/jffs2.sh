# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 30 (3b): JFFS2 written by the kernel.  An empty 2 MiB mtdram with
# NOR-like 64 KiB erase blocks, mounted, gets a workload that makes node
# versions (files overwritten in place many times, appends, truncations
# down and up, holes), renames (over existing names too), unlinks, hard
# links, symlinks, devices, a fifo, xattrs of three namespaces, then fill
# and delete cycles near full so the garbage collector moves live nodes.
# The device is dumped three times: synced but mounted (d1), while a
# writer runs (d2, a power cut), after umount (d3).  Each dump goes to the
# host, and so does the truth: the kernel's own view of the dump, written
# to a fresh mtdram and mounted read-only (kernel_view).
. /data/mtdram.sh
J=/mnt/j
mkdir -p $J
mr_mod jffs2 || { result fail "jffs2.ko loads"; return; }
mr_load 2048 64 || { result fail "mtdram loads"; return; }
dmesg -c > /dev/null
check "the kernel mounts an empty mtdram as JFFS2" mount -t jffs2 mtd0 $J || return

phase1() {
	cd $J || return 1
	mkdir -p etc bin dev deep/a/b/c empty
	for i in $(seq 1 30); do seq "$i" $((i * 40)) > "etc/f$i"; done
	# one file, many versions of its ranges
	seq 1 20000 > etc/big
	for i in $(seq 1 40); do
		echo "version $i" | dd of=etc/big bs=1 seek=$((i * 2311)) conv=notrunc 2> /dev/null
	done
	for i in $(seq 1 25); do echo "rewritten $i" > etc/rewritten; done
	for i in $(seq 1 60); do echo "line $i" >> etc/log; done
	# down, then up again: the hole after 100 must read as zeros
	seq 1 5000 > etc/shrunk
	truncate -s 100 etc/shrunk
	truncate -s 9000 etc/shrunk
	truncate -s 300000 etc/sparse
	echo middle | dd of=etc/sparse bs=1 seek=150000 conv=notrunc 2> /dev/null
	: > etc/emptyfile
	ln -s ../etc/f1 bin/link
	ln -s "$(printf 'long%.0s' $(seq 60))" bin/longlink
	ln etc/f2 bin/hard
	ln etc/f2 deep/hard2
	ln etc/f7 deep/hard3
	mknod dev/null c 1 3
	mknod dev/sda b 8 0
	mknod dev/big c 250 70000
	mkfifo dev/fifo
	mv etc/f3 deep/a/b/c/renamed
	mv etc/f4 etc/f5
	mv deep/a/b empty/moved-dir
	rm etc/f6
	rm etc/f7
	chmod 4751 etc/f8
	chown 1000:100 etc/f9
	chown -h 12:34 bin/link
	if [ -x $SETFATTR ]; then
		$SETFATTR -n user.comment -v "a value" etc/f1
		$SETFATTR -n trusted.overlay.opaque -v y deep
		$SETFATTR -n security.label -v "system_u:object_r:x_t:s0" dev/null
		$SETFATTR -n user.gone -v soon etc/f10
		$SETFATTR -x user.gone etc/f10
		$SETFATTR -n user.changed -v one etc/f11
		$SETFATTR -n user.changed -v two etc/f11
	fi
	cd /
}

# fill close to full, delete, again: the writes need the space of
# obsolete nodes, so the collector must erase blocks and copy live ones
phase2() {
	cd $J || return 1
	for round in 1 2 3 4; do
		i=0
		while [ $i -lt 40 ]; do
			head -c 40000 /dev/urandom > "fill$i" 2> /dev/null || break
			i=$((i + 1))
		done
		diag "  round $round: $i fill files, $(df -k $J | awk 'NR==2 {print $4}') KiB free"
		rm -f fill*
		for j in $(seq 1 5); do
			echo "round $round $j" | dd of=etc/big bs=1 seek=$((j * 7919 + round)) conv=notrunc 2> /dev/null
		done
		mv etc/rewritten "etc/rewritten.$round"
		echo "after round $round" >> etc/log
	done
	truncate -s 20000 etc/big
	head -c 30000 /dev/urandom > etc/kept.bin
	cd /
}

check "workload 1: versions, truncations, links, devices, xattrs" phase1
sync
dd if=/dev/mtd0 of=/tmp/d1.img bs=4096 2> /dev/null
check "workload 2: fill and delete cycles near full" phase2
# a power cut: a writer is busy when the device is copied
(seq 1 200000 > $J/etc/inflight) &
writer=$!
sleep 1
dd if=/dev/mtd0 of=/tmp/d2.img bs=4096 2> /dev/null
wait $writer
rm $J/etc/f12
check "umount" umount $J
dd if=/dev/mtd0 of=/tmp/d3.img bs=4096 2> /dev/null
if dmesg | grep -qiE 'jffs2.*(error|warning|bug)'; then
	dmesg | grep -iE 'jffs2' | head -n 10 | sed 's/^/NANDSIM-DIAG:   /'
fi
mr_unload

for d in d1 d2 d3; do
	kernel_view /tmp/$d.img 64 /tmp/$d
	if grep -q UNMOUNTABLE /tmp/$d.manifest; then
		result fail "$d: the kernel mounts its own dump"
	else
		result ok "$d: the kernel mounts its own dump ($(wc -l < /tmp/$d.manifest) objects)"
	fi
	ns_export /tmp/$d.img jffs2-$d.img
	ns_export /tmp/$d.manifest jffs2-$d.manifest
	[ -f /tmp/$d.xattrs ] && ns_export /tmp/$d.xattrs jffs2-$d.xattrs
	rm -f /tmp/$d.img
done
