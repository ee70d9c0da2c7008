#include "protocol/gnubg_external.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "games/registry.h"
#include "games/typed_state.h"

namespace naqala::protocol {

using backgammon::Move;
using backgammon::State;

State state_from_fibs_board(const backgammon::FibsBoard& b) {
  backgammon::Rules rules;
  rules.match = b.match_to;
  State s(rules);
  backgammon::Board board{};
  board[index(Player::North)] = b.you;
  board[index(Player::South)] = b.opp;
  // The cube's owner: the only side that may double; centred when both (or neither) may.
  std::optional<Player> owner;
  if (b.you_may_double != b.opp_may_double)
    owner = b.you_may_double ? Player::North : Player::South;
  if (b.doubled != 0) {
    // gnubg writes a pending double from the doubler's side: the opponent doubled You.
    s.set_position(board, Player::South, 0, 0);
    s.set_cube(b.cube, owner);
    s.play(Move::of(Move::Kind::Double));
    return s;
  }
  s.set_position(board, Player::North, b.you_dice[0], b.you_dice[1]);
  s.set_cube(b.cube, owner);
  if (rules.match > 0)
    s.set_score(std::min(b.opp_score, rules.match - 1), std::min(b.you_score, rules.match - 1),
                b.crawford);
  return s;
}

std::string answer_fibs_board(const std::string& line, engine::Engine& engine) {
  const State s = state_from_fibs_board(backgammon::parse_fibs_board(line));
  if (s.is_over() || s.is_chance_node())
    throw Error("board '" + line + "' has no decision for its player");
  backgammon::MoveList moves;
  s.legal_moves(moves);
  if (moves.size() == 1 && moves[0].kind == Move::Kind::Pass) return "";
  const TypedState<State> state(s, nullptr);
  const std::string move = engine.choose_move(state);
  return move == "pass" ? "" : move;
}

namespace {

class Socket {
 public:
  explicit Socket(int fd = -1) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void serve_gnubg_external(const ExternalServerOptions& options) {
  auto game = make_game("backgammon");
  auto engine = engine::make_engine(*game, options.engine);
  const auto log = [&](const std::string& m) {
    if (options.log) options.log(m);
  };
  Socket listener(::socket(AF_INET, SOCK_STREAM, 0));
  const int yes = 1;
  ::setsockopt(listener.fd(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(options.port));
  if (::bind(listener.fd(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listener.fd(), 4) != 0)
    throw Error("cannot listen on 127.0.0.1:" + std::to_string(options.port) + ": " +
                std::strerror(errno));
  socklen_t len = sizeof addr;
  ::getsockname(listener.fd(), reinterpret_cast<sockaddr*>(&addr), &len);
  if (options.listening) options.listening(ntohs(addr.sin_port));

  for (int served = 0; options.connections == 0 || served < options.connections; ++served) {
    Socket client(::accept(listener.fd(), nullptr, nullptr));
    if (client.fd() < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("accept failed: ") + std::strerror(errno));
    }
    log("gnubg connected");
    std::string buffer;
    char chunk[4096];
    for (;;) {
      const ssize_t n = ::read(client.fd(), chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // gnubg closed the connection
      buffer.append(chunk, static_cast<std::size_t>(n));
      bool open = true;
      for (std::size_t nl; open && (nl = buffer.find('\n')) != std::string::npos;) {
        std::string line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        // gnubg ends its board strings with a NUL and sometimes a carriage return.
        std::erase(line, '\0');
        std::erase(line, '\r');
        if (line.empty()) continue;
        std::string reply;
        try {
          reply = answer_fibs_board(line, *engine);
        } catch (const std::exception& e) {
          log(std::string("cannot answer '") + line + "': " + e.what());
        }
        open = write_all(client.fd(), reply + "\n");
      }
      if (!open) break;
    }
    log("gnubg disconnected");
  }
}

}  // namespace naqala::protocol
