#pragma once
// Small games written for the search tests, each small enough to solve exhaustively:
// - TinyKalah<N>: Kalah on 2 x N pits (extra turn in own store, capture of the opposite pit,
//   the game ends when a row is empty and each side keeps its own seeds);
// - DiceRace: a two-player dice race with a chance node before every decision;
// - Ring: a token walks a ring; a repeated position ends the game (CycleEndingState);
// - Shuttle: a capture, then a forced cycle back to the position right after it.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/outcome.h"
#include "core/static_vector.h"
#include "search/values.h"

namespace naqala::test {

inline std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

template <int N>
class TinyKalah {
 public:
  using Move = std::uint8_t;
  using MoveList = StaticVector<Move, N>;

  explicit TinyKalah(int seeds = 2) {
    for (int i = 0; i < 2 * N; ++i) board_[i] = static_cast<std::uint8_t>(seeds);
  }
  static TinyKalah from(const std::array<int, 2 * N + 2>& board, Player mover) {
    TinyKalah s(0);
    for (int i = 0; i < 2 * N + 2; ++i) s.board_[i] = static_cast<std::uint8_t>(board[i]);
    s.mover_ = mover;
    s.check_end();
    return s;
  }

  Player to_move() const { return mover_; }
  bool is_over() const { return over_; }
  void legal_moves(MoveList& moves) const {
    moves.clear();
    const int first = index(mover_) * N;
    for (int i = 0; i < N; ++i)
      if (board_[first + i] > 0) moves.push_back(static_cast<Move>(i));
  }
  void play(Move m) {
    const int p = index(mover_);
    const int own_store = 2 * N + p, other_store = 2 * N + 1 - p;
    int hole = p * N + m;
    int seeds = board_[hole];
    board_[hole] = 0;
    while (seeds > 0) {
      hole = next(hole);
      if (hole == other_store) continue;
      ++board_[hole];
      --seeds;
    }
    if (hole != own_store && hole / N == p && hole < 2 * N && board_[hole] == 1) {
      const int opposite = 2 * N - 1 - hole;
      if (board_[opposite] > 0) {
        board_[own_store] += board_[opposite] + 1;
        board_[opposite] = 0;
        board_[hole] = 0;
      }
    }
    if (hole != own_store) mover_ = opponent(mover_);
    check_end();
  }
  Outcome outcome() const {
    Outcome o;
    o.scores = {board_[2 * N], board_[2 * N + 1]};
    if (o.scores[0] != o.scores[1])
      o.winner = o.scores[0] > o.scores[1] ? Player::South : Player::North;
    o.reason = over_ ? EndReason::RowEmpty : EndReason::None;
    return o;
  }
  std::uint64_t hash() const {
    std::uint64_t h = index(mover_);
    for (auto b : board_) h = mix(h * 131 + b);
    return h;
  }
  int store(Player p) const { return board_[2 * N + index(p)]; }
  int row(Player p) const {
    int sum = 0;
    for (int i = 0; i < N; ++i) sum += board_[index(p) * N + i];
    return sum;
  }
  bool operator==(const TinyKalah&) const = default;

 private:
  static int next(int hole) {
    // South's pits 0..N-1, South's store 2N, North's pits N..2N-1, North's store 2N+1.
    if (hole == N - 1) return 2 * N;
    if (hole == 2 * N) return N;
    if (hole == 2 * N - 1) return 2 * N + 1;
    if (hole == 2 * N + 1) return 0;
    return hole + 1;
  }
  void check_end() {
    if (row(Player::South) == 0 || row(Player::North) == 0) {
      for (int i = 0; i < N; ++i) {
        board_[2 * N] += board_[i];
        board_[2 * N + 1] += board_[N + i];
        board_[i] = board_[N + i] = 0;
      }
      over_ = true;
    }
  }
  std::array<std::uint8_t, 2 * N + 2> board_{};
  Player mover_ = Player::South;
  bool over_ = false;
};

// Store difference in points for the side to move: a plain evaluation for the tiny Kalah.
struct TinyKalahEval {
  template <int N>
  int operator()(const TinyKalah<N>& s) const {
    return search::kPoint * (s.store(s.to_move()) - s.store(opponent(s.to_move())));
  }
};

// Each turn starts with a roll of 1-3 (a chance node); the mover then adds the roll to his own
// score or takes it from the other's. The first to reach the target wins by the difference;
// after eight turns the higher score wins.
class DiceRace {
 public:
  using Move = std::uint8_t;  // 0 = add to own, 1 = take from other
  using MoveList = StaticVector<Move, 2>;
  using Chance = std::uint8_t;
  struct ChanceOutcome {
    Chance chance;
    double probability;
  };
  using ChanceList = StaticVector<ChanceOutcome, 3>;

