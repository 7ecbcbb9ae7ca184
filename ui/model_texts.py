"""How a catalog model and its download read on the Models page: sizes, time left, fit, languages, progress."""
from __future__ import annotations

from ui.i18n import tr


def size_text(n: int | None) -> str:
    """Bytes the way a download dialog shows them: 98.4 MB, 1.1 GB (decimal units)."""
    if n is None:
        return "?"
    for unit in ("B", "KB", "MB"):
        if n < 1000:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def duration_text(seconds: float) -> str:
    """Time left, rounded the way people say it."""
    if seconds < 60:
        return tr("{n} s", n=max(1, round(seconds)))
    if seconds < 3600:
        return tr("{n} min", n=round(seconds / 60))
    return tr("{n} h", n=f"{seconds / 3600:.1f}")


def fit_text(fit: str) -> str:
    """A fit verdict ("fits", "tight", "too large") in words."""
    return {"fits": tr("Fits this computer"), "tight": tr("Tight on this computer"),
            "too large": tr("Too large for this computer")}.get(fit, fit)


def language_names(codes) -> str:
    """Language codes as names: "Chinese, English"."""
    names = {"zh": tr("Chinese"), "en": tr("English"), "de": tr("German"), "fr": tr("French"),
             "it": tr("Italian"), "pt": tr("Portuguese"), "hi": tr("Hindi"), "es": tr("Spanish"), "th": tr("Thai")}
    return tr(", ").join(names.get(c, c) for c in codes)


def progress_text(p) -> str:
    """One download report (a `Progress`): done of total, speed and time left."""
    done, speed = size_text(p.done), size_text(int(p.bytes_per_s)) if p.bytes_per_s else ""
    if p.total is None:
        return tr("{done} · {speed}/s", done=done, speed=speed) if speed else done
    if not speed:
        return tr("{done} of {total}", done=done, total=size_text(p.total))
    if p.eta_s is None:
        return tr("{done} of {total} · {speed}/s", done=done, total=size_text(p.total), speed=speed)
    return tr("{done} of {total} · {speed}/s · {left} left", done=done, total=size_text(p.total), speed=speed,
              left=duration_text(p.eta_s))
