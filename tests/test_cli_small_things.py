"""The command line's small things: --help names the window, plain --wait-memory, a closed pipe, a broken import."""
from __future__ import annotations

import os
import subprocess

from tests.conftest import CLI


def test_help_says_that_no_command_opens_the_window(cli):
    assert "desktop window" in cli.run("--help").stdout


def test_say_wait_memory_without_json_says_what_was_learned_in_words(cli):
    out = cli.run("say", "Remember that my name is Zoltan.", "--wait-memory").stdout
    assert not out.lstrip().startswith("{") and '"memories_written"' not in out
    assert "learned (added):" in out and "Zoltan" in out


def test_a_reader_that_stops_early_is_not_an_error(cli):
    for i in range(3):
        cli.run("memory", "add", f"Likes tea number {i}")
    proc = subprocess.Popen([str(CLI), "--home", str(cli.home), "memory", "list"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=os.environ.copy())
    proc.stdout.close()  # like `| head` that has already quit
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0, err
    assert "BrokenPipe" not in err and "unexpected error" not in err and "Exception ignored" not in err


def test_a_broken_import_file_gets_a_sentence_not_a_parser_error(cli, tmp_path):
    bad = tmp_path / "memories.json"
    bad.write_text('{"format": "companion-memories",\n "memories": [oops]}')
    proc = cli.run("memory", "import", str(bad), check=False)
    assert proc.returncode != 0
    assert "is not valid JSON, so it is not a Companion export. The first problem is on line 2." in proc.stderr
    assert "Expecting" not in proc.stderr and "char" not in proc.stderr


def test_an_imported_memory_too_long_to_keep_is_skipped_before_it_is_embedded(companion_env):
    from app.clock import Clock
    from app.companion import Companion
    from app.portability import import_memories
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        seen: list[str] = []
        real = c.store.multilingual.embed
        c.store.multilingual.embed = lambda texts: seen.extend(texts) or real(texts)  # the real encoder, watched
        imported, skipped = import_memories(c.store, [{"category": "profile", "content": "x" * 1_000_000},
                                                      {"category": "profile", "content": "Has a parrot named Kiwi"}])
        assert [m.content for m in imported] == ["Has a parrot named Kiwi"]
        assert skipped == [("x" * 80, "A memory is at most 2000 characters; this one has 1000000.")]
        assert seen == ["Has a parrot named Kiwi"]  # a 1 MB text made the encoder take 6 GB
    finally:
        c.close()
