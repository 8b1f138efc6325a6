# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# shellcheck shell=bash
# Host helpers for the mtdram scenarios (issue 30), sourced by bash.
#
#   mtd_ship DATA WORK   put into the guest's /data what the shared
#                        initramfs may lack: mtdram.ko, block2mtd.ko,
#                        jffs2.ko, romfs.ko (from the kernel package in
#                        WORK/cache), setfattr, and guest/mtdram.sh
#   mtd_guest_tap OUT    the results run-guest.sh printed, numbered as TAP
mtd_ship() {
	local data=$1 work=$2 here kroot moddir m rel
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	kroot=$("$here/fetch-kernel.sh" "$work/cache") || return 3
	moddir=$(ls -d "$kroot"/lib/modules/* | head -n 1)
	mkdir -p "$data/modules" "$data/bin"
	for m in mtdram block2mtd jffs2 romfs; do
		rel=$(awk -F: -v m="$m" '{n = $1; sub(/.*\//, "", n); sub(/\.ko.*$/, "", n)} n == m {print $1; exit}' "$moddir/modules.dep")
		[ -n "$rel" ] && cp "$moddir/$rel" "$data/modules/$m.ko"
	done
	command -v setfattr > /dev/null && cp "$(command -v setfattr)" "$data/bin/"
	cp "$here/guest/mtdram.sh" "$data/mtdram.sh"
}

mtd_guest_tap() {
	awk '/^#/ { print; next }
		/^(not )?ok - / { n++; sub(/^ok - /, "ok " n " - "); sub(/^not ok - /, "not ok " n " - "); print; if ($1 == "not") bad++; next }
		END { print "1.." n; exit bad > 0 }' "$1"
}
