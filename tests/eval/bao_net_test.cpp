// Bao's network: its value in the evaluation, its file, the trainer that makes it, and which
// games play it.
#include "eval/bao_net.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/rng.h"
#include "engine/board4_search.h"
#include "eval/bao_eval.h"
#include "eval/bao_net_train.h"
#include "eval/net_files.h"
#include "games/registry.h"
#include "scratch_dir.h"

namespace naqala::eval {
namespace {

// A network of random weights, large enough that every input and unit shows in the output.
BaoNet random_net(int counts, int hidden, std::uint64_t seed) {
  BaoNet net;
  net.counts = counts;
  net.made_by = "a test";
  random_layers(net, net.inputs(), hidden, 0.2, seed);
  return net;
}

// Positions of seeded random games of Bao.
std::vector<bao::State> random_bao_positions(const bao::Rules& rules, int games,
                                             std::uint64_t seed) {
  std::vector<bao::State> out;
  Rng rng(seed);
  for (int g = 0; g < games; ++g) {
    bao::State s = bao::State::initial(rules);
    for (int ply = 0; ply < 200 && !s.is_over(); ++ply) {
      out.push_back(s);
      bao::State::MoveList moves;
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }
  return out;
}

// The evaluation with a network is the linear sum plus a hundred times the network's sum over
// the mover's pits, the opponent's, both hands and houses, exactly as written out here.
TEST(BaoNet, AddsItsValueToTheLinearEvaluation) {
  const auto rules = bao::make_rules("bao", {});
  const BaoEval plain;
  // 32 units: the AVX2 pass where the machine has it; 16: a compiled width; 7: any.
  for (const int hidden : {32, 16, 7}) {
    const BaoNet net = random_net(12, hidden, 5);
    BaoEval with_net;
    with_net.net = std::make_shared<const BaoNet>(net);
    int differ = 0, in_mtaji = 0;
    for (const auto& s : random_bao_positions(rules, 10, 7)) {
      std::vector<int> active;
      const Player sides[2] = {s.to_move(), opponent(s.to_move())};
      for (int side = 0; side < 2; ++side) {
        for (int i = 0; i < 16; ++i)
          active.push_back((side * 16 + i) * 12 + std::min<int>(s.row(sides[side])[i], 11));
        active.push_back(32 * 12 + side * 23 + std::min(s.hand(sides[side]), 22));
        if (s.house(sides[side])) active.push_back(32 * 12 + 46 + side);
      }
      double out = net.b2;
      for (int j = 0; j < hidden; ++j) {
        double h = net.b1[j];
        for (const int a : active) h += net.w1[a * hidden + j];
        out += net.w2[j] * std::clamp(h, 0.0, 1.0);
      }
      EXPECT_NEAR(with_net(s), plain(s) + 100 * out, 1.0) << s.position() << " " << hidden;
      differ += with_net(s) != plain(s);
      in_mtaji += s.hand(s.to_move()) == 0;
    }
    EXPECT_GT(differ, 100);
    EXPECT_GT(in_mtaji, 100);
  }
}

TEST(BaoNet, FileRoundTripsAndBadFilesAreRefused) {
  const naqala::testing::ScratchDir dir;
  const BaoNet net = random_net(10, 8, 2);
  save_bao_net(dir / "net.txt", net);
  const BaoNet back = load_bao_net(dir / "net.txt");
  EXPECT_EQ(back.counts, 10);
  EXPECT_EQ(back.made_by, "a test");
  expect_same_layers(back, net);

  const GoodNetFile good(dir / "net.txt");
  auto damaged = layer_damages(good, ":373:");
  for (const auto& [from, to, line] :
       std::vector<std::array<std::string, 3>>{{"naqala-bao-net 1", "naqala-bao-net 2", ":1:"},
                                               {"naqala-bao-net 1", "naqala-kalah-net 1", ":1:"},
                                               {"made-by", "made", ":2:"},
                                               {"shape 10 8", "shape 10 0", ":3:"},
                                               {"shape 10 8", "shape 1 8", ":3:"},
                                               {"shape 10 8", "shape 10", ":3:"}})
    damaged.emplace_back(good.replace(from, to), line);
  expect_damaged_refused(dir / "bad.txt", damaged, load_bao_net);
}

// Labels made by the evaluation plus a known network: the trainer, the same seed twice, gives
// the same network, and one that explains the corrections far better than none; another seed
// gives another.
TEST(BaoNetTrain, IsDeterministicAndLearnsANetworksCorrections) {
  const auto rules = bao::make_rules("bao", {});
  const BaoNet teacher = random_net(16, 4, 11);
  const BaoEval base;
  std::vector<std::pair<bao::State, double>> data;
  double spread = 0;
  for (const auto& s : random_bao_positions(rules, 30, 3)) {
    const double part = teacher.seeds(s);
    data.emplace_back(s, base(s) / 100.0 + part);
    spread += part * part;
  }
  spread = std::sqrt(spread / data.size());
  SparseNetTrainOptions o;
  o.hidden = 8;
  o.epochs = 30;
  o.batch = 32;
  o.seed = 4;
  const auto a = train_bao_net(data, base, 16, o);
  const auto b = train_bao_net(data, base, 16, o);
  EXPECT_EQ(a.net.w1, b.net.w1);
  EXPECT_EQ(a.net.w2, b.net.w2);
  EXPECT_EQ(a.rms_after, b.rms_after);
  EXPECT_GT(a.held_out, 0u);
  EXPECT_NEAR(a.rms_before, spread, spread / 4);  // the base alone misses the whole correction
  EXPECT_LT(a.rms_train, a.rms_before / 2) << a.rms_before;
  EXPECT_LT(a.rms_after, a.rms_before / 2) << a.rms_before;
  o.seed = 5;
  EXPECT_NE(train_bao_net(data, base, 16, o).net.w1, a.net.w1);
  EXPECT_THROW(train_bao_net({}, base, 16, o), Error);
}

// NAQALA_BAO_NET names the file the preset plays (on bao and the options its table serves, not
// Bao la kujifunza or another start); `none` or no file: no network.
TEST(BaoNet, PlaysOnlyWhereAFileNamesIt) {
  const naqala::testing::ScratchDir dir;
  save_bao_net(dir / "net.txt", random_net(16, 4, 1));
  const auto played = [](const char* spec) {
    return engine::board4_played_eval<BaoEval>(*make_game(spec)).net != nullptr;
  };
  ::unsetenv("NAQALA_BAO_NET");
  EXPECT_FALSE(played("bao"));  // none shipped
  ::setenv("NAQALA_BAO_NET", (dir / "net.txt").c_str(), 1);
  EXPECT_TRUE(played("bao"));
  EXPECT_TRUE(played("bao:namua_takasa=any"));
  EXPECT_FALSE(played("bao:house_seeds=8"));
  EXPECT_FALSE(played("bao-kujifunza"));
  ::setenv("NAQALA_BAO_NET", "none", 1);
  EXPECT_FALSE(played("bao"));
  ::setenv("NAQALA_BAO_NET", (dir / "missing.txt").c_str(), 1);
  EXPECT_THROW(played("bao"), Error);
  ::unsetenv("NAQALA_BAO_NET");
}

}  // namespace
}  // namespace naqala::eval
