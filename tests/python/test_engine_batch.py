# Engine moves in batch: one call for many states (the GIL released), the same moves as one
# call per state; limits by depth and nodes only, so the answers are the same on any machine.
import random

import pytest

import naqala


def random_states(variant, count, seed):
    game = naqala.load_game(variant)
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        s = game.new_initial_state()
        for _ in range(rng.randrange(0, 20)):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal() and not s.is_chance_node():
            states.append(s)
    return states


@pytest.mark.parametrize("variant,spec,limits", [
    ("oware", "alphabeta", {"depth": 5}),
    ("kalah", "alphabeta", {"nodes": 20000}),
    ("bao", "alphabeta", {"depth": 2}),
    ("backgammon", "alphabeta", {"depth": 1}),
    ("kalah", "mcts:seed=3", {"nodes": 300}),
])
def test_best_moves_equals_best_move_state_by_state(variant, spec, limits):
    states = random_states(variant, 8, seed=5)
    batch = naqala.Engine(spec).best_moves(states, **limits)
    one_by_one = naqala.Engine(spec)
    assert batch == [one_by_one.best_move(s, **limits) for s in states]
    for s, a in zip(states, batch):
        assert a in s.legal_actions()


def test_best_moves_takes_states_of_several_games():
    states = random_states("kalah", 3, seed=1) + random_states("oware", 3, seed=2)
    engine = naqala.Engine("alphabeta")
    moves = engine.best_moves(states, depth=3)
    assert len(moves) == 6
    assert all(a in s.legal_actions() for s, a in zip(states, moves))


def test_best_moves_finds_a_forced_capture():
    # South's pit 3 (2 seeds) ends in his empty pit 5, opposite 9 seeds: the capture wins.
    s = naqala.load_game("kalah").deserialize_state("0,0,2,0,0,0/0,9,0,0,0,0/20,17/S")
    assert naqala.Engine("alphabeta").best_moves([s], depth=4) == [s.string_to_action("3")]


def test_best_moves_names_the_state_that_cannot_move():
    game = naqala.load_game("kalah")
    over = game.deserialize_state("0,0,0,0,0,0/0,0,0,0,0,0/26,22/S")
    states = [game.new_initial_state(), over]
    with pytest.raises(naqala.IllegalMoveError, match="state 1: the game is over"):
        naqala.Engine("alphabeta").best_moves(states, depth=2)
    dice = naqala.load_game("backgammon").new_initial_state()
    assert dice.is_chance_node()
    with pytest.raises(naqala.IllegalMoveError, match="state 0: a chance event"):
        naqala.Engine("alphabeta").best_moves([dice], depth=1)
    with pytest.raises(TypeError, match="item 0 is a int, not a naqala.State"):
        naqala.Engine("alphabeta").best_moves([1, 2], depth=1)
    with pytest.raises(naqala.Error, match="seconds and depth"):
        naqala.Engine("alphabeta").best_moves([game.new_initial_state()], depth=-1)
