#pragma once
// A position of a two-row sowing game, and the one engine that plays every ruleset.
// The state is a small value (copy = undo); the rules are shared and read-only.
#include <array>
#include <cstdint>
#include <cstring>
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
  void check_turn_start();        // feeding and forbidden grand slams: can the mover move?
  void end(EndReason reason, Remaining remaining, std::optional<Player> emptied);

  const Rules* rules_ = nullptr;
  std::array<std::uint8_t, kMaxHoles> board_{};
  Player mover_ = Player::South;
  EndReason reason_ = EndReason::None;
  // How the result is decided once the game is over: by the stores, or fixed.
  enum class Result : std::uint8_t { ByStores, Draw, SouthWins, NorthWins } result_ = Result::ByStores;
};

inline int State::row_seeds(Player p) const {
  const Rules& r = *rules_;
  const int first = r.first_pit(p);
  if (r.pits <= 8) {
    // Up to eight pits at once: one load, a mask, and a multiply that adds the bytes
    // (exact because a board never holds more than 255 seeds).
    std::uint64_t row;
    std::memcpy(&row, board_.data() + first, sizeof row);
    row &= r.row_mask;
    return static_cast<int>((row * 0x0101010101010101ULL) >> 56);
  }
  int sum = 0;
  for (int i = 0; i < r.pits; ++i) sum += board_[first + i];
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
  const Rules& r = *rules_;
  const int first = r.first_pit(mover_), pits = r.pits, min_seeds = r.min_seeds;
  Move* out = moves.data();
  std::size_t n = 0;
  for (int i = 0; i < pits; ++i) {  // branch-free: which pits hold seeds is unpredictable
    out[n] = static_cast<Move>(i);
    n += board_[first + i] >= min_seeds;
  }
  moves.set_size(n);
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

inline int State::grand_slam_take(int last) const {
  const Rules& r = *rules_;
  const auto& prev = r.prev[index(mover_)];
  int take = 0;
  for (int h = last; r.is_pit(h) && r.owner(h) != mover_ && board_[h] < 32 &&
                     ((r.count_mask >> board_[h]) & 1);
       h = prev[h]) {
    take += board_[h];
    if (!r.chain) break;
  }
  return take;
}

inline void State::capture(int last) {
  const Rules& r = *rules_;
  switch (r.capture) {
    case CaptureKind::None:
      return;
    case CaptureKind::Opposite: {
      if (!r.is_pit(last) || r.owner(last) != mover_ || board_[last] != 1) return;
      const int opposite = r.opposite(last);
      if (board_[opposite] == 0 && !r.empty_capture) return;
      board_[r.store(mover_)] += board_[opposite] + 1;
      board_[opposite] = 0;
      board_[last] = 0;
      return;
    }
    case CaptureKind::Counts: {
      const int take = grand_slam_take(last);
      if (take == 0) return;
      const bool grand_slam = take == row_seeds(opponent(mover_));
      if (grand_slam && r.grand_slam != GrandSlam::CaptureAll) return;  // no_capture (forbidden never gets here)
      const auto& prev = r.prev[index(mover_)];
      int h = last;
      for (int taken = 0; taken < take; h = prev[h]) {
        taken += board_[h];
        board_[r.store(mover_)] += board_[h];
        board_[h] = 0;
      }
      if (grand_slam) {
        // The capturer also takes what is left on his own side, and the game ends.
        const int first = r.first_pit(mover_);
        for (int i = 0; i < r.pits; ++i) {
          board_[r.store(mover_)] += board_[first + i];
          board_[first + i] = 0;
        }
        reason_ = EndReason::GrandSlam;
      }
      return;
    }
  }
}

inline void State::after_move(bool extra_turn) {
  const Player moved = mover_;
  if (!extra_turn) mover_ = opponent(mover_);
  check_end(moved);
}

inline void State::check_end(Player moved) {
  const Rules& r = *rules_;
  if (r.threshold) {
    const int s = store(Player::South), n = store(Player::North);
    if (s >= r.threshold || n >= r.threshold) return end(EndReason::Threshold, Remaining::None, {});
    if (r.draw_at_half && 2 * s == r.total_seeds && 2 * n == r.total_seeds)
      return end(EndReason::Threshold, Remaining::None, {});
  }
  if (r.row_empty == RowEmptyCheck::Immediate) {
    const bool south_empty = row_seeds(Player::South) == 0;
    const bool north_empty = row_seeds(Player::North) == 0;
    if (!south_empty && !north_empty) return;
    // Both rows empty at once: the mover's row emptied first, while he sowed.
    const Player emptied = south_empty && north_empty ? moved : (south_empty ? Player::South : Player::North);
    return end(EndReason::RowEmpty, r.remaining, emptied);
  }
  // At the start of the mover's turn: can he move at all?
  const int first = r.first_pit(mover_);
  bool has_pit = false;
  if (r.min_seeds == 1) {
    has_pit = row_seeds(mover_) != 0;
  } else {
    for (int i = 0; i < r.pits && !has_pit; ++i) has_pit = board_[first + i] >= r.min_seeds;
  }
  if (!has_pit) return end(EndReason::NoMove, r.remaining, mover_);
  if ((r.must_feed && row_seeds(opponent(mover_)) == 0) || r.grand_slam == GrandSlam::Forbidden)
    check_turn_start();
}

inline void State::play(Move move) {
  const Rules& r = *rules_;
  const int last = sow(r.first_pit(mover_) + move);
  capture(last);
  if (is_over()) return;
  after_move(r.extra_turn && last == r.store(mover_));
}

}  // namespace naqala::sowing
