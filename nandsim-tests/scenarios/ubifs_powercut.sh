# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 29, item 4b: the power-cut oracle for our UBIFS reader.  The
# kernel makes a fresh UBIFS on nandsim (through UBI) and runs a workload;
# nanddump -o takes the flash at several points WITHOUT unmounting:
#
#   pc1  (LZO) after a sync (a commit), a file deleted while still open (orphan)
#   pc2  (zstd) more work, every file and directory fsync'ed but no commit: the
#        state is in the journal only (buds the mount must replay); with a
#        rename over an existing file, a truncation to 0 and regrowth, a
#        directory rename, a file deleted while open
#   pc3  (zlib) more work, only part of it fsync'ed, dumped at once: the
#        reference for the tears below (not sent)
#   pc4  one append more and a chmod, fsync'ed, dumped at once: a power cut in the
#        middle of a workload (what fsync and the write-back had written)
#   pc5  pc4 with its last written node cut short (see pc_tear), in the
#        page last in file order of those that changed since pc3
#   pc6  the same in the other journal head's eraseblock (pc4's fsync
#        wrote a data node to one head, the inode to the other)
#
# The truth for each dump is the kernel itself: the dump is written into a
# fresh nandsim (nandwrite -o: data and free OOB from the dump, ECC made
# anew), attached and mounted read-only, which replays the journal (and
# recovers the torn bud); that mount's manifest and xattrs go back to the
# host with the dump, where flashfs extract must give the same
# (ubifs-kernel-check.sh -s powercut).  For pc1 and pc2 the kernel's reload must also
# equal the live tree at the time of the dump (all of it was on flash).
CHIP="2k-128m parts=64"
mkdir -p /mnt/u /mnt/o
modprobe ubifs 2> /dev/null
modprobe zstd 2> /dev/null
PATH=/data/bin:$PATH
have_xattrs=no
command -v setfattr > /dev/null && command -v getfattr > /dev/null && have_xattrs=yes

# pc_dump NAME — nanddump -o of mtd0 into /tmp/NAME.img
pc_dump() {
	nanddump -q -o -f "/tmp/$1.img" /dev/mtd0
}

# pc_fsync_all — fsync every regular file and directory (no commit: only
# sync(2)/syncfs commit on UBIFS); fifos and devices are not opened
pc_fsync_all() {
	find /mnt/u \( -type f -o -type d \) -print0 | xargs -0 sync
}

pc_xattr() { # setfattr ARGS, when the guest has it
	[ $have_xattrs = yes ] && setfattr "$@"
	return 0
}

pc_phase1() {
	cd /mnt/u || return 1
	mkdir -p deep/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p etc bin many dev var/empty
	seq 1 20000 > etc/numbers.txt
	head -c 140000 /dev/urandom > bin/big.bin
	i=1
	while [ $i -le 60 ]; do
		echo "small file $i" > "many/file-with-a-longer-name-$i"
		i=$((i + 1))
	done
	echo hello > etc/a.txt
	ln etc/a.txt bin/hard-a
	ln -s ../etc/numbers.txt bin/link
	ln -s dangling/target bin/dangle
	mkfifo dev/fifo
	mknod dev/null c 1 3
	mknod dev/sda b 8 0
	echo deep > deep/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/leaf.txt
	truncate -s 300000 var/sparse
	echo middle | dd of=var/sparse bs=1 seek=150000 conv=notrunc 2> /dev/null
	chmod 4755 bin/big.bin
	chown 1000:100 etc/numbers.txt
	pc_xattr -n user.comment -v "first value" etc/a.txt
	pc_xattr -n user.big -v "0x$(head -c 2000 /dev/urandom | od -An -tx1 -v | tr -d ' \n')" etc/numbers.txt
	pc_xattr -n trusted.overlay.opaque -v y deep/a
	# written, then deleted while open: an orphan at the commit
	seq 1 3000 > var/open-deleted
	exec 5< var/open-deleted
	rm var/open-deleted
	cd /
	sync
}

pc_phase2() {
	# new data nodes in zstd from here (the remount commits: nothing new)
	mount -o remount,compr=zstd /mnt/u || return 1
	cd /mnt/u || return 1
	echo appended >> etc/a.txt
	dd if=/dev/zero of=etc/numbers.txt bs=1000 seek=7 count=3 conv=notrunc 2> /dev/null
	truncate -s 5000 bin/big.bin
	truncate -s 1000000 var/sparse
	mv many/file-with-a-longer-name-1 many/renamed-1
	mv etc/a.txt deep/a/moved.txt
	rm many/file-with-a-longer-name-2 many/file-with-a-longer-name-3
	ln bin/big.bin bin/hard-big
	ln -s deep/a/b/c bin/to-deep
	pc_xattr -n user.comment -v "second value" deep/a/moved.txt
	pc_xattr -x user.big etc/numbers.txt
	pc_xattr -n user.new -v fresh many/renamed-1
	mkdir deep/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q
	echo deeper > deep/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/leaf2.txt
	rmdir var/empty
	echo old > etc/over; echo new > etc/src; mv etc/src etc/over
	truncate -s 0 many/file-with-a-longer-name-4
	echo regrown >> many/file-with-a-longer-name-4
	mkdir many/sub && echo in-sub > many/sub/f && mv many/sub deep/a/moved-dir
	# the orphan's last reference goes: its deletion is journalled; another
	# file is deleted while open, with no commit before the dump
	exec 5<&-
	seq 1 2000 > var/open-deleted-2
	exec 6< var/open-deleted-2
	rm var/open-deleted-2
	cd /
	pc_fsync_all
}

