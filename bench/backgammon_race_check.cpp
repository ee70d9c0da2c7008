// naqala_bg_race_check: how far a net's race evaluation is from the truth, and how much it
// favours the side on roll (docs/games/backgammon.md, "Race training"). Not a test: it runs
// for a minute or more.
//
//   naqala_bg_race_check [--net FILE]... [--positions N] [--rollouts N] [--seed S]
//
// For each net (default: the shipped one):
// - bear-off: N random two-sided bear-offs of 1-6 checkers a side (never trained: the exact
//   table answers there), the net's winning chance against the exact one;
// - races: N race positions of self-play games (seed S, not the training seed) against a
//   close opponent, N of random sides, and N symmetric outfield races: the net's 0-ply and
//   1-ply winning chances against the one-sided race distributions (4,000 sampled races a
//   side); 0-ply minus 1-ply is twice the on-roll bias;
// - rollouts: the first --rollouts of those races rolled out to the bear-off by the shipped
//   net at 0 ply (1,296 games each, exact from there), an independent reference.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "eval/backgammon_bearoff.h"
#include "eval/backgammon_evaluator.h"
#include "eval/backgammon_race_train.h"
#include "search/backgammon_ply.h"

using namespace naqala;
using namespace naqala::backgammon;

namespace {

struct Stats {
  double sum = 0, abs = 0;
  int n = 0;
  void add(double e) { sum += e, abs += std::fabs(e), ++n; }
  void print(const char* what) const {
    std::printf("  %-34s mean %+.4f  mean |err| %.4f  (%d)\n", what, n ? sum / n : 0,
                n ? abs / n : 0, n);
  }
};

Side random_home(Rng& rng) {
  Side s{};
  const int n = 1 + static_cast<int>(rng.below(6));
  for (int k = 0; k < n; ++k) ++s[rng.below(6)];
  return s;
}

// A race played out by `net` at 0 ply until both sides bear off; the value of the first
// side on roll's win.
double rollout(const bgnet::Net& net, const Board& start, int games, std::uint64_t seed) {
  auto moves = std::make_unique<MoveList>();
  double wins = 0;
  for (int g = 0; g < games; ++g) {
    Rng rng(seed * 7919 + static_cast<std::uint64_t>(g));
    Board b = start;
    bool mine = true;  // b[0] is the first side on roll
    for (;;) {
      if (auto exact = bearoff::evaluate(b[0], b[1])) {
        wins += mine ? (*exact)[0] : 1 - (*exact)[0];
        break;
      }
      const int d0 = 1 + static_cast<int>(rng.below(6)), d1 = 1 + static_cast<int>(rng.below(6));
      generate_moves(b, Player::South, d0, d1, *moves);
      Board best_board = b;
      float best = -10;
      for (const auto& m : *moves) {
        Board after = b;
        apply_steps(after, Player::South, m);
        const float eq = bgeval::after_move(net, after[0], after[1]).equity();
        if (eq > best) best = eq, best_board = after;
      }
      if (checkers_off(best_board[0]) == kCheckers) {
        wins += mine ? 1 : 0;
        break;
      }
      b = {best_board[1], best_board[0]};
      mine = !mine;
    }
  }
  return wins / games;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> nets;
  int positions = 400, rollouts = 0;
  std::uint64_t seed = 99;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--net")
      nets.push_back(next());
    else if (a == "--positions")
      positions = std::stoi(next());
    else if (a == "--rollouts")
      rollouts = std::stoi(next());
    else if (a == "--seed")
      seed = std::stoull(next());
    else {
      std::fprintf(stderr, "unknown flag %s (--net FILE, --positions N, --rollouts N, --seed S)\n",
                   a.c_str());
      return 2;
    }
  }
  if (nets.empty()) nets.push_back(bgeval::shipped_net_path());

