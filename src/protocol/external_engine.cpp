#include "protocol/external_engine.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>

#include "core/error.h"
#include "games/registry.h"
#include "protocol/notation.h"

namespace naqala::protocol {

using engine::EngineFailure;

namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

}  // namespace

ExternalEngine::ExternalEngine(const AnyGame& game, std::string command, ExternalOptions options)
    : game_(make_game(game.spec())), command_(std::move(command)), options_(options) {
  if (command_.empty()) throw VariantError("engine 'cmd:': the command is missing (cmd:PATH ARGS)");
}

ExternalEngine::~ExternalEngine() {
  if (pid_ > 0) {
    try {
      send("quit");
    } catch (const Error&) {
    }
    // A polite end first; a program that ignores `quit` is killed.
    const auto deadline = Clock::now() + std::chrono::seconds(2);
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        kill_program();
        break;
      }
      poll(nullptr, 0, 10);
    }
    pid_ = -1;
  }
  if (to_engine_ >= 0) close(to_engine_);
  if (from_engine_ >= 0) close(from_engine_);
}

void ExternalEngine::start() {
  // Writing to a program that died must be an error to report, not a signal that ends us.
  std::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw Error("cannot create pipes for " + name());
  const pid_t pid = fork();
  if (pid < 0) throw Error("cannot start " + name() + ": " + std::strerror(errno));
  if (pid == 0) {
    // The child: its own process group, so a hung program is ended with all it started.
    setpgid(0, 0);
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);
  close(in[0]);
  close(out[1]);
  fcntl(in[1], F_SETFD, FD_CLOEXEC);
  fcntl(out[0], F_SETFD, FD_CLOEXEC);
  pid_ = pid;
  to_engine_ = in[1];
  from_engine_ = out[0];
  buffer_.clear();

  // Handshake: the options say which notation the program speaks.
  send("uci");
  bool notation = false;
  std::string variant_default;
  for (;;) {
    const auto words = split_words(read_line(options_.ready_seconds, "uciok"));
    if (words.empty()) continue;
    if (words[0] == "uciok") break;
    if (words[0] == "option" && words.size() >= 3 && words[1] == "name") {
      if (words[2] == "Notation") notation = true;
      for (std::size_t i = 3; i + 1 < words.size(); ++i)
        if (words[2] == "Variant" && words[i] == "default") variant_default = words[i + 1];
    }
  }
  auale_ = has_auale_form(*game_) && !notation;
  if (!variant_default.empty() && variant_default != game_->spec())
    send("setoption name Variant value " + game_->spec());
  if (notation) send("setoption name Notation value naqala");
  send("isready");
  wait_for("readyok", options_.ready_seconds);
  fresh_game_ = true;
}

void ExternalEngine::kill_program() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  close(to_engine_);
  close(from_engine_);
  to_engine_ = from_engine_ = -1;
}

void ExternalEngine::send(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(to_engine_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) crashed("'" + line + "' to be read");
    done += static_cast<std::size_t>(n);
  }
}

void ExternalEngine::crashed(const std::string& waiting_for) {
  int status = 0;
  std::string how = "its output ended";
  // The program closed its output; give it a moment to exit so its status can be told.
  for (int i = 0; i < 100 && pid_ > 0; ++i) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      how = WIFEXITED(status)     ? "it exited with status " + std::to_string(WEXITSTATUS(status))
            : WIFSIGNALED(status) ? "it was killed by signal " + std::to_string(WTERMSIG(status))
                                  : how;
      close(to_engine_);
      close(from_engine_);
      to_engine_ = from_engine_ = -1;
      pid_ = -1;
      break;
    }
    poll(nullptr, 0, 10);
  }
  kill_program();
  throw EngineFailure("crash",
                      name() + " crashed while " + waiting_for + " was awaited (" + how + ")");
}

std::string ExternalEngine::read_line(double seconds, const std::string& waiting_for) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(seconds));
  for (;;) {
    const auto newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      kill_program();
      throw EngineFailure(
          "hang", name() + " gave no " + waiting_for + " within " + seconds_text(seconds) + " s");
    }
    pollfd p{from_engine_, POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) crashed(waiting_for);
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string ExternalEngine::wait_for(const std::string& word, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(seconds));
  for (;;) {
    const double left =
        std::max(0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
    const std::string line = read_line(left, "'" + word + "'");
    const auto words = split_words(line);
    if (!words.empty() && words[0] == word) return line;
  }
}

void ExternalEngine::new_game() {
  fresh_game_ = true;
}

