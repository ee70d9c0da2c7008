#pragma once
// TypedState<S>: the AnyState of any TextGameState. It also keeps the history of hashes
// for games that end when a position repeats (CycleEndingState).
#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/alarm.h"
#include "core/error.h"
#include "games/any_game.h"
#include "games/game.h"

namespace naqala {

// Ends a game by repetition for CycleEndingState games: remembers the positions since the
// last irreversible change (a capture: the stores only grow) and calls end_by_cycle() when
// one comes back. Costs nothing for other games.
template <class S>
class RepetitionTracker {
 public:
  void clear() {
    history_.clear();
    seen_ = {};
  }
  void after(S& s) {
    if constexpr (CycleEndingState<S>) {
      if (!s.ends_on_cycle() || s.is_over()) return;
      if constexpr (requires { s.irreversible_count(); }) {
        if (s.irreversible_count() != progress_) {
          progress_ = s.irreversible_count();
          clear();
        }
      }
      const auto h = s.hash();
      // A 512-bit filter of the keys seen: most positions are new and skip the scan. (64 bits
      // filled up in Oware's long stretches without a capture, and then every ply scanned.)
      std::uint64_t& word = seen_[h >> 61];
      const std::uint64_t bit = 1ULL << ((h >> 55) & 63);
      if ((word & bit) && std::find(history_.begin(), history_.end(), h) != history_.end()) {
        s.end_by_cycle();
        return;
      }
      word |= bit;
      history_.push_back(h);
    }
  }
  // The hashes of the positions since the last irreversible change, the current one last.
  std::span<const std::uint64_t> positions() const { return history_; }

 private:
  std::vector<std::uint64_t> history_;
  std::array<std::uint64_t, 8> seen_{};
  std::uint64_t progress_ = ~0ULL;
};

template <TextGameState S>
class TypedState : public AnyState {
 public:
  // `owner` keeps alive whatever the state points into (a ruleset, tables).
  TypedState(S state, std::shared_ptr<const void> owner) : state_(state), owner_(std::move(owner)) {
    remember();
  }

  const S& typed() const { return state_; }
  // The game so far as a search needs it: the positions a repetition could come back to (for
  // games that end on a cycle; empty for the others), the current one last.
  std::span<const std::uint64_t> history() const { return repetition_.positions(); }
  S& typed() { return state_; }

  std::unique_ptr<AnyState> clone() const override { return std::make_unique<TypedState>(*this); }
  Player to_move() const override { return state_.to_move(); }
  bool is_over() const override { return state_.is_over(); }
  Outcome outcome() const override { return state_.outcome(); }
  std::uint64_t hash() const override { return state_.hash(); }

  std::vector<std::string> legal_moves() const override {
    std::vector<std::string> out;
    if (state_.is_over()) return out;
    typename S::MoveList moves;
    state_.legal_moves(moves);
    for (auto m : moves) out.push_back(std::string(state_.format_move(m)));
    return out;
  }

  void play(std::string_view text) override {
    if (state_.is_over()) throw IllegalMoveError("the game is over; no move can be played");
    auto move = state_.parse_move(text);
    if (!move)
      throw ParseError("'" + std::string(text) +
                       "' is not a move of this game; legal moves: " + join_moves(legal_moves()));
    typename S::MoveList moves;
    state_.legal_moves(moves);
    if (!moves.contains(*move))
      throw IllegalMoveError("move '" + std::string(text) +
                             "' is not legal here; legal moves: " + join_moves(legal_moves()));
    play_typed(*move);
  }

  // Plays a move known to be legal, keeping the repetition history.
  void play_typed(typename S::Move move) {
    state_.play(move);
    remember();
  }

  bool joint_pending() const override {
    if constexpr (requires { state_.joint_pending(); })
      return state_.joint_pending();
    else
      return false;
  }

  bool in_setup() const override {
    if constexpr (requires { state_.in_setup(); })
      return state_.in_setup() && !state_.is_over();
    else
      return false;
  }

  std::optional<std::string> opening_setup_move(Rng& rng) const override {
    if constexpr (requires { state_.spread_setup_move(&rng); })
      if (in_setup()) return std::string(state_.format_move(state_.spread_setup_move(&rng)));
    return std::nullopt;
  }

  std::optional<std::string> uniform_setup_move(Rng& rng) const override {
    if constexpr (requires { state_.uniform_setup_move(rng); })
      if (in_setup()) return std::string(state_.format_move(state_.uniform_setup_move(rng)));
    return std::nullopt;
  }

  std::vector<std::uint64_t> perft(int depth) const override {
    std::vector<std::uint64_t> counts(depth, 0);
    if (depth > 0) perft_typed(state_, 0, depth, counts);
    return counts;
  }

  RandomPlayStats play_random(std::uint64_t seed, double seconds) const override {
    Rng rng(seed);
    RandomPlayStats stats;
    const Alarm alarm(seconds);  // asked every ply: no move, however long, runs past it
    typename S::MoveList moves;
    RepetitionTracker<S> repetition;
    do {
      S s = state_;
      repetition.clear();
      while (!s.is_over()) {
        if constexpr (ChanceGameState<S>) {
          if (s.is_chance_node()) {
            s.apply_chance(sample(s, rng));
            continue;
          }
        }
        s.legal_moves(moves);
        s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
        repetition.after(s);
        ++stats.plies;
        if (alarm.rang()) {
          stats.unfinished = !s.is_over();
          stats.games += s.is_over();
          return stats;
        }
      }
      ++stats.games;
    } while (!alarm.rang());
    return stats;
  }

  std::string position() const override { return std::string(state_.position()); }
  std::string render() const override { return std::string(state_.render()); }
  // Defined in typed_state_json.h and instantiated once per family (its family.cpp), so that
  // this header, included by every engine, need not parse json.hpp.
  nlohmann::json board_json() const override;

 private:
  static void perft_typed(const S& s, int ply, int depth, std::vector<std::uint64_t>& counts) {
    if (s.is_over()) return;
    if constexpr (ChanceGameState<S>) {
      if (s.is_chance_node()) {
        typename S::ChanceList outcomes;
        s.chance_outcomes(outcomes);
        for (const auto& c : outcomes) {
          S next = s;
          next.apply_chance(c.chance);
          perft_typed(next, ply, depth, counts);
        }
        return;
      }
    }
    typename S::MoveList moves;
    s.legal_moves(moves);
    counts[ply] += moves.size();
    if (ply + 1 == depth) return;
    for (auto m : moves) {
      S next = s;
      next.play(m);
      perft_typed(next, ply + 1, depth, counts);
    }
  }

  template <class T>
  static typename T::Chance sample(const T& s, Rng& rng) {
    typename T::ChanceList outcomes;
    s.chance_outcomes(outcomes);
    double u = rng.uniform();
    for (const auto& c : outcomes) {
      if (u < c.probability) return c.chance;
      u -= c.probability;
    }
    return outcomes[outcomes.size() - 1].chance;
  }

  void remember() { repetition_.after(state_); }

  S state_;
  std::shared_ptr<const void> owner_;
  RepetitionTracker<S> repetition_;
};

}  // namespace naqala
