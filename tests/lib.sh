# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# TAP helpers for integration tests (sourced by tests/integration/*.t).
#
#   plan N | ok COND_CMD... | is GOT WANT NAME | skip REASON NAME | done_testing
#
# Programs are found through $FF_BIN (set by make), scratch space is a fresh
# $T directory removed at exit.  A skip is always printed with its reason on
# stderr as well, so a non-verbose prove run shows it.

set -u
FF_TOP=${FF_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
FF_BIN=${FF_BIN:-$FF_TOP/build/bin}
FF_TOOLS=${FF_TOOLS:-$FF_TOP/build/tests/tools}
FF_BUILD=${FF_BUILD:-$FF_TOP/build}
export PATH="$FF_BIN:$PATH"
# A version manager's python3 (pyenv) is a shell script that costs about
# half a second a call, and some tests call python3 hundreds of times: put
# the interpreter it resolves to first on PATH, for subprocesses too.
case $(command -v python3) in
*/shims/python3)
	_ff_py=$(python3 -c 'import os, sys; print(os.path.dirname(sys.executable))' 2> /dev/null) &&
		[ -x "$_ff_py/python3" ] && export PATH="$_ff_py:$PATH"
	;;
esac
MANIFEST="python3 $FF_TOP/tests/tools/manifest.py"

_tap_n=0
_tap_fail=0
T=$(mktemp -d "${TMPDIR:-/tmp}/ff-test.XXXXXX")
_tap_cleanup() {
	local m
	for m in $(awk -v t="$T" 'index($2, t) == 1 {print $2}' /proc/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || fusermount3 -u "$m" 2>/dev/null
	done
	rm -rf "$T"
}
trap _tap_cleanup EXIT

plan() { echo "1..$1"; }

# ok NAME CMD...  — passes when CMD exits 0; on failure shows its output.
ok() {
	local name=$1 out
	shift
	_tap_n=$((_tap_n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $_tap_n - $name"
	else
		echo "not ok $_tap_n - $name"
		printf '%s\n' "$out" | tail -n 40 | sed 's/^/#   /'
		_tap_fail=$((_tap_fail + 1))
	fi
}

# fails NAME CMD... — passes when CMD exits non-zero (and did not crash).
fails() {
	local name=$1 out rc
	shift
	_tap_n=$((_tap_n + 1))
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ]; then
		echo "ok $_tap_n - $name"
	else
		echo "not ok $_tap_n - $name (exit $rc)"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
		_tap_fail=$((_tap_fail + 1))
	fi
}

is() {
	local got=$1 want=$2 name=$3
	_tap_n=$((_tap_n + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $_tap_n - $name"
	else
		echo "not ok $_tap_n - $name"
		echo "#   got:  '$got'"
		echo "#   want: '$want'"
		_tap_fail=$((_tap_fail + 1))
	fi
}

skip() {
	local reason=$1 name=$2
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $name # SKIP $reason"
	echo "SKIPPED: $name: $reason" >&2
}

# skip_all REASON — the whole file cannot run here.
skip_all() {
	echo "1..0 # SKIP $1"
	echo "SKIPPED: $(basename "$0"): $1" >&2
	exit 0
}

done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}

need_root() { [ "$(id -u)" = 0 ] || skip_all "needs root"; }

# syscall_count SUMMARY NAME — calls of NAME in an `strace -c` summary
syscall_count() { awk -v n="$2" '$NF == n {print $4}' "$1" | grep . || echo 0; }

# traced_mount_diff SYSCALL SUMMARY SRC IMAGE MNT [mount args...] — mounts
# IMAGE on MNT with flashfs in the foreground under `strace -c -e SYSCALL`
# (summary to SUMMARY), checks the mount shows SRC, then unmounts.
traced_mount_diff() {
	local sys=$1 out=$2 src=$3 img=$4 mnt=$5 i
	shift 5
	mkdir -p "$mnt"
	strace -f -c -o "$out" -e trace="$sys" flashfs mount -f "$@" "$img" "$mnt" &
	for i in $(seq 100); do mountpoint -q "$mnt" && break; sleep 0.1; done
	ok "mount: content as the source" diff -r "$src" "$mnt"
	fusermount3 -u "$mnt"
	wait
}

# same_manifest NAME DIR_A DIR_B [manifest options] — compare two trees.
# DIR_A may instead be a file holding DIR_A's manifest, made before with
# the same options ($MANIFEST OPTS DIR > FILE), for a source compared
# many times.
same_manifest() {
	local name=$1 a=$2 b=$3
	shift 3
	_tap_n=$((_tap_n + 1))
	if [ -f "$a" ]; then
		cp "$a" "$T/manifest.a"
	else
		$MANIFEST "$@" "$a" > "$T/manifest.a" 2>&1
	fi
	$MANIFEST "$@" "$b" > "$T/manifest.b" 2>&1
	if cmp -s "$T/manifest.a" "$T/manifest.b" && [ -s "$T/manifest.a" ]; then
		echo "ok $_tap_n - $name"
	else
		echo "not ok $_tap_n - $name"
		diff "$T/manifest.a" "$T/manifest.b" | head -n 30 | sed 's/^/#   /'
		_tap_fail=$((_tap_fail + 1))
	fi
}

# damage SRC DST SEED COUNT — a copy of SRC with COUNT random bytes replaced
# (the same bytes for the same SEED)
damage() {
	python3 - "$@" <<'PY'
import random, sys
src, dst, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(src, 'rb').read())
r = random.Random(seed)
for _ in range(count):
    b[r.randrange(len(b))] = r.randrange(256)
open(dst, 'wb').write(b)
PY
}

# unreadable_tree DIR — DIR/src with a root-only file "secret" (0600) and a
# world-readable "public", and a world-writable DIR/out, for builds run as
# nobody (as_nobody)
unreadable_tree() {
	mkdir -p "$1/src" "$1/out"
	chmod 755 "$T" "$1" "$1/src"
	chmod 777 "$1/out"
	echo secret > "$1/src/secret"
	chmod 600 "$1/src/secret"
	echo public > "$1/src/public"
	chmod 644 "$1/src/public"
}

# vfat_mount IMG DIR SIZE — a new vfat file system of SIZE in the file IMG,
# mounted on DIR by the kernel or, where it has no vfat (containers), by
# fusefat.  Fails when neither can.
vfat_mount() {
	truncate -s "$3" "$1" && mkfs.vfat "$1" > /dev/null || return 1
	mkdir -p "$2"
	mount -t vfat -o loop,quiet "$1" "$2" 2> /dev/null && return 0
	command -v fusefat > /dev/null && fusefat -o rw+ "$1" "$2" > /dev/null 2>&1 &&
		grep -q " $2 " /proc/mounts
}

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
