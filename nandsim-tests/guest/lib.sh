# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Helpers for scenario scripts running in the test guest (busybox sh).
#
#   result ok|fail NAME [REASON]   report one test result
#   check NAME CMD...              ok when CMD exits 0, else fail + its output
#   check_fails NAME CMD...        ok when CMD exits 1..127 (its output is
#                                  kept in /tmp/refused.out)
#   diag TEXT                      a comment line kept in the host's output
#   ns_load CHIP [PARAMS...]       load nandsim for a chip preset (+ params)
#   ns_unload                      undo ns_load (and any UBI on it)
#   ns_chip CHIP                   print nandsim's ID-byte parameters
#   ns_export FILE [NAME]          send FILE to the host (run-guest.sh -x DIR
#                                  writes it to DIR/NAME)
#
# Chip presets (ID bytes decoded by the kernel's generic extended-ID rules):
#   512   512+16 pages, 16 KiB blocks, 32 MiB  (small page: 8 free OOB bytes)
#   2k    2048+64 pages, 128 KiB blocks, 256 MiB
#   2k-128m  the same, 128 MiB (less for UBI to format and scan)
#   4k    4096+128 pages, 256 KiB blocks, 512 MiB (a 256 MiB 4K chip has
#         65536 pages: the NAND core then sends 2 row-address bytes where
#         nandsim, going by size, expects 3, and every block reads as bad)
# nandsim only keeps written pages in memory, so the chip size costs nothing.

. /etc/nandsim/manifest.sh

# to fd 3 (the console, opened by init), so it shows even inside a check
diag() {
	echo "$*" | sed 's/^/NANDSIM-DIAG: /' >&3
}

result() {
	if [ "$1" = ok ]; then
		echo "NANDSIM-RESULT: ok - $2"
	else
		echo "NANDSIM-RESULT: not ok - $2${3:+ # $3}"
	fi
}

check() {
	_name=$1
	shift
	"$@" > /tmp/check.out 2>&1
	_rc=$?
	if [ $_rc = 0 ]; then
		result ok "$_name"
		return 0
	fi
	tail -n 30 /tmp/check.out | sed 's/^/NANDSIM-DIAG:   /'
	result fail "$_name" "exit $_rc: $*"
	return $_rc
}

check_fails() {
	_name=$1
	shift
	"$@" > /tmp/check.out 2>&1
	_rc=$?
	# kept for a following check of the message
	cp /tmp/check.out /tmp/refused.out
	sed 's/^/NANDSIM-DIAG:   /' /tmp/check.out | tail -n 10
	if [ "$_rc" -ne 0 ] && [ "$_rc" -lt 128 ]; then
		result ok "$_name"
	else
		result fail "$_name" "exit $_rc, expected a refusal: $*"
	fi
}

# The console is the only way back to the host: the file goes gzip'ed and
# base64-encoded, its lines prefixed, with the MD5 of the gzip so the host
# can tell a damaged transfer.  Kernel messages are held back meanwhile so
# that none lands inside a line.
ns_export() {
	_ex_name=${2:-$(basename "$1")}
	gzip -c "$1" > /tmp/export.gz || return 1
	dmesg -n 1
	{
		echo "NANDSIM-FILE-BEGIN $_ex_name $(md5sum < /tmp/export.gz | cut -d' ' -f1)"
		base64 /tmp/export.gz | sed 's/^/NANDSIM-FILE: /'
		echo "NANDSIM-FILE-END"
	} >&3
	dmesg -n 4
	rm -f /tmp/export.gz
}

ns_chip() {
	case $1 in
	512) echo "first_id_byte=0x20 second_id_byte=0x75" ;;
	2k) echo "first_id_byte=0x20 second_id_byte=0xaa third_id_byte=0x00 fourth_id_byte=0x15" ;;
	2k-128m) echo "first_id_byte=0x20 second_id_byte=0xf1 third_id_byte=0x00 fourth_id_byte=0x15" ;;
	4k) echo "first_id_byte=0x20 second_id_byte=0xdc third_id_byte=0x00 fourth_id_byte=0x26" ;;
	*) return 1 ;;
	esac
}

ns_load() {
	_chip=$1
	shift
	ns_unload
	# shellcheck disable=SC2046
	modprobe nandsim $(ns_chip "$_chip") "$@" || return 1
	modprobe mtdblock_ro 2>/dev/null
	modprobe ubi 2>/dev/null
	_i=0
	while [ ! -c /dev/mtd0 ] && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -c /dev/mtd0 ] || return 1
	diag "nandsim $_chip $*: $(cat /sys/class/mtd/mtd0/size) bytes," \
		"page $(cat /sys/class/mtd/mtd0/writesize)+$(cat /sys/class/mtd/mtd0/oobsize)," \
		"block $(cat /sys/class/mtd/mtd0/erasesize)"
}

ns_unload() {
	for _m in $(awk '$2 ~ /^\/mnt/ {print $2}' /proc/mounts | sort -r); do
		umount "$_m"
	done
	for _b in /dev/ubiblock*; do
		[ -b "$_b" ] && ubiblock -r "/dev/$(basename "$_b" | sed 's/^ubiblock\([0-9]*\)_\([0-9]*\)$/ubi\1_\2/')" 2>/dev/null
	done
	[ -c /dev/ubi0 ] && ubidetach -m 0 > /dev/null 2>&1
	grep -q '^nandsim ' /proc/modules && rmmod nandsim
	return 0
}

# mtd_attr NAME — a sysfs attribute of mtd0 (writesize, oobsize, erasesize…)
mtd_attr() {
	cat "/sys/class/mtd/mtd0/$1"
}

# same_manifest DIR WANT_FILE — compare a mounted tree with a host manifest
same_manifest() {
	ff_manifest "$1" > /tmp/manifest.got || return 2
	if cmp -s /tmp/manifest.got "$2"; then
		return 0
	fi
	diff "$2" /tmp/manifest.got | head -n 20
	return 1
}

# same_xattrs DIR WANT_FILE — the mounted tree's xattrs (ff_xattrs) are the
# host's
same_xattrs() {
	ff_xattrs "$1" > /tmp/xattrs.got || return 2
	if cmp -s /tmp/xattrs.got "$2"; then
		return 0
	fi
	diff "$2" /tmp/xattrs.got | head -n 20
	return 1
}
