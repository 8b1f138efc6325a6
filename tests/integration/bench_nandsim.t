#!/bin/bash
# flashfs bench --nandsim: the recommended image goes onto a nandsim chip in
# the qemu guest of nandsim-tests/, and a cold read of the tree is timed
# with nandsim's delays on and off.  The delays can only add time, and at
# least the time the model charges the flash (every data page is read
# once): measured(delays) - measured(no delays) >= 0.9 x r x MB / B.
. "$(dirname "$0")/../lib.sh"

[ -x "$FF_TOP/nandsim-tests/run-guest.sh" ] || skip_all "nandsim-tests/run-guest.sh missing"
command -v qemu-system-x86_64 > /dev/null || skip_all "qemu-system-x86_64 not installed"

mkdir -p "$T/src"
python3 - "$T/src" <<'PY'
import os, random, sys
rnd = random.Random(3)
for i in range(12):
    with open(os.path.join(sys.argv[1], 'f%02d' % i), 'w') as f:
        f.write(' '.join(str(rnd.randint(0, 999)) for _ in range(40000)))
PY

FF_TOP=$FF_TOP flashfs bench --quick -c gzip --nandsim --work-dir "$T/w" --json "$T/r.json" \
	"$T/src" > "$T/out.txt" 2>&1
rc=$?
if grep -q "cannot run here" "$T/out.txt"; then
	skip "the nandsim guest cannot run here: $(grep -m1 'cannot run' "$T/out.txt")" "bench --nandsim"
	done_testing
	exit
fi
is "$rc" 0 "bench --nandsim exits 0"
ok "JSON has nandsim figures" python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["recommendations"][0]["nandsim"]
print(n)
sys.exit(not (n["measured_s"] > 0 and n["measured_nodelay_s"] > 0 and n["predicted_s"] > 0))' "$T/r.json"
ok "delays make the read slower" python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["recommendations"][0]["nandsim"]
sys.exit(not n["measured_s"] > n["measured_nodelay_s"])' "$T/r.json"
ok "delays cost at least the model flash term" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rec = d["recommendations"][0]; n = rec["nandsim"]; r = d["results"][rec["result"]]
flash = r["input_bytes"] / 1e6 * r["ratio"] / n["flash_mbps"]
print("delay part %.3f s, model flash term %.3f s" % (n["measured_s"] - n["measured_nodelay_s"], flash))
sys.exit(not n["measured_s"] - n["measured_nodelay_s"] >= 0.9 * flash)' "$T/r.json"
ok "the report shows measured beside model" grep -q "nandsim at .* measured .* model" "$T/out.txt"
done_testing
