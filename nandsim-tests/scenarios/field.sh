# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# scripts/check-field's reference for JFFS2, UBI, UBIFS and romfs images:
# /data/field/list names each image the host collected (one line each:
# N KIND ARGS), and the guest's kernel mounts it read-only where it would
# live: mtdram (NOR-like) or nandsim (NAND), under UBI where it belongs.
# Its manifest (or "UNMOUNTABLE") goes back as N.manifest.
#
#   N jffs2 ERASE_KIB            little-endian (the host converted big)
#   N romfs
#   N ubi-nor PEB_KIB VOLUME     a UBI image on mtdram
#   N ubi-nand CHIP VIDOFF VOLUME   ubiformat -f onto nandsim
#   N ubifs-nor PEB_KIB LEBS     a UBIFS image in a fresh UBI volume
#   N ubifs-nand CHIP VIDOFF LEBS
. /data/mtdram.sh
mr_mod jffs2
mr_mod romfs
modprobe ubi 2> /dev/null
modprobe ubifs 2> /dev/null
mkdir -p /mnt/f

take() { # N MOUNT-ARGS...
	_n=$1
	shift
	if mount "$@" /mnt/f 2> /dev/null; then
		ff_manifest /mnt/f > "/tmp/$_n.manifest"
		umount /mnt/f
	else
		echo UNMOUNTABLE > "/tmp/$_n.manifest"
	fi
}

vidopt() { [ "$1" = 0 ] || echo "-O $1"; }

field_one() { # N KIND ARGS...
	n=$1 kind=$2 img=/data/field/$1.img
	shift 2
	echo UNMOUNTABLE > "/tmp/$n.manifest"
	case $kind in
	jffs2) mr_put "$img" "$1" && take "$n" -t jffs2 -o ro mtd0 ;;
	romfs) mr_put "$img" 4 && take "$n" -t romfs -o ro mtd0 ;;
	ubi-nor)
		mr_put "$img" "$1" && ubiattach -m 0 > /dev/null 2>&1 &&
			take "$n" -t ubifs -o ro "ubi0:$2" ;;
	ubifs-nor)
		mr_load $((($2 + 8) * $1)) "$1" && ubiattach -m 0 > /dev/null 2>&1 &&
			ubimkvol /dev/ubi0 -N fs -S "$2" > /dev/null 2>&1 &&
			ubiupdatevol /dev/ubi0_0 "$img" && take "$n" -t ubifs -o ro ubi0:fs ;;
	ubi-nand)
		# shellcheck disable=SC2046
		ns_load "$1" parts=$(($(stat -c %s "$img") / 131072 + 48)) > /dev/null &&
			ubiformat -y -q $(vidopt "$2") -f "$img" /dev/mtd0 > /dev/null 2>&1 &&
			ubiattach -m 0 $(vidopt "$2") > /dev/null 2>&1 &&
			take "$n" -t ubifs -o ro "ubi0:$3" ;;
	ubifs-nand)
		# shellcheck disable=SC2046
		ns_load "$1" parts=$(($3 + 48)) > /dev/null &&
			ubiformat -y -q $(vidopt "$2") /dev/mtd0 > /dev/null 2>&1 &&
			ubiattach -m 0 $(vidopt "$2") > /dev/null 2>&1 &&
			ubimkvol /dev/ubi0 -N fs -S "$3" > /dev/null 2>&1 &&
			ubiupdatevol /dev/ubi0_0 "$img" && take "$n" -t ubifs -o ro ubi0:fs ;;
	esac
	mr_unload
	ns_unload
}

while read -r line; do
	# shellcheck disable=SC2086
	field_one $line
	result ok "field image $(echo "$line" | cut -d' ' -f1-2): $(head -n 1 "/tmp/${line%% *}.manifest" | cut -c1-40)"
	ns_export "/tmp/${line%% *}.manifest" "${line%% *}.manifest"
done < /data/field/list