  // Three sets of races with their reference chances from the one-sided distributions
  // (4,000 sampled races a side): sides of self-play games by the shipped net, each against a
  // side of close pips (no contact, not both home); random sides (as the training draws them,
  // another seed) likewise; and symmetric outfield races, both sides the same 15 checkers on
  // their 7- to 12-points.
  struct Set {
    const char* name;
    std::vector<Board> races;
    std::vector<double> reference;
    std::vector<bgnet::Probs> reference_probs;
  };
  std::vector<Set> sets;
  auto make_set = [&](const char* name, std::vector<Side> sides, bool symmetric) {
    Set set{name, {}, {}, {}};
    Rng rng(seed);
    std::vector<bgrace::Distribution> dist(sides.size());
    std::vector<bool> sampled(sides.size(), false);
    auto distribution = [&](std::size_t i) -> const bgrace::Distribution& {
      if (!sampled[i]) {
        Rng r(seed * 31 + i);
        dist[i] = bgrace::sample(sides[i], 4000, r);
        sampled[i] = true;
      }
      return dist[i];
    };
    for (int tries = 0; static_cast<int>(set.races.size()) < positions && tries < positions * 100;
         ++tries) {
      const std::size_t i = rng.below(static_cast<std::uint32_t>(sides.size()));
      const std::size_t j = symmetric ? i : rng.below(static_cast<std::uint32_t>(sides.size()));
      const Board b{sides[i], sides[j]};
      if (std::abs(pip_count(b[0]) - pip_count(b[1])) > 8) continue;
      if (bgnet::classify(b[0], b[1]) != bgnet::PositionClass::Race) continue;
      if (bearoff::in_home(b[0]) && bearoff::in_home(b[1])) continue;
      set.races.push_back(b);
      set.reference_probs.push_back(bgrace::race_probs(distribution(i), distribution(j)));
      set.reference.push_back(set.reference_probs.back()[0]);
    }
    sets.push_back(std::move(set));
  };
  bgrace::Config c;
  c.seed = seed;
  c.games = positions;
  c.random_sides = 0;
  make_set("self-play races", bgrace::collect_sides(bgeval::shipped_net(), c), false);
  c.games = 0;
  c.random_sides = positions * 2;
  make_set("random races", bgrace::collect_sides(bgeval::shipped_net(), c), false);
  {
    Rng rng(seed + 1);
    std::vector<Side> outfield;
    for (int k = 0; k < positions; ++k) {
      Side s{};
      for (int n = 0; n < kCheckers; ++n) ++s[6 + rng.below(6)];
      outfield.push_back(s);
    }
    make_set("symmetric outfield races", outfield, true);
  }
  std::vector<double> rolled;
  const auto& races = sets[0].races;
  for (int k = 0; k < rollouts && k < static_cast<int>(races.size()); ++k)
    rolled.push_back(rollout(bgeval::shipped_net(), races[k], 1296, seed + k));

  for (const auto& path : nets) {
    const bgnet::Net net = bgnet::Net::load(path);
    std::printf("%s\n", path.c_str());
    Stats bear;
    Rng r(seed);
    for (int k = 0; k < 2000; ++k) {
      const Side a = random_home(r), b = random_home(r);
      bear.add(net.evaluate(a, b)[0] - (*bearoff::evaluate(a, b))[0]);
    }
    bear.print("bear-off, net - exact");
    for (const Set& set : sets) {
      Stats zero, one, gap, roll_ref, roll_zero, win_gammon, lose_gammon;
      double mean_ref = 0;
      for (std::size_t k = 0; k < set.races.size(); ++k) {
        const bgnet::Probs probs = net.evaluate(set.races[k][0], set.races[k][1]);
        const double p0 = probs[0];
        win_gammon.add(probs[1] - set.reference_probs[k][1]);
        lose_gammon.add(probs[3] - set.reference_probs[k][3]);
        const double p1 = bgsearch::evaluate_on_roll(net, set.races[k], 1)[0];
        zero.add(p0 - set.reference[k]);
        one.add(p1 - set.reference[k]);
        gap.add(p0 - p1);
        mean_ref += set.reference[k] / set.races.size();
        if (&set == &sets[0] && k < rolled.size()) {
          roll_ref.add(set.reference[k] - rolled[k]);
          roll_zero.add(p0 - rolled[k]);
        }
      }
      std::printf(" %s (one-sided reference %.4f on average):\n", set.name, mean_ref);
      zero.print("0-ply - one-sided");
      one.print("1-ply - one-sided");
      gap.print("0-ply - 1-ply");
      win_gammon.print("won gammons, 0-ply - one-sided");
      lose_gammon.print("lost gammons, 0-ply - one-sided");
      if (roll_ref.n) {
        roll_ref.print("one-sided - rollout");
        roll_zero.print("0-ply - rollout");
      }
    }
  }
  return 0;
}
