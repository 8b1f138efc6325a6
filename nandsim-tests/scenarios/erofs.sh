# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Our ffmkfs.erofs images against the Debian 6.1 kernel's erofs.ko: each
# /data/NAME.img is mounted from a loop device and must equal the source's
# manifest (erofs-kernel-check.sh says which layouts and why).
for m in crc32c_generic libcrc32c erofs loop; do
	grep -q "^$m " /proc/modules || [ ! -f /data/modules/$m.ko ] || insmod /data/modules/$m.ko
done
grep -q erofs /proc/filesystems || { result fail "erofs.ko loads"; return; }
mkdir -p /mnt/e

# er_same — the mounted tree is the source's
er_same() {
	ff_manifest /mnt/e > /tmp/erofs.got || return 2
	cmp -s /data/manifest /tmp/erofs.got && return 0
	diff /data/manifest /tmp/erofs.got | head -n 20
	return 1
}

for img in /data/*.img; do
	n=${img##*/}
	n=${n%.img}
	if check "$n: the 6.1 kernel mounts it" mount -t erofs -o loop,ro "$img" /mnt/e; then
		check "$n: the tree equals the source" er_same
		umount /mnt/e
	fi
done
