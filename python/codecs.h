#pragma once
// Each family's action numbers and observation tensor, on its own typed state: what
// GameActions (type-erased, one state at a time) and VectorEnv (a batch, hot loop) share.
// A codec gives: num_actions(), encode(state, move) (a whole number below num_actions(),
// distinct for distinct legal moves of a state), observation_shape() and observe(state, out);
// chance games add kChanceOutcomes, encode_chance and decode_chance; codecs whose action is
// the move itself add decode(action). Layouts: docs/python.md.
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <vector>

#include "core/error.h"
#include "games/backgammon/backgammon.h"
#include "games/bao/bao.h"
#include "games/omweso/omweso.h"
#include "games/sowing/state.h"

namespace naqala::python {

// Sowing games with plain moves (Kalah, Oware, ...): action k is the mover's pit k + 1, the
// move itself, so an action is read back without a search (decode) and a state's legal
// actions fit in a 16-bit mask (VectorEnv's fast path).
struct PlainSowingCodec {
  using State = sowing::State;
  explicit PlainSowingCodec(const State& probe)
      : holes(probe.rules().holes), plain_actions(probe.rules().pits) {}

  int holes, plain_actions;

  int num_actions() const { return plain_actions; }
  int encode(const State&, State::Move m) const { return m; }
  State::Move decode(int action) const { return static_cast<State::Move>(action); }
  // The legal actions of a game going on as a mask (bit a: action a), read off the board where
  // the engine says its legal moves are the mover's pits holding seeds (Rules::random_by_mask,
  // as State::random_move reads them) and no starving opponent must be fed; false otherwise
  // (then legal_moves() gives them). No branch on the seeds.
  bool legal_mask(const State& s, std::uint32_t& bits) const {
    const sowing::Rules& r = s.rules();
    if (!r.random_by_mask) return false;  // implies a board of at most 16 holes
    const std::uint32_t filled = filled_holes(s);
    if (r.must_feed && !(filled & r.row_bits[index(opponent(s.to_move()))])) return false;
    bits = (filled & r.row_bits[index(s.to_move())]) >> r.first_pit(s.to_move());
    return true;
  }
  // Bit h: hole h (of the first 16) holds seeds. Eight holes a word: a byte's top bit is set
  // when it is not zero, then a multiply gathers the eight top bits.
  static std::uint32_t filled_holes(const State& s) {
    std::uint32_t out = 0;
    for (int w = 0; w < 2; ++w) {
      std::uint64_t x = 0;
      for (int k = 0; k < 8; ++k)
        x |= static_cast<std::uint64_t>(s.seeds(8 * w + k)) << (8 * k);  // one load
      constexpr std::uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL, kTop = 0x8080808080808080ULL;
      x = (((x & kLow7) + kLow7) | x) & kTop;
      out |= static_cast<std::uint32_t>(((x >> 7) * 0x0102040810204080ULL) >> 56) << (8 * w);
    }
    return out;
  }
  std::vector<int> observation_shape() const { return {holes + 1}; }
  // Seeds of every hole in board order (South's pits from his left, [the middle row,]
  // North's pits from his left, South's store, North's store), then 1 when North is to move.
  void observe(const State& s, float* out) const {
    const int holes = this->holes;  // a local: the stores below cannot change it
    int h = 0;
    if (holes <= sowing::kVectorHoles) {
      // The board's first 16 holes converted at once (a constant count: vector code), then
      // stored in pieces of constant sizes (a loop of variable length would call memcpy).
      std::array<float, sowing::kVectorHoles> all;
      for (int k = 0; k < sowing::kVectorHoles; ++k) all[k] = static_cast<float>(s.seeds(k));
      // Straight-line code: GCC turns a loop of these into a (slow, microcoded) rep movs.
      for (int chunk = 0; chunk < sowing::kVectorHoles / 4; ++chunk)  // unrolled: constant count
        if (4 * chunk + 4 <= holes) std::memcpy(out + 4 * chunk, all.data() + 4 * chunk, 16);
      h = holes & ~3;
      if (holes & 2) {
        std::memcpy(out + h, all.data() + h, 2 * sizeof(float));
        h += 2;
      }
      if (holes & 1) out[h] = all[h];
    } else {
      for (; h < holes; ++h) out[h] = static_cast<float>(s.seeds(h));
    }
    out[holes] = s.to_move() == Player::North ? 1.f : 0.f;
  }
};

// Every sowing ruleset. The plain ones number their moves as PlainSowingCodec; rulesets with
// more kinds of moves (tuz, gifts, setups, the pie rule, joint starts, claims) keep the move's
// own bits in blocks: 256 sowings (pit | tuz | gift), 4096 joint moves, 256 setup counts,
// 2 pie choices, 4096 claims.
struct SowingCodec {
  using State = sowing::State;
  static constexpr int kJointBase = 256, kSetupBase = kJointBase + 4096,
                       kPieBase = kSetupBase + 256, kClaimBase = kPieBase + 2,
                       kGeneralActions = kClaimBase + 4096;
  explicit SowingCodec(const State& probe)
      : plain(probe), general(probe.rules().general), pits(probe.rules().all_pits) {}

