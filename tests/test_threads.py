"""Threads come from physical cores (SMT siblings once, within the CPUs this process may use); Settings overrides."""
from __future__ import annotations

from pathlib import Path

import pytest

from models import chat, cpu, embedder


def _topology(root: Path, siblings: dict[int, str]) -> Path:
    for n, text in siblings.items():
        (root / f"cpu{n}" / "topology").mkdir(parents=True)
        (root / f"cpu{n}" / "topology" / "thread_siblings_list").write_text(text + "\n")
    return root


@pytest.fixture
def cpus(monkeypatch):
    def use(allowed: set[int], sysfs: Path) -> None:
        monkeypatch.setattr(cpu.os, "sched_getaffinity", lambda pid: allowed, raising=False)
        monkeypatch.setattr(cpu.os, "cpu_count", lambda: len(allowed))
        monkeypatch.setattr(cpu, "SYSFS_CPUS", sysfs)
    return use


def test_two_cores_without_smt_give_two_threads(tmp_path, cpus):
    cpus({0, 1}, _topology(tmp_path, {0: "0", 1: "1"}))
    assert cpu.physical_cores() == 2
    assert chat.default_threads() == 2
    assert chat.generation_threads() == 1  # one token at a time: a second thread halved the speed on 2 cores
    assert embedder.default_threads() == 1  # a second embedding thread spins and takes a core from the prompt


def test_four_cores_generate_on_four_threads(tmp_path, cpus):
    cpus({0, 1, 2, 3}, _topology(tmp_path, {n: str(n) for n in range(4)}))
    assert chat.default_threads() == 4 and chat.generation_threads() == 4 and embedder.default_threads() == 4


def test_smt_siblings_count_once(tmp_path, cpus):
    cpus({0, 1, 2, 3}, _topology(tmp_path, {0: "0,2", 1: "1,3", 2: "0,2", 3: "1,3"}))
    assert cpu.physical_cores() == 2 and chat.default_threads() == 2


def test_only_the_cpus_this_process_may_use_count(tmp_path, cpus):
    cpus({2}, _topology(tmp_path, {0: "0", 1: "1", 2: "2", 3: "3"}))
    assert chat.default_threads() == 1


def test_without_a_topology_every_allowed_cpu_counts(tmp_path, cpus):
    cpus({0, 1, 2}, tmp_path / "missing")
    assert cpu.physical_cores() == 3


def test_settings_threads_override_the_default_and_zero_means_automatic(tmp_path, cpus, companion_env):
    from app.clock import Clock
    from app.companion import Companion

    cpus({0, 1}, _topology(tmp_path / "sys", {0: "0", 1: "1"}))
    c = Companion(companion_env, Clock.parse("2026-11-29"))
    try:
        assert c.embedder.threads == 1  # automatic on 2 cores: one embedding thread
        assert (c.chat_model().n_threads, c.chat_model().n_threads_batch) == (1, 2)  # as llama.cpp reports them
        c.unload_chat_model()
        c.settings.n_threads = 1
        assert (c.chat_model().n_threads, c.chat_model().n_threads_batch) == (1, 1)
        c.unload_chat_model()
        c.settings.n_threads = 2
        assert (c.chat_model().n_threads, c.chat_model().n_threads_batch) == (2, 2)
    finally:
        c.close()
    assert embedder.FastEmbedEmbedder(tmp_path, threads=0).threads == 1  # 0: automatic
