// Differential test against gnubg (CTest label `gnubg`): thousands of positions from random
// games (money and match play, cube turned at random) are handed to gnubg by their gnubg ID;
// gnubg's re-encoded ID, its legal moves (as it writes them) and its pip counts must equal
// naqala's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "core/rng.h"
#include "games/backgammon/backgammon.h"
#include "games/backgammon/formats.h"
#include "gnubg_support.h"

using namespace naqala;
using namespace naqala::backgammon;
namespace bt = naqala::backgammon::testing;

namespace {

// NAQALA_GNUBG_POSITIONS overrides the count.
int position_count() {
  const char* env = std::getenv("NAQALA_GNUBG_POSITIONS");
  return env ? std::atoi(env) : 4000;
}

// gnubg's embedded Python: set each ID, write what gnubg makes of it, one JSON line each.
constexpr const char* kScript = R"PY(
import gnubg, json
for c in ["set player 0 human", "set player 1 human", "set automatic roll off",
          "set automatic game off", "set display off", "new match 7",
          "set evaluation chequerplay evaluation cubeful off",
          "set evaluation chequerplay evaluation plies 0"]:
    gnubg.command(c)
out = open(OUT, "w")
for line in open(IN):
    gid = line.strip()
    if not gid:
        continue
    gnubg.command("set gnubgid " + gid)
    info = gnubg.posinfo()
    board = gnubg.board()
    pips = [sum((i + 1) * n for i, n in enumerate(side)) for side in board]
    moves = []
    if info["dice"][0] > 0:
        try:
            moves = [m["move"] for m in gnubg.hint(100000)["hint"]]
        except Exception:
            moves = []
    out.write(json.dumps({"in": gid, "id": gnubg.gnubgid(), "pips": pips, "moves": moves}) + "\n")
out.close()
)PY";

std::vector<State> random_states(int count) {
  Rng rng(20261123);
  std::vector<State> out;
  while (static_cast<int>(out.size()) < count) {
    Rules r;
    switch (rng.below(4)) {
      case 0:
        r.jacoby = rng.below(2);
        break;  // money
      case 1:
        r.match = 1 + static_cast<int>(rng.below(11));
        break;  // short matches
      case 2:
        r.match = 3 + static_cast<int>(rng.below(9));
        r.crawford = rng.below(4) != 0;
        break;
      default:
        r.cube = false;
        break;
    }
    State s(r);
    for (int ply = 0; ply < 2000 && !s.is_over() && static_cast<int>(out.size()) < count; ++ply) {
      if (s.is_chance_node()) {
        ChanceList list;
        s.chance_outcomes(list);
        s.apply_chance(list[rng.below(static_cast<std::uint32_t>(list.size()))].chance);
      } else {
        MoveList moves;
        s.legal_moves(moves);
        std::size_t pick = rng.below(static_cast<std::uint32_t>(moves.size()));
        // Double now and then; gnubg's match equity code crashes on cubes far above the match
        // length, so keep cubes to what real play reaches.
        const int cube_cap = r.match ? std::max(2, r.match) : 64;
        if (s.phase() == Phase::TurnStart) pick = rng.below(8) == 0 && s.cube() < cube_cap ? 1 : 0;
        if (s.phase() == Phase::Doubled) pick = rng.below(4) == 0 ? 1 : 0;  // mostly take
        s.play(moves[pick]);
      }
      const bool keep = s.phase() == Phase::Moving ? rng.below(3) == 0
                        : (s.phase() == Phase::TurnStart || s.phase() == Phase::Doubled)
                            ? rng.below(10) == 0
                            : false;
      if (keep) out.push_back(s);
    }
  }
  return out;
}

}  // namespace

