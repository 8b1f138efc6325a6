#!/bin/bash
# Bounded memory: file data streams through a fixed ring of blocks, so the
# peak RSS of a build does not grow with the size of the files (8x more
# data may cost at most a few MiB more, for the block lists) and stays
# under the 64 MB target.
. "$(dirname "$0")/../lib.sh"

command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"
[ -x /usr/bin/time ] || skip_all "GNU time not installed"

# peak_kb SIZE_MB — peak RSS (KiB) of building a tree with one file of SIZE.
peak_kb() {
	mkdir -p "$T/s$1"
	yes 'flashfs-tools memory test line' | head -c "$1M" > "$T/s$1/data"
	/usr/bin/time -f %M -o "$T/rss$1" mkfs.squashfs -q -c lz4 -j 2 "$T/s$1" "$T/m$1.sqfs" \
		> /dev/null 2>&1 || echo "build failed" >> "$T/rss$1"
	rm -rf "$T/s$1"
	cat "$T/rss$1"
}

small=$(peak_kb 32)
big=$(peak_kb 256)
ok "builds succeeded ($small KiB, $big KiB)" test "${small##*[!0-9]*}" -a "${big##*[!0-9]*}"
ok "256 MiB file: peak RSS $big KiB under 64 MiB" test "${big:-999999}" -lt 65536
ok "8x the data costs under 4 MiB more ($small -> $big KiB)" \
	test $(( ${big:-999999} - ${small:-0} )) -lt 4096

done_testing
