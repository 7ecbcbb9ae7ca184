#!/usr/bin/env python3
"""Check a wave-6 file: python3 /work/wave6/check.py /work/wave6/NAME.jsonl — prints every problem, 'ok N cases' when none."""
import json, re, sys
from datetime import date

CATS = {"profile", "preference", "relationship", "event", "feedback"}
KINDS = {"correction", "single", "date", "none"}
path = sys.argv[1]
name = path.rsplit("/", 1)[-1].removesuffix(".jsonl")
problems, n, ids = [], 0, set()
for i, line in enumerate(open(path, encoding="utf-8"), 1):
    if not line.strip():
        continue
    n += 1
    where = f"line {i}"
    try:
        c = json.loads(line)
    except Exception as e:
        problems.append(f"{where}: not JSON ({e})"); continue
    cid = c.get("id", "")
    where = f"line {i} ({cid})"
    if not re.fullmatch(rf"{re.escape(name)}-\d{{4}}", cid): problems.append(f"{where}: id must be {name}-NNNN")
    if cid in ids: problems.append(f"{where}: duplicate id")
    ids.add(cid)
    if c.get("lang") not in ("en", "zh"): problems.append(f"{where}: lang must be en or zh")
    if c.get("kind") not in KINDS: problems.append(f"{where}: kind must be one of {sorted(KINDS)}")
    steps = c.get("steps") or []
    if not steps: problems.append(f"{where}: no steps")
    if c.get("kind") == "correction" and len(steps) != 2: problems.append(f"{where}: a correction case has two steps")
    if steps and not steps[-1].get("assistant"): problems.append(f"{where}: the last step needs the companion's question in assistant")
    if c.get("kind") == "none" and (c.get("memories") or c.get("expect")): problems.append(f"{where}: a none case keeps nothing")
    prev = None
    for k, s in enumerate(steps):
        try:
            d = date.fromisoformat(s["today"])
            if prev and d <= prev: problems.append(f"{where}: step {k} today is not after the step before")
            prev = d
        except Exception:
            problems.append(f"{where}: step {k} needs today YYYY-MM-DD")
        if not s.get("user"): problems.append(f"{where}: step {k} has no user text")
        if set(s) - {"today", "user", "assistant"}: problems.append(f"{where}: step {k} has unknown keys {set(s) - {'today', 'user', 'assistant'}}")
    for m in c.get("memories", []):
        st = m.get("step")
        if not isinstance(st, int) or not 0 <= st < len(steps):
            problems.append(f"{where}: memory step {st} out of range"); continue
        if m.get("evidence", "") not in steps[st]["user"]:
            problems.append(f"{where}: evidence {m.get('evidence')!r} is not an exact substring of step {st}'s user text")
        if m.get("category") not in CATS: problems.append(f"{where}: memory category {m.get('category')!r}")
        if m.get("polarity") not in ("positive", "negative", "neutral"): problems.append(f"{where}: polarity {m.get('polarity')!r}")
        if m.get("about") not in ("user", "other"): problems.append(f"{where}: about {m.get('about')!r}")
        for key in ("topic", "content"):
            if not m.get(key): problems.append(f"{where}: memory needs {key}")
        if not isinstance(m.get("change"), bool) or not isinstance(m.get("active_at_end"), bool):
            problems.append(f"{where}: change and active_at_end are true/false")
        if m.get("date") is not None:
            try: date.fromisoformat(m["date"])
            except Exception: problems.append(f"{where}: memory date must be YYYY-MM-DD or null")
        if m.get("category") == "event" and not m.get("date"): problems.append(f"{where}: an event memory has a date")
    text = " ".join(s.get("user", "") for s in steps).lower()
    for e in c.get("expect", []):
        if e.get("category") not in CATS: problems.append(f"{where}: expect category {e.get('category')!r}")
        for w in e.get("all", []):
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", w) and w.lower() not in text:
                problems.append(f"{where}: expect word {w!r} is not in the user's text (use words the user typed)")
        if set(e) - {"category", "all", "any", "none"}: problems.append(f"{where}: expect has unknown keys")
    if c.get("kind") == "correction":
        if not c.get("expect_count"): problems.append(f"{where}: a correction case needs expect_count")
        if not any(m.get("active_at_end") is False for m in c.get("memories", [])):
            problems.append(f"{where}: a correction case has an old memory with active_at_end false")
        if not any(m.get("change") for m in c.get("memories", []) if m.get("step") == 1):
            problems.append(f"{where}: a correction case's step-1 memory has change true")
    for a in c.get("expect_count", {}):
        if a.lower() not in text: problems.append(f"{where}: expect_count anchor {a!r} is not in the user's text")
    for f in c.get("forbid", []):
        if not f.get("any"): problems.append(f"{where}: forbid items are {{\"any\": [...]}}")
print("\n".join(problems) if problems else f"ok {n} cases")
