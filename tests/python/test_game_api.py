# The OpenSpiel-style game and state API over every preset, checked against the CLI.
import random

import numpy as np
import pytest

import naqala
from conftest import cli_error, cli_state

PRESETS = naqala.variants()


def test_every_preset_is_listed():
    for name in ("kalah", "oware", "toguz", "bao", "omweso", "backgammon", "congklak"):
        assert name in PRESETS


def play_random(state, rng, plies):
    """Random plies through the action API; returns the move texts the CLI reads."""
    texts = []
    while not state.is_terminal() and len(texts) < plies:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    return texts


@pytest.mark.parametrize("variant", PRESETS)
def test_random_games_agree_with_the_cli_ply_by_ply(variant):
    game = naqala.load_game(variant)
    state = game.new_initial_state()
    rng = random.Random(variant)
    moves = []
    for ply in range(16):
        cli = cli_state(variant, moves)
        assert state.serialize() == cli["position"]
        assert state.is_terminal() == cli["is_over"]
        if state.is_terminal():
            break
        if state.is_chance_node():
            assert cli["to_move"] == "chance"
            assert state.current_player() == -1
        else:
            assert state.current_player() == (0 if cli["to_move"] == "south" else 1)
            legal = state.legal_actions()
            assert sorted(state.action_to_string(a) for a in legal) == sorted(cli["legal_moves"])
            mask = state.legal_actions_mask()
            assert mask.shape == (game.num_distinct_actions(),)
            assert list(np.flatnonzero(mask)) == legal
            for a in legal:  # actions and texts go both ways
                assert state.string_to_action(state.action_to_string(a)) == a
        moves += play_random(state, rng, 1)


@pytest.mark.parametrize("variant", PRESETS)
def test_whole_random_games_end_as_the_cli_says(variant):
    game = naqala.load_game(variant)
    state = game.new_initial_state()
    moves = play_random(state, random.Random(1), 3000)
    cli = cli_state(variant, moves)
    assert state.serialize() == cli["position"]
    assert state.is_terminal() == cli["is_over"]
    if state.is_terminal():
        returns = state.returns()
        assert returns[0] == -returns[1]
        south = {"1-0": 1.0, "0-1": -1.0}.get(state.outcome()["result"], 0.0)
        assert returns[0] == south
        assert state.current_player() == -4
        assert state.legal_actions() == []
    assert len(state.history()) == len(moves)


def test_openspiel_numbers_for_kalah_and_oware():
    for name in ("kalah", "oware"):
        game = naqala.load_game(name)
        assert game.num_distinct_actions() == 6
        assert game.num_players() == 2
        state = game.new_initial_state()
        assert state.legal_actions() == [0, 1, 2, 3, 4, 5]
        assert state.action_to_string(2) == "3"
        obs = state.observation_tensor()
        assert obs.dtype == np.float32
        assert obs.shape == tuple(game.observation_tensor_shape()) == (15,)
        assert list(obs) == [4.0] * 12 + [0.0, 0.0, 0.0]


def test_options_and_variant_files_load():
    game = naqala.load_game("oware:grand_slam=forbidden")
    assert str(game) == "oware:grand_slam=forbidden"
    assert naqala.load_game("kalah:seeds=6").new_initial_state().observation_tensor()[0] == 6


def test_backgammon_chance_and_cube():
    game = naqala.load_game("backgammon")
    assert game.max_chance_outcomes() == 36
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 30  # the opening roll: no ties
    state.apply_action(state.string_to_action("3-1"))
    assert state.current_player() == 0
    action = state.string_to_action("8/5 6/5")
    assert state.action_to_string(action) == "8/5 6/5"
    # Another writing of the same move is the same action.
    assert state.string_to_action("6/5 8/5") == action
    state.apply_action(action)
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == ["double", "roll"]


def test_clone_serialize_and_history():
    game = naqala.load_game("oware")
    state = game.new_initial_state()
    state.apply_action(2)
    copy = state.clone()
    copy.apply_action(0)
    assert state.history() == [2]
    assert copy.history() == [2, 0]
    again = game.deserialize_state(copy.serialize())
    assert again.serialize() == copy.serialize()
    assert str(again) == str(copy)
    assert "North" in str(state)


def test_bad_input_raises_the_cli_message():
    with pytest.raises(naqala.VariantError) as e:
        naqala.load_game("nosuchgame")
    assert str(e.value) in cli_error(["state", "nosuchgame"])
    state = naqala.load_game("oware").new_initial_state()
    with pytest.raises(naqala.Error) as e:
        state.string_to_action("9")
    assert str(e.value) in cli_error(["state", "oware", "--moves", "9"])
    with pytest.raises(naqala.IllegalMoveError):
        state.apply_action(7)
    with pytest.raises(naqala.ParseError) as e:
        naqala.load_game("oware").deserialize_state("1,2,3")
    assert str(e.value) in cli_error(["state", "oware", "--position", "1,2,3"])
    assert isinstance(e.value, ValueError)


def test_engine_and_analysis():
    game = naqala.load_game("kalah")
    state = game.new_initial_state()
    engine = naqala.Engine("alphabeta:depth=4")
    action = engine.best_move(state)
    assert action in state.legal_actions()
    info = engine.analyze(state, depth=4)
    assert info["depth"] == 4
    assert info["best_action"] in state.legal_actions()
    assert {s["move"] for s in info["scores"]} == {state.action_to_string(a) for a in state.legal_actions()}
    assert naqala.Engine("level:2").best_move(state, seconds=0.05) in state.legal_actions()
    with pytest.raises(naqala.VariantError):
        naqala.Engine("turbo").best_move(state)


def test_prover_on_a_small_kalah_ending():
    state = naqala.load_game("kalah").deserialize_state("0,0,0,0,1,1/1,0,0,0,0,0/20,25/S")
    proof = naqala.prove(state)
    assert proof["decided"] and proof["exact"]
