#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Builders under faults:
#  - kill -9 at random points of mkfs.squashfs / mkfs.yaffs2: IMAGE is
#    either absent (or, for an existing IMAGE, untouched) or the complete
#    image — never partial — and no other file is left (the output is an
#    unnamed O_TMPFILE file until it is complete; only replacing an existing
#    IMAGE names it IMAGE.tmp.* for the microseconds between link and
#    rename, so that one is tolerated).  FF_KILLS=N per builder (default 6),
#    FF_KILL_SEED=S (default 1).
#  - a full file system (1 MiB tmpfs): clear "no space" error, exit 2,
#    no image, no temporary left, an existing IMAGE untouched.
#  - source files that shrink, vanish or grow after the scan (made
#    deterministic with gdb: stop at the first content read, change the
#    file, continue) are reported by name.
. "$(dirname "$0")/../lib.sh"

for p in mkfs.squashfs mkfs.yaffs2; do
	command -v $p > /dev/null || skip_all "$p not built"
done
RANDOM=${FF_KILL_SEED:-1}
kills=${FF_KILLS:-6}
export SOURCE_DATE_EPOCH=1600000000

# A tree big enough that a build takes a measurable time.
mkdir -p "$T/src/sub"
for i in $(seq 1 24); do
	head -c 600000 /dev/urandom | base64 > "$T/src/sub/f$i"
done
head -c 3000000 /dev/urandom > "$T/src/random"

args() { # args BUILDER IMAGE — the builder's command line
	case $1 in
	squashfs) echo "-q -c gzip --mtime 1600000000 $T/src $2" ;;
	yaffs2) echo "-q --mtime 1600000000 $T/src $2" ;;
	esac
}
build() { # build BUILDER IMAGE
	# shellcheck disable=SC2046 # $T holds no spaces
	mkfs.$1 $(args "$1" "$2")
}
# after_kill BUILDER DIR WHEN — what a kill may leave in DIR, added to $bad
after_kill() {
	local left
	if [ -e "$2/new.img" ] && ! cmp -s "$2/new.img" "$T/ref.$1"; then
		bad="$bad new.img partial after kill $3;"
	fi
	left=$(ls -A "$2" | grep -v -e '^old\.img$' -e '^old\.copy$' -e '^new\.img$' -e '^old\.img\.tmp\.')
	[ -n "$left" ] && bad="$bad left $(echo $left) after kill $3;"
	if ! cmp -s "$2/old.img" "$2/old.copy" && ! cmp -s "$2/old.img" "$T/ref.$1"; then
		bad="$bad old.img neither old nor complete after kill $3;"
	fi
}

ms() { date +%s%3N; }

for b in squashfs yaffs2; do
	# Kill points are drawn below the faster of two timed builds (the
	# second one runs with a warm page cache).
	t0=$(ms)
	build $b "$T/ref.$b" > /dev/null 2>&1
	t1=$(ms)
	build $b "$T/ref2.$b" > /dev/null 2>&1
	t2=$(ms)
	run=$((t1 - t0 < t2 - t1 ? t1 - t0 : t2 - t1))
	ok "$b: reference build (${run} ms)" test -s "$T/ref.$b"
	ok "$b: builds are deterministic (needed to tell complete from partial)" \
		cmp -s "$T/ref.$b" "$T/ref2.$b"
	mid=0
	bad=""
	for i in $(seq 1 "$kills"); do
		d=$T/kill.$b.$i
		mkdir -p "$d"
		printf 'the old image\n' > "$d/old.img"
		cp "$d/old.img" "$d/old.copy"
		delay_ms=$((RANDOM % (run * 9 / 10 > 10 ? run * 9 / 10 : 10)))
		for target in new.img old.img; do
			build $b "$d/$target" > /dev/null 2>&1 &
			pid=$!
			sleep "$((delay_ms / 1000)).$(printf '%03d' $((delay_ms % 1000)))"
			if kill -0 $pid 2> /dev/null; then
				kill -9 $pid 2> /dev/null && mid=$((mid + 1))
			fi
			wait $pid 2> /dev/null
		done
		after_kill $b "$d" "at ${delay_ms}ms"
	done
	# A yaffs2 build of this tree takes 20-30 ms, so on a busy machine
	# every random point above can fall after it ends.  So one kill per
	# target is placed by gdb: SIGKILL when the 12th of the 25 files is
	# opened for content, part of the image written.
	gmid=0
	if command -v gdb > /dev/null; then
		for target in new.img old.img; do
			d=$T/gdbkill.$b.$target
			mkdir -p "$d"
			printf 'the old image\n' > "$d/old.img"
			cp "$d/old.img" "$d/old.copy"
			gdb -q -batch -ex 'set breakpoint pending on' -ex 'break ff_tree_open_data' \
				-ex 'ignore 1 11' -ex "set args $(args $b "$d/$target") 2> /dev/null" \
				-ex run -ex 'signal SIGKILL' "$(command -v mkfs.$b)" > "$d.log" 2>&1
			# stopped at the breakpoint, and never ended by itself
			grep -q 'hit Breakpoint 1' "$d.log" && ! grep -qE 'exited (normally|with code)' "$d.log" &&
				gmid=$((gmid + 1))
			after_kill $b "$d" "by gdb writing $target"
		done
	fi
	is "${bad:-none}" none "$b: $kills kill -9 points: IMAGE absent/untouched or complete"
	if command -v gdb > /dev/null; then
		echo "# $b: $mid of $((kills * 2)) random kills landed mid-build"
		is "$gmid" 2 "$b: both kills placed by gdb landed mid-build"
	else
		ok "$b: at least one kill landed mid-build ($mid of $((kills * 2)))" test "$mid" -gt 0
	fi
