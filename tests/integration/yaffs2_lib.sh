# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Shared by the yaffs2_*.t tests: build a source tree with every object kind.
# (Sourced after lib.sh; not a test itself.)

# make_kinds_tree DIR — files, holes, dirs, symlinks up to 159 bytes, hard
# links, devices, fifo, socket, a 255-byte name, xattrs, odd modes/owners.
make_kinds_tree() {
	local d=$1 long159 name255
	mkdir -p "$d/dir/sub" "$d/empty" "$d/sticky" "$d/lost+found"
	echo found > "$d/lost+found/kept"
	: > "$d/empty.txt"
	echo "hello yaffs2" > "$d/small.txt"
	head -c 70000 /dev/urandom > "$d/dir/multi.bin"
	{ head -c 5000 /dev/urandom; head -c 20000 /dev/zero; head -c 3000 /dev/urandom; } \
		> "$d/dir/holes.bin"
	head -c 4096 /dev/zero > "$d/zeros.bin"
	long159=$(printf 't%.0s' $(seq 1 159))
	ln -s "$long159" "$d/link159"
	ln -s small.txt "$d/link"
	ln "$d/small.txt" "$d/dir/hard1"
	ln "$d/small.txt" "$d/dir/sub/hard2"
	mknod "$d/chr" c 1 3
	mknod "$d/blk" b 8 1
	mkfifo "$d/fifo"
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/sock"
	name255=$(printf 'n%.0s' $(seq 1 255))
	echo long > "$d/dir/$name255"
	setfattr -n user.comment -v "a comment" "$d/small.txt"
	setfattr -n user.bin -v 0x00ff10 "$d/dir"
	chmod 4755 "$d/dir/multi.bin"
	chmod 1777 "$d/sticky"
	chown 1234:5678 "$d/dir/holes.bin"
	chown -h 42:43 "$d/link"
	find "$d" -exec touch -h -d @1600000000 {} +
	touch -d @1700000123 "$d/dir/multi.bin"
}

# exits CODE NAME CMD... — passes when CMD exits with exactly CODE (mkfs.yaffs2:
# 0 ok, 1 built with warnings, 2 usage error or failed build); its stderr is
# kept in $T/exits.err for a check of the message.
exits() {
	local want=$1 name=$2 rc
	shift 2
	"$@" > "$T/exits.out" 2> "$T/exits.err"
	rc=$?
	is "$rc" "$want" "$name: exit $want"
}
