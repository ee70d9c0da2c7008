// Variant specs, user TOML files and their errors (issue 3: key, line, allowed values).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "games/registry.h"
#include "games/sowing/family.h"
#include "scratch_dir.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::string& spec) {
  try {
    make_game(spec);
  } catch (const VariantError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string toml_error(const std::string& text) {
  try {
    load_rules(text, "my.toml", {});
  } catch (const VariantError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kMinimal = R"(name = "tiny"
[board]
pits = 2
seeds = 1
)";

TEST(VariantSpec, OptionsAreApplied) {
  auto g = make_game("kalah:seeds=6,empty_capture=true");
  EXPECT_EQ(g->spec(), "kalah:seeds=6,empty_capture=true");
  EXPECT_EQ(g->new_game()->position(), "6,6,6,6,6,6/6,6,6,6,6,6/0,0/S");
  EXPECT_EQ(make_game("kalah:seeds=4")->spec(), "kalah");  // defaults are not repeated
}

TEST(VariantSpec, UnknownNameListsTheVariants) {
  auto e = error_of("owari");
  EXPECT_THAT(e, HasSubstr("unknown variant 'owari'"));
  EXPECT_THAT(e, HasSubstr("oware"));
  EXPECT_THAT(e, HasSubstr("kalah"));
}

TEST(VariantSpec, UnknownOptionListsTheOptions) {
  auto e = error_of("kalah:sedes=5");
  EXPECT_THAT(e, HasSubstr("unknown option 'sedes'"));
  EXPECT_THAT(e, HasSubstr("seeds"));
  EXPECT_THAT(e, HasSubstr("empty_capture"));
}

TEST(VariantSpec, BadValueListsTheAllowedValues) {
  EXPECT_THAT(error_of("kalah:seeds=9"), HasSubstr("allowed values: 3, 4, 5, 6"));
  EXPECT_THAT(error_of("oware:grand_slam=sometimes"),
              HasSubstr("no_capture, forbidden, capture_all"));
  EXPECT_THAT(error_of("oware:skip_12=yes"), HasSubstr("false, true"));
}

TEST(VariantSpec, MalformedSpecs) {
  EXPECT_THAT(error_of("kalah:"), HasSubstr("no options"));
  EXPECT_THAT(error_of("kalah:seeds"), HasSubstr("key=value"));
  EXPECT_THAT(error_of("kalah:seeds=5,"), HasSubstr("ends with ','"));
  EXPECT_THAT(error_of(":seeds=5"), HasSubstr("empty variant name"));
}

TEST(VariantFile, MinimalFileWorksWithDefaults) {
  auto r = load_rules(kMinimal, "my.toml", {});
  EXPECT_EQ(r->pits, 2);
  EXPECT_EQ(r->total_seeds, 4);
  State s = State::initial(*r);
  EXPECT_EQ(s.position(), "1,1/1,1/0,0/S");
}

TEST(VariantFile, UnknownKeyNamesKeyLineAndAllowed) {
  auto e = toml_error(std::string(kMinimal) + "[sowing]\ndirektion = \"cw\"\n");
  EXPECT_THAT(e, HasSubstr("my.toml:6: sowing.direktion: unknown key"));
  EXPECT_THAT(e, HasSubstr("direction"));
}

TEST(VariantFile, BadValueNamesKeyLineAndAllowed) {
  auto e = toml_error(std::string(kMinimal) + "[sowing]\ndirection = \"sideways\"\n");
  EXPECT_THAT(e, HasSubstr("my.toml:6: sowing.direction: must be one of: ccw, cw"));
  e = toml_error(R"(name = "x"
[board]
pits = 40
seeds = 1
)");
  EXPECT_THAT(e, HasSubstr("my.toml:3: board.pits: must be an integer from 1 to 11"));
}

TEST(VariantFile, MissingRequiredKey) {
  EXPECT_THAT(toml_error("name = \"x\"\n[board]\npits = 6\n"), HasSubstr("board.seeds: missing"));
}

TEST(VariantFile, ContradictionsAreRefused) {
  auto e = toml_error(std::string(kMinimal) + "[turn]\nextra_turn = true\n");
  EXPECT_THAT(e, HasSubstr("turn.extra_turn"));
  EXPECT_THAT(e, HasSubstr("sowing.stores"));
  e = toml_error(std::string(kMinimal) + "[feeding]\nmust_feed = true\n");
  EXPECT_THAT(e, HasSubstr("end.row_empty = \"at_turn\""));
  e = toml_error(std::string(kMinimal) + "[capture]\nkind = \"counts\"\n");
  EXPECT_THAT(e, HasSubstr("needs capture.counts"));
}

// The keys of the general path: each contradiction names the key, the line and what to do.
TEST(VariantFile, GeneralPathContradictionsAreRefused) {
  auto e = toml_error(std::string(kMinimal) + "[capture]\nkind = [\"opposite\", \"sideways\"]\n");
  EXPECT_THAT(e, HasSubstr("my.toml:6: capture.kind: must be one of (or a list of): none, "
                           "opposite, counts, even, column"));
  e = toml_error("name = \"x\"\n[board]\nrows = 3\npits = 5\nseeds = 3\n");
  EXPECT_THAT(
      e, HasSubstr("my.toml:4: board.pits: a three-row board splits its middle row in halves"));
  e = toml_error(std::string(kMinimal) + "[tuz]\nkind = \"auto\"\n");
  EXPECT_THAT(e, HasSubstr("tuz.kind: a tuz is made by the last seed in an opponent's pit"));
  e = toml_error(std::string(kMinimal) + "[setup]\nkind = \"free\"\nmin = 2\n");
  EXPECT_THAT(e, HasSubstr("my.toml:7: setup.min: the layout needs 8 seeds; there are 4"));
  e = toml_error(std::string(kMinimal) + "[setup]\npie = true\n");
  EXPECT_THAT(e, HasSubstr("setup.pie: needs setup.kind"));
  e = toml_error(std::string(kMinimal) + "[end]\nno_move = \"pass\"\n");
  EXPECT_THAT(e, HasSubstr("end.no_move: needs end.row_empty = \"at_turn\""));
  e = toml_error(std::string(kMinimal) + "[capture]\nkind = \"column\"\n");
  EXPECT_THAT(e, HasSubstr("capture.kind: \"column\" needs board.rows = 3"));
  e = toml_error(std::string(kMinimal) + "[rounds]\nkind = \"points\"\n");
  EXPECT_THAT(
      e,
      HasSubstr("rounds.kind: \"points\" starts every round with a new layout: needs setup.kind"));
  e = toml_error(std::string(kMinimal) + "[sowing]\nlaps = \"relay\"\nskip_full = 3\n");
  EXPECT_THAT(e, HasSubstr("sowing.skip_full: is only played with single laps"));
  e = toml_error(std::string(kMinimal) + "[rounds]\nkind = \"sometimes\"\n");
  EXPECT_THAT(e, HasSubstr("rounds.kind: must be one of: none, namnam, refill, gabata, points"));
}

// Rulesets that use nothing of the general path stay on the fast path.
TEST(VariantFile, FastPathIsChosenFromTheData) {
  for (const char* name : {"kalah", "bantumi", "oware", "awale", "kenyan-bao", "toguz", "mangala"})
    EXPECT_FALSE(testing::preset(name)->general) << name;
  EXPECT_TRUE(testing::preset("awale", {{"feeding", "gift"}})->general);
  EXPECT_TRUE(testing::preset("toguz", {{"tuz", "choice"}})->general);  // `7t` is a move
  for (const char* name : {"ayoayo", "gabata", "congklak", "madjnuni"})
    EXPECT_TRUE(testing::preset(name)->general) << name;
}

TEST(VariantFile, NotToml) {
  EXPECT_THAT(toml_error("name = \n"), HasSubstr("my.toml:1: not valid TOML"));
}

TEST(VariantFile, OptionsDeclaredInTheFile) {
  const std::string text = std::string(kMinimal) + R"([options.seeds]
key = "board.seeds"
allowed = [1, 2]
help = "seeds per pit"
)";
  auto r = load_rules(text, "my.toml", {{"seeds", "2"}});
  EXPECT_EQ(r->total_seeds, 8);
  EXPECT_THROW(load_rules(text, "my.toml", {{"seeds", "3"}}), VariantError);
}

// Found by fuzz_variant_spec: an option with no value crashed `rules`, which shows the last one.
TEST(VariantFile, AnOptionNeedsValuesThatIncludeItsDefault) {
  const std::string option = std::string(kMinimal) + "[options.seeds]\nkey = \"board.seeds\"\n";
  EXPECT_THAT(toml_error(option + "allowed = []\n"),
              HasSubstr("options.seeds.allowed: lists no value; give at least one"));
  EXPECT_THAT(toml_error(option + "allowed = [3, 4]\n"),
              HasSubstr("the default '1' (the file's value of board.seeds) is not one of the "
                        "allowed values (3, 4)"));
  const std::string values = std::string(kMinimal) + "[options.style]\nvalues = {}\n";
  EXPECT_THAT(toml_error(values + "default = \"x\"\n"),
              HasSubstr("options.style.values: lists no value"));
}

TEST(VariantFile, LoadedThroughTheRegistryLikeAPreset) {
  const naqala::testing::ScratchDir scratch;
  const std::string path = scratch / "village.toml";
  std::ofstream(path) << kMinimal;
  auto g = make_game(path);
  EXPECT_EQ(g->info().name, "tiny");
  EXPECT_EQ(g->new_game()->legal_moves(), (std::vector<std::string>{"1", "2"}));
  EXPECT_THAT(error_of(scratch / "missing.toml"), HasSubstr("cannot read"));
}

// The worked examples of docs/variants.md must load and play.
TEST(VariantFile, DocumentedExamplesLoad) {
  for (const char* name : {"docs/examples/two-pit-nim.toml", "docs/examples/village-kalah.toml",
                           "docs/examples/village-relay.toml"}) {
    auto g = make_game(std::string(NAQALA_SOURCE_DIR) + "/" + name);
    auto s = g->new_game();
    EXPECT_FALSE(s->legal_moves().empty()) << name;
    EXPECT_FALSE(g->rules_text().empty());
  }
}

TEST(Rules, TextDescribesTheOptionsChosen) {
  auto text = make_game("oware:grand_slam=forbidden")->rules_text();
  EXPECT_THAT(text, HasSubstr("is forbidden"));
  EXPECT_THAT(text, HasSubstr("25"));
  EXPECT_THAT(make_game("kalah")->rules_text(), HasSubstr("moves again"));
}

// One seed a side, relay sowing, no captures: every move gives the seed back and the game never
// ends. `bench random` must still stop on time, counting the game cut off as unfinished; a
// zero time budget has rung before the first ply ends, so the first ply is the last.
TEST(RandomPlay, AGameThatNeverEndsStopsOnTime) {
  auto game = make_sowing_game(load_rules(R"(name = "forever"
[board]
pits = 1
seeds = 1
[sowing]
laps = "relay"
)",
                                          "forever.toml", {}));
  // And a relay without captures on 12 pits, whose moves sow up to Rules::max_laps laps each
  // (`bench random FILE --seconds 0.3` used to run for minutes): still one ply.
  auto slow = make_sowing_game(load_rules(R"(name = "no captures"
[board]
pits = 6
seeds = 4
[sowing]
stores = "none"
laps = "relay"
[capture]
kind = ["none"]
)",
                                          "no-captures.toml", {}));
  for (const auto* g : {game.get(), slow.get()}) {
    const auto start = g->new_game();
    for (const auto& stats : {start->play_random(1, 0), start->AnyState::play_random(1, 0)}) {
      EXPECT_EQ(stats.games, 0u);
      EXPECT_EQ(stats.unfinished, 1u);
      EXPECT_EQ(stats.plies, 1u);
    }
  }
}

}  // namespace
}  // namespace naqala::sowing
