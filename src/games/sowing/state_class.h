#pragma once
// The State class of the sowing engine: a position (a small value: copy = undo) over shared,
// read-only rules. Include games/sowing/state.h, which adds the inline fast path; the members
// are defined by concern, each rule's scalar, vector and general versions side by side:
//   sowing.h    sowing and laps          capture.h   captures
//   turn.h/.cpp moves, turns, the end    rounds.cpp  setup, pie rule, rounds
//   lockstep.cpp Congklak's simultaneous start      text.cpp    moves and positions as text
// docs/games/<preset>.md explains each rule; every place that enforces one names it.
#include <array>
#include <cstdint>
#include <cstring>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/outcome.h"
#include "core/static_vector.h"
#include "games/sowing/rules.h"

namespace naqala::sowing {

// "S3", "N7" (a pit of a row, counted from its owner's left) or "M4" (Gabata's middle row).
std::string pit_name(const Rules& r, int hole);

class State {
 public:
  // A sowing: the pit's number along the mover's path, 0 = his leftmost pit (on the fast path
  // always a pit of his row). The general path adds kinds in the high bits.
  using Move = std::uint16_t;
  // Setup counts (up to 98 seeds) and Congklak's joint first moves (9 x 9) are the longest lists.
  using MoveList = StaticVector<Move, 128>;
  static constexpr Move kTuz = 0x40;   // with a sowing: declare the tuz it makes
  static constexpr Move kGift = 0x80;  // Awale's one-seed gift from this pit
  static constexpr Move kKind = 0xf000;
  static constexpr Move kJoint = 0x1000;  // Congklak's start: South's label | North's << 6
  static constexpr Move kSetup = 0x2000;  // seeds for the next pit of the layout
  static constexpr Move kPie = 0x3000;    // 0 keep, 1 swap
  static constexpr Move kClaim = 0x4000;  // Nam-Nam: mask of the loser's pits claimed

  // Joint: both choose at once (kJoint moves); JointTurn: inside that lock-step, one player
  // alone chooses his next sowing (plain pit moves) while the other's waits in his hand.
  enum class Phase : std::uint8_t { Play, Setup, Pie, Joint, Claim, JointTurn };

  static State initial(const Rules& rules);
  // Parses the position text of docs/notation.md; throws ParseError.
  static State from_position(const Rules& rules, std::string_view text);
  // A fast-path position from its pits alone (South's row then North's, each from its owner's
  // left; stores empty), `mover` to move, checked as a position starts (can he move at all?).
  // The endgame databases of src/solve enumerate boards with it.
  static State from_pits(const Rules& rules, const std::uint8_t* pits, Player mover);

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

  std::string format_move(Move move) const {
    return rules_->general ? format_general(move) : std::to_string(move + 1);
  }
  std::optional<Move> parse_move(std::string_view text) const;
  std::string position() const;
  std::string render() const;
  nlohmann::json board_json() const;

  const Rules& rules() const { return *rules_; }
  int seeds(int hole) const { return board_[hole]; }
  int store(Player p) const { return board_[rules_->store(p)]; }
  int pit(Player p, int i) const { return board_[rules_->first_pit(p) + i]; }
  int row_seeds(Player p) const;
  bool row_empty(Player p) const;

  // A uniformly random legal move: the one legal_moves() and rng.below(size) would give, found
  // without building the list where the rules allow (random playouts).
  template <class Random>
  Move random_move(Random& rng) const;

