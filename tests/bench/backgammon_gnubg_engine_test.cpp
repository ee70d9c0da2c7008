// gnubg as the benches' engine (bench/backgammon_gnubg_engine.h; CTest label `gnubg`). Started
// for cubeless games it must play gnubg's cubeless 0-ply best move, as gnubg's own hint (cubeful
// off, no Jacoby rule) ranks them. Before, it ranked its moves cubeful for the centred cube the
// FIBS board shows (up to stop 26 with gnubg's default Jacoby rule, as if gammons were worth
// nothing there), and the cubeless strength figures moved with that setting
// (docs/games/backgammon.md, "Strength and speed").
#include "bench/backgammon_gnubg_engine.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "core/rng.h"
#include "eval/backgammon_heuristic.h"
#include "games/backgammon/formats.h"
#include "games/backgammon/gnubg_support.h"

using namespace naqala;
using namespace naqala::backgammon;
namespace bt = naqala::backgammon::testing;

namespace {

// gnubg's embedded Python: each ID's moves at 0 ply, cubeless, with their equities.
constexpr const char* kScript = R"PY(
import gnubg, json
for c in ["set player 0 human", "set player 1 human", "set automatic roll off",
          "set automatic game off", "set display off", "set jacoby off", "new session",
          "set evaluation chequerplay evaluation cubeful off",
          "set evaluation chequerplay evaluation plies 0"]:
    gnubg.command(c)
out = open(OUT, "w")
for line in open(IN):
    gnubg.command("set gnubgid " + line.strip())
    hint = gnubg.hint(100000)["hint"]
    out.write(json.dumps([[m["move"], m["equity"]] for m in hint]) + "\n")
out.close()
)PY";

// Checker decisions (more than one legal move) of cubeless money games between the
// hand-written bot's noisy choices: gammons won and lost, contact and races.
std::vector<State> cubeless_decisions(int games) {
  Rng rng(20261126);
  Rules rules;
  rules.cube = false;
  std::vector<State> out;
  for (int g = 0; g < games; ++g) {
    State s(rules);
    while (!s.is_over()) {
      if (s.is_chance_node()) {
        s.apply_chance(throw_dice(s, rng));
        continue;
      }
      MoveList moves;
      s.legal_moves(moves);
      if (s.phase() == Phase::Moving && moves.size() > 1) out.push_back(s);
      s.play(bgheuristic::choose_move(s, &rng).move);
    }
  }
  return out;
}

}  // namespace

TEST(GnubgEngine, CubelessGamesGetGnubgsCubelessBestMove) {
  const std::string exe = bt::find_gnubg();
  ASSERT_FALSE(exe.empty()) << "gnubg is not installed; scripts/install-deps installs it";
  const std::vector<State> states = cubeless_decisions(40);
  ASSERT_GT(states.size(), 1000u);

  const auto dir = bt::temp_dir("naqala-gnubg-engine-test");
  std::string ids;
  for (const auto& s : states) ids += s.gnubg_id() + "\n";
  bt::write_file(dir / "in.txt", ids);
  bt::write_file(dir / "hint.py", "IN = '" + (dir / "in.txt").string() + "'\nOUT = '" +
                                      (dir / "out.txt").string() + "'\n" + kScript);
  const std::string cmd =
      "cd '" + dir.string() + "' && '" + exe + "' -t -q -r -p hint.py > gnubg.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << bt::read_file(dir / "gnubg.log");
  std::istringstream hints(bt::read_file(dir / "out.txt"));

  bgbench::GnubgEngine cubeless, cubeful;
  ASSERT_TRUE(cubeless.start(exe, true)) << "gnubg did not listen";
  ASSERT_TRUE(cubeful.start(exe, false)) << "gnubg did not listen";
  std::size_t compared = 0, not_best = 0, cubeful_not_best = 0;
  std::string line;
  for (const State& s : states) {
    ASSERT_TRUE(std::getline(hints, line)) << "gnubg's hints stop at position " << compared;
    const auto ranked = nlohmann::json::parse(line);
    ASSERT_FALSE(ranked.empty()) << s.gnubg_id();
    const double best = ranked[0][1].get<double>();
    // The answer is best if gnubg's hint gives it the top equity (ties: any of them).
    const auto is_best = [&](const std::string& answer) {
      const auto played = s.parse_move(answer);
      if (!played) return false;
      for (const auto& m : ranked)
        if (s.parse_move(m[0].get<std::string>()) == played)
          return m[1].get<double>() >= best - 1e-6;
      return false;
    };
    const std::string board = write_fibs_board(fibs_board_of(s, "naqala", "gnubg"));
    const std::string answer = cubeless.ask(board);
    if (!is_best(answer) && ++not_best <= 5)
      ADD_FAILURE() << "at " << s.gnubg_id() << " the cubeless engine played '" << answer
                    << "', gnubg's cubeless best is '" << ranked[0][0].get<std::string>() << "'";
    cubeful_not_best += !is_best(cubeful.ask(board));
    ++compared;
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(not_best, 0u) << "of " << compared << " positions";
  // The positions tell the two apart: gnubg's cubeful play (the harness before) differs.
  EXPECT_GT(cubeful_not_best, 0u) << "of " << compared << " positions";
  std::printf(
      "%zu cubeless decisions: the cubeless engine played gnubg's best in all, the "
      "cubeful one not in %zu\n",
      compared, cubeful_not_best);
}
