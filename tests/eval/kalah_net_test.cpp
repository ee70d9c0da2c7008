// The Kalah network: its value in the evaluation, its file, and the trainer that makes it.
#include "eval/kalah_net.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/rng.h"
#include "eval/kalah_net_train.h"
#include "eval/mirrored_position.h"
#include "eval/net_files.h"
#include "eval/sowing_eval.h"
#include "games/sowing/rules_toml.h"
#include "scratch_dir.h"

namespace naqala::eval {
namespace {

std::shared_ptr<const sowing::Rules> kalah_rules() {
  for (const auto& p : sowing::presets())
    if (p.name == "kalah") return sowing::load_rules(p.toml, "kalah", {});
  return nullptr;
}

// A network of random weights, large enough that every input and unit shows in the output.
KalahNet random_net(int hidden, int max_seeds, std::uint64_t seed) {
  KalahNet net;
  net.max_seeds = max_seeds;
  net.made_by = "a test";
  random_layers(net, net.inputs(), hidden, 0.3, seed);
  return net;
}

// Random positions of random games.
std::vector<sowing::State> random_positions(const sowing::Rules& rules, int games,
                                            std::uint64_t seed) {
  std::vector<sowing::State> out;
  Rng rng(seed);
  for (int g = 0; g < games; ++g) {
    sowing::State s = sowing::State::initial(rules);
    while (!s.is_over()) {
      out.push_back(s);
      sowing::State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
  return out;
}

int seeds_in_pits(const sowing::State& s) {
  return s.rules().total_seeds - s.store(Player::South) - s.store(Player::North);
}

// Up to max_seeds in the pits the evaluation is the store difference and the network's sum over
// the mover's row, the opponent's and the seeds, exactly as written out here; above it, the
// evaluation without the network. A position and its mirror (rows and mover swapped) agree.
TEST(KalahNet, EvaluatesBoardsUpToItsSeedsAndTheTableAbove) {
  const auto rules = kalah_rules();
  SowingWeights w = default_sowing_weights(*rules);
  const SowingEval plain(*rules, w);
  // 32 units: the AVX2 pass where the machine has it; 16 and 64: the compiled widths; 7: any.
  for (const int hidden : {32, 16, 64, 7}) {
    const KalahNet net = random_net(hidden, 30, 5);
    w.net = std::make_shared<const KalahNet>(net);
    const SowingEval with_net(*rules, w);
    int by_net = 0, by_table = 0;
    for (const auto& s : random_positions(*rules, 30, 7)) {
      const Player me = s.to_move(), you = opponent(me);
      const int n = seeds_in_pits(s);
      if (n > 30) {
        EXPECT_EQ(with_net(s), plain(s)) << s.position();
        ++by_table;
      } else {
        // By hand: the active rows summed, clipped, weighted.
        int active[13];
        for (int i = 0; i < 6; ++i) {
          active[i] = i * kNetCounts + std::min(s.pit(me, i), kNetCounts - 1);
          active[6 + i] = (6 + i) * kNetCounts + std::min(s.pit(you, i), kNetCounts - 1);
        }
        active[12] = 12 * kNetCounts + n;
        double out = net.b2;
        for (int j = 0; j < net.hidden; ++j) {
          double h = net.b1[j];
          for (const int a : active) h += net.w1[a * net.hidden + j];
          out += net.w2[j] * std::clamp(h, 0.0, 1.0);
        }
        const double expected = 100 * (s.store(me) - s.store(you) + out);
        EXPECT_NEAR(with_net(s), expected, 1.0) << s.position() << " " << hidden;
        ++by_net;
      }
      const auto mirror = sowing::State::from_position(*rules, mirrored(s.position()));
      EXPECT_EQ(with_net(s), with_net(mirror)) << s.position();
    }
    EXPECT_GT(by_net, 100);
    EXPECT_GT(by_table, 100);
  }
}

TEST(KalahNet, ANetworkOfAnotherBoardIsRefused) {
  const auto rules = kalah_rules();
  SowingWeights w = default_sowing_weights(*rules);
  KalahNet net = random_net(4, 30, 1);
  net.pits = 5;
  net.w1.resize(static_cast<std::size_t>(net.inputs()) * net.hidden);
  w.net = std::make_shared<const KalahNet>(net);
  EXPECT_THROW(SowingEval(*rules, w), Error);
}

TEST(KalahNet, FileRoundTripsAndBadFilesAreRefused) {
  const naqala::testing::ScratchDir dir;
  const KalahNet net = random_net(8, 36, 2);
  save_kalah_net(dir / "net.txt", net);
  const KalahNet back = load_kalah_net(dir / "net.txt");
  EXPECT_EQ(back.pits, 6);
  EXPECT_EQ(back.max_seeds, 36);
  EXPECT_EQ(back.made_by, "a test");
  expect_same_layers(back, net);

  const GoodNetFile good(dir / "net.txt");
  auto damaged = layer_damages(good, ":");
  for (const auto& [from, to, line] :
       std::vector<std::array<std::string, 3>>{{"naqala-kalah-net 1", "naqala-kalah-net 2", ":1:"},
                                               {"naqala-kalah-net 1", "weights 1 2 3", ":1:"},
                                               {"shape 6 8 36", "shape 6 0 36", ":3:"},
                                               {"shape 6 8 36", "shape 9 8 36", ":3:"}})
    damaged.emplace_back(good.replace(from, to), line);
  expect_damaged_refused(dir / "bad.txt", damaged, load_kalah_net);
}

// Labels made by a known network: the trainer, the same seed twice, gives the same network, and
// one that explains the labels far better than a constant; another seed gives another.
TEST(KalahNetTrain, IsDeterministicAndLearnsANetworksLabels) {
  const auto rules = kalah_rules();
  const KalahNet teacher = random_net(4, 48, 11);
  std::vector<LabelledPosition> data;
  double mean = 0, spread = 0;
  for (const auto& s : random_positions(*rules, 60, 3)) {
    int active[13];
    const int n = kalah_net_active(teacher, s, active);
    const double label =
        s.store(s.to_move()) - s.store(opponent(s.to_move())) + teacher.forward(active, n);
    data.push_back({s, label});
  }
  for (const auto& d : data) {
    int active[13];
    const double part = teacher.forward(active, kalah_net_active(teacher, d.state, active));
    mean += part / data.size();
    spread += part * part / data.size();
  }
  const double constant_rms = std::sqrt(spread - mean * mean);
  KalahNetTrainOptions o;
  o.hidden = 8;
  o.epochs = 40;
  o.batch = 32;
  o.seed = 4;
  const auto zero = [](const sowing::State&) { return 0.0; };
  const auto a = train_kalah_net(data, 48, zero, o);
  const auto b = train_kalah_net(data, 48, zero, o);
  EXPECT_EQ(a.net.w1, b.net.w1);
  EXPECT_EQ(a.net.w2, b.net.w2);
  EXPECT_EQ(a.rms_after, b.rms_after);
  EXPECT_GT(a.held_out, 0u);
  EXPECT_LT(a.rms_train, constant_rms / 3) << constant_rms;
  EXPECT_LT(a.rms_after, constant_rms / 2) << constant_rms;
  o.seed = 5;
  EXPECT_NE(train_kalah_net(data, 48, zero, o).net.w1, a.net.w1);
  // Positions above max_seeds are not trained on.
  EXPECT_LT(train_kalah_net(data, 30, zero, o).train + train_kalah_net(data, 30, zero, o).held_out,
            data.size());
}

}  // namespace
}  // namespace naqala::eval