pc_phase3() {
	# zlib from here; the remount commits pc2's journal
	mount -o remount,compr=zlib /mnt/u || return 1
	cd /mnt/u || return 1
	seq 1 40000 > etc/larger-than-a-leb.txt
	head -c 30000 /dev/urandom > bin/random2.bin
	echo more >> deep/a/moved.txt
	truncate -s 100 etc/numbers.txt
	mv bin/link bin/link-renamed
	rm bin/hard-a many/file-with-a-longer-name-10
	i=61
	while [ $i -le 90 ]; do
		echo "late file $i" > "many/file-with-a-longer-name-$i"
		i=$((i + 1))
	done
	sync etc/larger-than-a-leb.txt etc/numbers.txt
	exec 6<&-
	cd /
}

# pc_tear OLD NEW OUT NTH — OUT is NEW with a write cut short: of the pages
# that differ from OLD, the last one of each eraseblock (each journal head
# writes into its own), the NTH from the end in file order; in it, the last
# UBIFS node that is not padding is kept up to its common header's first
# 24 bytes and the rest of the page is erased to 0xff, as a program cut
# short by the power loss
pc_tear() {
	_ws=$(mtd_attr writesize)
	_ps=$((_ws + $(mtd_attr oobsize)))
	_ppb=$(($(mtd_attr erasesize) / _ws))
	_page=$(cmp -l "$1" "$2" | awk -v ps=$_ps -v ppb=$_ppb -v nth="$4" '{
			p = int(($1 - 1) / ps); last[int(p / ppb)] = p }
		END {
			n = 0
			for (b in last) pages[n++] = last[b]
			# sort the pages, then count from the end
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++)
					if (pages[j] < pages[i]) { t = pages[i]; pages[i] = pages[j]; pages[j] = t }
			if (nth <= n) print pages[n - nth]
		}')
	[ -n "$_page" ] || { echo "no changed page number $4 from the end"; return 1; }
	# offset and type of the last node (magic 0x06101831) that is not a
	# padding node (type 5) in the page's data
	_node=$(dd if="$2" bs="$_ps" skip="$_page" count=1 2> /dev/null | head -c "$_ws" |
		od -An -v -tu1 | tr -s ' \n' '\n\n' | awk 'NF {
			b[n++] = $1 }
		END {
			for (i = 0; i + 24 <= n; i++)
				if (b[i] == 49 && b[i + 1] == 24 && b[i + 2] == 16 && b[i + 3] == 6 && b[i + 20] != 5)
					last = i " " b[i + 20]
			print last
		}')
	[ -n "$_node" ] || { echo "no node in page $_page"; return 1; }
	_at=$((${_node% *} + 24))
	cp "$2" "$3"
	tr '\000' '\377' < /dev/zero | head -c $((_ws - _at)) |
		dd of="$3" bs=1 seek=$((_page * _ps + _at)) conv=notrunc 2> /dev/null
	diag "  $(basename "$3" .img): page $_page (eraseblock $((_page / _ppb)), page $((_page % _ppb)) in it):" \
		"node of type ${_node#* } at byte ${_node% *} cut at byte $_at"
}

# pc_nodes OLD NEW — a diagnostic line for each UBIFS node in the pages that
# differ between the dumps OLD and NEW: page, offset, type, sequence number,
# length, inode number and, for inode nodes, the size, mtime, nlink and mode
# (where a tear lands, and what it cuts, is then in the log)
pc_nodes() {
	_ws=$(mtd_attr writesize)
	_ps=$((_ws + $(mtd_attr oobsize)))
	for _p in $(cmp -l "$1" "$2" | awk -v ps=$_ps '{ p = int(($1 - 1) / ps); if (!(p in s)) { s[p] = 1; print p } }'); do
		dd if="$2" bs="$_ps" skip="$_p" count=1 2> /dev/null | head -c "$_ws" |
		od -An -v -tu1 | tr -s ' \n' '\n\n' | awk -v pg=$_p 'NF { b[n++] = $1 }
		function u32(o) { return b[o] + b[o+1]*256 + b[o+2]*65536 + b[o+3]*16777216 }
		END {
			for (i = 0; i + 24 <= n; i++)
				if (b[i] == 49 && b[i + 1] == 24 && b[i + 2] == 16 && b[i + 3] == 6) {
					t = b[i + 20]
					line = "page " pg " off " i " type " t " sqnum " u32(i + 8) " len " u32(i + 16)
					if (t <= 4 && i + 32 <= n) line = line " inum " u32(i + 24) " k2 " u32(i + 28)
					if (t == 0 && i + 108 <= n) line = line " size " u32(i + 48) " mtime " u32(i + 72) " nlink " u32(i + 92) " mode " u32(i + 104)
					if (t == 1 && i + 44 <= n) line = line " dsize " u32(i + 40)
					print line
				}
		}'
	done | sed 's/^/NANDSIM-DIAG:     /'
}

