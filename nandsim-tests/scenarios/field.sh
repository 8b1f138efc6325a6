# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# scripts/check-field's reference for JFFS2, UBI, UBIFS and romfs images:
# /data/field/list names each image the host collected (one line each:
# N KIND ARGS), and the guest's kernel mounts it read-only where it would
# live: mtdram (NOR-like) or nandsim (NAND), under UBI where it belongs.
# Its manifest goes back as N.manifest: "UNMOUNTABLE", "NOSETUP STEP:
# WHY" (the guest could not build the device: no verdict), or the tree,
# after a line "DAMAGED" when the kernel logged errors reading it.
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

# take N MOUNT-ARGS... — the manifest of the mounted image; its first
# line is DAMAGED when the kernel logged an error or a CRC failure while
# mounting or walking it
take() {
	_n=$1
	shift
	dmesg -c > /dev/null
	if mount "$@" /mnt/f 2> /tmp/mount.err; then
		ff_manifest /mnt/f > "/tmp/$_n.m" 2> /dev/null
		umount /mnt/f
		if dmesg | grep -qiE 'error|crc|bad '; then
			{ echo DAMAGED; cat "/tmp/$_n.m"; } > "/tmp/$_n.manifest"
		else
			mv "/tmp/$_n.m" "/tmp/$_n.manifest"
		fi
	else
		diag "  $_n: mount $*: $(tail -n 1 /tmp/mount.err)"
		echo UNMOUNTABLE > "/tmp/$_n.manifest"
	fi
}

# step NAME CMD... — a step that builds the device; when it fails the
# guest cannot emulate it, which is no verdict on the image
step() {
	_s=$1
	shift
	"$@" > /tmp/step.out 2>&1 && return 0
	echo "NOSETUP $_s: $(tail -n 1 /tmp/step.out)" > "/tmp/$n.manifest"
	return 1
}

vidopt() { [ "$1" = 0 ] || echo "-O $1"; }

# UBI on a nandsim chip: 128 blocks, room for a volume table's reserve
# and UBI's 20-per-1024 bad block reserve
nand_ubi() { # CHIP VIDOFF [IMAGE]
	step nandsim ns_load "$1" parts=128 || return 1
	# shellcheck disable=SC2046
	step ubiformat ubiformat -y -q $(vidopt "$2") ${3:+-f "$3"} /dev/mtd0 &&
		step ubiattach ubiattach -m 0 $(vidopt "$2")
}

field_one() { # N KIND ARGS...
	n=$1 kind=$2 img=/data/field/$1.img
	shift 2
	echo "NOSETUP $kind" > "/tmp/$n.manifest"
	case $kind in
	jffs2) step mtdram mr_put "$img" "$1" && take "$n" -t jffs2 -o ro mtd0 ;;
	romfs) step mtdram mr_put "$img" 4 && take "$n" -t romfs -o ro mtd0 ;;
	ubi-nor)
		step mtdram mr_put "$img" "$1" && step ubiattach ubiattach -m 0 &&
			take "$n" -t ubifs -o ro "ubi0:$2" ;;
	ubifs-nor)
		step mtdram mr_load $((($2 + 8) * $1)) "$1" && step ubiattach ubiattach -m 0 &&
			step ubimkvol ubimkvol /dev/ubi0 -N fs -S "$2" &&
			step ubiupdatevol ubiupdatevol /dev/ubi0_0 "$img" && take "$n" -t ubifs -o ro ubi0:fs ;;
	ubi-nand) nand_ubi "$1" "$2" "$img" && take "$n" -t ubifs -o ro "ubi0:$3" ;;
	ubifs-nand)
		nand_ubi "$1" "$2" && step ubimkvol ubimkvol /dev/ubi0 -N fs -S "$3" &&
			step ubiupdatevol ubiupdatevol /dev/ubi0_0 "$img" && take "$n" -t ubifs -o ro ubi0:fs ;;
	esac
	# a bare UBIFS image goes into a volume made here: when that does not
	# mount, the volume may be what is wrong (seen: EINVAL, no message,
	# for a 129024-byte-LEB image on nandsim), so no verdict
	case $kind in ubifs-*)
		grep -qx UNMOUNTABLE "/tmp/$n.manifest" &&
			echo "NOSETUP mount in a fresh volume: $(tail -n 1 /tmp/mount.err)" > "/tmp/$n.manifest" ;;
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
