#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ubifs-build-check.sh [-b BINDIR] [-w WORKDIR] — the host's half of
# scenarios/ubifs_build.sh: a tree, our UBIFS images of it (each
# compressor, the big LPT model, -F, the test key hash, several LEBs of
# index with fanout 3) and a UBI image of the tree (mkfs.ubi --ubifs),
# then one guest boot.
# Prints TAP; "1..0 # SKIP" where the guest cannot run.
set -u
. "$(dirname "$0")/host-begin.sh" ubifsb "$@"
d=$scratch/tree
data=$scratch/data
mkdir -p "$d"/{etc,bin,dev,usr/share/doc/pkg,deep/a/b/c/d/e,many} "$data"
for i in $(seq 1 60); do seq "$i" $((i * 97)) > "$d/usr/share/doc/pkg/file$i.txt"; done
for i in $(seq 1 300); do echo "$i" > "$d/many/entry-with-a-longer-name-$i"; done
seq 1 50000 > "$d/etc/numbers.txt"
head -c 300000 /dev/urandom > "$d/bin/random.bin"
head -c 5000 /dev/urandom > "$d/deep/a/b/c/d/e/small.bin"
: > "$d/etc/empty"
truncate -s 3000000 "$d/etc/sparse"
echo middle | dd of="$d/etc/sparse" bs=1 seek=1500000 conv=notrunc status=none
ln -s ../etc/numbers.txt "$d/bin/link"
ln "$d/bin/random.bin" "$d/bin/hardlink"
mkfifo "$d/dev/fifo"
mknod "$d/dev/null" c 1 3
mknod "$d/dev/sda" b 8 0
chmod 4755 "$d/bin/random.bin"
chown 1000:100 "$d/usr/share/doc/pkg/file1.txt"
# extended attributes of each namespace, on a file, a directory, a
# symlink and a device; a large value; many on one file
setfattr -n user.comment -v "a value" "$d/etc/numbers.txt"
setfattr -n trusted.overlay.opaque -v y "$d/deep/a"
setfattr -n security.capability -v 0x0100000200200000000000000000000000000000 "$d/bin/random.bin"
setfattr -h -n trusted.link -v 0x00ff "$d/bin/link"
setfattr -n security.selinux -v "system_u:object_r:null_device_t:s0" "$d/dev/null"
setfattr -n user.big -v "0x$(head -c 3000 /dev/urandom | od -An -tx1 -v | tr -d ' \n')" "$d/etc/empty"
for i in $(seq 1 30); do setfattr -n "user.attr_$i" -v "value $i" "$d/deep/a/b/c/d/e/small.bin"; done
find "$d" -exec touch -h -d @1700000000 {} +
ff_manifest "$d" > "$data/manifest.ubifs"
ff_xattrs "$d" > "$data/xattrs.ubifs"
mk() { # NAME OPTIONS...
	local n=$1
	shift
	"$bindir/ffmkfs.ubifs" -r "$d" -m 2048 -e 129024 "$@" -o "$data/ubifs-$n.img" ||
		echo "not ok - ffmkfs.ubifs $n $*"
}
# the volume is 40 LEBs (the kernel refuses a journal larger than its main
# area); nandsim's 2K chip has 512-byte sub-pages: UBI's LEBs are 129024 bytes
mk lzo -c 40 -x lzo
mk zlib -c 40 -x zlib
mk zstd -c 40 -x zstd
mk none -c 40 -x none
mk favor_lzo -c 40 -x favor_lzo -F -k test
mk biglpt -c 40000 -j 400000 -x lzo -f 3
# mkfs.ubi --ubifs: the UBIFS volume in one step (LEB size and min. I/O
# from the UBI geometry, -c from --vol-size)
"$bindir/mkfs.ubi" -o "$data/ubi-ubifs.ubi" -p 128KiB -m 2048 -s 512 --ubifs "$d" \
	--vol-size 5040KiB --vol-flags autoresize -- -x zstd > "$scratch/ubi.out" 2>&1 ||
	{ rm -f "$data/ubi-ubifs.ubi"; echo "not ok - mkfs.ubi --ubifs: $(tail -n 1 "$scratch/ubi.out")"; }
"$here/run-guest.sh" -n ubifs-build -b "$bindir" -w "$work" -d "$data" -t "${NANDSIM_TIMEOUT:-600}" \
	"$here/scenarios/ubifs_build.sh" > "$scratch/out"
rc=$?
[ $rc = 3 ] && { echo "1..0 # SKIP the guest cannot run here"; exit 0; }
[ $rc = 2 ] && echo "not ok - guest run completed (see $work/logs/ubifs-build.log)" >> "$scratch/out"
awk '/^#/ { print; next }
	/^(not )?ok - / { n++; sub(/^ok - /, "ok " n " - "); sub(/^not ok - /, "not ok " n " - "); print; if ($1 == "not") bad++; next }
	END { print "1.." n; exit bad > 0 }' "$scratch/out"
