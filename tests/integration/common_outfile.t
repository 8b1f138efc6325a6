#!/bin/bash
# Atomic output never replaces something that is not a regular file.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$T/src" && echo data > "$T/src/f"
mkfifo "$T/fifo"
ln -s "$T/target" "$T/link"
fails "mkfs.squashfs refuses to replace a fifo" mkfs.squashfs -q "$T/src" "$T/fifo"
ok "the fifo is still a fifo" test -p "$T/fifo"
fails "mkfs.yaffs2 refuses to replace a symlink" mkfs.yaffs2 -q "$T/src" "$T/link"
ok "the symlink is still a symlink" test -L "$T/link"
ok "nothing was written through the symlink" test ! -e "$T/target"
is "$(mkfs.squashfs -q "$T/src" "$T/fifo" 2>&1 | grep -c 'not a regular file')" 1 "the message says why"
ok "no temporary left behind" sh -c "! ls '$T' | grep -q tmp"
ok "a regular file is replaced" sh -c "echo old > '$T/img' && mkfs.squashfs -q '$T/src' '$T/img' && unsquashfs -l '$T/img' >/dev/null"
done_testing
