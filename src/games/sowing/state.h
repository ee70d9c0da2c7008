#pragma once
// A position of a two-row sowing game, and the one engine that plays every ruleset.
// The state is a small value (copy = undo); the rules are shared and read-only.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/outcome.h"
#include "core/static_vector.h"
#include "games/sowing/rules.h"

namespace naqala::sowing {

class State {
 public:
  using Move = std::uint16_t;  // the pit's index in the mover's row, 0 = his leftmost
  using MoveList = StaticVector<Move, kMaxPitsPerRow>;

  static State initial(const Rules& rules);
  // Parses the position text of docs/notation.md; throws ParseError.
  static State from_position(const Rules& rules, std::string_view text);

  Player to_move() const { return mover_; }
  bool is_over() const { return reason_ != EndReason::None; }
  void legal_moves(MoveList& moves) const;
  void play(Move move);
  Outcome outcome() const;
  std::uint64_t hash() const;

  bool ends_on_cycle() const { return rules_->cycle != CycleRule::None; }
  void end_by_cycle();
  // Grows with every capture and never shrinks: positions before it cannot come back.
  std::uint64_t irreversible_count() const { return store(Player::South) + store(Player::North); }

  std::string format_move(Move move) const { return std::to_string(move + 1); }
  std::optional<Move> parse_move(std::string_view text) const;
  std::string position() const;
  std::string render() const;
  nlohmann::json board_json() const;

  const Rules& rules() const { return *rules_; }
  int seeds(int hole) const { return board_[hole]; }
  int store(Player p) const { return board_[rules_->store(p)]; }
  int pit(Player p, int i) const { return board_[rules_->first_pit(p) + i]; }
  int row_seeds(Player p) const;

 private:
  State() = default;
  int sow(int origin);            // sows from `origin`, returns the hole of the last seed
  void capture(int last);         // applies the capture rule at the last hole
  bool feeds(Move move) const;    // the move leaves seeds in the opponent's row
  bool is_grand_slam(Move move) const;
  int grand_slam_take(int last) const;  // seeds a counts-capture at `last` would take
  void after_move(bool extra_turn);
  void check_end(Player moved);  // `moved` just played (or would have)
  void end(EndReason reason, Remaining remaining, std::optional<Player> emptied);

  const Rules* rules_ = nullptr;
  std::array<std::uint8_t, kMaxHoles> board_{};
  Player mover_ = Player::South;
  EndReason reason_ = EndReason::None;
  // How the result is decided once the game is over: by the stores, or fixed.
  enum class Result : std::uint8_t { ByStores, Draw, SouthWins, NorthWins } result_ = Result::ByStores;
};

inline int State::row_seeds(Player p) const {
  const int first = rules_->first_pit(p);
  int sum = 0;
  for (int i = 0; i < rules_->pits; ++i) sum += board_[first + i];
  return sum;
}

inline int State::sow(int origin) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const auto& next = r.next[p];
  int seeds = board_[origin];
  board_[origin] = 0;
  int hole = origin;
  if (r.start == SowStart::Origin && seeds > 1) {
    board_[origin] = 1;
    --seeds;
  }
  if (r.skip_full == 0) {
    // Whole laps at once: each lap puts one seed in every hole of the ring (but the origin,
    // when it is skipped). Keep at least one seed for the loop so `hole` ends right.
    const int lap = r.cycle_length[p] - (r.skip_origin ? 1 : 0);
    if (seeds > lap) {
      const int laps = (seeds - 1) / lap;
      seeds -= laps * lap;
      for (int h = 0; h < r.holes; ++h)
        if (next[h] != 0xff && !(r.skip_origin && h == origin)) board_[h] += laps;
    }
    if (r.skip_origin) {
      do {
        hole = next[hole];
        if (hole == origin) hole = next[hole];
        ++board_[hole];
      } while (--seeds);
    } else {
      do {
        hole = next[hole];
        ++board_[hole];
      } while (--seeds);
    }
    return hole;
  }
  // S0's 12+ rule: full pits are passed over. A ring where every hole is full would never
  // take the seed, so after one fruitless round the seed goes into the next hole anyway.
  while (seeds) {
    int passed = 0;
    do {
      hole = next[hole];
      if (r.skip_origin && hole == origin) hole = next[hole];
    } while (board_[hole] >= r.skip_full && r.is_pit(hole) && ++passed < r.cycle_length[p]);
    ++board_[hole];
    --seeds;
  }
  return hole;
}

inline void State::legal_moves(MoveList& moves) const {
  moves.clear();
  const Rules& r = *rules_;
  const int first = r.first_pit(mover_);
  for (int i = 0; i < r.pits; ++i)
    if (board_[first + i] >= r.min_seeds) moves.push_back(static_cast<Move>(i));
  if (r.must_feed && row_seeds(opponent(mover_)) == 0) {
    MoveList feeding;
    for (Move m : moves)
      if (feeds(m)) feeding.push_back(m);
    moves = feeding;
  }
  if (r.grand_slam == GrandSlam::Forbidden && r.capture == CaptureKind::Counts) {
    MoveList allowed;
    for (Move m : moves)
      if (!is_grand_slam(m)) allowed.push_back(m);
    moves = allowed;
  }
}

inline void State::play(Move move) {
  const Rules& r = *rules_;
  const int last = sow(r.first_pit(mover_) + move);
  capture(last);
  if (is_over()) return;
  after_move(r.extra_turn && last == r.store(mover_));
}

}  // namespace naqala::sowing
