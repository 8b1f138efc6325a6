#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# nandsim-check.sh — the end-to-end checks of issue 7: build a source tree
# and its images on the host, boot the qemu guest (run-guest.sh) with
# scenarios/all.sh, and print TAP.  Used by `make nandsim-check` and by
# tests/integration/nandsim_flash.t.
#
#   -b BINDIR  our programs (default $FF_BIN, else build/bin)
#   -w DIR     work/cache directory (default build/nandsim)
#   -s LIST    the scenario files to run, of "all" (issue 7) and "ubi"
#              (issue 19: scenarios/ubi.sh, with ubi-host.sh's checks of
#              our reader on the dumps the guest sends back); default both,
#              one boot each
#
# Prints "1..0 # SKIP reason" and exits 0 where qemu or the kernel package
# cannot be had.  Exit 0 when every result is ok, 1 otherwise.
set -u

suite="all ubi"
host_usage="usage: nandsim-check.sh [-b BINDIR] [-w WORKDIR] [-s 'all ubi']"
. "$(dirname "$0")/host-begin.sh" nandsim-check "$@"
scenarios=$suite

skip_all() {
	echo "1..0 # SKIP $1"
	echo "SKIPPED: nandsim-check: $1" >&2
	exit 0
}

command -v qemu-system-x86_64 > /dev/null || skip_all "qemu-system-x86_64 is not installed"
command -v busybox > /dev/null || skip_all "busybox(-static) is not installed"
command -v mksquashfs > /dev/null || skip_all "mksquashfs (squashfs-tools) is not installed"
"$here/fetch-kernel.sh" "$work/cache" > /dev/null ||
	skip_all "no Debian kernel package (apt-get download linux-image-amd64 failed)"

. "$here/ubi-host.sh"

want() {
	case " $scenarios " in *" $1 "*) return 0 ;; esac
	return 1
}

# A tree with every object kind SquashFS and YAFFS2 keep; fixed times and
# owners so the manifest of the mount must match the source exactly.
make_tree() {
	local d=$1 i
	rm -rf "$d"
	mkdir -p "$d"/{etc,bin,usr/share/doc/pkg,var/empty,dev,deep/a/b/c/d/e}
	for i in $(seq 1 60); do
		seq "$i" $((i * 97)) > "$d/usr/share/doc/pkg/file$i.txt"
	done
	seq 1 150000 > "$d/etc/numbers.txt"
	head -c 1000000 /dev/urandom > "$d/bin/random.bin"
	head -c 5000 /dev/urandom > "$d/deep/a/b/c/d/e/small.bin"
	: > "$d/etc/empty"
	truncate -s 3000000 "$d/var/sparse"
	echo middle | dd of="$d/var/sparse" bs=1 seek=1500000 conv=notrunc status=none
	ln -s ../etc/numbers.txt "$d/bin/link"
	ln -s "$(printf 'x%.0s' $(seq 1 150))/target" "$d/bin/longlink"
	ln "$d/bin/random.bin" "$d/bin/hardlink"
	mkfifo "$d/dev/fifo"
	mknod "$d/dev/null" c 1 3
	mknod "$d/dev/sda" b 8 0
	chmod 4755 "$d/bin/random.bin"
	chmod 600 "$d/etc/numbers.txt"
	chmod 1777 "$d/var/empty"
	chown 1000:100 "$d/usr/share/doc/pkg/file1.txt"
	chown -h 0:0 "$d/bin/link"
	find "$d" -exec touch -h -d @1700000000 {} +
}

# works PROGRAM — the program exists and is not a placeholder
works() {
	[ -x "$bindir/$1" ] && ! "$bindir/$1" --help 2>&1 | grep -q 'not available in this build'
}

