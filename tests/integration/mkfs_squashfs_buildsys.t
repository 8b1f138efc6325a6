#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.squashfs as a drop-in for mksquashfs in build systems: every command
# line of tests/data/buildsys-cmdlines.txt (Buildroot, Yocto, wic, OpenWrt)
# runs with mksquashfs 4.5.1 (translated where it lacks an option) and with
# mkfs.squashfs on a tree with every object kind; both images are mounted by
# the kernel and their trees must be identical (manifest with link counts),
# and sqfsdiff (squashfs-tools-ng) must find no difference, inode types
# included.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/mkfs_squashfs_lib.sh"

need_root
command -v mkfs.squashfs > /dev/null || skip_all "mkfs.squashfs not built"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
grep -qw squashfs /proc/filesystems || modprobe squashfs 2> /dev/null ||
	skip_all "kernel has no squashfs"

S=$T/src
make_tree "$S" 16384
head -c 3145728 /dev/zero > "$S/zeros_3M"
touch -d @1600000100 "$S/zeros_3M" "$S"

# translate OPTION... — the same command for mksquashfs 4.5.1
translate() {
	out=()
	while [ $# -gt 0 ]; do
		case $1 in
		-fixed-time) out+=(-all-time "$2" -mkfs-time "$2"); shift ;;
		-no-compression) out+=(-noI -noD -noF -noX) ;;
		-Xpreset | -Xlc | -Xlp | -Xpb) shift ;;
		-Xe) ;;
		*) out+=("$1") ;;
		esac
		shift
	done
}

# tree IMAGE OUT — manifest of the kernel's view of IMAGE.  A loop device
# ends at a 512-byte boundary, so an unpadded (-nopad) image is mounted from
# a copy padded the way a flash partition would hold it.
tree() {
	cp "$1" "$T/pad.img" && truncate -s %4096 "$T/pad.img" || return 1
	mount_image "$T/pad.img" "$T/mnt" || return 1
	$MANIFEST --dir-nlink "$T/mnt" > "$2"
	local rc=$?
	umount "$T/mnt"
	return $rc
}

n=0
while IFS='|' read -r name envs args; do
	case $name in '#'* | '') continue ;; esac
	name=$(echo $name)
	# BUILDSYS_ONLY=NAME runs one case (for checking a change quickly)
	[ -z "${BUILDSYS_ONLY:-}" ] || [ "$name" = "$BUILDSYS_ONLY" ] || continue
	n=$((n + 1))
	eval "set -- $args"
	translate "$@"
	rm -f "$T/o.img" "$T/m.img"
	if ! env -u SOURCE_DATE_EPOCH $envs mksquashfs "$S" "$T/m.img" "${out[@]}" -quiet \
		-no-progress > "$T/m.log" 2>&1; then
		skip "mksquashfs 4.5.1 refused it: $(tail -1 "$T/m.log")" "$name"
		continue
	fi
	if ! env -u SOURCE_DATE_EPOCH $envs mkfs.squashfs "$S" "$T/o.img" "$@" -quiet \
		> "$T/o.log" 2>&1; then
		ok "$name: mkfs.squashfs builds it ($(tail -1 "$T/o.log"))" false
		continue
	fi
	tree "$T/m.img" "$T/m.manifest" && tree "$T/o.img" "$T/o.manifest" ||
		{ ok "$name: both images mount" false; continue; }
	ok "$name: kernel mounts give identical trees" diff "$T/m.manifest" "$T/o.manifest"
	# sqfsdiff also compares inode flavours (basic or extended), e.g. for
	# the all-zero zeros_3M, which mksquashfs gives a basic inode
	if command -v sqfsdiff > /dev/null; then
		sqfsdiff -a "$T/m.img" -b "$T/o.img" > "$T/sqfsdiff.out" 2>&1
		is "$?:$(head -3 "$T/sqfsdiff.out")" "0:" "$name: sqfsdiff finds no difference"
	fi
	case " $* " in *" -nopad "*)
		is "$(( $(stat -c %s "$T/o.img") % 4096 != 0 || $(stat -c %s "$T/m.img") % 4096 != 0 ))" 1 \
			"$name: -nopad leaves the size unpadded" ;;
	esac
done < "$FF_TOP/tests/data/buildsys-cmdlines.txt"
[ -n "${BUILDSYS_ONLY:-}" ] || [ "$n" -ge 15 ] || ok "the data file holds the command lines ($n)" false
done_testing
