#pragma once
// Evaluation of Bao positions (bao, bao-kujifunza; docs/bao.md): a linear sum of
// features from the view of the player to move, each "own minus the opponent's" unless said:
// - material: seeds in own pits (the game's own score at the end, with the hand);
// - hand: seeds still in hand (the namua stage's stock: each enters the board with a capture
//   or a sowing, and the side that runs out of front-row seeds loses);
// - front row: seeds in own front pits (only front seeds capture or are captured; an empty
//   front row loses);
// - mobility: own pits holding 2+ seeds (in the mtaji stage only those start a move);
// - house: an own functional nyumba (Kiswahili): the big store of the namua stage, with the
//   house choices;
// - capture now (mover only): the most seeds one capture of the mover takes now;
// - capture threat (opponent only): the same for the opponent, were he to move: own front
//   pits close to capture.
// The weights are fitted by `naqala tune` (docs/engines.md); a network (eval/bao_net.h) may
// correct the sum.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "eval/bao_net.h"
#include "eval/linear.h"
#include "games/bao/bao.h"

namespace naqala::eval {

struct BaoEval {
  enum Feature : int {
    kMaterial,
    kHand,
    kFrontRow,
    kMobility,
    kHouse,
    kCaptureNow,
    kCaptureThreat,
    kPitTable,  // the pit table's value (hundredths of a seed): weight 1 with a table, else 0
    kFeatures
  };
  static constexpr std::array<const char*, kFeatures> kFeatureNames = {
      "material", "hand",        "front_row",      "mobility",
      "house",    "capture_now", "capture_threat", "pit_table"};
  using Features = std::array<int, kFeatures>;
  // Fitted by `naqala tune bao --games 400 --depth 4 --seed 1` (docs/engines.md); they beat
  // the hand-set 100/100/20/25/200/0/0 by +151 Elo at depth 4. Bao la kujifunza plays them too.
  static constexpr Features kTuned = {177, -30, -80, 82, -104, 175, -11, 0};

  // Options whose choice the preset's table (data/bao/eval.txt) still serves: namua_takasa
  // changes only which front pit a takasa without a functional house may take its seed to
  // (ruling R11), not the board, the start or what the features read; measured on
  // bao:namua_takasa=any in docs/engines.md ("Bao and Omweso").
  static constexpr std::array<std::string_view, 1> kTableSharedOptions = {"namua_takasa"};

  Features weights = kTuned;
  // A learned value per pit and seed count (pit_table.h, 16 pits a side by ring index), played
  // with weight 1 on kPitTable: data/bao/eval.txt (board4_trained_eval.h), null without one.
  std::shared_ptr<const PitTable> table;

  // A network correcting the sum towards a deeper search's value (eval/bao_net.h), null
  // without one: what played_net() gives the preset.
  std::shared_ptr<const BaoNet> net;
  static std::shared_ptr<const BaoNet> played_net(const std::string& preset) {
    return preset == "bao" ? played_bao_net() : nullptr;
  }

  int operator()(const bao::State& s) const {
    Features f;
    features(s, f);
    const int sum = weighted_sum(weights, f);
    return net ? sum + net->hundredths(s) : sum;
  }

  void features(const bao::State& s, Features& f) const {
    const Player me = s.to_move(), you = opponent(me);
    const SideCounts a = side(s, me, board4_table_rows(table.get(), 0));
    const SideCounts b = side(s, you, board4_table_rows(table.get(), 1));
    f[kMaterial] = a.material - b.material;
    f[kHand] = s.hand(me) - s.hand(you);
    f[kFrontRow] = a.front - b.front;
    f[kMobility] = a.mobile - b.mobile;
    f[kHouse] = (s.house(me) ? 1 : 0) - (s.house(you) ? 1 : 0);
    f[kCaptureNow] = a.capture;
    f[kCaptureThreat] = b.capture;
    f[kPitTable] = a.table + b.table;
  }

 private:
  // Bytes of a row half (8 pits of at most 64 seeds each: no byte ever carries into the next).
  // side() reads pit 8 + j as byte j of a word, which holds on little-endian machines only.
  static_assert(std::endian::native == std::endian::little, "BaoEval::side reads pits as bytes");
  static constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  static int byte_sum(std::uint64_t x) { return static_cast<int>((x * kOnes) >> 56); }
  static std::uint64_t at_least(std::uint64_t x, int n) {  // 0x80 in each byte >= n (n <= 0x80)
    return (x + kOnes * static_cast<std::uint64_t>(0x80 - n)) & kHigh;
  }

  // One side's counts (linear.h's SideCounts), a row half at a time as a 64-bit word: pits
  // 0-7 the back row, 8-15 the front row. A capture takes the opponent's front pit facing the
  // own front pit where the move ends, when both hold seeds: from the hand (namua) into an
  // occupied front pit, or (mtaji) a sowing of n < 16 seeds whose last seed falls in an
  // occupied front pit. `take` holds what a move ending in each own front pit takes (byte j:
  // pit 8 + j, facing the opponent's pit 15 - j, byte 7 - j of his front word); when it is
  // all zero no move captures and the pits' ends need not be looked at.
  static SideCounts side(const bao::State& s, Player p, const std::int16_t* table) {
    using namespace board4;
    const auto& own = s.row(p);
    const auto& opp = s.row(opponent(p));
    std::uint64_t back, front, opp_front;
    std::memcpy(&back, own.data(), 8);
    std::memcpy(&front, own.data() + 8, 8);
    std::memcpy(&opp_front, opp.data() + 8, 8);
    SideCounts r;
    r.front = byte_sum(front);
    r.material = byte_sum(back) + r.front;
    // A byte sum of the 0/1 flags (std::popcount is a library call without -mpopcnt).
    r.mobile = byte_sum((at_least(back, 2) >> 7) + (at_least(front, 2) >> 7));
    const std::uint64_t occupied = at_least(front, 1) >> 7;
    const std::uint64_t take = __builtin_bswap64(opp_front) & (occupied * 0xff);
    if (take) {
      std::array<std::uint8_t, 2 * kPits> ends{};  // own pits 0-15 then again, for i - c < 0
      std::memcpy(ends.data() + 8, &take, 8);
      std::memcpy(ends.data() + 24, &take, 8);
      if (s.hand(p) > 0) {
        for (int e = 8; e < kPits; ++e) r.capture = std::max<int>(r.capture, ends[e]);
      } else {
        for (int i = 0; i < kPits; ++i) {
          const int c = own[i];
          if (c < 2 || c >= 16) continue;
          r.capture = std::max<int>(r.capture, std::max(ends[(i + c) & 15], ends[i - c + 16]));
        }
      }
    }
    if (table)
      for (int i = 0; i < kPits; ++i) r.table += table[PitTable::index(0, i, kPits, own[i])];
    return r;
  }
};

}  // namespace naqala::eval
