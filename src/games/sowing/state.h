#pragma once
// A position of a two-row sowing game, and the one engine that plays every ruleset.
// The state is a small value (copy = undo); the rules are shared and read-only.
#include <array>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
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
  // The general path (state_general.cpp): relay, rounds, setup, tuz, joint moves, ...
  void init_general();
  void legal_general(MoveList& moves) const;
  void legal_for(Player me, MoveList& moves) const;
  void play_general(Move move);
  std::string format_general(Move move) const;
  std::optional<Move> parse_general(std::string_view text) const;
  std::string position_extras() const;
  void parse_extras(std::string_view field, std::string_view text);
  void check_general();
  struct SowResult {
    int last = -1;          // the hole of the last seed
    bool ended = false;     // the move ended by a rule (capture of fours, ...)
    bool infinite = false;  // the sowing never ends
    bool captured = false;
  };
  SowResult sow_general(int origin, bool declare_tuz);
  template <bool Traced>  // Traced: the browser's animation records each lap (sow_trace.h)
  SowResult sow_laps(int origin, bool declare_tuz);
  void drop(int hole, bool last, SowResult& res);
  int step(int hole, int origin) const;
  bool capture_general(int last, bool declare_tuz);
  bool tuz_eligible(int hole) const;
  int owned_seeds(Player p) const;
  bool can_move(Player p) const;
  std::uint32_t sowable(Player p) const;
  void take(int hole, Player taker);
  void after_general(int last, bool extra_turn, bool captured);
  void end_round(EndReason reason, Remaining remaining, std::optional<Player> emptied);
  void new_round();
  void play_joint(int south_hole, int north_hole);
  bool choosing(Player p) const {
    return hands_[index(p)].finished == 0 && hands_[index(p)].left == 0;
  }
  void take_up(Player p, int hole);
  bool run_lockstep();  // false: the lock-step never ends
  void end_general(EndReason reason, Remaining remaining, std::optional<Player> emptied);
  int sow(int origin);  // sows from `origin`, returns the hole of the last seed
  // The vector play (Rules::vector_play): the board as one 16-byte vector.
  Cells16 cells() const {
    Cells16 c;
    std::memcpy(&c, board_.data(), sizeof c);
    return c;
  }
  void set_cells(Cells16 c) { std::memcpy(board_.data(), &c, sizeof c); }
  std::uint32_t filled_holes() const;  // bit h: hole h holds seeds
  int sow_cells(Cells16& cells, int origin, int seeds) const;
  void play_vector(Move move);
  void capture(int last);       // applies the capture rule at the last hole
  bool feeds(Move move) const;  // the move leaves seeds in the opponent's row
  bool is_grand_slam(Move move) const;
  int grand_slam_take(int last) const;  // seeds a counts-capture at `last` would take
  void after_move(bool extra_turn);
  void check_end(Player moved);  // `moved` just played (or would have)
  void check_turn_start();       // feeding and forbidden grand slams: can the mover move?
  void end(EndReason reason, Remaining remaining, std::optional<Player> emptied);

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

