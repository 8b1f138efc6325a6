#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# No silent passes by skipping (issue 15): prove's harness
# (tests/perl/TAP/Harness/FlashfsSkips.pm) counts every SKIP, and under
# STRICT=1 or CI=true fails each one not listed in tests/inherent-skips.txt,
# whether a lib.sh skip_all, a lib.sh skip or a cmocka-style "# SKIP".
. "$(dirname "$0")/../lib.sh"

command -v prove > /dev/null || skip_all "prove (perl) not installed"
D=$T/t
mkdir -p "$D"
lib=$FF_TOP/tests/lib.sh
printf '#!/bin/bash\n. %s\nskip_all "needs a unicorn"\n' "$lib" > "$D/a_all.t"
printf '#!/bin/bash\n. %s\nok "fine" true\nskip "no frobnicator" "frob"\ndone_testing\n' "$lib" > "$D/b_one.t"
printf '#!/bin/bash\n. %s\nskip_all "built without wings"\n' "$lib" > "$D/c_inherent.t"
printf '#!/bin/sh\necho 1..2\necho "ok 1 - test_a"\necho "ok 2 - test_b # SKIP"\n' > "$D/d_unit.t"
printf '#!/bin/sh\necho 1..1\necho "ok 1 - fine"\n' > "$D/e_pass.t"
chmod +x "$D"/*.t
printf '# comment\n\nc_inherent.t\tbuilt without wings\n' > "$T/list"

# run [VAR=VALUE...] -- TESTS... — prove with the harness; output in $T/out
run() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env -u CI -u STRICT "${envs[@]}" PERL5LIB="$FF_TOP/tests/perl" FF_TOP="$FF_TOP" \
		prove --harness=TAP::Harness::FlashfsSkips "$@" > "$T/out" 2>&1
}
ALL=("$D/a_all.t" "$D/b_one.t" "$D/c_inherent.t" "$D/d_unit.t" "$D/e_pass.t")

ok "not strict: skips pass" run FF_INHERENT_SKIPS="$T/list" -- "${ALL[@]}"
ok "... and are counted" grep -qx 'Skips: 4 (1 inherent to this build, 3 other)' "$T/out"
ok "... each with its reason" grep -q 'skipped  b_one.t (frob): no frobnicator' "$T/out"

fails "STRICT=1: the run fails" run STRICT=1 FF_INHERENT_SKIPS="$T/list" -- "${ALL[@]}"
ok "... a skip_all fails its file" grep -q 'FAIL     a_all.t: needs a unicorn' "$T/out"
ok "... a single skip fails its file" grep -q 'FAIL     b_one.t (frob): no frobnicator' "$T/out"
ok "... a cmocka skip without reason fails" grep -q 'FAIL     d_unit.t (test_b): (no reason given)' "$T/out"
ok "... the listed skip is accepted" grep -q 'inherent c_inherent.t: built without wings' "$T/out"
ok "... prove's summary names the failing files" \
	sh -c "grep -A30 'Test Summary Report' '$T/out' | grep -c 'Parse errors: SKIP under STRICT' | grep -qx 3"
fails "CI=true: the run fails too" run CI=true FF_INHERENT_SKIPS="$T/list" -- "${ALL[@]}"
ok "STRICT=0: not strict" run STRICT=0 FF_INHERENT_SKIPS="$T/list" -- "${ALL[@]}"
ok "STRICT=1 with only inherent skips passes" \
	run STRICT=1 FF_INHERENT_SKIPS="$T/list" -- "$D/c_inherent.t" "$D/e_pass.t"
fails "a reason that differs from the list's is not inherent" \
	run STRICT=1 FF_INHERENT_SKIPS=/dev/null -- "$D/c_inherent.t"

# The real list parses, and each entry names a test that prints that reason.
ok "tests/inherent-skips.txt loads" run STRICT=1 -- "$D/e_pass.t"
# prints FILE REASON — FILE skips with REASON (skip_all, or skip of some tests)
prints() { grep -qF -e "skip_all \"$2\"" -e "skip \"$2\"" "$1"; }
while IFS=$'\t' read -r test reason; do
	case $test in '#'* | '') continue ;; esac
	ok "inherent skip still printed by $test" prints "$FF_TOP/tests/integration/$test" "$reason"
done < "$FF_TOP/tests/inherent-skips.txt"
done_testing
