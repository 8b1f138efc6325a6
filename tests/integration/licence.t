#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Every source file carries its SPDX and copyright lines, with the licence
# of its folder (scripts/spdx-headers): LGPL-2.1-or-later for libflashfs,
# GPL-2.0-or-later for the programs, tests and scripts; COPYING and
# COPYING.LIB hold the texts.  The checker must fail on a file without the
# lines and on a library file under the programs' licence.
. "$(dirname "$0")/../lib.sh"

ok "every source file has its header" "$FF_TOP/scripts/spdx-headers"
ok "COPYING is the GPL 2" grep -q "GNU GENERAL PUBLIC LICENSE" "$FF_TOP/COPYING"
ok "COPYING.LIB is the LGPL 2.1" grep -q "GNU LESSER GENERAL PUBLIC LICENSE" "$FF_TOP/COPYING.LIB"

mkdir -p "$T/r/common" "$T/r/mkfs"
git -C "$T/r" init -q
printf 'int x;\n' > "$T/r/common/bare.c"
printf '/* SPDX-License-Identifier: GPL-2.0-or-later */\n/* Copyright (C) 2026 The flashfs-tools authors */\nint y;\n' > "$T/r/common/gpl.c"
printf '#!/bin/sh\necho hi\n' > "$T/r/mkfs/run.sh"
git -C "$T/r" add -A
"$FF_TOP/scripts/spdx-headers" --root "$T/r" > "$T/out" 2>&1
is "$?" 1 "a planted file without the lines fails the check"
is "$(sed 's/.*: //' "$T/out" | sort | tr '\n' ' ')" "common/bare.c common/gpl.c mkfs/run.sh " \
	"... each one named, the GPL line in a library folder too"
"$FF_TOP/scripts/spdx-headers" --root "$T/r" --fix > /dev/null
ok "--fix puts them right" "$FF_TOP/scripts/spdx-headers" --root "$T/r"
is "$(head -n 2 "$T/r/mkfs/run.sh" | tail -n 1)" "# SPDX-License-Identifier: GPL-2.0-or-later" \
	"... after the #! line"
# Without .git (an unpacked make dist tarball) the files are found by
# walking the tree, build/ left out.
mkdir -p "$T/w/common" "$T/w/build"
printf 'int x;\n' > "$T/w/common/bare.c"
printf 'int y;\n' > "$T/w/build/out.c"
"$FF_TOP/scripts/spdx-headers" --root "$T/w" > "$T/wout" 2>&1
is "$?" 1 "no .git: a file without the lines still fails the check"
is "$(sed 's/.*: //' "$T/wout" | tr '\n' ' ')" "common/bare.c " "... named, and build/ is not searched"
done_testing
