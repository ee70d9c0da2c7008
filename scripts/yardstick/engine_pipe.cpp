// A naqala engine over stdin/stdout, for matches between two builds (old vs new binary).
// usage: engine_pipe VARIANT SPEC
// commands: "new" | "new POSITION" | "play MOVE" | "go" | "goclock REMAINING INCREMENT" (the
//   move under a game clock: the engine budgets its time; seconds) | "legal" | "status" | "quit" |
//   "analyze SECONDS DEPTH NODES" (0 = unset): "analysis BEST VALUE DEPTH NODES SECONDS CPU",
//   CPU the process's CPU seconds for it (a loaded machine's wall time says little)
#include <chrono>
#include <ctime>
#include <iostream>
#include <sstream>
#include <string>

#include "engine/engine.h"
#include "games/registry.h"

using namespace naqala;

int main(int argc, char** argv) {
  if (argc < 3) return 1;
  auto game = make_game(argv[1]);
  const std::string spec = argv[2];
  std::unique_ptr<AnyState> state = game->new_game();
  std::unique_ptr<engine::Engine> engine = engine::make_engine(*game, spec);
  std::string line;
  std::ios::sync_with_stdio(false);
  while (std::getline(std::cin, line)) {
    try {
      if (line == "quit") break;
      if (line == "new") {
        state = game->new_game();
        engine = engine::make_engine(*game, spec);
        std::cout << "ok\n";
      } else if (line.rfind("new ", 0) == 0) {
        state = game->from_position(line.substr(4));
        engine = engine::make_engine(*game, spec);
        std::cout << "ok\n";
      } else if (line.rfind("play ", 0) == 0) {
        state->play(line.substr(5));
        std::cout << "ok\n";
      } else if (line.rfind("chance", 0) == 0) {
        std::cout << "ok\n";
      } else if (line == "go" || line.rfind("goclock ", 0) == 0) {
        engine::Clock clock;
        if (line != "go" &&
            !(std::istringstream(line.substr(8)) >> clock.remaining >> clock.increment))
          throw std::invalid_argument("goclock REMAINING INCREMENT (seconds)");
        const auto t0 = std::chrono::steady_clock::now();
        const std::string m = line == "go" ? engine->choose_move(*state)
                                           : engine->choose_move_on_clock(*state, clock);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::cout << "move " << s << " " << m << "\n";
      } else if (line.rfind("analyze ", 0) == 0) {
        std::istringstream in(line.substr(8));
        engine::Limits limits;
        if (!(in >> limits.seconds >> limits.depth >> limits.nodes))
          throw std::invalid_argument("analyze SECONDS DEPTH NODES (0 = unset)");
        const std::clock_t c0 = std::clock();
        const auto a = engine->analyze(*state, limits);
        const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        std::cout << "analysis " << a.best_move << " " << a.value << " " << a.depth << " "
                  << a.nodes << " " << a.seconds << " " << cpu << "\n";
      } else if (line == "legal") {
        std::string out;
        for (const auto& m : state->legal_moves()) out += m + "\t";
        std::cout << "legal " << out << "\n";
      } else if (line == "position") {
        std::cout << "position " << state->position() << "\n";
      } else if (line == "status") {
        if (!state->is_over()) {
          std::cout << "ongoing " << (state->to_move() == Player::South ? "S" : "N") << "\n";
        } else {
          const Outcome o = state->outcome();
          std::cout << "over " << o.south_points() << " " << to_string(o.reason) << " "
                    << o.scores[0] << "-" << o.scores[1] << "\n";
        }
      } else {
        std::cout << "error unknown command\n";
      }
    } catch (const std::exception& e) {
      std::cout << "error " << e.what() << "\n";
    }
    std::cout.flush();
  }
}
