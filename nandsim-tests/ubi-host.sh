# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ubi-host.sh — the host's half of scenarios/ubi.sh, sourced by
# nandsim-check.sh (bash, with manifest.sh loaded): ubi_prepare DIR makes the
# data the guest gets, ubi_host_checks DIR RECEIVED prints a TAP line per
# check of our reader on what the guest sent back (nanddump -o of UBI
# devices the kernel wrote) and on the torn image.

# A small tree of every object kind (a few hundred KiB: the dumps travel
# back over the serial console), fixed times and owners.
ubi_make_tree() {
	local d=$1 i
	rm -rf "$d"
	mkdir -p "$d"/{etc,bin,dev,var/empty,deep/a/b/c}
	for i in $(seq 1 40); do
		seq "$i" $((i * 53)) > "$d/etc/file$i.txt"
	done
	head -c 200000 /dev/urandom > "$d/bin/random.bin"
	head -c 3000 /dev/urandom > "$d/deep/a/b/c/small.bin"
	: > "$d/etc/empty"
	truncate -s 1000000 "$d/var/sparse"
	ln -s ../etc/file1.txt "$d/bin/link"
	ln "$d/bin/random.bin" "$d/bin/hardlink"
	mkfifo "$d/dev/fifo"
	mknod "$d/dev/null" c 1 3
	chmod 4755 "$d/bin/random.bin"
	chmod 1777 "$d/var/empty"
	chown 1000:100 "$d/etc/file1.txt"
	find "$d" -exec touch -h -d @1700000000 {} +
}

# ubi_prepare DATA SCRATCH — the guest's /data for scenarios/ubi.sh
ubi_prepare() {
	local data=$1 s=$2 n
	local edit="python3 $top/tests/tools/ubi_edit.py"
	mkdir -p "$data"
	ubi_make_tree "$s/ubitree"
	ff_manifest "$s/ubitree" > "$data/manifest.ubitree"
	mksquashfs "$s/ubitree" "$data/small.sqfs" -noappend -quiet -no-progress > /dev/null || return 1
	head -c 70000 /dev/urandom > "$data/blob.bin"
	# nandsim's 2K chip: 2048-byte pages, 512-byte sub-pages, 128 KiB blocks
	"$bindir/mkfs.ubi" -o "$data/ours.ubi" -p 128KiB -m 2048 -s 512 -Q 1919 \
		--squashfs "$s/ubitree" --vol-size 1MiB > /dev/null || return 1
	# torn: LEB 0 of the rootfs (PEB 2, after the two layout PEBs) once more,
	# newer, holding other data, as a copy whose data CRC does not hold
	mkdir -p "$s/other" && echo other > "$s/other/file"
	mksquashfs "$s/other" "$s/other.sqfs" -noappend -quiet -no-progress > /dev/null || return 1
	cp "$data/ours.ubi" "$data/torn.ubi"
	n=$($edit "$data/torn.ubi" 131072 append-copy 2) && echo "$n" > "$data/torn.peb" &&
		$edit "$data/torn.ubi" 131072 data "$n" "$s/other.sqfs" &&
		$edit "$data/torn.ubi" 131072 vid "$n" sqnum=100000 copy_flag=1 \
			data_size="$(stat -c %s "$s/other.sqfs")" data_crc=0x12345678
}

# ubi_tree_is NAME IMAGE WANT SCRATCH [flashfs options] — our reader's
# extraction of IMAGE has the manifest WANT
ubi_tree_is() {
	local name=$1 img=$2 want=$3 s=$4
	shift 4
	if [ ! -f "$img" ]; then
		echo "not ok - $name # $(basename "$img") did not come back from the guest"
		return
	fi
	rm -rf "$s/x" && mkdir -p "$s/x"
	if ! "$bindir/flashfs" extract --no-progress -C "$s/x" "$@" "$img" > "$s/x.out" 2>&1; then
		sed 's/^/#   /' "$s/x.out" | tail -n 5
		echo "not ok - $name # flashfs extract failed"
		return
	fi
	ff_manifest "$s/x" > "$s/x.manifest"
	if cmp -s "$s/x.manifest" "$want"; then
		echo "ok - $name"
	else
		diff "$want" "$s/x.manifest" | head -n 10 | sed 's/^/#   /'
		echo "not ok - $name # the tree differs"
	fi
}

# ubi_host_checks DATA RECEIVED SCRATCH
ubi_host_checks() {
	local data=$1 got=$2 s=$3 f info
	local want=$data/manifest.ubitree
	for f in kw.img kw-bad-skip.img kw-bad-dump.img kw-flips.img torn-kernel.img; do
		ubi_tree_is "ubi host: our reader on the guest's nanddump -o $f: tree = source" \
			"$got/$f" "$want" "$s"
		[ -f "$got/$f" ] || continue
		info=$("$bindir/flashfs" info "$got/$f" 2>&1 |
			grep -E '^ubi_(nand_|pebs|used|free|bad|problems)' | tr -s ' \n' '  ')
		echo "#   $info"
	done
	if [ -f "$got/kw-bad-dump.img" ]; then
		if "$bindir/flashfs" info "$got/kw-bad-dump.img" 2>&1 | grep -q '^ubi_nand_bad_blocks  *2$'; then
			echo "ok - ubi host: kw-bad-dump.img: the 2 bad blocks are seen by their OOB marker"
		else
			echo "not ok - ubi host: kw-bad-dump.img: the 2 bad blocks are seen by their OOB marker"
		fi
	fi
	if [ -f "$got/kw.img" ]; then
		if "$bindir/flashfs" check -q "$got/kw.img" > /dev/null 2>&1; then
			echo "ok - ubi host: flashfs check kw.img: clean"
		else
			echo "not ok - ubi host: flashfs check kw.img: clean"
		fi
		ubi_static_is "$got/kw.img" "$data/blob.bin" "$s"
	fi
	ubi_tree_is "ubi host: torn.ubi: our reader takes the older copy, as the kernel did" \
		"$data/torn.ubi" "$want" "$s"
	if "$bindir/flashfs" check "$data/torn.ubi" 2>&1 |
		grep -qE "PEB $(cat "$data/torn.peb"): volume 0 LEB 0: copy with bad data CRC"; then
		echo "ok - ubi host: flashfs check torn.ubi names the torn copy's PEB"
	else
		echo "not ok - ubi host: flashfs check torn.ubi names the torn copy's PEB"
	fi
}

# ubi_static_is DUMP BLOB SCRATCH — the static volume "blob" holds BLOB
ubi_static_is() {
	"$bindir/flashfs" info "$1" > "$3/blob.info" 2>&1
	if grep -q "^ubi_volume_1 .*\"blob\" static.*used $(stat -c %s "$2") bytes.*CRC ok" "$3/blob.info"; then
		echo "ok - ubi host: kw.img: static volume blob, its size and data CRC ok"
	else
		grep ubi_volume "$3/blob.info" | sed 's/^/#   /'
		echo "not ok - ubi host: kw.img: static volume blob, its size and data CRC ok"
	fi
}
