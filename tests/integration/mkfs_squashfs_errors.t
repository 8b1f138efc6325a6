#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Bad input gives a message naming the option, value, path or line and the
# problem, exit 2 (usage errors and builds that fail alike), and no IMAGE;
# a build that --ignore-errors completed without some files exits 1.
. "$(dirname "$0")/../lib.sh"

command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"

S=$T/src
mkdir -p "$S/sub"
echo hello > "$S/file"
IMG=$T/out.sqfs

# bad_usage NAME PATTERN ARGS... — exit 2, message matches, no image.
bad_usage() {
	local name=$1 pat=$2 out rc
	shift 2
	out=$(mkfs.squashfs "$@" 2>&1)
	rc=$?
	is "$rc" 2 "$name: exit status 2"
	ok "$name: message names it" grep -qF -- "$pat" <<< "$out"
	ok "$name: no image" test ! -e "$IMG"
}

bad_usage "-b 300K" "'300K'" -b 300K "$S" "$IMG"
bad_usage "--block-size 2M" "--block-size" --block-size 2M "$S" "$IMG"
bad_usage "-b 2K" "'2K'" -b 2K "$S" "$IMG"
bad_usage "unknown codec" "brotli" -c brotli "$S" "$IMG"
bad_usage "-comp with a bad level" "level" -comp gzip -Xcompression-level 42 "$S" "$IMG"
bad_usage "-X unknown key" "nosuchkey" -X nosuchkey=1 "$S" "$IMG"
bad_usage "gzip: libdeflate's level 12 with zlib's window" "level=12" \
	-X level=12 -Xwindow-size 10 "$S" "$IMG"
bad_usage "gzip: level 13" "level=13" -X level=13 "$S" "$IMG"
bad_usage "-j 0" "'0'" -j 0 "$S" "$IMG"
bad_usage "--mtime not a number" "'yesterday'" --mtime yesterday "$S" "$IMG"
SOURCE_DATE_EPOCH=x bad_usage "SOURCE_DATE_EPOCH not a number" "SOURCE_DATE_EPOCH" "$S" "$IMG"
bad_usage "--force-uid unknown user" "no-such-user-here" --force-uid no-such-user-here "$S" "$IMG"
bad_usage "missing IMAGE" "IMAGE" "$S"
bad_usage "unknown option" "--frobnicate" --frobnicate "$S" "$IMG"
bad_usage "--no-fragments with --always-fragments" "contradict" --no-fragments --always-fragments "$S" "$IMG"
bad_usage "IMAGE inside SOURCE" "inside SOURCE" "$S" "$S/sub/img.sqfs"
ok "IMAGE inside SOURCE: nothing written into SOURCE" test -z "$(ls "$S/sub")"

# build_fails NAME PATTERN ARGS... — exit 2, message matches, no image.
build_fails() {
	local name=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	is "$rc" 2 "$name: exit status 2"
	ok "$name: message names it" grep -qF -- "$pat" <<< "$out"
	ok "$name: no image" test ! -e "$IMG"
}

build_fails "missing SOURCE" "$T/nonexistent" mkfs.squashfs "$T/nonexistent" "$IMG"
long=$(printf 'n%.0s' $(seq 256))
build_fails "a 256-byte name" "$long" mkfs.squashfs -p "$long d 755 0 0" "$S" "$IMG"

if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	# As an unprivileged user a 0600 root file cannot be read.
	mkdir -p "$T/priv/src" "$T/priv/out"
	chmod 755 "$T" "$T/priv" "$T/priv/src"
	chmod 777 "$T/priv/out"
	echo secret > "$T/priv/src/secret"
	chmod 600 "$T/priv/src/secret"
	echo public > "$T/priv/src/public"
	chmod 644 "$T/priv/src/public"
	asuser() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	out=$(asuser mkfs.squashfs "$T/priv/src" "$T/priv/out/img.sqfs" 2>&1)
	rc=$?
	is "$rc" 2 "unreadable file: build fails (exit 2)"
	ok "unreadable file: the message names it" grep -qF "secret" <<< "$out"
	is "$(ls "$T/priv/out")" "" "unreadable file: no image, no temporary"
	mkdir "$T/priv/src/closed"
	echo hidden > "$T/priv/src/closed/hidden"
	chmod 700 "$T/priv/src/closed"
	out=$(asuser mkfs.squashfs --ignore-errors "$T/priv/src" "$T/priv/out/img.sqfs" 2>&1)
	rc=$?
	is "$rc" 1 "--ignore-errors with skipped files: exit 1"
	is "$(tail -n 1 <<< "$out")" \
		"mkfs.squashfs: $T/priv/out/img.sqfs written, but 2 unreadable source entries were skipped (--ignore-errors)" \
		"--ignore-errors: the last line counts the skipped entries"
	ok "--ignore-errors: a warning names the file" grep -qF "secret" <<< "$out"
	ok "--ignore-errors: a warning names the directory" grep -qF "closed" <<< "$out"
	out=$(asuser mkfs.squashfs -q --ignore-errors "$T/priv/src" "$T/priv/out/q.sqfs" 2>&1)
	is "$?:$(wc -l <<< "$out")" "1:1" "--ignore-errors -q: exit 1, only the count line"
	rm -f "$T/priv/out/q.sqfs"
	rm -rf "$T/priv/src/closed"
	out=$(asuser mkfs.squashfs --json --ignore-errors "$T/priv/src" "$T/priv/out/j.sqfs" 2> /dev/null)
	ok "--ignore-errors --json: the summary counts the skipped entry" grep -qF '"skipped":1,' <<< "$out"
	rm -f "$T/priv/out/j.sqfs"
	ok "--ignore-errors: the readable file is in it" \
		bash -c "unsquashfs -lls '$T/priv/out/img.sqfs' | grep -q public"
	ok "--ignore-errors: the unreadable file is not" \
		bash -c "! unsquashfs -lls '$T/priv/out/img.sqfs' | grep -q secret"
else
	skip "needs root and setpriv" "unreadable file"
fi

# An ACL (system.* xattr) cannot be stored: warned about by name, skipped.
mkdir -p "$T/acl"
touch "$T/acl/f"
if python3 -c '
import os, struct, sys
v = struct.pack("<I", 2)
for tag, perm, i in ((1, 6, -1), (2, 4, 1234), (4, 4, -1), (0x10, 4, -1), (0x20, 4, -1)):
    v += struct.pack("<HHI", tag, perm, i & 0xffffffff)
os.setxattr(sys.argv[1], "system.posix_acl_access", v)' "$T/acl/f" 2>/dev/null; then
	out=$(mkfs.squashfs "$T/acl" "$T/acl.sqfs" 2>&1)
	is "$?" 0 "ACL: the image is built"
	ok "ACL: a warning names the file and the attribute" \
		grep -q "f: xattr 'system.posix_acl_access' skipped" <<< "$out"
else
	skip "cannot set an ACL here" "ACL xattr"
fi

if [ "$(id -u)" = 0 ]; then
	# 65537 distinct owners do not fit the id table.
	mkdir -p "$T/ids"
	python3 - "$T/ids" <<'PY'
import os, sys
for i in range(32769):
    p = os.path.join(sys.argv[1], 'f%05d' % i)
    open(p, 'w').close()
    os.chown(p, 100000 + i, 200000 + i)
PY
	build_fails "65537 distinct ids" "65537" mkfs.squashfs -q "$T/ids" "$IMG"
else
	skip "needs root to chown" "65537 distinct ids"
fi

done_testing
