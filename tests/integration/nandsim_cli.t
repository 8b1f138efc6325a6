#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs flash / dump on a host without MTD (the nandsim guest tests the
# real thing): usage errors and refusals exit 2 with a message naming the
# problem, and a failed dump leaves no file behind.
. "$(dirname "$0")/../lib.sh"

out() { "$@" 2>&1; echo "rc=$?"; }

r=$(out flashfs flash)
is "${r##*rc=}" 2 "flash without arguments: usage, exit 2"
r=$(out flashfs flash --page-size abc img /dev/mtd0)
is "${r##*rc=}" 2 "flash --page-size abc: exit 2"
ok "... naming the option and value" grep -q "page-size: 'abc'" <<< "$r"
r=$(out flashfs flash --raw --oob-layout linux img /dev/mtd0)
ok "flash --raw with YAFFS2 options refused" grep -q 'does not go with' <<< "$r"
r=$(out flashfs dump --length 12Q /dev/mtd0 "$T/d.img")
ok "dump --length 12Q refused with the value" grep -q "'12Q' is not a positive size" <<< "$r"
r=$(out flashfs dump --oob --oob-layout linux /dev/mtd0 "$T/d.img")
ok "dump --oob with a YAFFS2 layout refused" grep -q 'do not go with' <<< "$r"
r=$(out flashfs flash --help)
is "${r##*rc=}" 0 "flash --help: exit 0"

echo data > "$T/raw.img"
if [ -d /sys/class/mtd ] && [ -n "$(ls /sys/class/mtd 2>/dev/null)" ]; then
	skip "this host has MTD devices; not touching them" "flash to a non-MTD node"
	skip "this host has MTD devices; not touching them" "dump of a non-MTD node"
else
	r=$(out flashfs flash --raw "$T/raw.img" /dev/null)
	ok "flash to a host without MTD: exit 2, says so" \
		sh -c '[ "${1##*rc=}" = 2 ] && grep -q "no MTD support\|not an MTD" <<EOT
$1
EOT' _ "$r"
	r=$(out flashfs dump /dev/null "$T/d.img")
	is "${r##*rc=}" 2 "dump of a non-MTD node: exit 2"
	ok "... and leaves no image or temporary behind" \
		sh -c '! ls "$1"/d.img* > /dev/null 2>&1' _ "$T"
fi
r=$(out flashfs flash "$T/missing.img" /dev/null)
ok "flash of a missing image names it" grep -q 'missing.img' <<< "$r"
done_testing