std::string ExternalEngine::position_command(const AnyState& state,
                                             const engine::GameHistory* history) const {
  const std::string start = history ? history->start : state.position();
  const std::vector<std::string> no_moves;
  const auto& moves = history ? history->moves : no_moves;
  const bool from_start = start.empty() || start == game_->new_game()->position();
  if (!auale_) {
    std::string cmd = from_start ? "position startpos" : "position text " + start;
    if (!moves.empty()) cmd += " moves";
    for (const auto& m : moves) cmd += " " + to_token(m);
    return cmd;
  }
  // Aualé's form: the start as its position text, the moves as one run of letters.
  std::string cmd = from_start ? "position startpos" : "position fen " + position_to_auale(start);
  auto walk = from_start ? game_->new_game() : game_->from_position(start);
  std::string letters;
  for (const auto& m : moves) {
    letters += auale_letter(m, walk->to_move());
    walk->play(m);
  }
  if (!letters.empty()) cmd += " moves " + letters;
  return cmd;
}

std::string ExternalEngine::choose_move(const AnyState& state) {
  return think(state, {}).best_move;
}

engine::Analysis ExternalEngine::analyze(const AnyState& state, const engine::Limits& limits) {
  engine::SearchRequest request;
  request.limits = limits;
  return think(state, request);
}

engine::Analysis ExternalEngine::think(const AnyState& state,
                                       const engine::SearchRequest& request) {
  if (state.is_over()) throw IllegalMoveError("the game is over; there is no move to choose");
  if (state.is_chance_node()) throw IllegalMoveError("a chance event (dice) is due, not a move");
  if (pid_ <= 0) start();
  if (fresh_game_) {
    send("ucinewgame");
    send("isready");
    wait_for("readyok", options_.ready_seconds);
    fresh_game_ = false;
  }
  send(position_command(state, request.history));
  // The move's time: the request's limit, the clock, or the default movetime.
  std::string go = "go";
  double budget = 0;
  const auto& l = request.limits;
  if (request.on_clock) {
    const bool south = state.to_move() == Player::South;
    const auto ms = [](double s) { return std::to_string(static_cast<long long>(s * 1000)); };
    go += std::string(south ? " wtime " : " btime ") + ms(request.clock.remaining);
    go += std::string(south ? " winc " : " binc ") + ms(request.clock.increment);
    if (request.clock.moves_to_go > 0)
      go += " movestogo " + std::to_string(request.clock.moves_to_go);
    budget = request.clock.remaining;
  }
  if (l.seconds > 0) {
    go += " movetime " + std::to_string(static_cast<long long>(l.seconds * 1000));
    budget = l.seconds;
  }
  if (l.depth > 0) go += " depth " + std::to_string(l.depth);
  if (l.nodes > 0) go += " nodes " + std::to_string(l.nodes);
  if (go == "go") {
    go += " movetime " + std::to_string(static_cast<long long>(options_.movetime * 1000));
    budget = options_.movetime;
  }
  send(go);

  engine::Analysis a;
  const auto start = Clock::now();
  const double allowed = budget + options_.grace_seconds;
  std::string last_error;
  for (;;) {
    const double left = allowed - std::chrono::duration<double>(Clock::now() - start).count();
    const auto words = split_words(read_line(std::max(0.0, left), "'bestmove'"));
    if (words.empty()) continue;
    if (words[0] == "info") {
      if (words.size() > 2 && words[1] == "string") {
        if (words[2] == "error") last_error = " (it said: " + join_words(words, 3) + ")";
        continue;
      }
      for (std::size_t i = 1; i + 1 < words.size(); ++i) {
        if (words[i] == "depth") a.depth = std::atoi(words[i + 1].c_str());
        if (words[i] == "nodes") a.nodes = std::strtoull(words[i + 1].c_str(), nullptr, 10);
        if (words[i] == "cp") a.value = std::atof(words[i + 1].c_str()) / 100;
      }
      continue;
    }
    if (words[0] != "bestmove") continue;
    a.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::string token = words.size() > 1 ? words[1] : "";
    std::string move;
    try {
      if (token.empty() || token == "0000")
        throw IllegalMoveError("it answered no move ('bestmove " + token + "')");
      if (auale_ && is_auale_moves(token) && token.size() == 1) {
        auto probe = state.clone();
        move = play_auale_moves(*probe, token).front();
      } else {
        move = from_token(token);
        state.clone()->play(move);
      }
    } catch (const Error& e) {
      throw EngineFailure("illegal move",
                          name() + " played '" + token + "': " + e.what() + last_error);
    }
    a.best_move = move;
    a.pv = {move};
    return a;
  }
}

}  // namespace naqala::protocol