TEST(Gnubg, PositionsMovesIdsAndPips) {
  const std::string gnubg = bt::find_gnubg();
  ASSERT_FALSE(gnubg.empty()) << "gnubg is not installed; scripts/install-deps installs it";
  const auto dir = bt::temp_dir("naqala-gnubg-positions");
  const auto states = random_states(position_count());
  std::string ids;
  for (const auto& s : states) ids += s.gnubg_id() + "\n";
  bt::write_file(dir / "in.txt", ids);
  bt::write_file(dir / "check.py", "IN = '" + (dir / "in.txt").string() + "'\nOUT = '" +
                                       (dir / "out.txt").string() + "'\n" + kScript);
  const std::string cmd =
      "cd '" + dir.string() + "' && '" + gnubg + "' -t -q -r -p check.py > gnubg.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << bt::read_file(dir / "gnubg.log");

  std::istringstream results(bt::read_file(dir / "out.txt"));
  std::string line;
  std::size_t i = 0, move_positions = 0, moves_compared = 0, id_mismatch = 0, move_mismatch = 0,
              pip_mismatch = 0;
  while (std::getline(results, line)) {
    ASSERT_LT(i, states.size());
    const State& s = states[i++];
    const auto j = nlohmann::json::parse(line);
    ASSERT_EQ(j["in"].get<std::string>(), s.gnubg_id());
    // gnubg's SetMatchID cannot hold a pending double: it steps back to the doubler's turn.
    std::string expected = s.gnubg_id();
    if (s.phase() == Phase::Doubled) {
      MatchKey k = decode_match_id(s.match_id());
      k.doubled = false;
      k.turn = k.on_roll;
      expected = s.position_id() + ":" + encode_match_id(k);
    }
    if (j["id"].get<std::string>() != expected && ++id_mismatch <= 10)
      ADD_FAILURE() << "gnubg re-encodes " << s.gnubg_id() << " as " << j["id"].get<std::string>()
                    << ", expected " << expected;
    // gnubg.board(): [0] the player not on roll, [1] the player on roll.
    const int gnubg_pips_roller = j["pips"][1], gnubg_pips_other = j["pips"][0];
    if ((gnubg_pips_roller != s.pips(s.on_roll()) ||
         gnubg_pips_other != s.pips(opponent(s.on_roll()))) &&
        ++pip_mismatch <= 10)
      ADD_FAILURE() << "pips at " << s.gnubg_id() << ": gnubg " << gnubg_pips_roller << "/"
                    << gnubg_pips_other << ", naqala " << s.pips(s.on_roll()) << "/"
                    << s.pips(opponent(s.on_roll()));
    if (s.phase() != Phase::Moving) continue;
    ++move_positions;
    std::set<std::string> theirs;
    for (const auto& m : j["moves"]) theirs.insert(m.get<std::string>());
    std::set<std::string> ours;
    MoveList moves;
    s.legal_moves(moves);
    for (const auto& m : moves)
      if (m.kind == Move::Kind::Checkers) ours.insert(s.format_move(m));
    moves_compared += ours.size();
    if (ours != theirs && ++move_mismatch <= 10) {
      std::string only_ours, only_theirs;
      for (const auto& m : ours)
        if (!theirs.count(m)) only_ours += " [" + m + "]";
      for (const auto& m : theirs)
        if (!ours.count(m)) only_theirs += " [" + m + "]";
      ADD_FAILURE() << "legal moves differ at " << s.gnubg_id() << "\n only naqala:" << only_ours
                    << "\n only gnubg:" << only_theirs;
    }
  }
  EXPECT_EQ(i, states.size()) << "gnubg answered for " << i << " of " << states.size()
                              << " positions";
  EXPECT_EQ(id_mismatch, 0u);
  EXPECT_EQ(pip_mismatch, 0u);
  EXPECT_EQ(move_mismatch, 0u);
  std::printf(
      "gnubg positions: %zu IDs and pip counts, %zu positions with dice, %zu legal moves "
      "compared\n",
      i, move_positions, moves_compared);
  RecordProperty("positions", static_cast<int>(i));
  RecordProperty("moves_compared", static_cast<int>(moves_compared));
  std::filesystem::remove_all(dir);
}
