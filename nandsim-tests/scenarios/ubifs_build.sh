# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Our UBIFS builder (ffmkfs.ubifs, issue 29) against the kernel: each image
# the host made (ubifs-*.img, see ubifs-build-host.sh) is written into a
# fresh UBI volume with ubiupdatevol and mounted read-write, with the
# UBIFS debug checks on where debugfs has them (chk_general, chk_index,
# chk_lprops, chk_fs: the kernel then checks our index, LEB properties
# and every inode against what it scans); the mount must show the
# source's manifest; a file written, synced and the file system
# remounted (a commit: new index and LPT nodes over ours); the kernel
# log must hold no UBIFS error or warning, and flashfs check must find
# the volume the kernel wrote clean.  Then our mkfs.ubi --ubifs
# image of the tree, flashed with ubiformat, attaches and mounts.
CHIP="2k-128m parts=64"
mkdir -p /mnt/u
modprobe ubifs 2> /dev/null
modprobe zstd 2> /dev/null
mount -t debugfs none /sys/kernel/debug 2> /dev/null
checks_on() {
	for f in chk_general chk_index chk_lprops chk_fs chk_orphans; do
		[ -w "/sys/kernel/debug/ubifs/$f" ] && echo 1 > "/sys/kernel/debug/ubifs/$f"
	done
}
checks_on
[ -f /sys/kernel/debug/ubifs/chk_lprops ] && diag "  UBIFS debug checks on"

no_ubifs_complaints() {
	if dmesg | grep -E 'UBIFS (error|warning)|ubifs_assert|Call Trace'; then
		return 1
	fi
	return 0
}

# The kernel's view of the xattrs (getfattr, the host's copy: busybox has
# none) equals the source's.
xattr_check() { # NAME
	if command -v getfattr > /dev/null; then
		check "$1: the mount's xattrs are the source's" same_xattrs /mnt/u /data/xattrs.ubifs
	else
		diag "  $1: no getfattr in the guest, xattrs not compared"
	fi
}

ubifs_volume_round() { # NAME IMAGE
	n=$1
	img=$2
	ns_load $CHIP || { result fail "$n: nandsim loads"; return; }
	dmesg -c > /dev/null
	ubiformat -y -q /dev/mtd0 && ubiattach -m 0 > /dev/null &&
		ubimkvol /dev/ubi0 -N fs -S 40 > /dev/null ||
		{ result fail "$n: ubiformat, ubiattach, ubimkvol"; ns_unload; return; }
	check "$n: ubiupdatevol writes our image" ubiupdatevol /dev/ubi0_0 "$img"
	check "$n: the kernel mounts it" mount -t ubifs ubi0:fs /mnt/u || { ns_unload; return; }
	check "$n: the mount holds the source's tree" same_manifest /mnt/u /data/manifest.ubifs
	xattr_check "$n"
	check "$n: a new file written" sh -c "echo new > /mnt/u/written.txt"
	sync
	umount /mnt/u
	check "$n: remounted after a write and a commit" mount -t ubifs -o ro ubi0:fs /mnt/u &&
		check "$n: the written file is there" grep -q new /mnt/u/written.txt
	umount /mnt/u 2> /dev/null
	# the volume as the kernel left it (its commit over ours): our check,
	# the space accounting included, finds it clean
	cat /dev/ubi0_0 > /tmp/vol.img
	check "$n: flashfs check finds the kernel-written volume clean" flashfs check /tmp/vol.img
	rm -f /tmp/vol.img
	check "$n: no UBIFS error or warning in the kernel log" no_ubifs_complaints
	ns_unload
}

ubifs_flash_round() { # NAME UBI-IMAGE
	n=$1
	ns_load $CHIP || { result fail "$n: nandsim loads"; return; }
	dmesg -c > /dev/null
	check "$n: ubiformat -f flashes our UBI image" ubiformat -y -q -f "$2" /dev/mtd0 &&
		check "$n: ubiattach" ubiattach -m 0 &&
		check "$n: the kernel mounts the UBIFS volume" mount -t ubifs ubi0:rootfs /mnt/u &&
		check "$n: the mount holds the source's tree" same_manifest /mnt/u /data/manifest.ubifs &&
		xattr_check "$n"
	umount /mnt/u 2> /dev/null
	check "$n: no UBIFS error or warning in the kernel log" no_ubifs_complaints
	ns_unload
}

for img in /data/ubifs-*.img; do
	n=$(basename "$img" .img)
	ubifs_volume_round "$n" "$img"
done
[ -f /data/ubi-ubifs.ubi ] && ubifs_flash_round "mkfs.ubi --ubifs + ubiformat -f" /data/ubi-ubifs.ubi
