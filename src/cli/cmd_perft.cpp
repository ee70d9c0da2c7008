// naqala perft VARIANT [--position P] --depth N [--json]: positions after exactly d plies.
#include <chrono>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/json_text.h"

namespace naqala::cli {

void add_perft_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("perft", "Count the positions after exactly 1..N plies");
  struct Args {
    std::string variant, position;
    int depth = 0;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "Variant")->required();
  cmd->add_option("--position", a->position, "Start from this position")->check(kNotEmpty);
  cmd->add_option("--depth", a->depth, "Depth in plies (1 to 30)")
      ->required()
      ->check(CLI::Range(1, 30));
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    Loaded l = load_state(a->variant, a->position, "", "");
    const auto start = std::chrono::steady_clock::now();
    const auto counts = l.state->perft(a->depth);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::uint64_t nodes = 0;
    for (auto c : counts) nodes += c;
    const double nps = seconds > 0 ? nodes / seconds : 0;
    if (a->json) {
      std::cout << json_text(nlohmann::json{{"variant", l.game->spec()},
                                            {"counts", counts},
                                            {"seconds", seconds},
                                            {"nodes_per_second", nps}})
                << "\n";
      return;
    }
    for (std::size_t d = 0; d < counts.size(); ++d)
      std::cout << "depth " << d + 1 << ": " << counts[d] << "\n";
    std::cout << nodes << " nodes in " << seconds << " s (" << static_cast<std::uint64_t>(nps)
              << " nodes/s)\n";
  });
}

}  // namespace naqala::cli
