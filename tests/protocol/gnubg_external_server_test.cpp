// `naqala external`'s server: boards from random positions of every phase, sent the way gnubg
// sends them to its external player, are answered with legal moves and cube actions; a line
// that is not a board gets an empty answer and the connection goes on.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>
#include <thread>

#include "core/rng.h"
#include "eval/backgammon_heuristic.h"
#include "protocol/gnubg_external.h"

namespace naqala::protocol {
namespace {

using backgammon::Move;
using backgammon::Phase;
using backgammon::State;

std::string ask(int fd, const std::string& line, std::string& buffer) {
  const std::string text = line + "\n";
  EXPECT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  char chunk[1024];
  while (buffer.find('\n') == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 120000) <= 0) return "<timeout>";  // hang guard
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n <= 0) return "<closed>";
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
  const auto nl = buffer.find('\n');
  std::string answer = buffer.substr(0, nl);
  buffer.erase(0, nl + 1);
  return answer;
}

TEST(GnubgExternalServer, AnswersBoardsWithLegalDecisions) {
  std::promise<int> port;
  ExternalServerOptions options;
  options.engine = "level:3";
  options.connections = 1;
  options.listening = [&](int p) { port.set_value(p); };
  std::thread server([&] { serve_gnubg_external(options); });
  const int p = port.get_future().get();

  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(p));
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  std::string buffer;
  EXPECT_EQ(ask(fd, "hello", buffer), "");  // not a board: an empty answer, and on we go

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
      const std::string answer = ask(fd, board, buffer);
      const auto move = s.parse_move(answer);
      ASSERT_TRUE(move.has_value()) << "'" << answer << "' to " << board;
      ASSERT_TRUE(moves.contains(*move)) << "'" << answer << "' is not legal at " << s.gnubg_id();
      (move->kind == Move::Kind::Checkers ? checker : cube) += 1;
      s.play(*move);
    }
  }
  ::close(fd);
  server.join();
  EXPECT_GT(checker, 50);
  EXPECT_GT(cube, 5);
}

}  // namespace
}  // namespace naqala::protocol
