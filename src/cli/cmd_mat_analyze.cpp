// naqala mat analyze FILE.mat [--level N] [--json]: annotates every decision of a match with
// the neural engine: equity lost by each checker play (against the best move at the level's
// plies) and each cube action (Janowski money model), blunders marked, and each player's
// error rate in thousandths of a point per decision, as gnubg reports it.
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "engine/backgammon_net_engine.h"
#include "eval/backgammon_cube.h"
#include "games/backgammon/mat.h"

namespace naqala::cli {

namespace {

using backgammon::Move;
using backgammon::Phase;
using backgammon::State;

// gnubg's marks: doubtful from 0.04, bad from 0.08, very bad from 0.16 (a blunder).
std::string mark(double loss) {
  return loss >= 0.16 ? "??" : loss >= 0.08 ? "?" : loss >= 0.04 ? "?!" : "";
}

struct Totals {
  double checker_loss = 0, cube_loss = 0;
  int checker_decisions = 0, cube_decisions = 0, blunders = 0;
};

}  // namespace

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
    engine::NetEngineConfig c = engine::backgammon_level(a->level);
    c.search.noise = 0;
    const bgnet::Net& net = bgeval::shipped_net();
    State s(m.rules);
    std::array<Totals, 2> totals;
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
      const Player p = s.to_move();
      const backgammon::Board board{s.side(s.on_roll()), s.side(opponent(s.on_roll()))};
      double loss = 0;
      std::string best, kind;
      if (s.phase() == Phase::Moving && e.move.kind == Move::Kind::Checkers) {
        const auto r = bgsearch::rank_moves(net, board, s.die(0), s.die(1), c.search);
        if (r.moves.size() > 1) {
          backgammon::Board after = board;
          backgammon::apply_steps(after, Player::South, e.move);
          const bgsearch::Candidate* played = nullptr;
          for (const auto& cand : r.moves)
            if (cand.after == after) played = &cand;
          if (!played) throw Error("internal: the played move is not among the legal moves");
          if (played->plies == r.moves[0].plies) {
            loss = r.moves[0].equity - played->equity;
          } else {
            // Cut by a filter: compared with the best move at the ply the played one reached.
            bgsearch::Config shallow = c.search;
            shallow.plies = played->plies;
            loss = bgsearch::rank_moves(net, board, s.die(0), s.die(1), shallow).moves[0].equity -
                   played->equity;
          }
          loss = std::max(0.0, loss);
          best = s.format_move(r.moves[0].move);
          kind = "checker";
          totals[index(p)].checker_loss += loss;
          ++totals[index(p)].checker_decisions;
        }
      } else if (s.phase() == Phase::TurnStart || s.phase() == Phase::Doubled) {
        const bgnet::Probs pr = bgsearch::evaluate_on_roll(net, board, std::max(1, c.cube_plies));
        const auto owner = s.cube_owner();
        const bgcube::Access access = !owner ? bgcube::Access::Centred : bgcube::Access::Mine;
        const auto d =
            bgcube::money_decision(pr, access, bgcube::stage_of(board), bgcube::jacoby_applies(s));
        const double cube = s.cube();
        if (s.phase() == Phase::TurnStart) {
          const double take_or_pass = std::min(d.double_take, d.double_pass);
          const double chosen = e.move.kind == Move::Kind::Double ? take_or_pass : d.no_double;
          loss = cube * (std::max<double>(d.no_double, take_or_pass) - chosen);
          best = d.should_double ? "double" : "roll";
        } else {
          // The taker's view: a take is worth -double_take, a drop -double_pass.
          const double chosen = e.move.kind == Move::Kind::Take ? -d.double_take : -d.double_pass;
          loss = cube * (std::max<double>(-d.double_take, -d.double_pass) - chosen);
          best = d.should_take ? "take" : "drop";
        }
        kind = "cube";
        // Only real decisions count: a roll far from any double is not one.
        if (s.phase() == Phase::Doubled || e.move.kind == Move::Kind::Double || d.should_double ||
            pr[0] > 0.6) {
          totals[index(p)].cube_loss += loss;
          ++totals[index(p)].cube_decisions;
        } else {
          kind.clear();
        }
      }
      const std::string played_text = s.format_move(e.move);
      if (!kind.empty()) {
        if (loss >= 0.16) ++totals[index(p)].blunders;
        decisions.push_back({{"game", s.game_number()},
                             {"player", std::string(name(p))},
                             {"position", s.gnubg_id()},
                             {"kind", kind},
                             {"played", played_text},
                             {"best", best},
                             {"loss", loss},
                             {"mark", mark(loss)}});
        if (!a->json && loss >= 0.04)
          text += "game " + std::to_string(s.game_number()) + " " + std::string(name(p)) + " " +
                  s.gnubg_id() + ": played " + played_text + ", best " + best + ", loses " +
                  fixed(loss, 3) + " " + mark(loss) + "\n";
      }
      s.play(e.move);
    }
    nlohmann::json players = nlohmann::json::array();
    for (int i = 0; i < 2; ++i) {
      const Totals& t = totals[i];
      const auto rate = [](double loss, int n) { return n ? 1000 * loss / n : 0.0; };
      players.push_back({{"name", m.names[i]},
                         {"side", std::string(name(static_cast<Player>(i)))},
                         {"checker_decisions", t.checker_decisions},
                         {"checker_error_rate", rate(t.checker_loss, t.checker_decisions)},
                         {"cube_decisions", t.cube_decisions},
                         {"cube_error_rate", rate(t.cube_loss, t.cube_decisions)},
                         {"blunders", t.blunders}});
    }
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
