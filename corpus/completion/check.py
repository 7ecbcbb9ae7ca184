import json, sys
CATS = {"profile", "preference", "relationship", "event", "feedback"}
inp = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
out = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8") if l.strip()]
bad = 0
if len(inp) != len(out):
    print(f"{len(out)} output lines for {len(inp)} input lines"); bad += 1
for n, (a, b) in enumerate(zip(inp, out)):
    if a["id"] != b.get("id"):
        print(f"line {n+1}: id {b.get('id')} should be {a['id']}"); bad += 1; continue
    for f in b.get("facts", []):
        msg = a["steps"][f.get("step", 0)]["user"] if 0 <= f.get("step", 0) < len(a["steps"]) else ""
        problems = []
        if f.get("category") not in CATS: problems.append(f"category {f.get('category')!r}")
        if not f.get("evidence") or f["evidence"] not in msg: problems.append("evidence not found in that step's user message")
        if not f.get("keys"): problems.append("no keys")
        for k in f.get("keys", []):
            if k.lower() not in f.get("note", "").lower(): problems.append(f"key {k!r} not in note")
        if not isinstance(f.get("still_true_at_end"), bool): problems.append("still_true_at_end must be true/false")
        if problems:
            print(f"line {n+1} {a['id']}: {f.get('note')!r}: " + "; ".join(problems)); bad += 1
print("ok" if not bad else f"{bad} problems")