  // General-path state (all zero for the fast-path rulesets).
  Phase phase() const { return phase_; }
  Player owner_of(int hole) const { return (owners_ >> hole) & 1 ? Player::North : Player::South; }
  bool burnt(int hole) const { return (burnt_ >> hole) & 1; }
  int tuz(Player p) const { return tuz_[index(p)]; }  // the hole, or -1
  int round() const { return round_; }
  int match_points(Player p) const { return match_[index(p)]; }
  int last_round_score(Player p) const { return last_round_[index(p)]; }
  int rounds_won(Player p) const { return rounds_won_[index(p)]; }
  int seeds_in_play() const;  // on the board, not in the stores
  // Congklak's simultaneous start: both players choose at once (a `3+5` move). Within the
  // lock-step a player whose sowing ends in his store sows again: then he alone chooses (a
  // plain pit move) while the other's sowing waits in his hand.
  bool joint_pending() const { return phase_ == Phase::Joint && !is_over(); }
  int in_hand() const { return hands_[0].left + hands_[1].left; }  // seeds of a paused lock-step

 private:
  State() = default;

  // ---- sowing and laps (sowing.h) ----
  struct SowResult {
    int last = -1;          // the hole of the last seed
    bool ended = false;     // the move ended by a rule (capture of fours, ...)
    bool infinite = false;  // the sowing never ends
    bool captured = false;
    bool reached = false;   // a seed fell into a pit of the opponent (sow_watched only)
    bool swept = false;     // Nam-Nam's last seeds were taken: the round is over
    int swept_in_hand = 0;  // ... with this many still in the sower's hand
  };
  int sow(int origin);  // scalar: sows from `origin`, returns the hole of the last seed
  int sow_cells(Cells16& cells, int origin, int seeds) const;  // vector
  SowResult sow_general(int origin, bool declare_tuz);         // general: laps, skips, tuz
  SowResult sow_watched(int origin);  // the same, noting whether it reached the opponent
  // Traced: the browser's animation records each lap (sow_trace.h); Watched: note whether a
  // seed fell into a pit of the opponent (feeding, [feeding] fed_by = "sown").
  template <bool Traced, bool Watched>
  SowResult sow_laps(int origin, bool declare_tuz);
  void drop(int hole, int& hand, SowResult& res);
  int step(int hole, int origin) const;

  // ---- captures (capture.h) ----
  void capture(int last);  // scalar: applies the capture rule at the last hole
  void capture_opposite(int last);
  void capture_counts(int last);
  int grand_slam_take(int last) const;  // seeds a counts-capture at `last` would take
  void capture_opposite_cells(Cells16& c, int last) const;  // vector
  bool capture_counts_cells(Cells16& c, int last);
  bool capture_general(int last, bool declare_tuz);  // general
  bool capture_opposite_general(int last);
  bool capture_counts_general(int last, bool declare_tuz);
  bool capture_column_general(int last);
  bool capture_after_empty(int empty);
  bool tuz_eligible(int hole) const;
  void take(int hole, Player taker);
  void capture_during(int hole, int& hand, SowResult& res);

  // ---- moves, turns and the end of the game (turn.h, turn.cpp) ----
  void legal_general(MoveList& moves) const;
  void legal_for(Player me, MoveList& moves) const;
  void play_vector(Move move);
  void play_general(Move move);
  void play_sowing(Move move);
  void after_move(bool extra_turn);
  void after_general(const SowResult& res, bool extra_turn);
  bool endless_joint(Move move) const;  // the lock-step after this choice never ends
  bool feeds(Move move) const;          // the move leaves seeds in the opponent's row
  bool is_grand_slam(Move move) const;
  void check_end(Player moved);  // `moved` just played (or would have)
  void check_turn_start();       // feeding and forbidden grand slams: can the mover move?
  void check_general();
  bool threshold_ends();  // [end] threshold, draw_at_half: ends the game (or round) if reached
  bool can_move(Player p) const;
  std::uint32_t sowable(Player p) const;
  int owned_seeds(Player p) const;
  void end(EndReason reason, Remaining remaining, std::optional<Player> emptied);
  void end_general(EndReason reason, Remaining remaining, std::optional<Player> emptied);

