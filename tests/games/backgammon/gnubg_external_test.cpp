// Differential test against gnubg (CTest label `gnubg`), the other way round from
// gnubg_games_test: naqala referees matches between its bot (South) and gnubg (North), which
// runs as an engine behind `external localhost:PORT`. naqala sends every North decision as a
// FIBS board string (its writer), gnubg parses it and answers; every answer must be a legal
// move or cube action for naqala.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "bench/backgammon_gnubg_engine.h"
#include "core/rng.h"
#include "eval/backgammon_heuristic.h"
#include "games/backgammon/formats.h"
#include "gnubg_support.h"

using namespace naqala;
using namespace naqala::backgammon;
namespace bt = naqala::backgammon::testing;

TEST(Gnubg, NaqalaRefereesGnubgAsExternalEngine) {
  const std::string gnubg = bt::find_gnubg();
  ASSERT_FALSE(gnubg.empty()) << "gnubg is not installed; scripts/install-deps installs it";
  const char* env = std::getenv("NAQALA_GNUBG_EXTERNAL_MATCHES");
  const int matches = env ? std::atoi(env) : 300;
  // gnubg's defaults (the Jacoby rule, beavers) at 0 ply, on a port the kernel chose.
  bgbench::GnubgEngine engine;
  ASSERT_TRUE(engine.start_with(gnubg,
                                "set evaluation chequerplay evaluation plies 0\n"
                                "set evaluation cubedecision evaluation plies 0\n"))
      << "gnubg did not listen: " << engine.log();
  Rng rng(31);
  std::size_t games = 0, gnubg_moves = 0, gnubg_cube = 0, naqala_moves = 0, beavers = 0;
  int naqala_wins = 0, naqala_points = 0, gnubg_points = 0;  // how the simple bot fares
  for (int m = 0; m < matches; ++m) {
    Rules r;
    r.match = m % 3 == 2 ? 0 : 3 + 2 * (m % 3);  // 3- and 5-point matches, and money games
    State s(r);
    while (!s.is_over()) {
      if (s.is_chance_node()) {
        s.apply_chance(throw_dice(s, rng));
        continue;
      }
      MoveList moves;
      s.legal_moves(moves);
      if (s.to_move() == Player::South) {
        s.play(bgheuristic::choose_move(s, &rng).move);
        ++naqala_moves;
        continue;
      }
      if (s.phase() == Phase::Moving && moves.size() == 1 && moves[0].kind == Move::Kind::Pass) {
        s.play(moves[0]);  // nothing to ask
        continue;
      }
      const std::string board = write_fibs_board(fibs_board_of(s, "naqala", "gnubg"));
      const std::string answer = engine.ask(board);
      ASSERT_FALSE(answer.starts_with("Error") || answer.starts_with("<"))
          << "gnubg answered '" << answer << "' to " << board;
      std::optional<Move> move;
      if (s.phase() == Phase::Doubled && (answer == "beaver" || answer == "redouble")) {
        ++beavers;  // naqala has no beavers: a beaver is at least a take
        move = Move::of(Move::Kind::Take);
      } else {
        move = s.parse_move(answer);
      }
      ASSERT_TRUE(move.has_value())
          << "gnubg's answer '" << answer << "' is not a move, to " << board;
      ASSERT_TRUE(moves.contains(*move)) << "gnubg's answer '" << answer << "' is not legal at "
                                         << s.gnubg_id() << " (board " << board << ")";
      (move->kind == Move::Kind::Checkers ? gnubg_moves : gnubg_cube) += 1;
      s.play(*move);
    }
    games += static_cast<std::size_t>(s.games_played());
    naqala_points += s.outcome().scores[0];
    gnubg_points += s.outcome().scores[1];
    naqala_wins += s.outcome().winner == Player::South;
  }
  std::printf(
      "gnubg external engine: %zu games, %zu gnubg checker moves and %zu cube answers legal for "
      "naqala "
      "(%zu beavers read as takes), %zu naqala decisions\n",
      games, gnubg_moves, gnubg_cube, beavers, naqala_moves);
  std::printf(
      "naqala's bot won %d of %d matches/money games against gnubg 0-ply (points %d to %d)\n",
      naqala_wins, matches, naqala_points, gnubg_points);
  EXPECT_GT(gnubg_moves, 100u);
}
