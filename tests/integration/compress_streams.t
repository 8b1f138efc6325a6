#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Stream containers against the real tools: gzip/lzop/xz/zstd read what
# ff_cstream writes, and ff_cstream reads what they write (including
# concatenated members and every lzop checksum flavour).
. "$(dirname "$0")/../lib.sh"

CT=$FF_TOOLS/cstream_tool
[ -x "$CT" ] || skip_all "cstream_tool not built ($CT)"

{ seq 1 150000; head -c 1200000 /bin/bash; seq 1 1000 | tr '\n' ' '; } > "$T/data"
: > "$T/empty"
printf 'x' > "$T/one"

declare -A DEC=( [gzip]="gzip -dc" [lzop]="lzop -dc" [xz]="xz -dc" [zstd]="zstd -qdc" )

for c in gzip lzop xz zstd; do
	tool=${DEC[$c]%% *}
	if ! command -v "$tool" > /dev/null; then
		skip "$tool not installed" "$c: cross-tool checks"
		continue
	fi
	for f in data empty one; do
		for level in -1 1 9; do
			"$CT" -c "$c" "$level" < "$T/$f" > "$T/ours.$c" &&
				${DEC[$c]} "$T/ours.$c" > "$T/back" 2> "$T/err"
			ok "$c level $level, $f: ours -> $tool" cmp "$T/back" "$T/$f"
		done
	done
done

# Their files, every flavour we can ask the tools for.
theirs() {
	local name=$1 file=$2
	shift 2
	if ! command -v "$1" > /dev/null; then
		skip "$1 not installed" "$name"
		return
	fi
	"$@" < "$T/$file" > "$T/theirs" && "$CT" -d < "$T/theirs" > "$T/back"
	ok "$name: $file -> ours" cmp "$T/back" "$T/$file"
}
for f in data empty; do
	theirs "gzip -1" $f gzip -1 -c
	theirs "gzip -9" $f gzip -9 -c
	theirs "lzop -1" $f lzop -1 -c
	theirs "lzop -9" $f lzop -9 -c
	theirs "lzop --crc32" $f lzop --crc32 -c
	theirs "lzop -3 (file with name and mode)" $f lzop -c
	theirs "xz -0" $f xz -0 -c
	theirs "xz -9e" $f xz -9e -c
	theirs "xz -T2" $f xz -T2 -c
	theirs "zstd -1" $f zstd -q -1 -c
	theirs "zstd -19" $f zstd -q -19 -c
	theirs "zstd --no-check" $f zstd -q --no-check -c
done

# lzop with a named file header (name, mode, mtime fields set).
cp "$T/data" "$T/named" && (cd "$T" && lzop -f -o named.lzo named) &&
	"$CT" -d < "$T/named.lzo" > "$T/back"
ok "lzop file header with a name: ours reads it" cmp "$T/back" "$T/data"

# Concatenated members / streams / frames, as the tools accept them.
{ gzip -c "$T/one"; gzip -c "$T/data"; } | "$CT" -d > "$T/back"
ok "gzip: concatenated members" cmp "$T/back" <(cat "$T/one" "$T/data")
{ xz -c "$T/one"; xz -c "$T/data"; } | "$CT" -d > "$T/back"
ok "xz: concatenated streams" cmp "$T/back" <(cat "$T/one" "$T/data")
{ zstd -qc "$T/one"; zstd -qc "$T/data"; } | "$CT" -d > "$T/back"
ok "zstd: concatenated frames" cmp "$T/back" <(cat "$T/one" "$T/data")

# Damaged files from the real tools fail cleanly (exit 1, not a crash).
for c in "gzip -c" "lzop -c" "xz -c" "zstd -qc"; do
	$c < "$T/data" > "$T/full"
	head -c $(( $(stat -c %s "$T/full") - 9 )) "$T/full" > "$T/cut"
	fails "${c%% *}: truncated file is an error" sh -c "'$CT' -d < '$T/cut' > /dev/null"
	size=$(stat -c %s "$T/full")
	cp "$T/full" "$T/flip"
	printf '\xff\x00\xff' | dd of="$T/flip" bs=1 seek=$(( size / 2 )) conv=notrunc status=none
	fails "${c%% *}: damaged file is an error" sh -c "'$CT' -d < '$T/flip' > /dev/null"
done

# Not compressed: exit 3 ("read it raw"), from a file and from a pipe.
"$CT" -d < "$T/data" > /dev/null 2>&1
is "$?" 3 "plain file is reported as not compressed"
fails "plain data on a pipe cannot be rewound: error" sh -c "cat '$T/data' | '$CT' -d > /dev/null"

done_testing