  explicit DiceRace(int target = 6) : target_(static_cast<std::uint8_t>(target)) {}
  Player to_move() const { return mover_; }
  bool is_over() const { return score_[0] >= target_ || score_[1] >= target_ || turns_ >= kTurns; }
  bool is_chance_node() const { return roll_ == 0; }
  void chance_outcomes(ChanceList& list) const {
    list.clear();
    list.push_back({1, 0.5});
    list.push_back({2, 0.25});
    list.push_back({3, 0.25});
  }
  void apply_chance(Chance c) { roll_ = c; }
  void legal_moves(MoveList& moves) const {
    moves.clear();
    moves.push_back(0);
    if (score_[1 - index(mover_)] > 0) moves.push_back(1);
  }
  void play(Move m) {
    const int me = index(mover_);
    if (m == 0) {
      score_[me] += roll_;
    } else {
      score_[1 - me] = static_cast<std::uint8_t>(std::max(0, score_[1 - me] - roll_));
    }
    roll_ = 0;
    ++turns_;
    mover_ = opponent(mover_);
  }
  Outcome outcome() const {
    Outcome o;
    o.scores = {score_[0], score_[1]};
    if (score_[0] >= target_ || score_[1] >= target_)
      o.winner = score_[0] >= target_ ? Player::South : Player::North;
    else if (is_over() && score_[0] != score_[1])
      o.winner = score_[0] > score_[1] ? Player::South : Player::North;
    o.reason = is_over() ? EndReason::Threshold : EndReason::None;
    return o;
  }
  std::uint64_t hash() const {
    return mix((static_cast<std::uint64_t>(turns_) << 32) |
               (static_cast<std::uint64_t>(score_[0]) << 24) | (score_[1] << 16) | (roll_ << 8) |
               index(mover_));
  }

 private:
  std::array<std::uint8_t, 2> score_{};
  static constexpr int kTurns = 8;  // then the higher score wins
  std::uint8_t roll_ = 0;
  std::uint8_t turns_ = 0;
  std::uint8_t target_;
  Player mover_ = Player::South;
};

struct DiceRaceEval {
  int operator()(const DiceRace&) const { return 0; }
};

// What Ring and Shuttle share: a token on a cell, each player's points, and the end of the game
// by a repeated position (CycleEndingState).
class TokenGame {
 public:
  Player to_move() const { return mover_; }
  std::uint64_t hash() const {
    return mix(cell_ * 64 + points_[0] * 8 + points_[1] * 2 + index(mover_));
  }
  bool ends_on_cycle() const { return true; }
  void end_by_cycle() { ended_ = true; }
  std::uint64_t irreversible_count() const { return points_[0] + points_[1]; }

 protected:
  explicit TokenGame(int cell) : cell_(static_cast<std::uint8_t>(cell)) {}
  static Outcome scored(int south, int north, EndReason reason) {
    Outcome o;
    o.scores = {south, north};
    if (south != north) o.winner = south > north ? Player::South : Player::North;
    o.reason = reason;
    return o;
  }
  std::uint8_t cell_;
  std::array<std::uint8_t, 2> points_{};
  Player mover_ = Player::South;
  bool ended_ = false;
};

// A token on a ring of 5 cells. A move steps it 1 or 2 cells; landing on cell 0 scores a point
// for the mover, and 3 points win. A repeated position ends the game: the player with more
// points wins (a draw on equal points).
class Ring : public TokenGame {
 public:
  using Move = std::uint8_t;
  using MoveList = StaticVector<Move, 2>;
  Ring() : TokenGame(1) {}
  bool is_over() const { return ended_ || points_[0] >= 3 || points_[1] >= 3; }
  void legal_moves(MoveList& moves) const {
    moves.clear();
    moves.push_back(1);
    moves.push_back(2);
  }
  void play(Move m) {
    cell_ = static_cast<std::uint8_t>((cell_ + m) % 5);
    if (cell_ == 0) ++points_[index(mover_)];
    mover_ = opponent(mover_);
  }
  Outcome outcome() const {
    return scored(points_[0], points_[1], ended_ ? EndReason::Cycle : EndReason::Threshold);
  }
};

struct RingEval {
  int operator()(const Ring&) const { return 0; }
};

// One forced line: South's first move captures a point and puts the token on cell 1 (North to
// move); from there the token shuttles 1 -> 2 -> 1 ... A repeated position ends the game and
// the owner of the token's cell (1: North, 2: South) takes 2 points, so it matters at which
// position the cycle is scored: at the first recurrence (cell 1) North wins 2-1.
class Shuttle : public TokenGame {
 public:
  using Move = std::uint8_t;
  using MoveList = StaticVector<Move, 1>;
  Shuttle() : TokenGame(0) {}
  bool is_over() const { return ended_; }
  void legal_moves(MoveList& moves) const {
    moves.clear();
    moves.push_back(0);
  }
  void play(Move) {
    if (cell_ == 0) ++points_[index(mover_)];
    cell_ = cell_ == 1 ? 2 : 1;
    mover_ = opponent(mover_);
  }
  Outcome outcome() const {
    const int bonus = ended_ ? 2 : 0;
    return scored(points_[0] + (cell_ == 2 ? bonus : 0), points_[1] + (cell_ == 1 ? bonus : 0),
                  ended_ ? EndReason::Cycle : EndReason::None);
  }
};

struct ShuttleEval {
  int operator()(const Shuttle&) const { return 0; }
};

}  // namespace naqala::test
