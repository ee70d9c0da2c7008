// `naqala external`'s server: boards from random positions of every phase, sent the way gnubg
// sends them to its external player, are answered with legal moves and cube actions; a line
// that is not a board gets an empty answer and the connection goes on.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "bench/backgammon_gnubg_engine.h"
#include "core/rng.h"
#include "eval/backgammon_heuristic.h"
#include "protocol/gnubg_external.h"

namespace naqala::protocol {
namespace {

using backgammon::Move;
using backgammon::Phase;
using backgammon::State;

TEST(GnubgExternalServer, AnswersBoardsWithLegalDecisions) {
  std::promise<int> port;
  ExternalServerOptions options;
  options.engine = "level:3";
  options.connections = 1;
  options.listening = [&](int p) { port.set_value(p); };
  std::thread server([&] { serve_gnubg_external(options); });
  const int p = port.get_future().get();

  bgbench::LineConnection connection;
  ASSERT_TRUE(connection.connect_to(p));
  EXPECT_EQ(connection.ask("hello"), "");  // not a board: an empty answer, and on we go

  Rng rng(5);
  int checker = 0, cube = 0;
  for (int game = 0; game < 6; ++game) {
    backgammon::Rules rules;
    rules.match = game % 2 ? 5 : 0;
    State s(rules);
    while (!s.is_over()) {
      if (s.is_chance_node()) {
        s.apply_chance(backgammon::throw_dice(s, rng));
        continue;
      }
      backgammon::MoveList moves;
      s.legal_moves(moves);
      if (s.to_move() == Player::South ||
          (moves.size() == 1 && moves[0].kind == Move::Kind::Pass)) {
        s.play(bgheuristic::choose_move(s, &rng).move);
        continue;
      }
      // North is naqala's external player: the board as gnubg writes it for him, from his
      // side even when the opponent has doubled (fibs_board_of writes that from the doubler's).
      auto b = backgammon::fibs_board_of(s);
      if (s.phase() == Phase::Doubled) {
        std::swap(b.you, b.opp);
        std::swap(b.you_score, b.opp_score);
        std::swap(b.you_may_double, b.opp_may_double);
      }
      const std::string board = backgammon::write_fibs_board(b);
      const std::string answer = connection.ask(board);
      const auto move = s.parse_move(answer);
      ASSERT_TRUE(move.has_value()) << "'" << answer << "' to " << board;
      ASSERT_TRUE(moves.contains(*move)) << "'" << answer << "' is not legal at " << s.gnubg_id();
      (move->kind == Move::Kind::Checkers ? checker : cube) += 1;
      s.play(*move);
    }
  }
  connection.close();  // the server serves one connection: it ends when this one does
  server.join();
  EXPECT_GT(checker, 50);
  EXPECT_GT(cube, 5);
}

}  // namespace
}  // namespace naqala::protocol
