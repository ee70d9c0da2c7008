// Supervised training on our own search's labels (search/backgammon_supervised.h).
#include "search/backgammon_supervised.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "core/error.h"
#include "eval/backgammon_evaluator.h"
#include "search/backgammon_ply.h"

namespace naqala::bgsuper {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

fs::path scratch(const std::string& name) {
  const fs::path p =
      fs::temp_directory_path() / ("naqala_bgsuper_" + std::to_string(getpid()) + "_" + name);
  fs::remove(p);
  return p;
}

LabelConfig small(const fs::path& path, std::uint64_t games, int plies = 0) {
  LabelConfig c;
  c.seed = 5;
  c.games = games;
  c.every = 3;
  c.explore = 0.2f;
  c.plies = plies;
  c.path = path.string();
  return c;
}

void quiet(const LabelProgress&) {}

TEST(BgSupervised, LabelIsTheOnePlyExpectation) {
  // The 1-ply value computed here by hand: each of the 21 rolls, the move best at 0 ply, its
  // 0-ply probabilities from the mover's view, weighted 1/36 (doubles) or 2/36.
  const bgnet::Net& net = bgeval::shipped_net();
  LabelConfig c = small("unused", 1, 1);
  const auto records = label_game(net, c, 0);
  ASSERT_GE(records.size(), 3u);
  auto moves = std::make_unique<backgammon::MoveList>();
  for (std::size_t i = 0; i < 3; ++i) {
    const Board& b = records[i].board;
    EXPECT_NE(bgnet::classify(b[0], b[1]), bgnet::PositionClass::Race);
    std::array<double, 5> expect{};
    for (int d0 = 1; d0 <= 6; ++d0)
      for (int d1 = 1; d1 <= d0; ++d1) {
        const Board after = bgeval::best_move(net, b, d0, d1, *moves);
        const Probs p = bgeval::after_move(net, after[0], after[1]);
        for (int k = 0; k < 5; ++k) expect[k] += p[k] * (d0 == d1 ? 1.0 : 2.0) / 36;
      }
    const Probs searched = bgsearch::evaluate_on_roll(net, b, 1);
    for (int k = 0; k < 5; ++k) {
      EXPECT_NEAR(records[i].label[k], expect[k], 1e-5) << i << " " << k;
      EXPECT_FLOAT_EQ(records[i].label[k], searched[k]) << i << " " << k;
    }
  }
}

TEST(BgSupervised, ResumedFileHasTheBytesOfAnUnbrokenRun) {
  const bgnet::Net& net = bgeval::shipped_net();
  const fs::path whole = scratch("whole"), parts = scratch("parts");
  label(net, small(whole, 6), quiet);
  const std::string unbroken = bytes_of(whole);
  const Dataset d = read_dataset(whole.string());
  EXPECT_EQ(d.games, 6u);
  EXPECT_FALSE(d.partial_tail);
  EXPECT_GT(d.records.size(), 0u);

  // Stopped after two games, resumed; then killed halfway through writing a block, resumed.
  label(net, small(parts, 2), quiet);
  label(net, small(parts, 4), quiet);
  const auto four = fs::file_size(parts);
  EXPECT_EQ(unbroken.compare(0, four, bytes_of(parts)), 0);
  {
    std::ofstream f(parts, std::ios::binary | std::ios::app);
    f.write(unbroken.data() + four, 30);  // part of game 4's block
  }
  EXPECT_TRUE(read_dataset(parts.string()).partial_tail);
  label(net, small(parts, 6), quiet);
  EXPECT_EQ(bytes_of(parts), unbroken);

  // Another seed cannot resume this file.
  LabelConfig other = small(parts, 8);
  other.seed = 6;
  EXPECT_THROW(label(net, other, quiet), Error);
  fs::remove(whole);
  fs::remove(parts);
}

TEST(BgSupervised, DamagedFileIsRefused) {
  const bgnet::Net& net = bgeval::shipped_net();
  const fs::path path = scratch("damaged");
  label(net, small(path, 3), quiet);
  std::string bytes = bytes_of(path);
  const std::string good = bytes;
  bytes[bytes.size() - 20] ^= 1;  // a label of the last block
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_THROW(read_dataset(path.string()), Error);
  EXPECT_THROW(label(net, small(path, 5), quiet), Error);
  bytes = good;
  bytes[20] ^= 1;  // the header's seed
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_THROW(read_dataset(path.string()), Error);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "NQBGNET1 something else";
  EXPECT_THROW(read_dataset(path.string()), Error);
  fs::remove(path);
}

Dataset tiny_set() {
  // Positions of two games labelled at 0 ply by another net than the one trained: targets it
  // does not already give.
  bgnet::Net labeller;
  labeller.randomize(7);
  LabelConfig c = small("unused", 2);
  c.every = 2;
  Dataset d;
  for (std::uint64_t g = 1; g <= 2; ++g)
    for (const Record& r : label_game(bgeval::shipped_net(), c, g)) {
      Record x = r;
      x.label = bgsearch::evaluate_on_roll(labeller, r.board, 0);
      d.records.push_back(x);
      d.game.push_back(g);
    }
  d.games = 3;
  return d;
}

TEST(BgSupervised, OneStepLowersTheLoss) {
  const Dataset d = tiny_set();
  ASSERT_GE(d.records.size(), 10u);
  bgnet::Net net = bgeval::shipped_net();
  const double before = loss(net, d.records).first;
  FitConfig f;
  f.epochs = 1;
  f.batch = int(d.records.size());  // the whole set: one step
  f.rate = 0.001f;
  f.holdout = 1000;  // nothing held out
  for (const Optimizer o : {Optimizer::Adam, Optimizer::Momentum}) {
    bgnet::Net trained = net;
    f.optimizer = o;
    f.rate = o == Optimizer::Adam ? 0.001f : 0.05f;
    fit(trained, d, f, [](const FitProgress&) {});
    EXPECT_LT(loss(trained, d.records).first, before);
    // The race network is not trained.
    EXPECT_EQ(trained.mlp(bgnet::PositionClass::Race).w1, net.mlp(bgnet::PositionClass::Race).w1);
  }
}

TEST(BgSupervised, SameSeedSameWeights) {
  const Dataset d = tiny_set();
  FitConfig f;
  f.epochs = 2;
  f.batch = 4;
  f.holdout = 2;
  auto run = [&](std::uint64_t seed) {
    bgnet::Net net = bgeval::shipped_net();
    f.seed = seed;
    fit(net, d, f, [](const FitProgress&) {});
    return net.mlp(bgnet::PositionClass::Contact).w1;
  };
  const auto a = run(3);
  EXPECT_EQ(run(3), a);
  EXPECT_NE(run(4), a);
}

TEST(BgSupervised, FinalRateScalesTheLastStep) {
  // Two full-batch Adam steps. The first step is the same with or without the falling rate; the
  // second sees the same gradient and moments, so with --final-rate a hundredth of --rate it
  // moves each weight a hundredth as far as at the constant rate.
  const Dataset d = tiny_set();
  FitConfig f;
  f.batch = int(d.records.size());
  f.holdout = 1000;
  f.rate = 0.001f;
  auto run = [&](int epochs, float final_rate) {
    bgnet::Net net = bgeval::shipped_net();
    f.epochs = epochs;
    f.final_rate = final_rate;
    fit(net, d, f, [](const FitProgress&) {});
    return net.mlp(bgnet::PositionClass::Contact).w2;
  };
  const auto first = run(1, 0);
  EXPECT_EQ(run(1, 0.00001f), first);
  const auto constant = run(2, 0), falling = run(2, 0.00001f);
  int compared = 0;
  for (std::size_t i = 0; i < first.size(); ++i) {
    const double full = double(constant[i]) - first[i], small = double(falling[i]) - first[i];
    if (std::abs(full) < 1e-5) continue;  // too small a step to compare in floats
    EXPECT_NEAR(small / full, 0.01, 0.002) << "weight " << i;
    ++compared;
  }
  EXPECT_GT(compared, 10);
  f.final_rate = -1;
  bgnet::Net net = bgeval::shipped_net();
  EXPECT_THROW(fit(net, d, f, [](const FitProgress&) {}), Error);
}

TEST(BgSupervised, SeveralFilesFitAsTheirPositionsInOrder) {
  // Two files of other seeds fit together as one dataset holding the first file's positions then
  // the second's; each file's game g is held out by its own number. 1-ply labels: targets the
  // net's 0-ply outputs do not already give.
  const bgnet::Net& net = bgeval::shipped_net();
  const fs::path a = scratch("several_a"), b = scratch("several_b");
  LabelConfig ca = small(a, 5, 1), cb = small(b, 4, 1);
  cb.seed = 9;
  label(net, ca, quiet);
  label(net, cb, quiet);
  const std::vector<Dataset> both = read_datasets({a.string(), b.string()});
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].config.path, a.string());
  EXPECT_EQ(both[1].games, 4u);

  FitConfig f;
  f.epochs = 0;
  f.holdout = 2;
  std::size_t held = 0, trained = 0;
  for (const Dataset& d : both)
    for (std::size_t i = 0; i < d.records.size(); ++i)
      if (bgnet::classify(d.records[i].board[0], d.records[i].board[1]) !=
          bgnet::PositionClass::Race)
        ++(d.game[i] % 2 == 1 ? held : trained);
  ASSERT_GT(held, 0u);
  ASSERT_GT(trained, 0u);
  FitProgress seen;
  bgnet::Net unchanged = net;
  fit(unchanged, both, f, [&](const FitProgress& p) { seen = p; });
  EXPECT_EQ(seen.holdout_positions, held);
  EXPECT_EQ(seen.train_positions, trained);

  // Nothing held out: the weights of fitting the two files are those of one dataset of their
  // positions in file order, with the same seed.
  Dataset joined;
  for (const Dataset& d : both) {
    joined.records.insert(joined.records.end(), d.records.begin(), d.records.end());
    joined.game.insert(joined.game.end(), d.game.size(), 0);
  }
  f.epochs = 1;
  f.batch = 8;
  f.holdout = 1000;
  bgnet::Net from_files = net, from_joined = net;
  fit(from_files, both, f, [](const FitProgress&) {});
  fit(from_joined, joined, f, [](const FitProgress&) {});
  EXPECT_EQ(from_files.mlp(bgnet::PositionClass::Contact).w1,
            from_joined.mlp(bgnet::PositionClass::Contact).w1);
  EXPECT_NE(from_files.mlp(bgnet::PositionClass::Contact).w1,
            net.mlp(bgnet::PositionClass::Contact).w1);
  fs::remove(a);
  fs::remove(b);
}

