# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Shared fixture of the UBI reader tests (ubi_read.t, ubi_nand_dump.t),
# sourced after lib.sh and yaffs2_lib.sh: what they need (root, ubinize,
# mksquashfs) and the PEB editor, EDIT.
need_root
command -v ubinize > /dev/null || skip_all "ubinize (mtd-utils) not installed"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
EDIT="python3 $FF_TOP/tests/tools/ubi_edit.py"

# ubi_fixture — in the current directory: src (every object kind but a
# socket, which unsquashfs does not restore), srcb (a second slot), their
# mksquashfs images a.sqfs and b.sqfs, unsquashfs's extractions unsq_a and
# unsq_b (the oracle), and kernel.img (5000 random bytes).
ubi_fixture() {
	make_kinds_tree src
	rm -f src/sock
	mkdir -p srcb/etc && echo "slot b" > srcb/etc/version && ln -s version srcb/etc/v
	mksquashfs src a.sqfs -noappend -quiet -no-progress > /dev/null
	mksquashfs srcb b.sqfs -noappend -quiet -no-progress > /dev/null
	unsquashfs -q -n -d unsq_a a.sqfs > /dev/null
	unsquashfs -q -n -d unsq_b b.sqfs > /dev/null
	head -c 5000 /dev/urandom > kernel.img
}

# ubi_ini_kernel_rootfs — the ini stanzas of a static kernel volume (ID 0)
# and a 2 MiB rootfs volume holding a.sqfs (ID 1), for ubinize.
ubi_ini_kernel_rootfs() {
	printf '%s\n' '[kernel]' mode=ubi image=kernel.img vol_id=0 vol_type=static vol_name=kernel \
		'[rootfs]' mode=ubi image=a.sqfs vol_id=1 vol_size=2MiB vol_name=rootfs
}
