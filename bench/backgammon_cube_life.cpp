// naqala_bg_cube_life: measures the cube life (Janowski's x) of short races from exact
// cubeful money equities (docs/games/backgammon.md, "Cube life"). Not a test: a measurement
// tool that runs for a few seconds.
//
//   naqala_bg_cube_life [--bucket PIPS]
//
// Every bear-off of up to 6 checkers a side on the six home points (924 x 924 positions, no
// gammons possible) is solved exactly with the cube: for the player on roll, with the cube
// centred, his or the opponent's, the equity of rolling (each roll's best play, by cubeful
// equity) and of doubling (the opponent's better answer, take or pass), per unit of the
// current cube. Then, for each range of the two sides' average pip count, it tries cube lives
// from 0 to 1 in Janowski's model (eval/backgammon_cube.h) fed with the exact cubeless
// winning chance, and prints the one whose double/no double and take/pass choices lose the
// least exact equity over the range's positions (the doubler's and the taker's errors, each
// position once with the cube centred and once with the cube the doubler's).
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "eval/backgammon_bearoff.h"
#include "eval/backgammon_cube.h"

using namespace naqala;
using backgammon::Side;
using bearoff::kTwoSidedPositions;
constexpr int N = kTwoSidedPositions;

namespace {

struct Roll {
  int a, b;
  float weight;
};

std::vector<Roll> rolls() {
  std::vector<Roll> r;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= a; ++b) r.push_back({a, b, a == b ? 1.0f / 36 : 2.0f / 36});
  return r;
}

// Every home position of at most 6 checkers, by its rank.
std::vector<Side> all_sides() {
  std::vector<Side> sides(N);
  Side s{};
  const auto walk = [&](auto&& self, int point, int left) -> void {
    if (point == 6) {
      Side full = s;
      sides[bearoff::rank(full, bearoff::kTwoSidedCheckers)] = full;
      return;
    }
    for (int n = 0; n <= left; ++n) {
      s[point] = static_cast<std::uint8_t>(n);
      self(self, point + 1, left - n);
    }
    s[point] = 0;
  };
  walk(walk, 0, 6);
  return sides;
}

}  // namespace

