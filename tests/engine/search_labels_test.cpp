// Search labels: each is the value the labelling engine's search gives the position, the same
// records give the same file, and a run cut short resumes to what an unbroken run writes.
#include "engine/search_labels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "core/error.h"
#include "engine/engine.h"
#include "engine/line_files.h"
#include "games/registry.h"
#include "scratch_dir.h"

namespace naqala::engine {
namespace {

struct SearchLabelsFixture {
  naqala::testing::ScratchDir dir;
  std::unique_ptr<AnyGame> game = make_game("bao");
  std::vector<SelfPlayPosition> records;
  SearchLabelsFixture() {
    SelfPlayOptions o;
    o.engine = "alphabeta:depth=1";
    o.games = 2;
    o.opening_plies = 4;
    extend_self_play(*game, dir / "b.rec", o);
    records = read_self_play(dir / "b.rec");
  }
};

SearchLabelOptions small_search_labels(int roots) {
  SearchLabelOptions o;
  o.engine = "alphabeta:nodes=2000,hash=1";
  o.roots = roots;
  o.seed = 5;
  return o;
}

TEST(SearchLabels, AreTheEnginesValuesAndAStoppedRunResumes) {
  SearchLabelsFixture f;
  EXPECT_EQ(extend_search_labels(*f.game, f.records, f.dir / "whole.lab", small_search_labels(6)),
            6);
  const std::string whole = text_of(f.dir / "whole.lab");
  // The same again: the same file.
  extend_search_labels(*f.game, f.records, f.dir / "again.lab", small_search_labels(6));
  EXPECT_EQ(text_of(f.dir / "again.lab"), whole);
  // Four roots, then part of the fifth's lines as a killed run leaves them, then resumed.
  EXPECT_EQ(extend_search_labels(*f.game, f.records, f.dir / "cut.lab", small_search_labels(4)), 4);
  const std::string four = text_of(f.dir / "cut.lab");
  std::ofstream(f.dir / "cut.lab", std::ios::app) << whole.substr(four.size(), 30);
  EXPECT_EQ(extend_search_labels(*f.game, f.records, f.dir / "cut.lab", small_search_labels(6)), 6);
  EXPECT_EQ(text_of(f.dir / "cut.lab"), whole);
  // Another seed draws other roots.
  auto other = small_search_labels(6);
  other.seed = 6;
  extend_search_labels(*f.game, f.records, f.dir / "other.lab", other);
  EXPECT_NE(text_of(f.dir / "other.lab"), whole);

  int roots = 0;
  const auto labels = read_search_labels(f.dir / "whole.lab", &roots);
  EXPECT_EQ(roots, 6);
  ASSERT_EQ(labels.size(), 6u);
  for (const auto& l : labels) {
    const auto engine = make_engine(*f.game, "alphabeta:nodes=2000,hash=1");
    const double value = record_value(engine->think(*f.game->from_position(l.position), {}).value);
    EXPECT_NEAR(l.value, value, 0.006) << l.position;
  }
  // With children: each root and the positions one move after it.
  auto o = small_search_labels(2);
  o.children = true;
  extend_search_labels(*f.game, f.records, f.dir / "children.lab", o);
  EXPECT_GT(read_search_labels(f.dir / "children.lab").size(), 4u);
}

TEST(SearchLabels, ABadLineIsNamedAndABadEngineRefused) {
  SearchLabelsFixture f;
  expect_bad_line_named(f.dir / "bad.lab",
                        "value " + f.records[0].position + " 1.5\nroot\nvalue x\n", "bad.lab:3",
                        [](const std::string& p) { return read_search_labels(p); });
  auto o = small_search_labels(1);
  o.engine = "alphabeta:nodes=many";
  EXPECT_THROW(extend_search_labels(*f.game, f.records, f.dir / "e.lab", o), Error);
}

}  // namespace
}  // namespace naqala::engine
