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
// The weights are fitted by `naqala tune` (docs/engines.md).
#include <algorithm>
#include <array>
#include <memory>
#include <string_view>

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

  int operator()(const bao::State& s) const {
    Features f;
    features(s, f);
    return weighted_sum(weights, f);
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
  // A capture takes the opponent's front pit facing the own front pit where the move ends,
  // when both hold seeds: from the hand (namua) into an occupied front pit, or (mtaji) a
  // sowing of n < 16 seeds whose last seed falls in an occupied front pit. `take[e]` is what a
  // move ending in own pit e takes, read once per pit (the evaluation is a quarter of the
  // search's time), not recomputed for each pit and direction.
  static SideCounts side(const bao::State& s, Player p, const std::int16_t* table) {
    using namespace board4;
    const Player o = opponent(p);
    std::array<int, kPits> take{};
    for (int e = 8; e < kPits; ++e) take[e] = s.pit(p, e) > 0 ? s.pit(o, facing(e)) : 0;
    const bool namua = s.hand(p) > 0;
    return count_side(
        s, p,
        [&](int i, int c) {
          if (namua) return take[i];
          if (c < 2 || c >= 16) return 0;
          return std::max(take[(i + c) & 15], take[(i - c) & 15]);
        },
        table);
  }
};

}  // namespace naqala::eval
