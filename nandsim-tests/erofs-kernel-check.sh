#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# erofs-kernel-check.sh [-b BINDIR] [-w WORKDIR] — the host's half of
# scenarios/erofs.sh: our ffmkfs.erofs images of one source tree, with the
# layouts an older kernel must read (lz4 and lz4hc, big pclusters,
# ztailpacking, fragments, all-fragments, dedupe, uncompressed with inline
# tails, 4 KiB and 64 KiB pclusters), then one guest boot in which the
# Debian 6.1 kernel's erofs.ko mounts each and compares it with the
# source's manifest.  The host kernel (6.18) is the oracle in
# erofs_build*.t; this one is the kernel a board shipped years ago.  Its
# EROFS has no deflate, zstd or (in Debian's build) lzma, so those codecs
# are the host's to check.  The tree has files whose incompressible tail
# crosses a block boundary: the last extent stored as is, ended by a head
# at the end of the file, as mkfs.erofs 1.9 writes it.
# Prints TAP; "1..0 # SKIP" where the guest cannot run.
set -u
. "$(dirname "$0")/host-begin.sh" erofs "$@"
data=$scratch/data
src=$scratch/src
mkdir -p "$data/modules" "$src/tails" "$src/sub/deep" "$src/dev" "$src/empty"

kroot=$("$here/fetch-kernel.sh" "$work/cache") || { echo "1..0 # SKIP no kernel package here"; exit 0; }
kver=$(ls "$kroot/lib/modules" | head -n 1)
for m in crypto/crc32c_generic.ko lib/libcrc32c.ko fs/erofs/erofs.ko drivers/block/loop.ko; do
	f=$(ls "$kroot/lib/modules/$kver/kernel/$m"* 2> /dev/null | head -n 1)
	[ -n "$f" ] && cp "$f" "$data/modules/"
done

# zeros, then random bytes that end past a block boundary
for i in 1 2 3 4 5 6 7 8; do
	{ head -c $((i * 3000)) /dev/zero; head -c $((i * 777 + 1500)) /dev/urandom; } > "$src/tails/t$i"
done
seq 1 150000 > "$src/seq"
{ seq 1 40000; head -c 6000 /dev/urandom; } > "$src/seq-tail"
cp "$src/seq" "$src/sub/seq-copy" # dedupe and fragments find it twice
head -c 70000 /dev/urandom > "$src/random"
printf 'short' > "$src/short"
: > "$src/zero"
printf 'x%.0s' $(seq 300) > "$src/sub/deep/f"
ln -s short "$src/link"
ln "$src/short" "$src/sub/hard"
mkfifo "$src/dev/fifo"
mknod "$src/dev/ttyS0" c 4 64
chown -R -h 0:0 "$src"
find "$src" -exec touch -h -d @0 {} +
ff_manifest "$src" > "$data/manifest"

mk() { # NAME OPTIONS...
	local n=$1
	shift
	"$bindir/ffmkfs.erofs" --quiet -T0 "$@" "$data/$n.img" "$src" > /dev/null ||
		echo "not ok - ffmkfs.erofs $n $*" >> "$scratch/host"
}
: > "$scratch/host"
mk lz4 -zlz4
mk lz4hc-64k -zlz4hc,9 -C65536
mk ztailpacking -zlz4hc -Eztailpacking
mk fragments -zlz4hc -C16384 -Efragments
mk all-fragments -zlz4 -Eall-fragments,dedupe
mk dedupe -zlz4hc -Ededupe
mk plain -Eztailpacking

"$here/run-guest.sh" -n erofs -b "$bindir" -w "$work" -d "$data" -t "${NANDSIM_TIMEOUT:-600}" \
	"$here/scenarios/erofs.sh" > "$scratch/out"
rc=$?
[ $rc = 3 ] && { echo "1..0 # SKIP the guest cannot run here"; exit 0; }
[ $rc = 2 ] && echo "not ok - guest run completed (see $work/logs/erofs.log)" >> "$scratch/out"
cat "$scratch/host" "$scratch/out" |
	awk '/^#/ { print; next }
	/^(not )?ok - / { n++; sub(/^ok - /, "ok " n " - "); sub(/^not ok - /, "not ok " n " - "); print; if ($1 == "not") bad++; next }
	END { print "1.." n; exit bad > 0 }'