[ "$(id -u)" = 0 ] || skip_all "needs root (device nodes and owners in the test tree)"
data=$scratch/data
tree=$scratch/tree
mkdir -p "$data"
notes=()
# the issue 7 scenarios' tree and images
if want all; then
	make_tree "$tree"
	ff_manifest "$tree" > "$data/manifest.tree"

	for c in gzip lzo lz4 xz zstd; do
		mksquashfs "$tree" "$data/sqfs-debian-$c.img" -comp "$c" -noappend -quiet -no-progress \
			> /dev/null 2>&1 || notes+=("not ok - mksquashfs -comp $c failed")
	done
	if works mkfs.squashfs; then
		for c in gzip lzo lz4 xz zstd; do
			"$bindir/mkfs.squashfs" -q --noappend --compressor "$c" "$tree" "$data/sqfs-ours-$c.img" \
				> "$scratch/mkfs.out" 2>&1 ||
				notes+=("not ok - mkfs.squashfs --compressor $c: $(tail -n 1 "$scratch/mkfs.out")")
		done
	else
		notes+=("ok - SquashFS images from our mkfs.squashfs # SKIP mkfs.squashfs not available in this build yet")
	fi

	python3 "$here/mkpages.py" "$data/pages-2k.img" 2048 64 64 3 2 28
	python3 "$here/mkpages.py" "$data/pages-4k.img" 4096 128 64 3 2 28
	python3 "$here/mkpages.py" "$data/pages-512.img" 512 0 32 5 0 0

	# YAFFS2 images for the nandsim chips, read back by our reader in the guest
	if works mkfs.yaffs2; then
		# 512-byte pages: inband tags (496-byte chunks), no room for xattrs
		for c in 512:nandsim-512 2k:nandsim-2k-256m 4k:nandsim-4k; do
			if ! "$bindir/mkfs.yaffs2" --chip "${c#*:}" --no-xattrs "$tree" "$data/y2-${c%%:*}.img" \
				> "$scratch/mkfs.out" 2>&1; then
				notes+=("not ok - mkfs.yaffs2 --chip ${c#*:}: $(tail -n 1 "$scratch/mkfs.out")")
				rm -f "$data/y2-${c%%:*}.img"
			fi
		done
		# Aleph One's layout: tags at raw OOB 0, moved to the AUTO bytes by flash
		"$bindir/mkfs.yaffs2" -q --chip nandsim-2k-256m --oob-layout offset0 --tags classic \
			"$tree" "$data/y2-2k-offset0.img" > "$scratch/mkfs.out" 2>&1 ||
			notes+=("not ok - mkfs.yaffs2 --oob-layout offset0: $(tail -n 1 "$scratch/mkfs.out")")
		# the reader half of the YAFFS2 scenarios needs flashfs to read YAFFS2
		[ -f "$data/y2-2k.img" ] && "$bindir/flashfs" ls "$data/y2-2k.img" > /dev/null 2>&1 &&
			touch "$data/have-yaffs2-reader"
	else
		notes+=("ok - YAFFS2 images on nandsim (scenario 4, 5 on YAFFS2) # SKIP mkfs.yaffs2 not available in this build yet")
	fi
fi

out=$scratch/results.txt
: > "$out"
# one log per build directory (build/bin -> all-build, build/asan/bin -> all-asan)
flavour=$(basename "$(dirname "$bindir")")
skipped=0
# run_scenario NAME DATA [run-guest options] — one boot, results into $out
run_scenario() {
	local scen=$1 name=$1-$flavour d=$2 rc
	shift 2
	"$here/run-guest.sh" -n "$name" -b "$bindir" -w "$work" -d "$d" -t "${NANDSIM_TIMEOUT:-900}" \
		"$@" "$here/scenarios/$scen.sh" >> "$out"
	rc=$?
	[ $rc = 3 ] && skipped=1
	[ $rc = 2 ] && echo "not ok - guest run $name completed without timeout, oops or panic (see $work/logs/$name.log)" >> "$out"
	return 0
}
want all && run_scenario all "$data"
if want ubi && [ $skipped = 0 ]; then
	if works mkfs.ubi && ubi_prepare "$scratch/ubidata" "$scratch" > "$scratch/ubi.out" 2>&1; then
		run_scenario ubi "$scratch/ubidata" -x "$scratch/received"
		[ $skipped = 1 ] || ubi_host_checks "$scratch/ubidata" "$scratch/received" "$scratch" >> "$out"
	else
		notes+=("not ok - UBI scenario data (mkfs.ubi, mksquashfs, ubi_edit.py): $(tail -n 1 "$scratch/ubi.out")")
	fi
fi
[ $skipped = 1 ] && skip_all "the guest cannot run here (see $work/logs/)"
{
	printf '%s\n' "${notes[@]}"
	cat "$out"
} | awk '
	/^#/ { print; next }
	/^(not )?ok - / { n++; sub(/^ok - /, "ok " n " - "); sub(/^not ok - /, "not ok " n " - "); print; if ($1 == "not") bad++; next }
	END { print "1.." n; exit bad > 0 }'
