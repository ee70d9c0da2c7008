// The vector play (a sowing as one vector add, branch-free captures, end checks from one
// comparison) against the scalar engine it replaces, on every preset and every option value
// that the vector play serves: the same moves give the same position, end and result, and
// random_move() picks what legal_moves() and the same random number pick.
#include <gtest/gtest.h>

#include "core/rng.h"
#include "sanitized.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

// The same rules with the vector paths off: the scalar engine.
std::shared_ptr<const Rules> scalar_copy(const Rules& rules) {
  auto copy = std::make_shared<Rules>(rules);
  copy->vector_sow = false;
  copy->vector_play = false;
  copy->random_by_mask = false;
  return copy;
}

// Every preset, and each value of each of its options on its own.
std::vector<std::pair<std::string, OptionValues>> rulesets() {
  std::vector<std::pair<std::string, OptionValues>> out;
  for (const auto& p : presets()) {
    const std::string name(p.name);
    out.push_back({name, {}});
    for (const auto& option : testing::preset(name)->options)
      for (const auto& value : option.allowed)
        if (value != option.default_value) out.push_back({name, {{option.name, value}}});
  }
  return out;
}

// Presets turned clockwise, and Kalah keeping the capturing seed in its pit: what no preset
// has, written as TOML.
std::vector<std::shared_ptr<const Rules>> edited_rulesets() {
  auto edit = [](std::string_view name, std::string_view from, std::string_view to) {
    for (const auto& p : presets())
      if (p.name == name) {
        std::string text(p.toml);
        const auto at = text.find(from);
        if (at == std::string::npos) throw Error("no '" + std::string(from) + "' in " + text);
        text.replace(at, from.size(), to);
        return load_rules(text, "edited " + std::string(name), {});
      }
    throw Error("no preset " + std::string(name));
  };
  return {edit("oware", "direction = \"ccw\"", "direction = \"cw\""),
          edit("mangala", "direction = \"ccw\"", "direction = \"cw\""),
          edit("kalah", "direction = \"ccw\"", "direction = \"cw\""),
          edit("kalah", "empty_capture = false", "empty_capture = false\nwith_last_seed = false")};
}

TEST(VectorPlay, PlaysExactlyLikeTheScalarEngine) {
  int vector_rulesets = 0;
  std::vector<std::pair<std::string, std::shared_ptr<const Rules>>> all;
  for (const auto& [name, options] : rulesets()) {
    try {
      all.push_back({name, testing::preset(name, options)});
    } catch (const Error&) {
      // an option value that needs another option (refused with its reason)
    }
  }
  for (const auto& rules : edited_rulesets()) all.push_back({rules->name, rules});
  for (const auto& [name, rules] : all) {
    if (!rules->vector_sow) continue;
    ++vector_rulesets;
    const auto scalar = scalar_copy(*rules);
    Rng rng(7), same(7);
    for (int game = 0; game < naqala::testing::workload(300, 50); ++game) {
      State fast = State::initial(*rules), slow = State::initial(*scalar);
      for (int ply = 0; ply < 400 && !fast.is_over(); ++ply) {
        State::MoveList moves;
        slow.legal_moves(moves);
        State::MoveList fast_moves;
        fast.legal_moves(fast_moves);
        ASSERT_EQ(fast_moves.size(), moves.size()) << name << " " << slow.position();
        const State::Move move = fast.random_move(rng);
        ASSERT_EQ(move, moves[same.below(static_cast<std::uint32_t>(moves.size()))])
            << name << " " << slow.position();
        const std::string before = slow.position();
        fast.play(move);
        slow.play(move);
        ASSERT_EQ(fast.position(), slow.position())
            << name << " from " << before << " move " << slow.format_move(move);
        ASSERT_EQ(fast.is_over(), slow.is_over()) << name << " " << slow.position();
      }
      const Outcome a = fast.outcome(), b = slow.outcome();
      ASSERT_EQ(a.reason, b.reason) << name;
      ASSERT_EQ(a.winner, b.winner) << name;
      ASSERT_EQ(a.scores, b.scores) << name;
    }
  }
  // kalah (and its seeds), bantumi, oware, awale, mangala, ... : most rulesets are served.
  EXPECT_GE(vector_rulesets, 10);
}

}  // namespace
}  // namespace naqala::sowing
