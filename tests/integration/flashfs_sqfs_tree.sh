# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Shared by the flashfs_*.t tests: make_tree DIR builds a tree with every
# inode kind, sparse files, hard links, large directories (300 and 5000
# entries, so the directory index is used), xattrs and long names.
make_tree() {
	local d=$1 i
	mkdir -p "$d/sub/deeper" "$d/big300" "$d/big5000" "$d/empty"
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
	for i in $(seq 1 5000); do : > "$d/big5000/f$i"; done
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
