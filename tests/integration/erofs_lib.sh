# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The EROFS builder tests' read-back, sourced after lib.sh: the host
# kernel's mount and (with reader=1) our reader's extraction of an image
# must each equal the source tree $T/src (manifest options in MOPTS).

# erofs_src — what the read-back compares with: SRC_MAN, the manifest a
# test made of $T/src once, when it keeps one and MOPTS is unset (a manifest
# of the source costs as much as one of the image's tree), else $T/src.
erofs_src() {
	if [ -n "${SRC_MAN:-}" ] && [ -z "${MOPTS:-}" ]; then
		echo "$SRC_MAN"
	else
		echo "$T/src"
	fi
}

# erofs_mount_is NAME IMG — the kernel mounts IMG and its tree is $T/src's
erofs_mount_is() {
	local name=$1 img=$2
	mkdir -p "$T/mnt"
	if mount -t erofs -o loop,ro "$img" "$T/mnt" 2> "$T/mount.log"; then
		# shellcheck disable=SC2086
		same_manifest "$name: the kernel's mount equals the source" "$(erofs_src)" "$T/mnt" ${MOPTS:-}
		umount "$T/mnt"
	else
		ok "$name: the kernel mounts it" sh -c "cat '$T/mount.log'; dmesg | tail -3; false"
	fi
}

# erofs_extract_is NAME IMG — flashfs extract of IMG gives $T/src's tree
erofs_extract_is() {
	local name=$1 img=$2
	rm -rf "$T/x" && mkdir "$T/x"
	if flashfs extract -C "$T/x" "$img" > "$T/x.log" 2>&1; then
		# shellcheck disable=SC2086
		same_manifest "$name: our reader extracts the source" "$(erofs_src)" "$T/x" ${MOPTS:-}
	else
		ok "$name: flashfs extract" sh -c "cat '$T/x.log'; false"
	fi
}