// Sows `seeds` from `origin` on the vector board (Rules::vector_sow); returns the last hole.
inline int State::sow_cells(Cells16& cells, int origin, int seeds) const {
  const Rules& r = *rules_;
  const Rules::VectorSowing& v = r.vector_sowing[origin];
  const Cells16 origin_cell = r.hole_cell[origin];
  cells &= ~origin_cell;
  if (r.start == SowStart::Origin && seeds > 1) {
    cells -= origin_cell;  // 0xff is -1: one seed back into the origin
    --seeds;
  }
  if (seeds > v.lap_length) [[unlikely]] {
    const int laps = (seeds - 1) / v.lap_length;
    seeds -= laps * v.lap_length;
    cells += v.lap & static_cast<std::uint8_t>(laps);
  }
  cells += v.first[seeds];
  return v.landing[seeds];
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

template <class Random>
[[gnu::always_inline]] inline State::Move State::random_move(Random& rng) const {
  const Rules& r = *rules_;
#if defined(__SSE2__)
  if (r.random_by_mask) {
    const std::uint32_t filled = filled_holes();
    // A starving opponent must be fed: then only the moves that feed him (the list below).
    if (!r.must_feed || (filled & r.row_bits[index(opponent(mover_))])) {
      const std::uint32_t pits = (filled & r.row_bits[index(mover_)]) >> r.first_pit(mover_);
      return r.nth_pit[pits][rng.below(r.pit_count_of[pits])];
    }
  }
#endif
  MoveList moves;
  legal_moves(moves);
  return moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
}

inline int State::sow(int origin) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const auto& next = r.next[p];
  int seeds = board_[origin];
  if (r.vector_sow) {
    // The origin is emptied inside the vector: a byte store just before the vector load would
    // stall it (the load could not be forwarded from the store).
    Cells16 c = cells();
    const int last = sow_cells(c, origin, seeds);
    set_cells(c);
    return last;
  }
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

[[gnu::always_inline]] inline void State::legal_moves(MoveList& moves) const {
  const Rules& r = *rules_;
  if (r.general) return legal_general(moves);
  const int first = r.first_pit(mover_), pits = r.pits, min_seeds = r.min_seeds;
  Move* out = moves.data();
  std::size_t n = 0;
  for (int i = 0; i < pits; ++i) {  // branch-free: which pits hold seeds is unpredictable
    out[n] = static_cast<Move>(i);
    n += board_[first + i] >= min_seeds;
  }
  moves.set_size(n);
  if (r.must_feed && row_empty(opponent(mover_))) {
    std::size_t kept = 0;
    for (Move m : moves)
      if (feeds(m)) out[kept++] = m;
    moves.set_size(kept);
  }
  if (r.grand_slam == GrandSlam::Forbidden) {
    std::size_t kept = 0;
    for (Move m : moves)
      if (!is_grand_slam(m)) out[kept++] = m;
    moves.set_size(kept);
  }
}

inline int State::grand_slam_take(int last) const {
  const Rules& r = *rules_;
  const auto& prev = r.prev[index(mover_)];
  int take = 0;
  for (int h = last; r.is_pit(h) && r.owner(h) != mover_ && r.capturable[board_[h]]; h = prev[h]) {
    take += board_[h];
    if (!r.chain) break;
  }
  return take;
}

inline void State::capture(int last) {
  const Rules& r = *rules_;
  if (r.capture == CaptureKind::None || !r.is_pit(last)) return;
  const int c = board_[last];
  if (r.owner(last) == mover_) {
    // Only the opposite capture takes from an own pit (the counts take the opponent's).
    if (r.capture != CaptureKind::Opposite || c != 1) return;
    const int opposite = r.opposite(last);
    if (board_[opposite] == 0 && !r.empty_capture) return;
    board_[r.store(mover_)] += board_[opposite] + (r.with_last_seed ? 1 : 0);
    board_[opposite] = 0;
    if (r.with_last_seed) board_[last] = 0;
    return;
  }
  if (!(r.capture_set & kCapCounts)) return;
  if (r.tuz != TuzKind::None && c == r.tuz_count && tuz_eligible(last)) {
    tuz_[index(mover_)] = static_cast<std::int8_t>(last);  // automatic (A20)
    board_[r.store(mover_)] += c;
    board_[last] = 0;
    return;
  }
  if (!r.capturable[c]) return;
  const auto& prev = r.prev[index(mover_)];
  if (r.even) {  // no grand slam rule: take the pit (and the qualifying ones before it)
    for (int h = last; r.is_pit(h) && r.owner(h) != mover_ && r.capturable[board_[h]];
         h = prev[h]) {
      board_[r.store(mover_)] += board_[h];
      board_[h] = 0;
      if (!r.chain) break;
    }
    return;
  }
  const int take = grand_slam_take(last);
  const bool grand_slam = take == row_seeds(opponent(mover_));
  if (grand_slam && r.grand_slam != GrandSlam::CaptureAll)
    return;  // no_capture (forbidden never gets here)
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
}

[[gnu::always_inline]] inline void State::after_move(bool extra_turn) {
  const Player moved = mover_;
  // Without a branch: in a random playout whether a sowing ends in the store is unpredictable.
  mover_ = static_cast<Player>(index(mover_) ^ static_cast<int>(!extra_turn));
  check_end(moved);
}

[[gnu::always_inline]] inline void State::check_end(Player moved) {
  const Rules& r = *rules_;
  if (r.threshold) {
    const int s = store(Player::South), n = store(Player::North);
    if (s >= r.threshold || n >= r.threshold) return end(EndReason::Threshold, Remaining::None, {});
    if (r.draw_at_half && 2 * s == r.total_seeds && 2 * n == r.total_seeds)
      return end(EndReason::Threshold, Remaining::None, {});
  }
  if (r.row_empty == RowEmptyCheck::Immediate) {
    bool south_empty, north_empty;
#if defined(__SSE2__)
    if (r.vector_play) {
      const std::uint32_t filled = filled_holes();  // one comparison for both rows
      south_empty = !(filled & r.row_bits[0]);
      north_empty = !(filled & r.row_bits[1]);
    } else
#endif
    {
      south_empty = row_empty(Player::South);
      north_empty = row_empty(Player::North);
    }
    if (!south_empty && !north_empty) return;
    // Both rows empty at once: the mover's row emptied first, while he sowed.
    const Player emptied =
        south_empty && north_empty ? moved : (south_empty ? Player::South : Player::North);
    return end(EndReason::RowEmpty, r.remaining, emptied);
  }
  // At the start of the mover's turn: can he move at all?
  const int first = r.first_pit(mover_);
  bool has_pit = false;
  if (r.min_seeds == 1) {
    has_pit = !row_empty(mover_);
  } else {
    for (int i = 0; i < r.pits && !has_pit; ++i) has_pit = board_[first + i] >= r.min_seeds;
  }
  if (!has_pit) return end(EndReason::NoMove, r.remaining, mover_);
  if ((r.must_feed && row_empty(opponent(mover_))) || r.grand_slam == GrandSlam::Forbidden)
    check_turn_start();
}

#if defined(__SSE2__)
// A whole move on the vector board: the captures are computed without branches on the seeds
// (a random playout mispredicts every one of those), and the board is written once.
[[gnu::always_inline]] inline void State::play_vector(Move move) {
  const Rules& r = *rules_;
  const int p = index(mover_);
  const int origin = r.first_pit(mover_) + move;
  Cells16 c = cells();
  const int last = sow_cells(c, origin, board_[origin]);
  const int store = r.store(mover_);
  if (r.capture == CaptureKind::Opposite) {
    // The last seed alone in an own pit: the opposite pit's seeds (and it) go to the store.
    // Read by comparisons of the whole board, not by taking bytes out of the vector (that
    // goes through memory and waits), and without a branch: which moves capture is
    // unpredictable, and a misprediction also throws away the playouts advancing beside.
    const __m128i board = reinterpret_cast<__m128i>(c);
    const auto ones =
        static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(board, _mm_set1_epi8(1))));
    const auto filled =
        ~static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(board, _mm_setzero_si128())));
    const std::uint32_t take = ((r.row_bits[p] & ones) >> last) &
                               ((filled >> r.opposite_hole[last]) | r.empty_capture) & 1;
    // The seeds taken, summed and spread to every byte inside the vector, go to the store's
    // cell (or to none when nothing is taken).
    __m128i gain =
        _mm_sad_epu8(reinterpret_cast<__m128i>(c & r.capture_cells[1][last]), _mm_setzero_si128());
    gain = _mm_add_epi32(gain, _mm_srli_si128(gain, 8));
    gain = _mm_unpacklo_epi8(gain, gain);
    gain = _mm_shuffle_epi32(_mm_unpacklo_epi16(gain, gain), 0);
    c = (c & ~r.capture_cells[take][last]) +
        (r.hole_cell[take ? store : kVectorHoles] & reinterpret_cast<Cells16>(gain));
  }
  // Most moves end where no count captures: testing that first skips the work below (measured:
  // Oware's and Mangala's random games 13% and 44% faster, MCTS unchanged).
  if ((r.capture_set & kCapCounts) && ((r.row_bits[p ^ 1] >> last) & 1) && r.capturable[c[last]]) {
    // The pits of the opponent holding a capturing count, and the run of them that ends at
    // the last hole, walked against the sowing (towards lower holes when sowing ccw).
    Cells16 hit;
    if (r.even) {
      hit = reinterpret_cast<Cells16>(((c & 1) == 0) & (c != 0));
    } else {
      hit = Cells16{};
      for (int i = 0; i < r.count_list_size; ++i)
        hit |= reinterpret_cast<Cells16>(c == r.count_list[i]);
    }
    const std::uint32_t bits =
        static_cast<std::uint32_t>(_mm_movemask_epi8(reinterpret_cast<__m128i>(hit))) &
        r.row_bits[p ^ 1];
    std::uint32_t run;
    if (!r.chain) {
      run = bits & (1u << last);
    } else if (r.direction == Direction::Ccw) {
      const std::uint32_t upto = (2u << last) - 1;
      const int start = 31 - __builtin_clz(((~bits & upto) << 1) | 1);  // above the last gap
      run = upto & ~((1u << start) - 1);
    } else {
      const std::uint32_t from = ~((1u << last) - 1);
      run = from & ((1u << __builtin_ctz(~bits & from)) - 1);  // below the first gap
    }
    // The run's bits as cells: each byte tests its bit of the run.
    const __m128i halves = _mm_unpacklo_epi64(_mm_set1_epi8(static_cast<char>(run & 0xff)),
                                              _mm_set1_epi8(static_cast<char>((run >> 8) & 0xff)));
    const Cells16 lane = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    Cells16 taken_cells =
        reinterpret_cast<Cells16>((reinterpret_cast<Cells16>(halves) & lane) == lane);
    int take = cell_sum(c & taken_cells);
    if (!r.even && take == cell_sum(c & r.row_cells[p ^ 1])) {
      // A grand slam (or no capture at all): no capture, or Oware's third variant.
      if (take && r.grand_slam == GrandSlam::CaptureAll) [[unlikely]] {
        set_cells(c);
        capture(last);
        if (is_over()) return;
        return after_move(r.extra_turn && last == store);
      }
      take = 0;
      taken_cells = Cells16{};
    }
    c = (c & ~taken_cells) + (r.hole_cell[store] & static_cast<std::uint8_t>(take));
  }
  set_cells(c);
  if (r.row_empty == RowEmptyCheck::Immediate && !r.threshold) {
    // Kalah's end check on the board in hand: both rows hold seeds, the game goes on.
    const auto empty = static_cast<std::uint32_t>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(reinterpret_cast<__m128i>(c), _mm_setzero_si128())));
    if ((~empty & r.row_bits[0]) && (~empty & r.row_bits[1])) {
      mover_ = static_cast<Player>(p ^ static_cast<int>(!(r.extra_turn && last == store)));
      return;
    }
  }
  after_move(r.extra_turn && last == store);
}
#endif

[[gnu::always_inline]] inline void State::play(Move move) {
  const Rules& r = *rules_;
  if (r.general) return play_general(move);
#if defined(__SSE2__)
  if (r.vector_play) return play_vector(move);
#endif
  const int last = sow(r.first_pit(mover_) + move);
  if (r.tuz != TuzKind::None) {
    // A tuz is always empty before a sowing: what fell into it goes to its owner's store.
    for (int p = 0; p < 2; ++p)
      if (tuz_[p] >= 0) {
        board_[r.store(Player(p))] += board_[tuz_[p]];
        board_[tuz_[p]] = 0;
      }
  }
  capture(last);
  if (is_over()) return;
  after_move(r.extra_turn && last == r.store(mover_));
}

}  // namespace naqala::sowing
