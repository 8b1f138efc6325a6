# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Our mkfs.romfs images against the kernel's romfs (issue 28): each
# /data/NAME.romfs is written to an mtdram device and mounted by romfs.ko
# straight from MTD (mount -t romfs mtd0), then from a block device (loop,
# else mtdblock_ro); the tree must equal the host's manifest of its source
# (manifest.TREE, the hard-link column left out: the kernel reports nlink
# 1 for every romfs inode), and each hard-link group of hardlinks.TREE must
# share one inode number.  See romfs-kernel-check.sh for what is compared.
mkdir -p /mnt/r
modprobe mtd 2> /dev/null
for m in romfs mtdram loop; do
	grep -q "^$m " /proc/modules || [ ! -f /data/modules/$m.ko ] || insmod /data/modules/$m.ko
done
grep -q romfs /proc/filesystems || { result fail "romfs.ko loads"; return; }

# rf_same DIR TREE — the mounted tree is the source's
rf_same() {
	ff_manifest "$1" | awk '{ $9 = "-"; print }' > /tmp/romfs.got || return 2
	if cmp -s "/data/manifest.$2" /tmp/romfs.got; then
		return 0
	fi
	diff "/data/manifest.$2" /tmp/romfs.got | head -n 20
	return 1
}

# rf_links DIR TREE — each hard-link group shares one inode number
rf_links() {
	_bad=0
	while read -r _line; do
		# shellcheck disable=SC2086
		_n=$(cd "$1" && stat -c %i $_line | sort -u | wc -l)
		[ "$_n" = 1 ] || { echo "not one inode: $_line"; _bad=1; }
	done < "/data/hardlinks.$2"
	return $_bad
}

# rf_mtd IMAGE — a fresh mtdram as large as the image (whole 64 KiB
# eraseblocks), the image written through the MTD character device
rf_mtd() {
	grep -q '^mtdram ' /proc/modules && rmmod mtdram
	_kib=$((($(stat -c %s "$1") + 65535) / 65536 * 64))
	modprobe mtdram total_size=$_kib erase_size=64 2> /dev/null ||
		insmod /data/modules/mtdram.ko total_size=$_kib erase_size=64 || return 1
	dd if="$1" of=/dev/mtd0 bs=65536 conv=sync 2> /dev/null
}

for img in /data/*.romfs; do
	n=$(basename "$img" .romfs)
	t=$(cat "/data/$n.tree")
	if check "$n: written to mtdram" rf_mtd "$img" &&
		check "$n: romfs mounts it from MTD (mtd0)" mount -t romfs -o ro mtd0 /mnt/r; then
		check "$n (MTD): the tree is the source's" rf_same /mnt/r "$t"
		check "$n (MTD): hard links share an inode" rf_links /mnt/r "$t"
		umount /mnt/r
	fi
	if grep -q '^loop ' /proc/modules || [ -e /dev/loop0 ]; then
		dev=loop
		check "$n: romfs mounts it from a loop device" mount -t romfs -o ro,loop "$img" /mnt/r
	else
		dev=mtdblock
		check "$n: romfs mounts it from mtdblock_ro" mount -t romfs -o ro /dev/mtdblock0 /mnt/r
	fi && {
		check "$n ($dev): the tree is the source's" rf_same /mnt/r "$t"
		umount /mnt/r
	}
done
grep -q '^mtdram ' /proc/modules && rmmod mtdram
if dmesg | grep -iE 'romfs.*(error|bad|corrupt)' > /tmp/romfs.msgs; then
	result fail "the kernel log holds no romfs complaint" "$(head -n 1 /tmp/romfs.msgs)"
else
	result ok "the kernel log holds no romfs complaint"
fi
