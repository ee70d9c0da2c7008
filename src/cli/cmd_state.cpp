// naqala state VARIANT [--position P] [--moves "..."] [--record FILE] [--json]
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/json_text.h"

namespace naqala::cli {

void add_state_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("state", "Show a position: board, side to move, legal moves, result");
  struct Args {
    std::string variant;
    StartFlags start;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "Variant, e.g. oware or kalah:seeds=6 or my.toml")
      ->required();
  add_start_flags(cmd, a->start, "Start from this position");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    Loaded l = load_state(a->variant, a->start);
    const AnyState& s = *l.state;
    if (a->json) {
      nlohmann::json out = {
          {"variant", l.game->spec()},
          {"position", s.position()},
          {"to_move", s.is_chance_node() ? "chance" : std::string(name(s.to_move()))},
          {"legal_moves", s.legal_moves()},
          {"is_over", s.is_over()},
          {"outcome", outcome_json(s)},
          {"board", s.board_json()}};
      std::cout << json_text(out, 2) << "\n";
      return;
    }
    std::cout << l.game->spec() << "\n" << s.render() << "position: " << s.position() << "\n";
    if (s.is_over()) {
      const Outcome o = s.outcome();
      std::cout << "game over (" << to_string(o.reason) << "): "
                << (o.winner ? std::string(name(*o.winner)) + " wins" : std::string("draw")) << ", "
                << o.scores[0] << "-" << o.scores[1] << "\n";
    } else {
      std::cout << name(s.to_move()) << " to move; legal moves: " << join_moves(s.legal_moves())
                << "\n";
    }
  });
}

}  // namespace naqala::cli
