#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# romfs-kernel-check.sh [-b BINDIR] [-w WORKDIR] — the host's half of
# scenarios/romfs.sh: several source trees, our mkfs.romfs images of them
# (default layout, -a and -A alignment, big files, an empty tree) and the
# manifest of what romfs can represent of each, then one guest boot in
# which the kernel's romfs.ko mounts every image (from an MTD device and
# from a block device) and compares.
#
# What romfs represents, and so what is compared: names, types, the
# kernel's modes (romfs stores only the type and one exec bit: the kernel
# shows files 0644 or 0755, directories 0644 or 0755, symlinks 0777,
# devices 0600, fifos and sockets 0644 — the trees are made with those
# modes), sizes, contents, symlink targets, device numbers.  Owners are 0,
# times 0 (the trees are root's, at the epoch).  A hard link is a romfs
# entry pointing at its target's header: the kernel gives both names the
# target's inode number but reports every inode with nlink 1, so the
# manifest's hard-link column (built from nlink) is left out on both sides
# and the groups are checked instead by inode number in the guest
# (hardlinks.NAME: one group per line).
# Prints TAP; "1..0 # SKIP" where the guest cannot run.
set -u
. "$(dirname "$0")/host-begin.sh" romfs "$@"
data=$scratch/data
mkdir -p "$data/modules"

# the modules romfs needs that the initramfs does not carry
kroot=$("$here/fetch-kernel.sh" "$work/cache") || { echo "1..0 # SKIP no kernel package here"; exit 0; }
kver=$(ls "$kroot/lib/modules" | head -n 1)
for m in fs/romfs/romfs.ko drivers/mtd/devices/mtdram.ko drivers/block/loop.ko; do
	f=$(ls "$kroot/lib/modules/$kver/kernel/$m"* 2> /dev/null | head -n 1)
	[ -n "$f" ] && cp "$f" "$data/modules/"
done

# tree_all DIR — every object kind romfs stores, odd names (no white space:
# the manifest cannot carry it), hard links, a deep and an empty directory
tree_all() {
	local d=$1
	mkdir -p "$d/sub/deep/er/still/deeper/and/deeper" "$d/empty" "$d/odd" "$d/dev"
	: > "$d/zero"
	printf 'short' > "$d/short"
	printf '0123456789abcde' > "$d/fifteen"
	printf '0123456789abcdef' > "$d/sixteen"
	head -c 100000 /dev/urandom > "$d/sub/big.bin"
	head -c 4097 /dev/urandom > "$d/sub/page_plus_one"
	truncate -s 70000 "$d/sub/holes"
	printf 'tail' >> "$d/sub/holes"
	printf 'x%.0s' $(seq 200) > "$d/sub/deep/er/still/deeper/and/deeper/f"
	printf '#!/bin/sh\necho hi\n' > "$d/run.sh"
	printf 'dash' > "$d/odd/-leading-dash"
	printf 'hash' > "$d/odd/#hash"
	printf 'colon' > "$d/odd/a:b=c,d"
	printf 'utf' > "$d/odd/$(printf 'gr\xc3\xbc\xc3\x9fe-\xe6\x97\xa5\xe6\x9c\xac')"
	printf 'long' > "$d/odd/$(printf 'n%.0s' $(seq 120))"
	printf 'dots' > "$d/odd/..."
	ln -s short "$d/link"
	ln -s "$(printf 'target/%.0s' $(seq 40))end" "$d/sub/longlink"
	ln -s /nonexistent/abs "$d/abs"
	ln "$d/short" "$d/sub/hard1"
	ln "$d/short" "$d/odd/hard2"
	ln "$d/run.sh" "$d/sub/deep/run2"
	mkfifo "$d/dev/fifo"
	mknod "$d/dev/ttyS0" c 4 64
	mknod "$d/dev/sda1" b 8 1
	mknod "$d/dev/bigminor" c 250 65535
	mknod "$d/dev/null" c 1 3
	python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$d/dev/sock"
	romfs_modes "$d"
	chmod 755 "$d/run.sh" "$d/sub/big.bin"
}

# tree_big DIR — big files (over a MiB, exact sizes), many entries in one
# directory, nested empty directories
tree_big() {
	local d=$1 i
	mkdir -p "$d/many" "$d/e1/e2/e3" "$d/e4"
	head -c 1500000 /dev/urandom > "$d/over-a-mib"
	head -c 1048576 /dev/urandom > "$d/one-mib"
	head -c 1048577 /dev/urandom > "$d/one-mib-plus-one"
	head -c 4096 /dev/urandom > "$d/exact-4k"
	for i in $(seq 1 300); do echo "$i" > "$d/many/entry-$i"; done
	romfs_modes "$d"
}

# romfs_modes DIR — the modes the kernel derives, owners root, times 0
romfs_modes() {
	find "$1" -type d -exec chmod 755 {} +
	find "$1" -type f -exec chmod 644 {} +
	find "$1" \( -type c -o -type b \) -exec chmod 600 {} +
	find "$1" \( -type p -o -type s \) -exec chmod 644 {} +
}

finish_tree() { # DIR NAME — the manifest (no link column) and link groups
	local d=$1 n=$2
	chown -R -h 0:0 "$d"
	find "$d" -exec touch -h -d @0 {} +
	ff_manifest "$d" 2> /dev/null | awk '{ $9 = "-"; print }' > "$data/manifest.$n"
	(cd "$d" && find . -type f -links +1 -printf '%i %p\n' | sort |
		awk '$1 != last { if (line != "") print line; line = $2; last = $1; next }
			{ line = line " " $2 } END { if (line != "") print line }') > "$data/hardlinks.$n"
}

mk() { # IMAGE-NAME TREE-NAME OPTIONS...
	local img=$1 t=$2
	shift 2
	"$bindir/mkfs.romfs" --quiet -f "$data/$img.romfs" -d "$scratch/$t" "$@" ||
		echo "not ok - mkfs.romfs $img $*"
	echo "$t" > "$data/$img.tree"
}

tree_all "$scratch/all"
finish_tree "$scratch/all" all
tree_big "$scratch/big"
finish_tree "$scratch/big" big
mkdir -p "$scratch/none"
finish_tree "$scratch/none" none
mk default all -V default
mk align64 all -V align64 -a 64
mk align-path all -V alignpath -A 4096,/sub/big.bin -A 512,'*.sh'
mk big-align big -V bigalign -a 4096 -A 65536,/one-mib
mk empty none -V empty

"$here/run-guest.sh" -n romfs -b "$bindir" -w "$work" -d "$data" -t "${NANDSIM_TIMEOUT:-600}" \
	"$here/scenarios/romfs.sh" > "$scratch/out"
rc=$?
[ $rc = 3 ] && { echo "1..0 # SKIP the guest cannot run here"; exit 0; }
[ $rc = 2 ] && echo "not ok - guest run completed (see $work/logs/romfs.log)" >> "$scratch/out"
awk '/^#/ { print; next }
	/^(not )?ok - / { n++; sub(/^ok - /, "ok " n " - "); sub(/^not ok - /, "not ok " n " - "); print; if ($1 == "not") bad++; next }
	END { print "1.." n; exit bad > 0 }' "$scratch/out"
