# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Shared by cramfs_build.t and cramfs_read.t: generated source trees.

# cramfs_tree DIR — files of several sizes (empty, small, one block, more
# than one block at 4 KiB and at 64 KiB), sparse files, duplicates (a file
# and a symlink whose target is the file's bytes share data), symlinks,
# hard links, empty and nested directories, long and odd names, a FIFO, a
# socket; as root also devices and owners past cramfs' 16/8-bit fields.
cramfs_tree() {
	local d=$1 i
	mkdir -p "$d/sub/deeper/deepest" "$d/empty" "$d/many"
	: > "$d/zero"
	printf 'hello\n' > "$d/small"
	printf 'hello\n' > "$d/sub/same-as-small"
	printf '../small' > "$d/content-is-a-path"
	ln -s ../small "$d/sub/link-to-small"
	ln -s deeper/deepest "$d/sub/dirlink"
	ln -s "$(printf 't%.0s' $(seq 200))" "$d/long-target"
	head -c 4096 /dev/urandom > "$d/one-block"
	seq 1 30000 > "$d/text-5-blocks"
	head -c 150000 /dev/urandom > "$d/sub/deeper/random-150k"
	cp "$d/sub/deeper/random-150k" "$d/many/copy-of-random"
	truncate -s 100000 "$d/sparse-all"
	printf 'start' > "$d/sparse-mid"
	truncate -s 70000 "$d/sparse-mid"
	printf 'end' >> "$d/sparse-mid"
	head -c 5000 /dev/zero > "$d/zeros-5000"
	ln "$d/small" "$d/sub/hard-small"
	ln "$d/text-5-blocks" "$d/many/hard-text"
	printf 'x' > "$d/$(printf 'n%.0s' $(seq 252))"
	printf 'y' > "$d/$(printf 'm%.0s' $(seq 249))"
	printf 'odd' > "$d/sp ace"
	printf 'utf' > "$d/ünïcødé"
	printf 'hi' > "$d/$(printf 'hi\xffbyte')"
	for i in $(seq 1 40); do printf '%s\n' "$i" > "$d/many/f$i"; done
	mkfifo "$d/fifo"
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/sock"
	chmod 4755 "$d/one-block"
	chmod 0600 "$d/small"
	chmod 1777 "$d/empty"
	if [ "$(id -u)" = 0 ]; then
		mknod "$d/null" c 1 3
		mknod "$d/sda" b 8 0
		mknod "$d/bigdev" c 300 1000
		chown 1000:100 "$d/small"
		chown 70000:300 "$d/sub/deeper"
		chown -h 5:6 "$d/sub/link-to-small"
	fi
}

# fsck_ref IMAGE BLKSIZE DIR — fsck.cramfs' extraction into DIR.  Util-linux
# 2.38's fsck.cramfs refuses the holes flag, which changes nothing it
# reads (a zero-length block is a hole either way): a copy without the flag
# is given to it.
fsck_ref() {
	cp "$1" "$1.ref"
	python3 "$FF_TOP/tests/tools/cramfs_patch.py" "$1.ref" --clear-flags 0x100 --fix-crc
	fsck.cramfs -b "$2" --extract="$3" "$1.ref" > /dev/null 2>&1
	local rc=$?
	rm -f "$1.ref"
	return $rc
}
