# Endgame databases and the solver from Python: a small database built in the test, queried
# and checked against the solver without a database and against the CLI reading the same file.
import json
import random
import subprocess

import pytest

import naqala
from conftest import NAQALA_BIN


def endgame_states(variant, max_seeds, count, seed=1):
    """Positions of random games with at most max_seeds seeds left in the pits."""
    game = naqala.load_game(variant)
    rng = random.Random(seed)
    holes = game.observation_tensor_shape()[0] - 3  # the pits: not the stores, not the mover
    found = []
    while len(found) < count:
        s = game.new_initial_state()
        while not s.is_terminal() and sum(s.observation_tensor()[:holes]) > max_seeds:
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            found.append(s)
    return found


@pytest.fixture(scope="module")
def kalah_db():
    return naqala.EndgameDb.build("kalah", 8)


def test_kalah_query_agrees_with_the_solver_without_a_database(kalah_db):
    assert kalah_db.kind == "kalah" and kalah_db.max_seeds == 8
    for s in endgame_states("kalah", 8, 25):
        q = kalah_db.query(s)
        assert q["known"] and q["exact"]
        proof = naqala.solve(s)  # MTD(f) from scratch
        assert proof["exact"] and proof["margin_low"] == q["margin_low"]
        assert q["result"] == proof["result"]
        # Each best move keeps the value; every other move is worse.
        assert q["best_moves"] and set(q["best_moves"]) <= set(q["moves"])
        for move, margin in q["moves"].items():
            assert (margin == q["margin_low"]) == (move in q["best_moves"])
            assert margin <= q["margin_low"]
        assert q["best_actions"] == [s.string_to_action(m) for m in q["best_moves"]]
        assert proof["best_move"] in q["best_moves"]


def test_kalah_db_file_reads_back_and_the_cli_agrees(kalah_db, tmp_path):
    path = str(tmp_path / "kalah8.db")
    kalah_db.save(path)
    loaded = naqala.EndgameDb.load("kalah", path)
    assert loaded.boards == kalah_db.boards
    for s in endgame_states("kalah", 8, 5, seed=7):
        assert loaded.query(s) == kalah_db.query(s)
        with_db = naqala.solve(s, db=loaded)
        run = subprocess.run([NAQALA_BIN, "solve", "kalah", "--position", s.serialize(), "--db",
                              path, "--table", "16", "--json"], capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stderr
        cli = json.loads(run.stdout)
        assert (cli["margin_low"], cli["margin_high"]) == (with_db["margin_low"],
                                                           with_db["margin_high"])
        assert cli["best_move"] == with_db["best_move"]


def test_a_position_beyond_the_database_is_unknown(kalah_db):
    q = kalah_db.query(naqala.load_game("kalah").new_initial_state())
    assert q == {"known": False, "db_seeds": 8, "to_move": "south"}


def test_oware_db_query_and_solve():
    db = naqala.EndgameDb.build("oware", 6)
    assert db.kind == "sowing"
    settled = 0
    for s in endgame_states("oware", 6, 20, seed=3):
        q = db.query(s)
        proof = naqala.solve(s, db=db, nodes=200000)
        if not q["known"]:
            continue
        settled += 1
        assert proof["decided"] and proof["result"] == q["result"]
        assert proof["margin_low"] <= q["margin_high"] and q["margin_low"] <= proof["margin_high"]
        assert q["best_actions"] == [s.string_to_action(m) for m in q["best_moves"]]
    assert settled > 0


def test_bad_databases_and_states_get_clear_errors(kalah_db, tmp_path):
    oware = naqala.load_game("oware").new_initial_state()
    with pytest.raises(naqala.Error, match="the state is of other rules"):
        kalah_db.query(oware)
    with pytest.raises(naqala.Error, match="not of oware"):
        naqala.solve(oware, db=kalah_db)
    path = str(tmp_path / "kalah8.db")
    kalah_db.save(path)
    with pytest.raises(naqala.Error, match="not a naqala sowing database"):
        naqala.EndgameDb.load("oware", path)
    with pytest.raises(naqala.Error):
        naqala.EndgameDb.load("kalah", str(tmp_path / "missing.db"))
    with pytest.raises(naqala.VariantError):
        naqala.EndgameDb.build("backgammon", 4)
    with pytest.raises(naqala.Error, match="allowed 0 to 127"):
        naqala.EndgameDb.build("kalah", -1)
    with pytest.raises(naqala.Error, match="takes seconds, not nodes"):
        naqala.solve(naqala.load_game("kalah").new_initial_state(), nodes=10)
