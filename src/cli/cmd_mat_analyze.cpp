// naqala mat analyze FILE.mat [--level N] [--json]: annotates every decision of a match with
// the neural engine: equity lost by each checker play (against the best move at the level's
// plies) and each cube action (Janowski money model), blunders marked, and each player's
// error rate in thousandths of a point per decision, as gnubg reports it.
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "engine/backgammon_review.h"
#include "games/backgammon/mat.h"

namespace naqala::cli {

void add_mat_analyze_command(CLI::App& mat) {
  auto* cmd = mat.add_subcommand(
      "analyze", "Annotate a .mat match: equity lost per decision, blunders, error rates");
  struct Args {
    std::string file;
    int level = 7;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("file", a->file, "The .mat file")->required();
  cmd->add_option("--level", a->level, "Engine level judging the moves (default 7: 1-ply)")
      ->check(CLI::Range(1, 10));
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    const auto m = backgammon::import_mat(read_file(a->file));
    engine::BackgammonReview review(engine::backgammon_level(a->level));
    backgammon::State s(m.rules);
    nlohmann::json decisions = nlohmann::json::array();
    std::string text;
    for (const auto& e : m.events) {
      if (e.resign) {
        s.resign(e.resigner, e.resign);
        continue;
      }
      if (e.is_roll) {
        s.apply_chance(e.roll);
        continue;
      }
      if (auto d = review.judge(s, e.move); !d.is_null()) {
        const double loss = d["loss"];
        if (!a->json && loss >= 0.04)
          text += "game " + std::to_string(s.game_number()) + " " + std::string(name(s.to_move())) +
                  " " + s.gnubg_id() + ": played " + d["played"].get<std::string>() + ", best " +
                  d["best"].get<std::string>() + ", loses " + fixed(loss, 3) + " " +
                  d["mark"].get<std::string>() + "\n";
        decisions.push_back(std::move(d));
      }
      s.play(e.move);
    }
    nlohmann::json players = review.players();
    for (int i = 0; i < 2; ++i) players[i]["name"] = m.names[i];
    if (a->json) {
      std::cout << nlohmann::json{{"file", a->file},
                                  {"engine", engine::backgammon_level_text(a->level)},
                                  {"players", players},
                                  {"decisions", decisions}}
                       .dump(2)
                << "\n";
      return;
    }
    std::cout << text;
    for (const auto& pl : players)
      std::cout << pl["name"].get<std::string>() << " (" << pl["side"].get<std::string>()
                << "): checker play " << fixed(pl["checker_error_rate"], 1)
                << " thousandths per move over " << pl["checker_decisions"] << " moves, cube "
                << fixed(pl["cube_error_rate"], 1) << " over " << pl["cube_decisions"]
                << " decisions, " << pl["blunders"] << " blunder(s)\n";
    std::cout
        << "judged by level " << a->level << " (" << engine::backgammon_level_text(a->level)
        << "); cube errors by Janowski's money model; losses are per unit cube times the cube\n";
  });
}

}  // namespace naqala::cli