  PlainSowingCodec plain;
  bool general;
  int pits;

  int num_actions() const { return general ? kGeneralActions : plain.num_actions(); }
  int encode(const State& s, State::Move m) const {
    return general ? encode_general(m) : plain.encode(s, m);
  }
  static int encode_general(State::Move m) {
    const int low = m & 0x0fff;
    switch (m & State::kKind) {
      case 0:
        return low & 0xff;
      case State::kJoint:
        return kJointBase + low;
      case State::kSetup:
        return kSetupBase + (low & 0xff);
      case State::kPie:
        return kPieBase + (low & 1);
      case State::kClaim:
        return kClaimBase + low;
    }
    throw Error("sowing move " + std::to_string(m) + " has no action number");
  }
  std::vector<int> observation_shape() const {
    return {plain.holes + 1 + (general ? 3 * pits : 0)};
  }
  // PlainSowingCodec's; general rulesets add per pit: owned by North, burnt, a tuz.
  void observe(const State& s, float* out) const {
    plain.observe(s, out);
    if (!general) return;
    float* owner = out + plain.holes + 1;
    float* burnt = owner + pits;
    float* tuz = burnt + pits;
    for (int h = 0; h < pits; ++h) {
      owner[h] = s.owner_of(h) == Player::North ? 1.f : 0.f;
      burnt[h] = s.burnt(h) ? 1.f : 0.f;
      tuz[h] = (s.tuz(Player::South) == h || s.tuz(Player::North) == h) ? 1.f : 0.f;
    }
  }
};

// Bao: start pit (ring index 0-31), direction and whether a move ending in the house sows it
// on: pit * 6 + (dir + 1) * 2 + sow_house.
struct BaoCodec {
  using State = bao::State;
  explicit BaoCodec(const State&) {}
  int num_actions() const { return 32 * 6; }
  int encode(const State&, const bao::Move& m) const {
    return m.pit * 6 + (m.dir + 1) * 2 + (m.sow_house ? 1 : 0);
  }
  std::vector<int> observation_shape() const { return {35}; }
  // South's 16 pits (ring order), North's 16, the seeds in each hand, 1 when North is to move.
  void observe(const State& s, float* out) const {
    for (int p = 0; p < 2; ++p)
      for (int r = 0; r < 16; ++r) out[16 * p + r] = static_cast<float>(s.pit(player(p), r));
    out[32] = static_cast<float>(s.hand(Player::South));
    out[33] = static_cast<float>(s.hand(Player::North));
    out[34] = s.to_move() == Player::North ? 1.f : 0.f;
  }
  static Player player(int i) { return i == 0 ? Player::South : Player::North; }
};

// Omweso: start pit, direction (setup moves: 0) and the move's count:
// (pit * 3 + dir + 1) * 256 + n.
struct OmwesoCodec {
  using State = omweso::State;
  explicit OmwesoCodec(const State&) {}
  int num_actions() const { return 32 * 3 * 256; }
  int encode(const State&, const omweso::Move& m) const {
    return (m.pit * 3 + m.dir + 1) * 256 + m.n;
  }
  std::vector<int> observation_shape() const { return {33}; }
  // South's 16 pits (ring order), North's 16, 1 when North is to move.
  void observe(const State& s, float* out) const {
    for (int p = 0; p < 2; ++p)
      for (int r = 0; r < 16; ++r)
        out[16 * p + r] = static_cast<float>(s.pit(p == 0 ? Player::South : Player::North, r));
    out[32] = s.to_move() == Player::North ? 1.f : 0.f;
  }
};

// Backgammon. Checker moves of two different dice: 26 * (from of the higher die's step + 1)
// + (from of the lower die's step + 1), 0 = die not played (676 actions); doubles: the
// multiset of up to four start points (23751 actions, by the combinatorial number system);
// then pass, roll, double, take, drop. Rolls (chance): (a - 1) * 6 + (b - 1).
struct BackgammonCodec {
  using State = backgammon::State;
  using Kind = backgammon::Move::Kind;
  static constexpr int kDoublesBase = 676, kDoubles = 23751, kOtherBase = kDoublesBase + kDoubles;
  static constexpr int kChanceOutcomes = 36;
  explicit BackgammonCodec(const State&) {}
  int num_actions() const { return kOtherBase + 5; }

