#pragma once
// The other side of the engine protocol: an outside program (any engine that speaks it:
// another naqala process, Aalina) as a naqala Engine, for the arena's `cmd:COMMAND` players.
//
// The program is started on first use and after a failure. A crash (end of its output), a
// hang (no `bestmove` within the move's time plus the grace), a broken answer or an illegal
// move throws engine::EngineFailure with the position; the next game starts it again.
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "games/any_game.h"

namespace naqala::protocol {

struct ExternalOptions {
  double movetime = 1;        // seconds per move when the request sets no limit
  double grace_seconds = 10;  // beyond the move's time before the program counts as hung
  // How long the program may take to start (uciok) and to answer isready: a hang guard, long
  // because a loaded machine or a program that loads tables at start may take seconds.
  double ready_seconds = 120;
};

class ExternalEngine : public engine::Engine {
 public:
  // `command` runs under /bin/sh (quotes and paths as in a shell).
  ExternalEngine(const AnyGame& game, std::string command, ExternalOptions options = {});
  ~ExternalEngine() override;

  std::string name() const override { return "cmd:" + command_; }
  std::string choose_move(const AnyState& state) override;
  engine::Analysis analyze(const AnyState& state, const engine::Limits& limits) override;
  engine::Analysis think(const AnyState& state, const engine::SearchRequest& request) override;
  void new_game() override;

  // Whether the program is spoken to in the Aualé form (a 2x6 game and a program that does
  // not offer naqala's Notation option).
  bool auale() const { return auale_; }

 private:
  void start();
  void kill_program();
  void send(const std::string& line);
  // The next line, or throws EngineFailure ("crash" at the end of the output, "hang" after
  // `seconds`).
  std::string read_line(double seconds, const std::string& waiting_for);
  std::string wait_for(const std::string& word, double seconds);
  [[noreturn]] void crashed(const std::string& waiting_for);
  std::string position_command(const AnyState& state, const engine::GameHistory* history) const;

  std::unique_ptr<AnyGame> game_;
  std::string command_;
  ExternalOptions options_;
  pid_t pid_ = -1;
  int to_engine_ = -1, from_engine_ = -1;
  std::string buffer_;
  bool auale_ = false;
  bool fresh_game_ = true;
};

}  // namespace naqala::protocol
