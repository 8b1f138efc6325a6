#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# run-guest.sh [options] SCENARIO.sh — boot a Debian kernel under qemu with
# an initramfs holding busybox, the MTD/UBI/SquashFS modules, mtd-utils, our
# programs and a data directory; run SCENARIO.sh there (with the helpers of
# guest/lib.sh) and print its results, one line each:
#
#   ok - NAME            not ok - NAME # REASON         # diagnostic
#
#   -n NAME     name of this run: console log build/nandsim/logs/NAME.log
#   -d DIR      copied into the guest as /data (the scenario's cwd)
#   -b BINDIR   our programs (default $FF_BIN, else build/bin)
#   -t SECONDS  timeout for the whole boot (default 600)
#   -m MIB      guest memory (default 1024)
#   -w DIR      work and cache directory (default build/nandsim)
#   -x DIR      files the scenario sent back (ns_export) are written here
#
# Environment: NANDSIM_ACCEL=auto|kvm|tcg (auto tries KVM once and
# remembers whether it works, else TCG).
#
# Exit: 0 all results ok, 1 some result not ok, 2 the run itself failed
# (timeout, kernel oops/panic, guest did not finish), 3 cannot run here
# (no qemu or no kernel package) — callers turn 3 into a SKIP.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
name=guest
data=""
bindir=${FF_BIN:-$top/build/bin}
timeout_s=600
mem=1024
work=$top/build/nandsim
exports=""

while getopts n:d:b:t:m:w:x: opt; do
	case $opt in
	n) name=$OPTARG ;;
	d) data=$OPTARG ;;
	b) bindir=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	m) mem=$OPTARG ;;
	w) work=$OPTARG ;;
	x) exports=$OPTARG ;;
	*) sed -n '2,23s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: run-guest.sh [options] SCENARIO.sh" >&2; exit 2; }
scenario=$1

qemu=$(command -v qemu-system-x86_64) || { echo "run-guest: qemu-system-x86_64 not installed" >&2; exit 3; }
busybox=$(command -v busybox) || { echo "run-guest: busybox not installed" >&2; exit 3; }
file "$busybox" 2>/dev/null | grep -q 'statically linked' || [ -f /bin/busybox ] && busybox=/bin/busybox

mkdir -p "$work/logs" "$work/tmp"
kroot=$("$here/fetch-kernel.sh" "$work/cache") || exit 3
kver=$(ls "$kroot/lib/modules" | head -n 1)
vmlinuz=$(ls "$kroot"/boot/vmlinuz-* | head -n 1)

stage=$(mktemp -d "$work/tmp/$name.XXXXXX")
cleanup() { rm -rf "$stage"; }
trap cleanup EXIT