  // ---- setup, pie rule and rounds (rounds.cpp) ----
  void init_general();
  void legal_setup(Player me, MoveList& moves) const;
  void play_setup(Move move);
  void play_pie(Move move);
  void play_claim(Move move);
  void end_round(EndReason reason, Remaining remaining, std::optional<Player> emptied);

  // ---- the simultaneous start (lockstep.cpp) ----
  void legal_joint(MoveList& moves) const;
  void play_lockstep(Move move);
  void play_joint(int south_hole, int north_hole);
  bool choosing(Player p) const {
    return hands_[index(p)].finished == 0 && hands_[index(p)].left == 0;
  }
  void take_up(Player p, int hole);
  bool run_lockstep();  // false: the lock-step never ends

  // ---- text (text.cpp) ----
  std::string format_general(Move move) const;
  std::optional<Move> parse_general(std::string_view text) const;
  std::string position_extras() const;
  void parse_extras(std::string_view field, std::string_view text);

  // The vector play (Rules::vector_play): the board as one 16-byte vector.
  Cells16 cells() const {
    Cells16 c;
    std::memcpy(&c, board_.data(), sizeof c);
    return c;
  }
  void set_cells(Cells16 c) { std::memcpy(board_.data(), &c, sizeof c); }
  std::uint32_t filled_holes() const;  // bit h: hole h holds seeds

  const Rules* rules_ = nullptr;
  std::array<std::uint8_t, kMaxHoles> board_{};
  Player mover_ = Player::South;
  EndReason reason_ = EndReason::None;
  // How the result is decided once the game is over: by the stores, or fixed.
  enum class Result : std::uint8_t {
    ByStores,
    Draw,
    SouthWins,
    NorthWins
  } result_ = Result::ByStores;
  // General path only.
  Phase phase_ = Phase::Play;
  std::uint8_t setup_done_ = 0;  // pits of the layout filled so far
  std::uint16_t round_ = 1;
  std::int8_t passed_ = -1;  // the player who passed (NoMove::PassOnce), or -1
  std::uint8_t round_starter_ = 0;
  std::uint8_t arranger_ = 0;
  std::int8_t last_taker_ = -1;  // who made the last capture (Nam-Nam's sweep)
  std::array<std::int8_t, 2> tuz_{-1, -1};
  std::array<std::uint8_t, 2> rounds_won_{};
  std::array<std::uint8_t, 2> last_round_{};
  std::array<std::uint16_t, 2> match_{};
  std::uint32_t owners_ = 0;  // bit h: North owns pit h
  std::uint32_t burnt_ = 0;   // bit h: pit h is burnt (skipped) this round
  // Phase::Joint and JointTurn: each player's sowing in the lock-step (all zero before the
  // first choice).
  struct JointHand {
    std::uint8_t hole = 0;       // where his last seed fell
    std::uint8_t left = 0;       // seeds still in his hand
    std::uint16_t finished = 0;  // the tick his sowing ended, 0 while it goes on
    bool operator==(const JointHand&) const = default;
  };
  std::array<JointHand, 2> hands_{};
  std::uint16_t tick_ = 0;
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

#if defined(__SSE2__)
// The seeds in the cells (a board never holds more than 255).
inline int cell_sum(Cells16 cells) {
  const __m128i s = _mm_sad_epu8(reinterpret_cast<__m128i>(cells), _mm_setzero_si128());
  return _mm_cvtsi128_si32(s) + _mm_extract_epi16(s, 4);
}

inline std::uint32_t State::filled_holes() const {
  const __m128i empty = _mm_cmpeq_epi8(reinterpret_cast<__m128i>(cells()), _mm_setzero_si128());
  return ~static_cast<std::uint32_t>(_mm_movemask_epi8(empty));
}
#endif

inline bool State::row_empty(Player p) const {
#if defined(__SSE2__)
  if (rules_->vector_play) return !(filled_holes() & rules_->row_bits[index(p)]);
#endif
  return row_seeds(p) == 0;
}

}  // namespace naqala::sowing
