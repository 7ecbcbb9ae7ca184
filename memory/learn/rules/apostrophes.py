"""Phone keyboards: a rule regex that also reads ’ for ' and a dropped apostrophe ("dont", "cant")."""
from __future__ import annotations


def loosen_apostrophes(pattern: str) -> str:
    """A rule regex that also reads curly apostrophes ("I’m", "don’t") and a dropped one in "dont", "cant"."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]" or pattern[i - 1] == "["
            out.append("'’" if ch == "'" else ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
        elif pattern.startswith("n't", i):
            out.append("n['’]?t")
            i += 2
        elif ch == "'":
            out.append("['’]")
        else:
            out.append(ch)
        i += 1
    return "".join(out)