# pc_truth NAME — the kernel's reading of /tmp/NAME.img on a fresh nandsim
pc_truth() {
	ns_load $CHIP > /dev/null || return 1
	nandwrite -q -k -o /dev/mtd0 "/tmp/$1.img" || return 1
	ubiattach -m 0 > /dev/null || return 1
	mount -t ubifs -o ro ubi0:fs /mnt/o || return 1
	ff_manifest /mnt/o > "/tmp/$1.manifest" || return 1
	: > "/tmp/$1.xattrs"
	[ $have_xattrs = yes ] && ff_xattrs /mnt/o > "/tmp/$1.xattrs"
	return 0
}

# pc_live NAME — the live tree's manifest at dump time
pc_live() {
	ff_manifest /mnt/u > "/tmp/$1.live"
}

same_file() { # WANT GOT
	cmp -s "$1" "$2" && return 0
	diff "$1" "$2" | head -n 20
	return 1
}

ns_load $CHIP || { result fail "nandsim loads"; return; }
ubiformat -y -q /dev/mtd0 && ubiattach -m 0 > /dev/null && ubimkvol /dev/ubi0 -N fs -m > /dev/null ||
	{ result fail "ubiformat, ubiattach, ubimkvol"; return; }
check "the kernel makes a fresh UBIFS (LZO)" mount -t ubifs -o compr=lzo ubi0:fs /mnt/u || return
diag "  xattrs: $have_xattrs"
check "pc1: workload, a file deleted while open, sync" pc_phase1
pc_live pc1
check "pc1: nanddump -o while mounted" pc_dump pc1
check "pc2: more work, all fsync'ed, no commit" pc_phase2
pc_live pc2
check "pc2: nanddump -o while mounted" pc_dump pc2
# From here the flusher thread stays asleep (and nothing is old enough
# for it): between the pc3 and pc4 dumps only the append's fsync writes,
# so the tears below cut that fsync's two nodes, whatever the guest's
# speed (a write-back in between once moved the tear onto a node whose
# loss changed nothing).
echo 0 > /proc/sys/vm/dirty_writeback_centisecs
echo 360000 > /proc/sys/vm/dirty_expire_centisecs
check "pc3: more work, partly fsync'ed" pc_phase3
check "pc3: nanddump -o at once" pc_dump pc3
# The append is made, then the mode changed, then fsync writes both: the
# inode node (size, mode, mtime) to the base head, the data node to the
# data head.  Each node's loss must show.  The kernel's recovery restores a
# lost inode's size from the data nodes, and the mtime alone is no proof
# (the inode before can carry the same second on a fast guest: a flake of
# CI's); no node before this fsync carries the mode 0600.
echo tail >> /mnt/u/deep/a/moved.txt && chmod 600 /mnt/u/deep/a/moved.txt &&
	sync /mnt/u/deep/a/moved.txt
check "pc4: an append fsync'ed, nanddump -o at once (a power cut mid-workload)" pc_dump pc4
diag "  the nodes pc4 wrote (moved.txt is inode $(stat -c %i /mnt/u/deep/a/moved.txt)):"
pc_nodes /tmp/pc3.img /tmp/pc4.img
check "pc5: pc4 with its last written page torn" pc_tear /tmp/pc3.img /tmp/pc4.img /tmp/pc5.img 1
check "pc6: pc4 with the other journal head's last page torn" \
	pc_tear /tmp/pc3.img /tmp/pc4.img /tmp/pc6.img 2
ns_unload

rm -f /tmp/pc3.img
for n in pc1 pc2 pc4 pc5 pc6; do
	if check "$n: the kernel mounts the dump on a fresh nandsim (journal replayed)" pc_truth $n; then
		ns_export /tmp/$n.manifest
		ns_export /tmp/$n.xattrs
		ns_export /tmp/$n.img
	fi
	ns_unload
	[ -f /tmp/$n.live ] && check "$n: the kernel's reload equals the live tree at the dump" \
		same_file /tmp/$n.live /tmp/$n.manifest
	rm -f /tmp/$n.img
done
# the tear must matter: the kernel lost the cut write
for n in pc5 pc6; do
	diff /tmp/pc4.manifest /tmp/$n.manifest | grep '^[-+]\./' | sed "s/^/NANDSIM-DIAG:   $n: /"
	check_fails "$n: the torn dump reads otherwise than pc4 (the cut write is lost)" \
		cmp -s /tmp/pc4.manifest /tmp/$n.manifest
done
if dmesg | grep -E 'UBIFS (error|warning)' > /tmp/ubifs.msgs; then
	diag "  UBIFS messages (recovery of the cut dumps):"
	head -n 10 /tmp/ubifs.msgs | sed 's/^/NANDSIM-DIAG:     /'
fi