  static int choose(int n, int k) {
    if (k > n) return 0;
    long long r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return static_cast<int>(r);
  }

  int encode(const State& s, const backgammon::Move& m) const {
    switch (m.kind) {
      case Kind::Pass:
        return kOtherBase;
      case Kind::Roll:
        return kOtherBase + 1;
      case Kind::Double:
        return kOtherBase + 2;
      // The answers to a resignation offer share the answers to a double: they are the only
      // legal moves while an offer is pending.
      case Kind::Take:
      case Kind::Accept:
        return kOtherBase + 3;
      case Kind::Drop:
      case Kind::Decline:
        return kOtherBase + 4;
      case Kind::Checkers:
        break;
    }
    const int hi = std::max(s.die(0), s.die(1)), lo = std::min(s.die(0), s.die(1));
    if (hi == lo) {
      std::array<int, 4> slot{};  // from + 1, 0 = unused
      for (int i = 0; i < m.count; ++i) slot[i] = m.steps[i].from + 1;
      std::sort(slot.begin(), slot.end());
      int rank = 0;
      for (int i = 0; i < 4; ++i) rank += choose(slot[i] + i, i + 1);
      return kDoublesBase + rank;
    }
    // Steps that land on the board used the die of their distance; steps off use the
    // dice left, the higher one first only if the lower one cannot bear that checker off.
    int hi_from = -1, lo_from = -1;
    std::array<bool, 4> placed{};
    for (int i = 0; i < m.count; ++i) {
      const auto& st = m.steps[i];
      if (st.to < 0) continue;
      (st.from - st.to == hi ? hi_from : lo_from) = st.from;
      placed[i] = true;
    }
    for (int i = 0; i < m.count; ++i) {
      if (placed[i]) continue;
      const int need = m.steps[i].from + 1;
      if (lo_from < 0 && lo >= need)
        lo_from = m.steps[i].from;
      else if (hi_from < 0)
        hi_from = m.steps[i].from;
      else
        lo_from = m.steps[i].from;
    }
    return 26 * (hi_from + 1) + (lo_from + 1);
  }

  static int encode_chance(const backgammon::Chance& c) { return (c.a - 1) * 6 + (c.b - 1); }
  static backgammon::Chance decode_chance(int outcome) {
    return {static_cast<std::uint8_t>(outcome / 6 + 1), static_cast<std::uint8_t>(outcome % 6 + 1)};
  }

  std::vector<int> observation_shape() const { return {60}; }
  // South's checkers on his points 1-24 (counted from his side) and the bar, South's checkers
  // off; the same for North; the dice (0 before the roll); log2 of the cube; the cube centred,
  // South's, North's (one-hot); 1 when North is on roll; the phase (0 opening roll, 1 turn
  // start, 2 doubled, 3 rolling, 4 moving, 5 over).
  void observe(const State& s, float* out) const {
    for (int p = 0; p < 2; ++p) {
      const auto& side = s.side(p == 0 ? Player::South : Player::North);
      int on = 0;
      for (int i = 0; i < 25; ++i) {
        out[26 * p + i] = side[i];
        on += side[i];
      }
      out[26 * p + 25] = static_cast<float>(15 - on);
    }
    out[52] = static_cast<float>(s.die(0));
    out[53] = static_cast<float>(s.die(1));
    int log = 0;
    while ((1 << log) < s.cube()) ++log;
    out[54] = static_cast<float>(log);
    const auto owner = s.cube_owner();
    out[55] = owner ? 0.f : 1.f;
    out[56] = owner == Player::South ? 1.f : 0.f;
    out[57] = owner == Player::North ? 1.f : 0.f;
    out[58] = s.to_move() == Player::North ? 1.f : 0.f;
    out[59] = static_cast<float>(static_cast<int>(s.phase()));
  }
};

}  // namespace naqala::python
