"""The decision model: its shipped trees are walked exactly as scikit-learn walks them, it reads the features
this code computes, and what it decides shows in `memory extract --json`."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier

from memory.learn.decision import FEATURES, DecisionModel, RulePrecision, origin_kind, rule_id, shipped_decision

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from train_decision import BAR_TOLERANCE, TREES, best_bar, export, fit, probability  # noqa: E402


def _arrays(model: HistGradientBoostingClassifier | list[HistGradientBoostingClassifier]) -> dict[str, np.ndarray]:
    arrays = export(model)
    arrays.update({"feature_names": np.array(FEATURES), "threshold": np.array([0.5]), "threshold_zh": np.array([0.4]),
                   "rule_ids": np.array(["en.likes"]), "rule_kept": np.array([3.0]), "rule_seen": np.array([4.0]),
                   "rule_mean": np.array([0.5])})
    return arrays


def test_the_exported_trees_give_scikit_learns_probabilities():
    rng = np.random.default_rng(0)
    x = rng.random((400, len(FEATURES)))
    x[rng.random(x.shape) < 0.05] = np.nan  # a missing value takes the side the tree learned for it
    y = ((np.nan_to_num(x[:, 3]) + np.nan_to_num(x[:, 14]) > 1.0) ^ (rng.random(400) < 0.1)).astype(int)
    model = HistGradientBoostingClassifier(**{**TREES, "max_iter": 40}).fit(x, y)
    ours = DecisionModel(_arrays(model)).probabilities(x)
    assert np.abs(ours - model.predict_proba(x)[:, 1]).max() < 1e-12


def test_several_ensembles_ship_as_one_whose_log_odds_are_their_mean():
    rng = np.random.default_rng(2)
    x = rng.random((600, len(FEATURES)))
    y = ((x[:, 3] + x[:, 14] > 1.0) ^ (rng.random(600) < 0.1)).astype(int)
    groups = np.arange(600) // 3  # a case's rows are drawn together
    models = fit(x, y, groups, bags=3)
    assert len(models) == 3 and len({m.n_iter_ for m in models}) == 1
    mean = probability(models, x)
    assert not np.allclose(mean, models[0].predict_proba(x)[:, 1])  # each saw other cases
    assert np.abs(DecisionModel(_arrays(models)).probabilities(x) - mean).max() < 1e-12


def test_weights_trained_on_other_features_are_refused_with_the_command_that_rebuilds_them():
    model = HistGradientBoostingClassifier(max_iter=2).fit(np.random.default_rng(1).random((50, len(FEATURES))),
                                                            np.arange(50) % 2)
    arrays = _arrays(model)
    arrays["feature_names"] = np.array(FEATURES[:-1])
    try:
        DecisionModel(arrays)
    except ValueError as exc:
        assert "scripts/train_decision.py" in str(exc)
    else:
        raise AssertionError("weights for other features were accepted")


def test_a_rules_precision_is_its_kept_share_shrunk_to_the_mean_of_all_rules():
    rules = RulePrecision({"en.likes": 3.0, "zh.rare": 0.0}, {"en.likes": 4.0, "zh.rare": 1.0}, 0.5)
    assert rules.of("en.likes")[0] == (3 + 4 * 0.5) / (4 + 4)
    assert rules.of("zh.rare")[0] < 0.5 < rules.of("en.likes")[0]
    assert rules.of("never.seen")[0] == 0.5 and rules.of(None) == (-1.0, 0.0)


def test_origins_name_their_proposer_and_rule():
    assert origin_kind("rule:en.profile.name,priority=1000") == "rule"
    assert rule_id("rule:en.profile.name,priority=1000") == "en.profile.name"
    assert origin_kind("classifier-change:worth=0.20,event=0.90") == "classifier-change"
    assert origin_kind("model") == "model" and rule_id("classifier:worth=0.9") is None


def test_the_shipped_decision_model_reads_the_features_this_code_computes():
    model = shipped_decision()
    assert 0.0 < model.threshold < 1.0 and 0.0 < model.threshold_zh < 1.0


def _extract(cli, text: str, today: str = "2026-12-06") -> dict:
    return cli.json("memory", "extract", text, "--json", today=today)


@pytest.mark.parametrize("text", [
    "Yeah they LOVE when the train is 40 min late",  # the examples of sarcasm and quoting kept as tastes
    "Gordon Ramsay says you should never put cream in carbonara",
    "我老板说年轻人就该多吃苦 呵呵",  # someone else's opinion, in words no corpus case has
])
def test_sarcasm_and_someone_elses_opinion_are_not_kept_as_the_users_tastes(cli, text):
    result = _extract(cli, text)
    assert result["written"] == [], result["written"]
    assert any("decision model does not keep it" in r["reason"] for r in result["rejected"]), result["rejected"]


def test_each_kept_memory_says_how_sure_the_decision_was_and_a_fact_beside_a_trap_is_kept(cli):
    written = _extract(cli, "my sister Anna just moved to Leeds for her new job")["written"]
    assert [w["category"] for w in written] == ["relationship"] and "Leeds" in written[0]["content"]
    assert written[0]["structure"]["keep"] >= shipped_decision().threshold


def test_a_change_said_without_the_old_value_retires_it(cli):
    _extract(cli, "vegetarian for 5 years now", "2026-10-01")
    written = _extract(cli, "went full vegan last month", "2026-12-06")["written"]
    assert [w["action"] for w in written] == ["superseded"], written
    active = [m["content"] for m in cli.json("memory", "list", "--json")]
    assert not any("egetarian" in c for c in active) and any("vegan" in c for c in active), active


def test_the_bar_is_the_middle_of_the_near_best_bars_and_barely_moves_with_the_rows():
    rng = np.random.default_rng(1)
    p = rng.random(6000)
    y = (rng.random(6000) < p).astype(int)  # calibrated scores: the F1 of keeping is flat over a wide range of bars
    bar, precision, recall, f1 = best_bar(p, y)
    bars = np.arange(0.2, 0.81, 0.025)
    f1s = []
    for b in bars:
        tp = ((p >= b) & (y == 1)).sum()
        pr, rc = tp / (p >= b).sum(), tp / (y == 1).sum()
        f1s.append(2 * pr * rc / (pr + rc))
    near = bars[np.array(f1s) >= max(f1s) - BAR_TOLERANCE]
    assert len(near) >= 3 and near[0] < bar < near[-1] and f1 >= max(f1s) - BAR_TOLERANCE
    # a tenth of the rows left out moves the middle of the plateau by a step of the grid at most
    kept = rng.random(6000) >= 0.1
    assert abs(best_bar(p[kept], y[kept])[0] - bar) <= 0.025 + 1e-9


def test_the_even_bar_is_the_lowest_where_precision_reaches_recall():
    rng = np.random.default_rng(2)
    p = rng.random(6000)
    y = (rng.random(6000) < p).astype(int)
    bar, precision, recall, _ = best_bar(p, y, "even")
    assert precision >= recall
    below = p >= bar - 0.025
    tp = (below & (y == 1)).sum()
    assert tp / below.sum() < tp / (y == 1).sum()  # one step lower, precision is still under recall
    assert bar > best_bar(p, y)[0]  # on calibrated scores, above the middle of the F1 plateau
