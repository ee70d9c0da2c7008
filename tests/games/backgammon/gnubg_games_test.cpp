// Differential test against gnubg (CTest label `gnubg`): gnubg referees whole matches in
// which its own player 0 plays naqala, connected as gnubg's external player over a socket
// (`set player 1 external localhost:PORT`; gnubg sends FIBS boards, naqala answers with a move
// in gnubg notation or a cube action). gnubg then exports each match as a .mat file, which
// naqala imports and replays with its own rules: every move gnubg made must be legal for
// naqala, and every move naqala sent must appear in gnubg's record exactly as sent (gnubg
// records a rejected move as no move).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "core/rng.h"
#include "eval/backgammon_heuristic.h"
#include "games/backgammon/formats.h"
#include "games/backgammon/mat.h"
#include "gnubg_support.h"

using namespace naqala;
using namespace naqala::backgammon;
namespace bt = naqala::backgammon::testing;

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

// gnubg is player 0 (South), naqala player 1 (North).
struct Decision {
  std::string position_id;  // the board naqala saw, as a position ID (North on roll or deciding)
  Move move;
  std::string sent;
};

// The state naqala reads from a board gnubg sends its external player: always from naqala's
// own view (gnubg 1.07 also writes it so when gnubg has doubled and naqala must take or drop).
State state_from_board(const FibsBoard& b) {
  Rules r;
  r.match = b.match_to;
  State s(r);
  Board board{};
  const bool doubled = b.doubled != 0;
  board[index(Player::North)] = b.you;
  board[index(Player::South)] = b.opp;
  if (doubled) {
    s.set_position(board, Player::South, 0, 0);
    std::optional<Player> owner;
    if (b.you_may_double != b.opp_may_double)
      owner = b.you_may_double ? Player::North : Player::South;
    s.set_cube(b.cube, owner);
    s.play(Move::of(Move::Kind::Double));
    return s;
  }
  s.set_position(board, Player::North, b.you_dice[0], b.you_dice[1]);
  std::optional<Player> owner;
  if (b.you_may_double != b.opp_may_double)
    owner = b.you_may_double ? Player::North : Player::South;
  s.set_cube(b.cube, owner);
  if (r.match > 0)
    s.set_score(std::min(b.opp_score, r.match - 1), std::min(b.you_score, r.match - 1), b.crawford);
  return s;
}

class Server {
 public:
  Server() {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listen_fd_, 1) != 0)
      throw std::runtime_error("cannot listen on 127.0.0.1");
    socklen_t len = sizeof addr;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~Server() {
    if (fd_ >= 0) ::close(fd_);
    ::close(listen_fd_);
  }
  int port() const { return port_; }

  // Serves boards until gnubg closes the connection, however long gnubg takes: the wait ends on
  // an event (gnubg connects, writes, closes, or `gnubg_exited` becomes readable because gnubg
  // ended without connecting), never on a clock; `kHangGuardMs` of silence only stops a hang.
  // Random play for a share of the moves reaches positions a bot avoids.
  void serve(std::vector<Decision>& log, std::string& error, int gnubg_exited) {
    pollfd p[2] = {{listen_fd_, POLLIN, 0}, {gnubg_exited, POLLIN, 0}};
    const int ready = ::poll(p, 2, kHangGuardMs);
    if (ready <= 0 || !(p[0].revents & POLLIN)) {
      error = ready <= 0 ? "gnubg neither connected nor exited in 15 minutes"
                         : "gnubg exited without connecting";
      return;
    }
    fd_ = ::accept(listen_fd_, nullptr, nullptr);
    Rng rng(77);
    std::string buffer;
    char chunk[4096];
    while (true) {
      pollfd q{fd_, POLLIN, 0};
      if (::poll(&q, 1, kHangGuardMs) <= 0) {
        error = "gnubg went silent for 15 minutes";
        return;
      }
      const ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) return;  // gnubg is done
      buffer.append(chunk, static_cast<std::size_t>(n));
      std::size_t nl;
      while ((nl = buffer.find('\n')) != std::string::npos) {
        std::string line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        line.erase(std::remove(line.begin(), line.end(), '\0'), line.end());
        if (line.empty()) continue;
        std::string reply;
        try {
          const State s = state_from_board(parse_fibs_board(line));
          Move m;
          if (s.phase() == Phase::Moving && rng.below(4) == 0) {
            MoveList moves;
            s.legal_moves(moves);
            m = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
          } else {
            m = bgheuristic::choose_move(s, &rng).move;
          }
          reply = m.kind == Move::Kind::Pass ? "" : s.format_move(m);
          log.push_back({s.position_id(), m, reply});
        } catch (const std::exception& e) {
          error = std::string("cannot answer '") + line + "': " + e.what();
          return;
        }
        reply += "\n";
        if (::write(fd_, reply.data(), reply.size()) != static_cast<ssize_t>(reply.size())) {
          error = "write to gnubg failed";
          return;
        }
      }
    }
  }

 private:
  static constexpr int kHangGuardMs = 15 * 60 * 1000;
  int listen_fd_ = -1, fd_ = -1, port_ = 0;
};

}  // namespace

