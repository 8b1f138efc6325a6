# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The UBIFS journal as the kernel writes it (issue 29): a fresh UBIFS on a
# UBI volume of nandsim, files created, appended, overwritten, renamed,
# unlinked, hard-linked and truncated, with syncs between, and the volume
# read out while still mounted (no unmount, so no commit: the changes are in
# the journal, as after a power cut).  Our reader (flashfs, in the guest)
# extracts that dump; the kernel's view of the same dump is the dump
# written into a fresh volume and mounted read-only (the kernel replays
# the journal and recovers as after a power cut).  Both trees go through
# ff_manifest here, so the comparison is exact.  One round per compressor.
CHIP="2k-128m parts=64"
mkdir -p /mnt/u /mnt/k /tmp/ours

# Writes in three steps.  `sync` (syncfs) runs a UBIFS commit, so only the
# first step ends with it: the later steps reach the flash through fsync
# (`sync FILE`), write-back and the write-buffer timer, all into the
# journal, which the dump then holds uncommitted.
ubifs_ops() {
	d=$1
	mkdir -p "$d/dir/sub" "$d/gone"
	echo hello > "$d/a"
	dd if=/dev/urandom of="$d/big" bs=1k count=300 2> /dev/null
	seq 1 20000 > "$d/seq"
	ln -s a "$d/link"
	mknod "$d/chr" c 4 5
	mkfifo "$d/fifo"
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "$i" > "$d/gone/f$i"; done
	sync
	echo more >> "$d/a"
	dd if=/dev/zero of="$d/big" bs=1k seek=100 count=20 conv=notrunc 2> /dev/null
	mv "$d/seq" "$d/dir/sub/seq.moved"
	ln "$d/big" "$d/dir/hard"
	rm -r "$d/gone"
	dd if=/dev/urandom of="$d/trunc" bs=1k count=64 2> /dev/null
	sync "$d/a" "$d/big" "$d/trunc" "$d/dir/sub/seq.moved" "$d/dir" "$d"
	truncate -s 10000 "$d/trunc" 2> /dev/null || dd if=/dev/null of="$d/trunc" bs=1 seek=10000 2> /dev/null
	dd if=/dev/urandom of="$d/dir/late" bs=1k count=40 2> /dev/null
	echo tail >> "$d/dir/sub/seq.moved"
	rm "$d/link"
	ln -s dir/late "$d/link2"
	sync "$d/dir/late" "$d/trunc"
	# write-back and the write-buffer timer put the rest on flash
	sleep 8
}

ubifs_round() { # COMPRESSOR
	c=$1
	ns_load $CHIP || { result fail "ubifs-$c: nandsim loads"; return; }
	modprobe ubifs 2> /dev/null
	modprobe zstd 2> /dev/null
	echo 100 > /proc/sys/vm/dirty_expire_centisecs
	echo 100 > /proc/sys/vm/dirty_writeback_centisecs
	ubiformat -y -q /dev/mtd0 && ubiattach -m 0 > /dev/null &&
		ubimkvol /dev/ubi0 -N fs -S 30 > /dev/null ||
		{ result fail "ubifs-$c: ubiformat, ubiattach, ubimkvol"; return; }
	check "ubifs-$c: mount a fresh UBIFS (compr=$c)" mount -t ubifs -o "compr=$c" ubi0:fs /mnt/u
	ubifs_ops /mnt/u
	check "ubifs-$c: read the volume while mounted" sh -c 'cat /dev/ubi0_0 > /tmp/dump.img'
	diag "  $(flashfs info /tmp/dump.img 2>&1 | grep -E 'unclean|journal_buds |journal_nodes|commit_number|orphans |sizes_rec' | tr -s ' \n' '  ')"
	check "ubifs-$c: the dump holds an uncommitted journal" \
		sh -c "flashfs info /tmp/dump.img | grep -q '^journal_nodes_applied *[1-9]'"
	rm -rf /tmp/ours
	check "ubifs-$c: flashfs extract of the dump" flashfs extract --no-progress -C /tmp/ours /tmp/dump.img
	ns_export /tmp/dump.img "ubifs-$c.dump"
	umount /mnt/u
	ubirmvol /dev/ubi0 -N fs > /dev/null
	ubimkvol /dev/ubi0 -N copy -S 30 > /dev/null &&
		ubiupdatevol /dev/ubi0_0 /tmp/dump.img ||
		{ result fail "ubifs-$c: the dump into a fresh volume"; return; }
	check "ubifs-$c: the kernel mounts the dump (replaying its journal)" \
		mount -t ubifs -o ro ubi0:copy /mnt/k
	ff_manifest /tmp/ours > /tmp/man.ours
	check "ubifs-$c: our extraction equals the kernel's view of the dump" \
		same_manifest /mnt/k /tmp/man.ours
	umount /mnt/k
	rm -f /tmp/dump.img
}

for c in lzo zlib zstd none; do
	ubifs_round $c
done
ns_unload