int main(int argc, char** argv) {
  int bucket = 3;
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--bucket" && i + 1 < argc && std::atoi(argv[i + 1]) > 0) {
      bucket = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "bad option %s (allowed: --bucket PIPS, a positive width)\n", k.c_str());
      return 2;
    }
  }
  const std::vector<Side> sides = all_sides();
  const std::vector<Roll> rs = rolls();
  std::vector<int> pips(N);
  for (int i = 0; i < N; ++i) pips[i] = backgammon::pip_count(sides[i]);
  // The distinct positions each roll can reach, per position.
  std::vector<std::vector<std::vector<int>>> next(N, std::vector<std::vector<int>>(rs.size()));
  auto moves = std::make_unique<backgammon::MoveList>();
  for (int i = 1; i < N; ++i)
    for (std::size_t r = 0; r < rs.size(); ++r) {
      const backgammon::Board board{sides[i], Side{}};
      backgammon::generate_moves(board, Player::South, rs[r].a, rs[r].b, *moves);
      auto& out = next[i][r];
      for (const auto& m : *moves) {
        backgammon::Board after = board;
        backgammon::apply_steps(after, Player::South, m);
        out.push_back(bearoff::rank(after[0], bearoff::kTwoSidedCheckers));
      }
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      if (out.empty()) out.push_back(i);  // no legal move: the position stays
    }
  // Cube states from the view of the player on roll: 0 centred, 1 his, 2 the opponent's.
  // roll[c][i * N + j]: rolling now; decide[c]: after his best cube action.
  std::array<std::vector<float>, 3> roll, decide;
  for (auto& v : roll) v.assign(static_cast<std::size_t>(N) * N, 0);
  for (auto& v : decide) v.assign(static_cast<std::size_t>(N) * N, 0);
  std::vector<float> cubeless(static_cast<std::size_t>(N) * N, 0);
  std::vector<std::pair<int, int>> order;
  for (int i = 1; i < N; ++i)
    for (int j = 1; j < N; ++j) order.push_back({i, j});
  std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) {
    return pips[x.first] + pips[x.second] < pips[y.first] + pips[y.second];
  });
  constexpr int kFlip[3] = {0, 2, 1};
  for (auto [i, j] : order) {
    const std::size_t at = static_cast<std::size_t>(i) * N + j;
    for (int c = 0; c < 3; ++c) {
      float sum = 0, sum_cubeless = 0;
      for (std::size_t r = 0; r < rs.size(); ++r) {
        float best = -10, best_cubeless = -10;
        for (int k : next[i][r]) {
          const std::size_t back = static_cast<std::size_t>(j) * N + k;
          best = std::max(best, k == 0 ? 1.0f : -decide[kFlip[c]][back]);
          best_cubeless = std::max(best_cubeless, k == 0 ? 1.0f : 1 - cubeless[back]);
        }
        sum += rs[r].weight * best;
        sum_cubeless += rs[r].weight * best_cubeless;
      }
      roll[c][at] = sum;
      if (c == 0) cubeless[at] = sum_cubeless;
    }
    const float doubled = std::min(1.0f, 2 * roll[2][at]);
    decide[0][at] = std::max(roll[0][at], doubled);
    decide[1][at] = std::max(roll[1][at], doubled);
    decide[2][at] = roll[2][at];
  }
  // The check against the shipped two-sided table (cubeless winning chances).
  double worst = 0;
  for (auto [i, j] : order)
    worst = std::max(worst, std::abs(double(cubeless[static_cast<std::size_t>(i) * N + j]) -
                                     bearoff::two_sided().at(i, j)));
  std::printf(
      "exact cubeful equities of %zu bear-offs; cubeless chances agree with the "
      "two-sided table within %.1e\n",
      order.size(), worst);
  std::printf(
      "average pips  positions  best cube life  loss per position at it, at 0.68, "
      "at 0.85 (thousandths)\n");
  const int buckets = 36 / bucket + 1;
  for (int b = 0; b < buckets; ++b) {
    const auto loss_at = [&](float x, long& count) {
      bgcube::set_cube_life(x, x, false);
      double loss = 0;
      count = 0;
      for (auto [i, j] : order) {
        const int avg2 = pips[i] + pips[j];  // twice the average
        if (avg2 < 2 * b * bucket || avg2 >= 2 * (b + 1) * bucket) continue;
        const std::size_t at = static_cast<std::size_t>(i) * N + j;
        const bgnet::Probs p{{cubeless[at], 0, 0, 0, 0}};
        const float dt = 2 * roll[2][at];
        for (int c = 0; c < 2; ++c) {
          const auto d = bgcube::money_decision(
              p, c == 0 ? bgcube::Access::Centred : bgcube::Access::Mine, true);
          const float best = decide[c][at];
          const float chosen = d.should_double ? std::min(1.0f, dt) : roll[c][at];
          loss += best - chosen;                                     // the doubler's error
          if (d.should_take != (dt <= 1)) loss += std::abs(dt - 1);  // the taker's
          ++count;
        }
      }
      return count ? loss / count : 0.0;
    };
    long count = 0;
    float best_x = 0;
    double best_loss = 1e9;
    for (int k = 0; k <= 50; ++k) {
      const float x = k / 50.0f;
      const double l = loss_at(x, count);
      if (l < best_loss) best_loss = l, best_x = x;
    }
    if (count == 0) continue;
    long unused = 0;
    std::printf("%5d-%-5d  %9ld  %14.2f  %8.3f %8.3f %8.3f\n", b * bucket, (b + 1) * bucket,
                count / 2, best_x, 1000 * best_loss, 1000 * loss_at(0.68f, unused),
                1000 * loss_at(0.85f, unused));
  }
  return 0;
}
