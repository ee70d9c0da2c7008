// Exact labels: each is the margin the solver proves without limits, a cut-off proof is written
// as a bracket around it, the same records give the same file, and a run cut short resumes.
#include "engine/kalah_labels.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "engine/line_files.h"
#include "games/registry.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "scratch_dir.h"
#include "solve/kalah_solver.h"

namespace naqala::engine {
namespace {

int solved_margin(const sowing::State& s) {
  solve::Solver solver(solve::kalah_rules(s.rules()), s.rules().total_seeds, nullptr, 16);
  const auto p = solve::prove_margin(s, solver, 0);
  EXPECT_TRUE(p.exact());
  return p.low;
}

struct Fixture {
  naqala::testing::ScratchDir dir;
  std::unique_ptr<AnyGame> game = make_game("kalah:seeds=3");
  const sowing::Rules& rules =
      dynamic_cast<const TypedState<sowing::State>&>(*game->new_game()).typed().rules();
  std::vector<SelfPlayPosition> records;
  Fixture() {
    SelfPlayOptions o;
    o.engine = "alphabeta:depth=2";
    o.games = 8;
    o.opening_plies = 2;
    extend_self_play(*game, dir / "k.rec", o);
    records = read_self_play(dir / "k.rec");
  }
};

ExactLabelOptions small_labels(int roots) {
  ExactLabelOptions o;
  o.roots = roots;
  o.min_seeds = 8;
  o.max_seeds = 14;
  o.seed = 9;
  o.table_mb = 1;
  return o;
}

TEST(KalahLabels, AreTheSolversMarginsAndAStoppedRunResumes) {
  Fixture f;
  ASSERT_GE(exact_label_roots(f.rules, f.records, small_labels(6)).size(), 6u);
  EXPECT_EQ(extend_exact_labels(f.rules, f.records, nullptr, f.dir / "whole.lab", small_labels(6)),
            6);
  const std::string whole = text_of(f.dir / "whole.lab");
  // Four roots, then part of the fifth's lines as a killed run leaves them, then resumed.
  EXPECT_EQ(extend_exact_labels(f.rules, f.records, nullptr, f.dir / "cut.lab", small_labels(4)),
            4);
  const std::string four = text_of(f.dir / "cut.lab");
  std::ofstream(f.dir / "cut.lab", std::ios::app) << whole.substr(four.size(), 30);
  EXPECT_EQ(extend_exact_labels(f.rules, f.records, nullptr, f.dir / "cut.lab", small_labels(6)),
            6);
  EXPECT_EQ(text_of(f.dir / "cut.lab"), whole);

  int roots = 0;
  const auto labels = read_exact_labels(f.dir / "whole.lab", &roots);
  EXPECT_EQ(roots, 6);
  EXPECT_GT(labels.size(), 12u);  // the roots and the positions one move after them
  for (const auto& l : labels) {
    ASSERT_TRUE(l.exact()) << l.position;
    EXPECT_EQ(l.low, solved_margin(sowing::State::from_position(f.rules, l.position)))
        << l.position;
  }
  // Without children: the roots alone, the first label of each root's lines above.
  auto o = small_labels(6);
  o.children = false;
  extend_exact_labels(f.rules, f.records, nullptr, f.dir / "roots.lab", o);
  EXPECT_EQ(read_exact_labels(f.dir / "roots.lab").size(), 6u);
}

TEST(KalahLabels, ACutOffProofIsABracketAroundTheMargin) {
  Fixture f;
  auto o = small_labels(6);
  o.node_limit = 1;  // stopped at its first check of the limit
  extend_exact_labels(f.rules, f.records, nullptr, f.dir / "open.lab", o);
  int open = 0;
  for (const auto& l : read_exact_labels(f.dir / "open.lab")) {
    const int margin = solved_margin(sowing::State::from_position(f.rules, l.position));
    EXPECT_LE(l.low, margin) << l.position;
    EXPECT_GE(l.high, margin) << l.position;
    open += !l.exact();
  }
  EXPECT_GT(open, 0);
  EXPECT_NE(text_of(f.dir / "open.lab").find("\nopen "), std::string::npos);
}

TEST(KalahLabels, ABadLineIsNamedAndOtherRulesAreRefused) {
  const naqala::testing::ScratchDir dir;
  expect_bad_line_named(dir / "bad.lab", "exact 2,2,2,2,2,2/2,2,2,2,2,2/0,0/S 2\nroot\nopen x 3\n",
                        "bad.lab:3", [](const std::string& p) { return read_exact_labels(p); });
  auto oware = make_game("oware");
  const auto& rules =
      dynamic_cast<const TypedState<sowing::State>&>(*oware->new_game()).typed().rules();
  EXPECT_THROW(extend_exact_labels(rules, {}, nullptr, dir / "o.lab", small_labels(1)), Error);
}

}  // namespace
}  // namespace naqala::engine
