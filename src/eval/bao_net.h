#pragma once
// A small network for Bao (bao, from the view of the player to move) that corrects the linear
// evaluation (eval/bao_eval.h) towards what a deeper search finds: trained on the values of
// fixed-node searches of positions of self-play games (engine/search_labels.h) minus the
// evaluation's own value, so the evaluation plus the network is the deeper search's value
// (distillation; docs/engines.md "A network for Bao"). It plays only when a file names it:
// NAQALA_BAO_NET=FILE, or data/bao/net.txt when that is shipped (none is yet).
//
// Inputs (all 0 or 1, 36 of them 1 at most): each of the 32 pits' count (the mover's 16 pits by
// ring index, then the opponent's; counts 0..COUNTS-2 and COUNTS-1 or more), each side's hand
// (0..21, and 22 or more), and each side's functional house (an input for "has one"). The layers
// are eval/sparse_net.h's; the output is in seeds.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "eval/sparse_net.h"
#include "games/bao/bao.h"

namespace naqala::eval {

inline constexpr int kBaoNetHands = 23;  // a hand's seeds: 0..21, and 22 or more

struct BaoNet : SparseNet {
  int counts = 16;      // one-hot inputs of a pit's count
  std::string made_by;  // the command that made it (the file's `made-by` line)

  int inputs() const { return 2 * board4::kPits * counts + 2 * kBaoNetHands + 2; }
  int pit_input(int side, int pit, int count) const {
    return (side * board4::kPits + pit) * counts + std::min(count, counts - 1);
  }
  int hand_input(int side, int hand) const {
    return 2 * board4::kPits * counts + side * kBaoNetHands + std::min(hand, kBaoNetHands - 1);
  }
  int house_input(int side) const { return 2 * board4::kPits * counts + 2 * kBaoNetHands + side; }

  // The active inputs of `s` (the mover's view) into `out`; returns how many (at most 36).
  int active(const bao::State& s, int* out) const {
    const Player me = s.to_move(), you = opponent(me);
    int n = 0;
    for (int side = 0; side < 2; ++side) {
      const Player p = side ? you : me;
      const auto& row = s.row(p);
      for (int i = 0; i < board4::kPits; ++i) out[n++] = pit_input(side, i, row[i]);
      out[n++] = hand_input(side, s.hand(p));
      if (s.house(p)) out[n++] = house_input(side);
    }
    return n;
  }
  // The correction in seeds.
  float seeds(const bao::State& s) const {
    int a[2 * board4::kPits + 4];
    return forward(a, active(s, a));
  }
  // The same in the evaluation's hundredths of a seed.
  int hundredths(const bao::State& s) const { return static_cast<int>(std::lrint(100 * seeds(s))); }
};

// The file is text:
//   naqala-bao-net 1
//   made-by COMMAND
//   shape COUNTS HIDDEN
//   w1                  then inputs() lines of HIDDEN numbers
//   b1 HIDDEN numbers
//   w2 HIDDEN numbers
//   b2 NUMBER
//   end
// Anything else is refused with naqala::Error naming the line and what was expected.
BaoNet load_bao_net(const std::string& path);
std::shared_ptr<const BaoNet> read_bao_net_once(const std::string& path);
void save_bao_net(const std::string& path, const BaoNet& net);

// What Bao plays: the file NAQALA_BAO_NET names (`none`: no network), else data/bao/net.txt
// when it exists, else null.
std::shared_ptr<const BaoNet> played_bao_net();

}  // namespace naqala::eval