done

# ---- full disk ----
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" && mount -t tmpfs -o size=1m tmpfs "$T/full"; then
	for b in squashfs yaffs2; do
		rm -rf "${T:?}/full/"*
		err=$(build $b "$T/full/img" 2>&1 > /dev/null)
		rc=$?
		is "$rc" 2 "$b: full disk is a fatal error (exit 2)"
		case $err in
		*"no space"* | *"No space"*) ok "$b: full disk message says no space" true ;;
		*) ok "$b: full disk message says no space (got: $err)" false ;;
		esac
		ok "$b: no partial image on a full disk" test ! -e "$T/full/img"
		left=$(ls "$T/full")
		is "$left" "" "$b: no temporary left behind on a full disk"
		printf 'old\n' > "$T/full/img"
		build $b "$T/full/img" > /dev/null 2>&1
		is "$(cat "$T/full/img")" old "$b: existing IMAGE untouched on a full disk"
	done
	umount "$T/full"
else
	skip "needs root to mount a tmpfs" "full disk"
fi

# ---- sources that change after the scan ----
if command -v gdb > /dev/null; then
	# change_while_building BUILDER ACTION [twin] — ACTION runs (as a shell
	# command) when the builder first opens file content, i.e. after the
	# scan.  With "twin", another file has the victim's size, so the
	# squashfs builder's duplicate check reads both first.  Prints "exit N"
	# and the builder's stderr.
	change_while_building() {
		local b=$1 action=$2 bin
		bin=$(command -v mkfs.$b)
		rm -rf "$T/chg" "$T/chg.img" "$T/chg.err"
		mkdir -p "$T/chg"
		head -c 300000 /dev/urandom > "$T/chg/victim"
		[ "${3:-}" = twin ] && head -c 300000 /dev/urandom > "$T/chg/twin"
		printf 'x\n' > "$T/chg/a"
		gdb -q -batch -ex 'set breakpoint pending on' -ex 'break ff_tree_open_data' \
			-ex "set args -q $T/chg $T/chg.img 2> $T/chg.err" -ex run \
			-ex "shell $action" -ex 'delete' -ex continue "$bin" > "$T/gdb.log" 2>&1
		if grep -q 'exited normally' "$T/gdb.log"; then
			echo "exit 0"
		else
			grep -o 'exited with code [0-9]*' "$T/gdb.log"
		fi
		cat "$T/chg.err"
	}
	# reported NAME OUT — the builder failed or warned, naming the file.
	reported() {
		case $2 in
		*victim*) ok "$1" true ;;
		*) ok "$1 (got: $(echo $2))" false ;;
		esac
	}
	for b in squashfs yaffs2; do
		reported "$b: a file that shrank is reported by name" \
			"$(change_while_building $b "truncate -s 1000 $T/chg/victim")"
		reported "$b: a file that vanished is reported by name" \
			"$(change_while_building $b "rm -f $T/chg/victim")"
		# Growth would leave only the scanned prefix in the image.
		reported "$b: a file that grew is reported by name" \
			"$(change_while_building $b "head -c 5000 /dev/zero >> $T/chg/victim")"
	done
	reported "squashfs: a file that vanished before its duplicate check is reported by name" \
		"$(change_while_building squashfs "rm -f $T/chg/victim" twin)"
	reported "squashfs: a file that shrank before its duplicate check is reported by name" \
		"$(change_while_building squashfs "truncate -s 1000 $T/chg/victim" twin)"
else
	skip "gdb not installed" "sources changing during the build"
fi
done_testing
