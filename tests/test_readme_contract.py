"""The README's documented commands, settings.json keys and environment variables, read against the code
(app/cli's argparse, app/settings.py's Settings, the package sources) so the two cannot drift apart (issue 37,
item 15)."""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
from pathlib import Path

from app.cli.main import build_parser
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The README's text under a `## ` heading that starts with `title`, up to the next one."""
    match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"README has no section '{title}'"
    return match.group(1)


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def options(parser: argparse.ArgumentParser) -> set[str]:
    return {o for action in parser._actions for o in action.option_strings}


def documented_commands() -> tuple[str, list[str]]:
    """The command line block: its first line (the global options) and the lines naming commands."""
    block = re.search(r"```\n(companion .*?)```", section("Command line"), re.S)
    assert block, "the Command line section has no `companion …` block"
    first, *lines = block.group(1).strip("\n").split("\n")
    return first, lines


def alternatives(line: str) -> list[str]:
    """The line split on the | that separate commands, not on those between [choices|like|these]."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if ch == "|" and depth == 0:
            parts.append(line[start:i])
            start = i + 1
    return [*parts, line[start:]]


def walk(line: str) -> list[tuple[list[str], argparse.ArgumentParser, list[str]]]:
    """Each alternative of a README line (split on |) as (command path, its parser, the --options it names)."""
    root, out, group, parser = build_parser(), [], None, None
    for alternative in alternatives(re.sub(r"\([^)]*\)", "", line)):
        alternative = re.split(r"\s{3,}", alternative.strip())[0]  # a wide gap, then words about the command
        words = alternative.split()
        path = []
        for word in words:
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                break
            path.append(word)
        if path:
            if group is not None and path[0] not in subcommands(root):
                path = [group, *path]  # "sessions list | show ID": show is a sessions command
            parser = root
            for word in path:
                choices = subcommands(parser)
                assert word in choices, f"README names `{' '.join(path)}`, which the command line does not have"
                parser = choices[word]
            group = path[0]
        assert parser is not None, line
        out.append((path or out[-1][0], parser, re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-o)\b", alternative)))
    return out


def test_the_readme_commands_and_their_options_exist():
    first, lines = documented_commands()
    assert set(re.findall(r"--[a-z-]+", first)) <= options(build_parser()), first
    for line in lines:
        if line.strip().startswith("(none)"):
            continue
        for path, parser, flags in walk(line):
            missing = [f for f in flags if f not in options(parser)]
            assert not missing, f"README gives `{' '.join(path)}` {missing}, which it does not take"


def test_every_command_is_in_the_readme():
    _, lines = documented_commands()
    named = {tuple(path) for line in lines if not line.strip().startswith("(none)") for path, _, _ in walk(line)}
    root = build_parser()
    for name, parser in subcommands(root).items():
        verbs = subcommands(parser)
        for path in ([(name, verb) for verb in verbs] if verbs else [(name,)]):
            assert path in named, f"`companion {' '.join(path)}` is not in the README's command line"


def test_the_readme_lists_every_settings_key_with_its_default():
    rows = re.findall(r"^\| `(\w+)` \| `([^`]*)` \|", README, re.M)
    documented = dict(rows)
    fields = {f.name for f in dataclasses.fields(Settings)}
    assert set(documented) == fields, (sorted(fields - set(documented)), sorted(set(documented) - fields))
    defaults = Settings()
    wrong = {key: value for key, value in documented.items() if json.loads(value) != getattr(defaults, key)}
    assert not wrong, f"README defaults differ from app/settings.py: {wrong}"


def test_the_environment_variables_the_readme_names_are_read_by_the_code():
    code = "".join(p.read_text(encoding="utf-8") for folder in ("app", "models", "memory", "ui", "tests")
                   for p in (ROOT / folder).rglob("*.py"))
    code += (ROOT / "start.sh").read_text(encoding="utf-8") if (ROOT / "start.sh").exists() else ""
    named = set(re.findall(r"COMPANION_[A-Z_]+", README))
    assert {"COMPANION_LOG", "COMPANION_DEBUG", "COMPANION_HOME"} <= named
    assert not [n for n in sorted(named) if f'"{n}"' not in code and f"'{n}'" not in code and f"{n}=" not in code]