TEST(Gnubg, MatchesThroughTheExternalPlayerSocket) {
  const std::string gnubg = bt::find_gnubg();
  ASSERT_FALSE(gnubg.empty()) << "gnubg is not installed; scripts/install-deps installs it";
  const int matches = env_int("NAQALA_GNUBG_MATCHES", 100);
  const int length = env_int("NAQALA_GNUBG_MATCH_LENGTH", 5);
  const auto dir = bt::temp_dir("naqala-gnubg-games");
  Server server;
  std::string cmds =
      "set player 0 gnubg\n"
      "set player 0 chequerplay evaluation plies 0\n"
      "set player 0 cubedecision evaluation plies 0\n"
      "set player 1 name naqala\n"
      "set player 1 external localhost:" +
      std::to_string(server.port()) +
      "\n"
      "set automatic game on\nset automatic roll on\nset display off\nset seed 2026\n";
  for (int m = 0; m < matches; ++m) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on one long concatenation.
    cmds += "new match ";
    cmds += std::to_string(length);
    cmds += "\nexport match mat ";
    cmds += (dir / ("m" + std::to_string(m) + ".mat")).string();
    cmds += "\n";
  }
  bt::write_file(dir / "cmds.txt", cmds);

  std::vector<Decision> log;
  std::string error;
  int gnubg_exited[2];  // closed when gnubg has ended: wakes a server still waiting to accept
  ASSERT_EQ(::pipe(gnubg_exited), 0);
  std::thread serving([&] { server.serve(log, error, gnubg_exited[0]); });
  const std::string cmd = "'" + gnubg + "' -t -q -r < '" + (dir / "cmds.txt").string() + "' > '" +
                          (dir / "gnubg.log").string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  ::close(gnubg_exited[1]);
  serving.join();
  ::close(gnubg_exited[0]);
  ASSERT_EQ(rc, 0) << bt::read_file(dir / "gnubg.log");
  ASSERT_TRUE(error.empty()) << error;

  // Replay gnubg's records with naqala's rules, and match naqala's part against what it sent.
  std::size_t games = 0, gnubg_moves = 0, naqala_moves = 0, cube_actions = 0, next = 0;
  for (int m = 0; m < matches; ++m) {
    const auto file = dir / ("m" + std::to_string(m) + ".mat");
    MatchRecord rec;
    try {
      rec = import_mat(bt::read_file(file));
    } catch (const std::exception& e) {
      FAIL() << "match " << m << ": " << e.what() << "\n" << bt::read_file(file);
    }
    State s(rec.rules);
    for (const auto& e : rec.events) {
      if (e.resign) {
        s.resign(e.resigner, e.resign);
        ++games;
        continue;
      }
      if (e.is_roll) {
        s.apply_chance(e.roll);
        continue;
      }
      const Player who = s.to_move();
      const bool recorded = e.move.kind != Move::Kind::Roll;  // the .mat does not show "no double"
      if (who == Player::North && recorded) {
        // Skip naqala's "roll" answers, which the record does not show.
        while (next < log.size() && log[next].move.kind == Move::Kind::Roll) ++next;
        ASSERT_LT(next, log.size()) << "the record has more naqala decisions than naqala made";
        const Decision& d = log[next++];
        EXPECT_EQ(d.position_id, s.position_id())
            << "the board gnubg sent differs from the replayed position (naqala answered '"
            << d.sent << "')";
        // What naqala sent, read in the replayed position, is what gnubg recorded.
        const auto sent =
            d.sent.empty() ? std::optional<Move>(Move::of(Move::Kind::Pass)) : s.parse_move(d.sent);
        ASSERT_TRUE(sent.has_value()) << d.sent;
        EXPECT_EQ(s.format_move(*sent), s.format_move(e.move))
            << "gnubg recorded '" << s.format_move(e.move) << "' where naqala sent '" << d.sent
            << "' at " << s.gnubg_id();
        if (e.move.kind == Move::Kind::Checkers || e.move.kind == Move::Kind::Pass) ++naqala_moves;
      } else if (recorded &&
                 (e.move.kind == Move::Kind::Checkers || e.move.kind == Move::Kind::Pass)) {
        ++gnubg_moves;
      }
      if (e.move.kind == Move::Kind::Double || e.move.kind == Move::Kind::Take ||
          e.move.kind == Move::Kind::Drop)
        ++cube_actions;
      const int before = s.games_played();
      s.play(e.move);
      games += s.games_played() != before;
    }
    EXPECT_TRUE(s.is_over()) << "match " << m << " is unfinished in gnubg's record";
  }
  while (next < log.size() && log[next].move.kind == Move::Kind::Roll) ++next;
  EXPECT_EQ(next, log.size()) << "naqala made decisions that gnubg's records do not show";
  std::printf(
      "gnubg games: %d matches, %zu games, %zu gnubg moves legal for naqala, %zu naqala moves "
      "accepted by "
      "gnubg, %zu cube actions\n",
      matches, games, gnubg_moves, naqala_moves, cube_actions);
  EXPECT_GE(games, static_cast<std::size_t>(matches));
  std::filesystem::remove_all(dir);
}

