# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Shared by the flashfs_*.t tests: make_tree DIR builds a tree with every
# inode kind, sparse files, hard links, large directories (300 entries,
# and 1000 of 50-byte names: a 58 KB listing, so the directory index is used,
# 7 entries with mksquashfs and mkfs.squashfs, as 5000 short names gave),
# xattrs and long names.  (1000 long names, not 5000 short ones: every
# extraction creates the big directory's files again, right after the last
# one was deleted, and the test machines' ext4 looks past every inode deleted
# in the last minute for each new one (recently_deleted() in the kernel's
# profile): flashfs_sqfs_codecs.t's 16 extractions cost some 100 CPU s.)
make_tree() {
	local d=$1 i pad
	mkdir -p "$d/sub/deeper" "$d/big300" "$d/bigdir" "$d/empty"
	printf 'hello\n' > "$d/hello"
	head -c 300000 /dev/urandom > "$d/random"
	seq 1 400000 > "$d/sub/text"
	: > "$d/zero-length"
	head -c 131072 /dev/zero > "$d/sub/one-zero-block"
	truncate -s 3M "$d/sparse"
	printf 'tail' >> "$d/sparse"
	truncate -s 1M "$d/sparse-only"
	ln "$d/hello" "$d/sub/hello-link"
	ln "$d/random" "$d/sub/deeper/random-link"
	ln -s hello "$d/symlink"
	ln -s /etc/passwd "$d/abs-symlink"
	ln -s "$(printf 'x%.0s' $(seq 1 300))" "$d/long-target"
	mkfifo "$d/fifo"
	mknod "$d/chardev" c 1 3
	mknod "$d/blockdev" b 7 200
	python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$d/socket"
	touch "$d/$(printf 'n%.0s' $(seq 1 255))"
	for i in $(seq 1 300); do echo "$i" > "$d/big300/entry-$i"; done
	pad=$(printf 'n%.0s' $(seq 1 45))
	for i in $(seq 1 1000); do : > "$d/bigdir/f$i-$pad"; done
	chmod 4755 "$d/hello"
	chmod 1777 "$d/sub"
	chown 1234:5678 "$d/random"
	chown -h 42:43 "$d/symlink"
	setfattr -n user.comment -v "a comment" "$d/hello"
	setfattr -n user.empty "$d/sub"
	setfattr -n trusted.secret -v 0x00ff00 "$d/random"
	setfattr -n user.big -v "$(head -c 3000 /dev/zero | tr '\0' v)" "$d/sub/text"
	touch -h -d '2001-02-03 04:05:06' "$d/symlink" "$d/hello" "$d/sub" "$d"
}
