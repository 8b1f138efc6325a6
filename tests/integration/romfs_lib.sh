# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Helpers for the romfs tests: a generated tree holding what romfs stores,
# with the modes the kernel derives from it (files 0644 or 0755,
# directories 0755, symlinks 0777, devices 0600, fifos 0644), so that a
# manifest with modes compares equal; and a header patcher.
. "$(dirname "$0")/../lib.sh"
command -v genromfs > /dev/null || skip_all "genromfs not installed (apt-get install genromfs)"

# romfs_tree DIR — files of several sizes (empty, < 16 bytes, > a 4 KiB
# page, a hole), directories (empty, deep), symlinks, hard links, odd
# names, and as root devices, fifos and sockets.
romfs_tree() {
	local d=$1
	mkdir -p "$d/sub/deep/er/still" "$d/empty" "$d/odd dir"
	: > "$d/zero"
	printf 'short' > "$d/short"
	head -c 100000 /dev/urandom > "$d/sub/big.bin"
	head -c 4097 /dev/urandom > "$d/sub/page_plus_one"
	truncate -s 70000 "$d/sub/holes"
	printf 'tail' >> "$d/sub/holes"
	printf 'x%.0s' $(seq 200) > "$d/sub/deep/er/still/f"
	printf '#!/bin/sh\necho hi\n' > "$d/run.sh"
	chmod 755 "$d/run.sh" "$d/sub/big.bin"
	printf 'odd' > "$d/odd dir/name with spaces"
	printf 'utf' > "$d/odd dir/$(printf 'gr\xc3\xbc\xc3\x9fe')"
	printf 'long' > "$d/odd dir/$(printf 'n%.0s' $(seq 120))"
	ln -s short "$d/link"
	ln -s "$(printf 'target/%.0s' $(seq 40))end" "$d/sub/longlink"
	ln -s /nonexistent/abs "$d/abs"
	ln "$d/short" "$d/sub/hard1"
	ln "$d/short" "$d/odd dir/hard2"
	ln "$d/run.sh" "$d/sub/deep/run2"
	mkfifo "$d/fifo"
	if [ "$(id -u)" = 0 ]; then
		mknod "$d/sub/ttyS0" c 4 64
		mknod "$d/sub/sda1" b 8 1
		mknod "$d/bigminor" c 250 65535
		python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" \
			"$d/sock"
	fi
	chmod -R u=rwX,go=rX "$d"
	chmod 755 "$d/run.sh" "$d/sub/big.bin"
	chmod 644 "$d/fifo"
	if [ "$(id -u)" = 0 ]; then
		chmod 600 "$d/sub/ttyS0" "$d/sub/sda1" "$d/bigminor"
		chmod 644 "$d/sock"
	fi
}

# romfs_manifest DIR — the manifest of what romfs keeps
romfs_manifest_opts="--no-owner --no-mtime --no-xattrs"

# romfs_patch IMAGE NAME FIELD VALUE — sets FIELD (next, spec, size) of the
# header named NAME to VALUE (next keeps its low 4 bits when VALUE has
# none) and makes its checksum right again, so that only the field is wrong.
romfs_patch() {
	python3 - "$@" <<'PY'
import struct, sys
img, name, field, value = sys.argv[1], sys.argv[2].encode(), sys.argv[3], int(sys.argv[4], 0)
b = bytearray(open(img, 'rb').read())
pos = 0
while True:
    o = b.find(name + b'\0', pos)
    if o < 0:
        sys.exit('no header named %r' % name)
    if o % 16 == 0 and o >= 32:
        break
    pos = o + 1
h = o - 16
meta = 16 + ((len(name) + 1 + 15) & ~15)
idx = {'next': 0, 'spec': 4, 'size': 8}[field]
if field == 'next' and value & 15 == 0:
    value |= struct.unpack('>I', b[h:h + 4])[0] & 15
b[h + idx:h + idx + 4] = struct.pack('>I', value & 0xffffffff)
b[h + 12:h + 16] = b'\0\0\0\0'
s = sum(struct.unpack('>%dI' % (meta // 4), bytes(b[h:h + meta]))) & 0xffffffff
b[h + 12:h + 16] = struct.pack('>I', (-s) & 0xffffffff)
open(img, 'wb').write(b)
print(h)
PY
}
