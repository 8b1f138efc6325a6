# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The UBI scenarios of issue 19 (item 4), in one boot: our UBI images on
# the kernel's UBI, and dumps of kernel-written UBI devices sent back to the
# host (ns_export) for our reader, which nandsim-check.sh runs there.
#
# /data holds (ubi-host.sh): manifest.ubitree (ff_manifest of the source
# tree), ours.ubi (mkfs.ubi --squashfs of the tree: 128 KiB PEBs, 2048-byte
# pages, 512-byte sub-pages as nandsim's 2K chip has), torn.ubi (ours.ubi
# plus a newer copy of the rootfs LEB 0 whose data CRC is broken), small.sqfs
# (mksquashfs of the tree) and blob.bin (for a static volume).
#
# The chip is nandsim's 128 MiB 2K one cut to a first partition of 64
# eraseblocks (8 MiB), so that dumps stay small; UBI still reserves 20 PEBs
# per 1024 of the whole chip for bad blocks.
CHIP="2k-128m parts=64"
mkdir -p /mnt/sq

# ubi_compare VOL — attach mtd0, ubiblock volume VOL, mount, compare the
# tree with the host's manifest, and release everything again
ubi_compare() {
	ubiattach -m 0 > /dev/null || return 2
	_rc=2
	if ubiblock -c "/dev/ubi0_$1"; then
		if mount -t squashfs -o ro "/dev/ubiblock0_$1" /mnt/sq; then
			same_manifest /mnt/sq manifest.ubitree
			_rc=$?
			umount /mnt/sq
		fi
		ubiblock -r "/dev/ubi0_$1"
	fi
	ubidetach -m 0 > /dev/null
	return $_rc
}

ubi_compare_rounds() { # N
	_round=0
	while [ $_round -lt "$1" ]; do
		ubi_compare 0 || return 1
		_round=$((_round + 1))
	done
}

mtd_geometry_diag() {
	diag "  mtd0: $(mtdinfo /dev/mtd0 | grep -E 'Sub-page|Amount of eraseblocks' | tr -s ' \n' '  ')"
}

# ---- a: our image, written by flashfs flash and by ubiformat -f ------------
scenario_ours() {
	ns_load $CHIP || { result fail "ubi-a: nandsim loads"; return; }
	mtd_geometry_diag
	check "ubi-a: flashfs flash ours.ubi (mkfs.ubi --squashfs)" flashfs flash -q ours.ubi /dev/mtd0
	check "ubi-a: ... ubiattach, ubiblock, mount: tree matches the source" ubi_compare 0
	ns_load $CHIP
	check "ubi-a: ubiformat -f ours.ubi" ubiformat -y -q -f ours.ubi /dev/mtd0
	check "ubi-a: ... ubiattach, ubiblock, mount: tree matches the source" ubi_compare 0
	ns_load $CHIP badblocks=2,5
	check "ubi-a: bad blocks 2, 5: flashfs flash ours.ubi skips them" flashfs flash -q ours.ubi /dev/mtd0
	check "ubi-a: ... ubiattach, ubiblock, mount: tree matches the source" ubi_compare 0
}

# ---- b: a device the kernel wrote, dumped for our reader on the host -------
# kernel_write — format, attach, a dynamic volume with small.sqfs written by
# ubiupdatevol and a static one with blob.bin, detach
kernel_write() {
	ubiformat -y -q /dev/mtd0 && ubiattach -m 0 > /dev/null &&
		diag "  ubi0: $(cat /sys/class/ubi/ubi0/reserved_for_bad) PEBs reserved for bad blocks," \
			"$(cat /sys/class/ubi/ubi0/avail_eraseblocks) available" &&
		ubimkvol /dev/ubi0 -n 0 -N rootfs -s 1MiB > /dev/null &&
		ubiupdatevol /dev/ubi0_0 small.sqfs &&
		ubimkvol /dev/ubi0 -n 1 -N blob -t static -s "$(stat -c %s blob.bin)" > /dev/null &&
		ubiupdatevol /dev/ubi0_1 blob.bin
	_rc=$?
	ubidetach -m 0 > /dev/null
	return $_rc
}

# dump_export NAME [nanddump options] — the whole of mtd0, pages with OOB
dump_export() {
	_dump=$1
	shift
	nanddump -q -o "$@" -f "/tmp/$_dump" /dev/mtd0 && ns_export "/tmp/$_dump"
	_dump_rc=$?
	rm -f "/tmp/$_dump"
	return $_dump_rc
}

scenario_kernel_written() {
	ns_load $CHIP || { result fail "ubi-b: nandsim loads"; return; }
	check "ubi-b: ubiformat, ubimkvol, ubiupdatevol (SquashFS + a static volume)" kernel_write
	check "ubi-b: ... the kernel reads the tree back (ubiblock)" ubi_compare 0
	check "ubi-b: nanddump -o sent to the host as kw.img" dump_export kw.img
	ns_load $CHIP badblocks=3,9
	check "ubi-b: bad blocks 3, 9: the kernel writes the volumes" kernel_write
	check "ubi-b: ... and reads the tree back" ubi_compare 0
	check "ubi-b: nanddump -o (bad blocks skipped) sent as kw-bad-skip.img" dump_export kw-bad-skip.img
	check "ubi-b: nanddump -o --bb=dumpbad sent as kw-bad-dump.img" \
		dump_export kw-bad-dump.img --bb=dumpbad
}

# ---- c: bit flips, and a torn LEB copy --------------------------------------
scenario_tolerance() {
	ns_load $CHIP bitflips=1 || { result fail "ubi-c: nandsim bitflips=1 loads"; return; }
	check "ubi-c: bitflips=1: the kernel writes the volumes" kernel_write
	# nandsim flips a bit in about one page read in 1024 (ECC corrects it):
	# several rounds, so that some flips fall in the kernel's reads
	check "ubi-c: bitflips=1: ... and reads the tree back, 6 times" \
		ubi_compare_rounds 6
	diag "  nandsim flipped $(dmesg | grep -c 'flipping bit') bits in the kernel's reads"
	check "ubi-c: bitflips=1: nanddump -o sent as kw-flips.img" dump_export kw-flips.img
	diag "  ... $(dmesg | grep -c 'flipping bit') with the dump's reads;" \
		"UBI scheduled $(dmesg | grep -c 'for scrubbing') PEB(s) for scrubbing"
	ns_load $CHIP
	check "ubi-c: torn.ubi (newer LEB copy, bad data CRC): flashfs flash" \
		flashfs flash -q torn.ubi /dev/mtd0
	check "ubi-c: ... the kernel attaches and reads the older copy: tree matches" ubi_compare 0
	check "ubi-c: ... nanddump -o after the kernel's attach sent as torn-kernel.img" \
		dump_export torn-kernel.img
}

for s in scenario_ours scenario_kernel_written scenario_tolerance; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	$s
	diag "$s: $(awk -v t0="$t0" '{printf "%.1f", $1 - t0}' /proc/uptime) s"
done
ns_unload
