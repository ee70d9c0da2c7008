# VectorEnv against single states: the same actions give the same observations, masks,
# rewards, players and automatic restarts.
import numpy as np
import pytest

import naqala


@pytest.mark.parametrize("variant", ["kalah", "oware", "toguz", "awale"])
def test_vector_env_follows_single_states(variant):
    n = 6
    env = naqala.VectorEnv(variant, n, seed=3)
    game = naqala.load_game(variant)
    obs, info = env.reset()
    singles = [game.new_initial_state() for _ in range(n)]
    assert obs.shape == (n,) + tuple(game.observation_tensor_shape())
    finished = 0
    for _ in range(400):
        for i, s in enumerate(singles):
            assert np.array_equal(obs[i], s.observation_tensor())
            assert np.array_equal(info["legal_mask"][i], s.legal_actions_mask().astype(bool))
            assert info["current_player"][i] == s.current_player()
            assert env.position(i) == s.serialize()
        actions = env.sample_legal()
        assert actions.shape == (n,)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.shape == (n, 2)
        for i, s in enumerate(singles):
            s.apply_action(int(actions[i]))
            if terminated[i]:
                assert s.is_terminal()
                assert list(rewards[i]) == s.returns()
                finished += 1
                singles[i] = game.new_initial_state()  # the automatic restart
            else:
                assert not s.is_terminal()
                assert list(rewards[i]) == [0.0, 0.0]
    assert finished > 0


def test_backgammon_rolls_inside_the_env():
    env = naqala.VectorEnv("backgammon", 4, seed=1)
    game = naqala.load_game("backgammon")
    obs, info = env.reset()
    for _ in range(50):
        for i in range(4):
            single = game.deserialize_state(env.position(i))
            assert not single.is_chance_node()
            assert np.array_equal(info["legal_mask"][i], single.legal_actions_mask().astype(bool))
            assert np.array_equal(obs[i], single.observation_tensor())
        obs, rewards, terminated, truncated, info = env.step(env.sample_legal())


def test_an_illegal_action_moves_no_game():
    env = naqala.VectorEnv("oware", 3, seed=0)
    env.reset()
    before = [env.position(i) for i in range(3)]
    with pytest.raises(naqala.IllegalMoveError) as e:
        env.step(np.array([0, 1, 99]))
    assert "game 2: action 99 is not legal there" in str(e.value)
    assert [env.position(i) for i in range(3)] == before
    with pytest.raises(naqala.Error):
        env.step(np.array([0, 1]))


def test_truncation_restarts_long_games():
    env = naqala.VectorEnv("oware", 2, seed=0, max_episode_steps=5)
    env.reset()
    for step in range(5):
        _, _, terminated, truncated, _ = env.step(env.sample_legal())
    assert truncated.all() and not terminated.any()
    start = naqala.load_game("oware").new_initial_state().serialize()
    assert env.position(0) == start


def test_reset_with_a_seed_repeats_the_games():
    def run():
        env = naqala.VectorEnv("kalah", 4, seed=0)
        env.reset(seed=11)
        for _ in range(20):
            env.step(env.sample_legal())
        return [env.position(i) for i in range(4)]

    assert run() == run()


def test_copy_false_reuses_the_arrays_and_copy_true_does_not():
    kept = naqala.VectorEnv("kalah", 4, seed=2)
    obs, info = kept.reset()
    obs2, _, _, _, info2 = kept.step(kept.sample_legal())
    assert obs is not obs2 and info["legal_mask"] is not info2["legal_mask"]
    reused = naqala.VectorEnv("kalah", 4, seed=2, copy=False)
    first, first_info = reused.reset()
    second, rewards, terminated, truncated, second_info = reused.step(reused.sample_legal())
    assert second is first and second_info["legal_mask"] is first_info["legal_mask"]
    # The same games either way: only the arrays differ.
    assert np.array_equal(second, obs2) and np.array_equal(second_info["legal_mask"],
                                                           info2["legal_mask"])


def test_masks_are_bool_and_sample_legal_follows_them():
    env = naqala.VectorEnv("oware", 64, seed=5)
    _, info = env.reset()
    for _ in range(300):
        mask = info["legal_mask"]
        assert mask.dtype == np.bool_
        actions = env.sample_legal()
        assert mask[np.arange(64), actions].all()
        _, _, _, _, info = env.step(actions)


@pytest.mark.parametrize("variant", ["oware", "awale"])
def test_the_mask_feeds_a_starving_opponent(variant):
    # Where the opponent's row is empty only the moves that feed him are legal: the env's mask
    # (read off the board elsewhere) must then be the single state's.
    n = 64
    env = naqala.VectorEnv(variant, n, seed=5)
    game = naqala.load_game(variant)
    obs, info = env.reset()
    starving = 0
    for _ in range(200):
        for i in range(n):
            opponent_row = obs[i][0:6] if obs[i][-1] == 1 else obs[i][6:12]
            if info["current_player"][i] >= 0 and not opponent_row.any():
                starving += 1
                single = game.deserialize_state(env.position(i))
                assert np.array_equal(info["legal_mask"][i],
                                      single.legal_actions_mask().astype(bool))
        obs, _, _, _, info = env.step(env.sample_legal())
    assert starving > 0
