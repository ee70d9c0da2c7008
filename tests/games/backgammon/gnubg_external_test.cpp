// Differential test against gnubg (CTest label `gnubg`), the other way round from
// gnubg_games_test: naqala referees matches between its bot (South) and gnubg (North), which
// runs as an engine behind `external localhost:PORT`. naqala sends every North decision as a
// FIBS board string (its writer), gnubg parses it and answers; every answer must be a legal
// move or cube action for naqala.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "core/rng.h"
#include "eval/backgammon_heuristic.h"
#include "games/backgammon/formats.h"
#include "gnubg_support.h"

extern char** environ;

using namespace naqala;
using namespace naqala::backgammon;
namespace bt = naqala::backgammon::testing;

namespace {

// Hang guard only: gnubg may be slow on a loaded machine, and the waits below end on events.
constexpr int kHangGuardMs = 15 * 60 * 1000;

// The TCP port process `pid` listens on, as the kernel reports it (its socket inodes in
// /proc/PID/fd, their state and port in /proc/PID/net/tcp*); 0 while it listens on none.
int listening_port(pid_t pid) {
  const std::filesystem::path proc = "/proc/" + std::to_string(pid);
  std::set<std::string> sockets;
  try {
    for (const auto& fd : std::filesystem::directory_iterator(proc / "fd")) {
      std::error_code ec;
      const std::string target = std::filesystem::read_symlink(fd.path(), ec).string();
      if (!ec && target.starts_with("socket:["))
        sockets.insert(target.substr(8, target.size() - 9));
    }
  } catch (const std::filesystem::filesystem_error&) {
    return 0;  // the process is gone; the caller sees it exit
  }
  for (const char* table : {"net/tcp", "net/tcp6"}) {
    std::ifstream in(proc / table);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
          timeout >> inode;
      if (state == "0A" && sockets.contains(inode))  // 0A: LISTEN
        return std::stoi(local.substr(local.find(':') + 1), nullptr, 16);
    }
  }
  return 0;
}

// gnubg listens on a port the kernel chose (`external localhost:0`), so no other process can
// take it between a choice and the bind. Connects once gnubg listens, however long its start
// takes; -1 if gnubg exits first (or, as a hang guard, has not listened in 15 minutes).
int connect_when_listening(pid_t gnubg) {
  const auto guard = std::chrono::steady_clock::now() + std::chrono::milliseconds(kHangGuardMs);
  while (std::chrono::steady_clock::now() < guard) {
    if (::waitpid(gnubg, nullptr, WNOHANG) == gnubg) return -1;
    const int port = listening_port(gnubg);
    if (port != 0) {
      const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      addr.sin_port = htons(static_cast<std::uint16_t>(port));
      if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
      ::close(fd);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return -1;
}

// One request, one line back (gnubg ends its answers with '\n').
std::string ask(int fd, const std::string& request, std::string& buffer) {
  const std::string line = request + "\n";
  if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    return "<write failed>";
  char chunk[1024];
  while (buffer.find('\n') == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, kHangGuardMs) <= 0) return "<silent for 15 minutes>";
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n <= 0) return "<closed>";
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
  const auto nl = buffer.find('\n');
  std::string answer = buffer.substr(0, nl);
  buffer.erase(0, nl + 1);
  answer.erase(std::remove(answer.begin(), answer.end(), '\0'), answer.end());
  while (!answer.empty() && (answer.back() == '\r' || answer.back() == ' ')) answer.pop_back();
  return answer;
}

}  // namespace

TEST(Gnubg, NaqalaRefereesGnubgAsExternalEngine) {
  const std::string gnubg = bt::find_gnubg();
  ASSERT_FALSE(gnubg.empty()) << "gnubg is not installed; scripts/install-deps installs it";
  const char* env = std::getenv("NAQALA_GNUBG_EXTERNAL_MATCHES");
  const int matches = env ? std::atoi(env) : 300;
  const auto dir = bt::temp_dir("naqala-gnubg-external");
  bt::write_file(dir / "cmds.txt",
                 "set evaluation chequerplay evaluation plies 0\n"
                 "set evaluation cubedecision evaluation plies 0\n"
                 "external localhost:0\n");
  // gnubg -t -q -r < cmds.txt > gnubg.log: started here and stopped by its pid at the end.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, (dir / "cmds.txt").c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, (dir / "gnubg.log").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<std::string> args = {gnubg, "-t", "-q", "-r"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, gnubg.c_str(), &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  struct Stop {
    pid_t pid;
    ~Stop() {
      ::kill(pid, SIGTERM);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
  } stop{pid};

  const int fd = connect_when_listening(pid);
  ASSERT_GE(fd, 0) << "gnubg did not listen: " << bt::read_file(dir / "gnubg.log");
  std::string buffer;
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
      const std::string answer = ask(fd, board, buffer);
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
  ::close(fd);
  std::printf(
      "gnubg external engine: %zu games, %zu gnubg checker moves and %zu cube answers legal for "
      "naqala "
      "(%zu beavers read as takes), %zu naqala decisions\n",
      games, gnubg_moves, gnubg_cube, beavers, naqala_moves);
  std::printf(
      "naqala's bot won %d of %d matches/money games against gnubg 0-ply (points %d to %d)\n",
      naqala_wins, matches, naqala_points, gnubg_points);
  EXPECT_GT(gnubg_moves, 100u);
  std::filesystem::remove_all(dir);
}