# copy_with_libs FILE DESTDIR — a program and the shared libraries ldd names
copy_with_libs() {
	local f=$1 dest=$2 lib
	install -D -m 755 "$f" "$stage$dest/$(basename "$f")"
	for lib in $(ldd "$f" 2>/dev/null | awk '/=> \// {print $3} /^\t\// {print $1}'); do
		[ -e "$stage$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$stage$lib"
	done
}

# modules and their dependencies, in the kernel's own tree layout so that
# busybox modprobe finds them through modules.dep
copy_modules() {
	local moddir=$kroot/lib/modules/$kver want=() seen=" " m rel dep
	want=(mtd bch nandcore nand nandsim mtd_blkdevs mtdblock_ro ubi squashfs ubifs zstd)
	while [ ${#want[@]} -gt 0 ]; do
		m=${want[0]}
		want=("${want[@]:1}")
		case $seen in *" $m "*) continue ;; esac
		seen="$seen$m "
		rel=$(awk -F: -v m="$m" '{n = $1; sub(/.*\//, "", n); sub(/\.ko.*$/, "", n); gsub(/-/, "_", n)} n == m {print $1; exit}' "$moddir/modules.dep")
		if [ -z "$rel" ]; then
			# built into the kernel, or absent: modprobe will tell in the guest
			continue
		fi
		install -D -m 644 "$moddir/$rel" "$stage/lib/modules/$kver/$rel"
		for dep in $(awk -F: -v r="$rel" '$1 == r {print $2}' "$moddir/modules.dep"); do
			dep=${dep##*/}
			dep=${dep%%.ko*}
			want+=("${dep//-/_}")
		done
	done
	cp "$moddir"/modules.builtin* "$moddir/modules.order" "$stage/lib/modules/$kver/" 2>/dev/null
	depmod -b "$stage" "$kver"
}

build_initramfs() {
	local a p
	mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,etc/nandsim,proc,sys,dev,tmp,mnt,data}
	install -m 755 "$busybox" "$stage/bin/busybox"
	for a in $("$busybox" --list); do
		[ -e "$stage/bin/$a" ] || ln -s busybox "$stage/bin/$a"
	done
	ln -s /bin/busybox "$stage/sbin/modprobe"
	for p in nandwrite nanddump flash_erase ubiformat ubiattach ubidetach ubimkvol \
		ubiupdatevol ubirmvol ubiblock ubinfo mtdinfo nandtest getfattr; do
		a=$(command -v "$p") && copy_with_libs "$a" /usr/sbin
	done
	if [ -d "$bindir" ]; then
		for p in "$bindir"/*; do
			[ -f "$p" ] && [ -x "$p" ] && copy_with_libs "$p" /usr/bin
		done
	fi
	copy_modules
	install -m 755 "$here/guest/init" "$stage/init"
	install -m 644 "$here/guest/lib.sh" "$here/manifest.sh" "$stage/etc/nandsim/"
	install -m 644 "$scenario" "$stage/scenario.sh"
	[ -n "$data" ] && cp -a "$data/." "$stage/data/"
	(cd "$stage" && find . | cpio -o -H newc --quiet) > "$stage.cpio"
}

# KVM is present on some machines but does not run guests; try it once.
pick_accel() {
	local want=${NANDSIM_ACCEL:-auto} memo=$work/accel
	case $want in kvm|tcg) echo "$want"; return ;; esac
	if [ -f "$memo" ]; then cat "$memo"; return; fi
	local acc=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		if timeout 20 "$qemu" -accel kvm -m 256 -nographic -no-reboot -nodefaults -serial stdio \
			-kernel "$vmlinuz" -append "console=ttyS0 panic=-1 rdinit=/nonexistent" \
			2>/dev/null | grep -q -m1 'Linux version'; then
			acc=kvm
		fi
	fi
	echo "$acc" > "$memo"
	echo "$acc"
}

build_initramfs || { echo "run-guest: cannot build the initramfs" >&2; exit 2; }
accel=$(pick_accel)
log=$work/logs/$name.log
cpu=max
[ "$accel" = kvm ] && cpu=host
start=$(date +%s)
timeout --foreground -k 10 "$timeout_s" "$qemu" -accel "$accel" -cpu "$cpu" -smp 2 -m "$mem" \
	-nographic -no-reboot -nodefaults -serial stdio -kernel "$vmlinuz" -initrd "$stage.cpio" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=4 rdinit=/init" < /dev/null 2>&1 |
	tr -d '\r' > "$log"
status=${PIPESTATUS[0]}
rm -f "$stage.cpio"
echo "# guest $name: $accel, $(( $(date +%s) - start )) s, log $log"

grep -E '^NANDSIM-(RESULT|DIAG): ' "$log" | sed -e 's/^NANDSIM-RESULT: //' -e 's/^NANDSIM-DIAG: /# /'

# receive_files DIR — the files ns_export sent: gzip + base64 between
# NANDSIM-FILE-BEGIN NAME MD5 and NANDSIM-FILE-END; a file whose gzip does
# not match its MD5 is not written (and said so)
receive_files() {
	local name sum
	mkdir -p "$1"
	awk -v dir="$1" '
		/^NANDSIM-FILE-BEGIN / { f = dir "/" $2 ".b64"; printf "" > f; print $2, $3 > (dir "/.sums"); next }
		/^NANDSIM-FILE: / && f != "" { print substr($0, 15) > f; next }
		/^NANDSIM-FILE-END/ { close(f); f = "" }' "$log"
	[ -f "$1/.sums" ] || return 0
	while read -r name sum; do
		base64 -d "$1/$name.b64" > "$1/$name.gz" 2> /dev/null
		if [ "$(md5sum < "$1/$name.gz" | cut -d' ' -f1)" = "$sum" ] &&
			gzip -dc "$1/$name.gz" > "$1/$name"; then
			echo "# received $name from the guest ($(stat -c %s "$1/$name") bytes)"
		else
			rm -f "$1/$name"
			echo "# $name from the guest: damaged on the console (MD5 differs)"
		fi
		rm -f "$1/$name.b64" "$1/$name.gz"
	done < "$1/.sums"
	rm -f "$1/.sums"
}
[ -n "$exports" ] && receive_files "$exports"
sed -i '/^NANDSIM-FILE: /d' "$log" # the log stays readable

fatal=""
[ "$status" = 124 ] || [ "$status" = 137 ] && fatal="timeout after $timeout_s s"
# (not in exported files' base64 lines, where "Oops" can occur by chance)
grep -v '^NANDSIM-FILE: ' "$log" | grep -qE 'Kernel panic|Oops|BUG: |general protection|Call Trace' &&
	fatal="${fatal:+$fatal; }kernel oops/panic (see $log)"
grep -q '^NANDSIM-DONE' "$log" || fatal="${fatal:+$fatal; }guest did not finish the scenario"
if [ -n "$fatal" ]; then
	echo "# run $name failed: $fatal"
	exit 2
fi
grep -q '^NANDSIM-RESULT: not ok' "$log" && exit 1
exit 0
