# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Issue 30 (3c): images made and damaged on the host (/data/img/*.img:
# ffmkfs.jffs2 and mkfs.jffs2 images with a bad data CRC, a bad header
# CRC, a bad name CRC, a torn last node, a zeroed erase block, and
# big-endian images converted to little-endian by jffs2dump), each
# written to a fresh mtdram with 64 KiB erase blocks and mounted
# read-only: the kernel's view goes back to the host as the truth.  Then
# an ffmkfs.jffs2 -n image (no cleanmarkers, 128 KiB erase blocks) is
# written to nandsim's 2K NAND with nandwrite and must mount with the
# source's tree.
. /data/mtdram.sh
mr_mod jffs2 || { result fail "jffs2.ko loads"; return; }
for img in /data/img/*.img; do
	n=$(basename "$img" .img)
	dmesg -c > /dev/null
	kernel_view "$img" 64 "/tmp/$n"
	if grep -q UNMOUNTABLE "/tmp/$n.manifest"; then
		diag "  $n: the kernel refuses it: $(dmesg | grep -i jffs2 | tail -n 1)"
	fi
	result ok "$n: the kernel's view taken ($(wc -l < "/tmp/$n.manifest") lines)"
	ns_export "/tmp/$n.manifest" "$n.manifest"
	[ -f "/tmp/$n.xattrs" ] && ns_export "/tmp/$n.xattrs" "$n.xattrs"
done

if [ -f /data/nand.img ]; then
	mkdir -p /mnt/n
	dmesg -c > /dev/null
	ns_load 2k-128m parts=32 || { result fail "nandsim loads"; return; }
	check "ffmkfs.jffs2 -n: nandwrite -p writes it to NAND" nandwrite -q -p /dev/mtd0 /data/nand.img &&
		check "ffmkfs.jffs2 -n: the kernel mounts it from NAND" mount -t jffs2 -o ro mtd0 /mnt/n &&
		check "ffmkfs.jffs2 -n: the NAND mount holds the source's tree" same_manifest /mnt/n /data/nand.manifest
	umount /mnt/n 2> /dev/null
	if dmesg | grep -iE 'jffs2.*(error|warning|CRC)' > /tmp/jw; then
		sed 's/^/NANDSIM-DIAG:   /' /tmp/jw | head -n 5
		result fail "ffmkfs.jffs2 -n on NAND: no JFFS2 errors or warnings in the kernel log"
	else
		result ok "ffmkfs.jffs2 -n on NAND: no JFFS2 errors or warnings in the kernel log"
	fi
	ns_unload
fi
