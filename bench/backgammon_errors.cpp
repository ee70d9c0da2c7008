// naqala_bg_errors: where a backgammon net's 0-ply play loses equity, judged by a deeper
// search (naqala's own n-ply over a judge net), by position class. Not a test: a measuring
// tool (docs/games/backgammon.md, "Strength").
//
//   naqala_bg_errors [--net FILE] [--judge FILE] [--positions N] [--plies P] [--seed S]
//
// Positions come from the judge's 0-ply self-play (random dice from the seed, so two nets
// are judged on the same positions), each position with two or more legal moves kept with
// probability 1/4. For each, the net's 0-ply choice is compared with the judge's best move at
// P plies (default 2); the judge scores the 0-ply choice at the same depth (its top 8 moves
// at 0 ply all go to P plies; a choice outside them counts at the judge's worst kept move,
// so the loss is then a lower bound). Prints the
// average loss in thousandths of a point per move, and its share of the total, per class.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/rng.h"
#include "search/backgammon_ply.h"

using namespace naqala;
using namespace naqala::backgammon;

int main(int argc, char** argv) {
  std::string net_file, judge_file;
  int positions = 500, plies = 2;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--net")
      net_file = v;
    else if (k == "--judge")
      judge_file = v;
    else if (k == "--positions")
      positions = std::max(1, std::atoi(v.c_str()));
    else if (k == "--plies")
      plies = std::clamp(std::atoi(v.c_str()), 1, 3);
    else if (k == "--seed")
      seed = std::strtoull(v.c_str(), nullptr, 10);
    else {
      std::fprintf(stderr,
                   "unknown option %s (allowed: --net FILE, --judge FILE, --positions N, --plies "
                   "P, --seed S)\n",
                   k.c_str());
      return 2;
    }
  }
  std::unique_ptr<bgnet::Net> own, judge_own;
  try {
    if (!net_file.empty()) own = std::make_unique<bgnet::Net>(bgnet::Net::load(net_file));
    if (!judge_file.empty()) judge_own = std::make_unique<bgnet::Net>(bgnet::Net::load(judge_file));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  const bgnet::Net& net = own ? *own : bgeval::shipped_net();
  const bgnet::Net& judge = judge_own ? *judge_own : net;
  bgsearch::Config fast;
  bgsearch::Config deep;
  deep.plies = plies;
  deep.filters = {{8, 0.16f}, {8, 0.16f}, {8, 0.16f}};
  constexpr int kClasses = 4;  // contact, crashed, race, bear-off (exact)
  const char* names[kClasses] = {"contact", "crashed", "race", "bear-off"};
  double loss[kClasses] = {}, total = 0;
  int count[kClasses] = {}, done = 0;
  Rng rng(seed);
  while (done < positions) {
    Board b = start_board();  // b[0] on roll
    int d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
    while (d0 == d1) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
    for (int ply = 0; done < positions; ++ply) {
      if (ply > 0) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
      const auto r = bgsearch::rank_moves(judge, b, d0, d1, fast);
      if (r.moves.empty()) {
        b = {b[1], b[0]};
        continue;
      }
      if (r.moves.size() > 1 && rng.below(4) == 0) {
        const Move mine = bgsearch::rank_moves(net, b, d0, d1, fast).moves[0].move;
        const auto j = bgsearch::rank_moves(judge, b, d0, d1, deep);
        double worst_kept = j.moves[0].equity, chosen = 0;
        bool kept = false;
        for (const auto& c : j.moves) {
          if (c.plies != j.plies) continue;
          worst_kept = std::min<double>(worst_kept, c.equity);
          if (c.move == mine) chosen = c.equity, kept = true;
        }
        if (!kept) chosen = worst_kept;
        const int cls =
            bearoff::evaluate(b[0], b[1]) ? 3 : static_cast<int>(bgnet::classify(b[0], b[1]));
        const double l = j.moves[0].equity - chosen;
        loss[cls] += l;
        total += l;
        ++count[cls];
        ++done;
      }
      const Board& after = r.moves[0].after;
      if (checkers_off(after[0]) == kCheckers) break;
      b = {after[1], after[0]};
    }
  }
  std::printf("0-ply play of %s judged at %d plies by %s, %d positions:\n",
              net_file.empty() ? "the shipped net" : net_file.c_str(), plies,
              judge_file.empty() ? "the same net" : judge_file.c_str(), positions);
  for (int c = 0; c < kClasses; ++c)
    std::printf("  %-8s %5d positions, %6.1f mEMG per move, %5.1f%% of the loss\n", names[c],
                count[c], count[c] ? 1000 * loss[c] / count[c] : 0.0,
                total > 0 ? 100 * loss[c] / total : 0.0);
  std::printf("  all      %5d positions, %6.1f mEMG per move\n", positions,
              1000 * total / positions);
  return 0;
}
