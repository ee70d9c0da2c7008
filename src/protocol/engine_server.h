#pragma once
// The engine side of the engine protocol (docs/protocol.md): `naqala engine` reads commands
// line by line and answers on `out`. One server lives for a whole match, so the engine (and
// its hash table) is kept between moves. A search runs on its own thread: `stop` and
// `isready` are answered while it thinks (or, with ServerOptions::synchronous, on the caller's).
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "games/any_game.h"

namespace naqala::protocol {

struct ServerOptions {
  std::string variant = "oware";
  std::string engine = "level:10";
  bool auale = false;  // answer in the Aualé form (2x6 boards)
  // Searches on the caller's thread: handle("go ...") returns after the `bestmove`, and no
  // thread is started. For input read whole (the fuzzer, tests), where nothing can come
  // while a search runs: a `stop` could not reach one, so `go infinite` is refused.
  bool synchronous = false;
};

class EngineServer {
 public:
  // Throws naqala::Error when the variant or the engine spec is wrong.
  EngineServer(ServerOptions options, std::ostream& out);
  ~EngineServer();

  // Handles one command line; returns false after `quit`. Never throws: a bad command is
  // answered with `info string error ...`.
  bool handle(const std::string& line);
  // Ends a running search and waits for its `bestmove` (at the end of the input).
  void finish();

 private:
  void uci();
  void setoption(const std::vector<std::string>& words);
  void new_game();
  void position(const std::vector<std::string>& words);
  void go(const std::vector<std::string>& words);
  void stop();
  void search(engine::SearchRequest request);
  void run_search(const engine::SearchRequest& request, Player mover);
  void emit(const std::string& line);
  std::string move_text(const std::string& move, Player mover) const;
  std::string info_line(const engine::Analysis& a) const;
  void join_finished();
  void build(const std::string& variant, const std::string& engine);

  ServerOptions options_;
  std::ostream& out_;
  std::mutex out_mutex_;
  std::unique_ptr<AnyGame> game_;
  std::unique_ptr<engine::Engine> engine_;
  // The game: its start (empty: the variant's start) and the moves since, in naqala's
  // notation (backgammon's rolls among them), and the state they lead to.
  std::string start_;
  std::vector<std::string> moves_;
  std::unique_ptr<AnyState> state_;
  bool answer_auale_ = false;

  std::thread thread_;
  std::mutex done_mutex_;
  std::condition_variable done_cv_;
  bool searching_ = false;  // under done_mutex_
  bool infinite_ = false;   // under done_mutex_
};

}  // namespace naqala::protocol