TEST(BgSupervised, FilesOfTheSameGamesAreRefused) {
  // The same file twice, or a file and a longer run of the same command: the same games.
  const bgnet::Net& net = bgeval::shipped_net();
  const fs::path a = scratch("same_a"), b = scratch("same_b"), c = scratch("same_c");
  label(net, small(a, 2), quiet);
  label(net, small(b, 3), quiet);
  LabelConfig other = small(c, 2);
  other.explore_top = 3;  // other settings: other games
  label(net, other, quiet);
  EXPECT_THROW(read_datasets({a.string(), a.string()}), Error);
  EXPECT_THROW(read_datasets({a.string(), c.string(), b.string()}), Error);
  EXPECT_EQ(read_datasets({a.string(), c.string()}).size(), 2u);
  const std::vector<Dataset> same = {read_dataset(a.string()), read_dataset(b.string())};
  bgnet::Net trained = net;
  EXPECT_THROW(fit(trained, same, FitConfig{}, [](const FitProgress&) {}), Error);
  EXPECT_THROW(read_datasets({}), Error);
  EXPECT_THROW(read_datasets({a.string(), scratch("missing").string()}), Error);
  fs::remove(a);
  fs::remove(b);
  fs::remove(c);
}

}  // namespace
}  // namespace naqala::bgsuper