// gnubg playing itself (with its resignations, which .mat files record only as "Wins"):
// every record it exports imports into naqala, with every move legal and every score right,
// and naqala's export of it imports back to the same events.
TEST(Gnubg, SelfPlayMatchFilesImport) {
  const std::string gnubg = bt::find_gnubg();
  ASSERT_FALSE(gnubg.empty()) << "gnubg is not installed; scripts/install-deps installs it";
  const int matches = env_int("NAQALA_GNUBG_SELFPLAY_MATCHES", 12);
  const auto dir = bt::temp_dir("naqala-gnubg-selfplay");
  std::string cmds =
      "set player 0 gnubg\nset player 1 gnubg\n"
      "set player 0 chequerplay evaluation plies 0\nset player 1 chequerplay evaluation plies 0\n"
      "set player 0 cubedecision evaluation plies 0\nset player 1 cubedecision evaluation plies 0\n"
      "set automatic game on\nset automatic roll on\nset display off\nset seed 1123\n";
  for (int m = 0; m < matches; ++m) {
    cmds += "new match ";
    cmds += std::to_string(3 + 2 * (m % 3));
    cmds += "\nexport match mat ";
    cmds += (dir / ("s" + std::to_string(m) + ".mat")).string();
    cmds += "\n";
  }
  bt::write_file(dir / "cmds.txt", cmds);
  const std::string cmd = "'" + gnubg + "' -t -q -r < '" + (dir / "cmds.txt").string() + "' > '" +
                          (dir / "gnubg.log").string() + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << bt::read_file(dir / "gnubg.log");
  std::size_t games = 0, events = 0, resignations = 0;
  for (int m = 0; m < matches; ++m) {
    const std::string text = bt::read_file(dir / ("s" + std::to_string(m) + ".mat"));
    MatchRecord rec;
    try {
      rec = import_mat(text);
    } catch (const std::exception& e) {
      FAIL() << "match " << m << ": " << e.what() << "\n" << text;
    }
    const State end = replay(rec);
    EXPECT_TRUE(end.is_over()) << text;
    games += static_cast<std::size_t>(end.games_played());
    events += rec.events.size();
    for (const auto& e : rec.events) resignations += e.resign > 0;
    EXPECT_TRUE(import_mat(export_mat(rec)).events == rec.events) << "match " << m;
  }
  std::printf("gnubg self-play: %d matches, %zu games, %zu events, %zu resignations imported\n",
              matches, games, events, resignations);
  std::filesystem::remove_all(dir);
}
