# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# shellcheck shell=sh disable=SC2034
# Guest helpers for the JFFS2 scenarios (issue 30), sourced from /data
# (the host's mtd-host.sh ships this file, the modules the initramfs may
# lack and setfattr there), so the shared run-guest.sh and lib.sh stay as
# they are.
#
#   mr_mod NAME [PARAMS]      load a module: modprobe, else /data/modules/NAME.ko
#   mr_load SIZE_KIB ERASE_KIB  a fresh mtdram as mtd0 (all 0xff)
#   mr_unload                 unmount /mnt/*, remove mtdram
#   mr_put IMG ERASE_KIB      a fresh mtdram just large enough, IMG written
#   kernel_view IMG ERASE_KIB OUT   the kernel's tree of the JFFS2 IMG:
#                             OUT.manifest (ff_manifest) and OUT.xattrs, or
#                             OUT.manifest holding "UNMOUNTABLE"
SETFATTR=/data/bin/setfattr

mr_mod() {
	_n=$1
	shift
	grep -q "^$_n " /proc/modules && return 0
	modprobe mtd 2> /dev/null
	modprobe "$_n" "$@" 2> /dev/null || insmod "/data/modules/$_n.ko" "$@"
}

mr_load() {
	mr_unload
	modprobe mtd 2> /dev/null
	mr_mod mtdram total_size="$1" erase_size="$2" || return 1
	_i=0
	while [ ! -c /dev/mtd0 ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -c /dev/mtd0 ]
}

mr_unload() {
	for _m in $(awk '$2 ~ /^\/mnt/ {print $2}' /proc/mounts | sort -r); do
		umount "$_m"
	done
	[ -c /dev/ubi0 ] && ubidetach -m 0 > /dev/null 2>&1
	grep -q '^mtdram ' /proc/modules && rmmod mtdram
	return 0
}

mr_put() { # IMG ERASE_KIB
	_kib=$((($(stat -c %s "$1") + 1023) / 1024))
	_kib=$(((_kib + $2 - 1) / $2 * $2))
	mr_load "$_kib" "$2" || return 1
	dd if="$1" of=/dev/mtd0 bs=4096 2> /dev/null
}

kernel_view() { # IMG ERASE_KIB OUT
	mkdir -p /mnt/kv
	if mr_put "$1" "$2" && mount -t jffs2 -o ro mtd0 /mnt/kv; then
		ff_manifest /mnt/kv > "$3.manifest"
		if [ -x /usr/sbin/getfattr ]; then
			ff_xattrs /mnt/kv > "$3.xattrs"
		fi
	else
		echo UNMOUNTABLE > "$3.manifest"
	fi
	mr_unload
}
