// gnubg-style hints from the neural engine.
#include "cli/backgammon_hint.h"

#include <sstream>

#include "cli/common.h"
#include "eval/backgammon_cube.h"
#include "eval/backgammon_met.h"

namespace naqala::cli {

namespace {

nlohmann::json probs_json(const bgnet::Probs& p) {
  return nlohmann::json::array({p[0], p[1], p[2], p[3], p[4]});
}

}  // namespace

nlohmann::json backgammon_hint(const backgammon::State& s, const engine::NetEngineConfig& config) {
  const bgnet::Net& net = bgeval::shipped_net();
  const Player me = s.on_roll();
  const backgammon::Board board{s.side(me), s.side(opponent(me))};
  nlohmann::json out{{"position", s.gnubg_id()}, {"to_move", std::string(name(s.to_move()))}};
  if (s.phase() == backgammon::Phase::Moving) {
    const auto r = bgsearch::rank_moves(net, board, s.die(0), s.die(1), config.search);
    nlohmann::json moves = nlohmann::json::array();
    const float best = r.moves.empty() ? 0 : r.moves[0].equity;
    for (const auto& m : r.moves)
      moves.push_back({{"move", s.format_move(m.move)},
                       {"plies", m.plies},
                       {"equity", m.equity},
                       {"difference", m.equity - best},
                       {"probabilities", probs_json(m.probs)}});
    out["dice"] = {s.die(0), s.die(1)};
    out["moves"] = moves;
    out["plies"] = r.plies;
    out["evaluations"] = r.evaluations;
    out["seconds"] = r.seconds;
    return out;
  }
  // Cube: the chances of the player on roll (the doubler after a double) before his roll.
  const int plies = std::max(config.cube_plies, 1);
  const bgnet::Probs p = bgsearch::evaluate_on_roll(net, board, plies);
  const bgcube::Stage race = bgcube::stage_of(board);
  const auto owner = s.cube_owner();
  const bgcube::Access access = !owner         ? bgcube::Access::Centred
                                : *owner == me ? bgcube::Access::Mine
                                               : bgcube::Access::Theirs;
  out["on_roll"] = std::string(name(me));
  out["probabilities"] = probs_json(p);
  out["cubeless_equity"] = p.equity();
  out["plies"] = plies;
  if (access == bgcube::Access::Theirs || !s.rules().cube) {
    out["cube"] = "no cube action: " + std::string(name(me)) + " has no access to the cube";
    return out;
  }
  // Match play within the table: match-winning chances; otherwise money equities.
  const auto score = bgmet::score_of(s);
  const auto d = score ? bgcube::match_decision(p, *score, s.cube(), access, race)
                       : bgcube::money_decision(p, access, race, bgcube::jacoby_applies(s));
  const std::string efficiency = "cube efficiency " + fixed(bgcube::efficiency(race), 2);
  out["cube"] = {{"no_double", d.no_double},
                 {"double_take", d.double_take},
                 {"double_pass", d.double_pass},
                 {"verdict", d.verdict},
                 {"unit", score ? "mwc" : "equity"},
                 {"model", score ? "naqala match equity table, " + efficiency
                                 : "Janowski money, " + efficiency}};
  if (score)
    out["note"] = "match play: the cube figures are match-winning chances (" +
                  std::to_string(score->away) + "-away " + std::to_string(score->opp_away) +
                  "-away)";
  else if (!s.rules().is_money())
    out["note"] = "match play beyond the table's " + std::to_string(bgmet::kMaxAway) +
                  " points away: the cube figures are money equities";
  return out;
}

std::string format_backgammon_hint(const nlohmann::json& h) {
  std::ostringstream o;
  auto probs = [&](const nlohmann::json& p) {
    o << "      " << fixed(p[0], 3) << " " << fixed(p[1], 3) << " " << fixed(p[2], 3) << " - "
      << fixed(1 - p[0].get<double>(), 3) << " " << fixed(p[3], 3) << " " << fixed(p[4], 3) << "\n";
  };
  o << "Position " << h["position"].get<std::string>() << ", " << h["to_move"].get<std::string>()
    << " to play\n";
  if (h.contains("moves")) {
    o << "Dice " << h["dice"][0] << "-" << h["dice"][1] << "\n";
    int rank = 0;
    for (const auto& m : h["moves"]) {
      ++rank;
      const std::string text = m["move"].get<std::string>();
      o << "  " << (rank < 10 ? " " : "") << rank << ". Cubeless " << m["plies"] << "-ply  " << text
        << std::string(text.size() < 28 ? 28 - text.size() : 1, ' ')
        << "Eq.: " << (m["equity"].get<double>() >= 0 ? "+" : "") << fixed(m["equity"], 3);
      if (rank > 1) o << " (" << fixed(m["difference"], 3) << ")";
      o << "\n";
      probs(m["probabilities"]);
    }
    return o.str();
  }
  o << "Cube analysis (" << h["plies"] << "-ply), " << h["on_roll"].get<std::string>()
    << " on roll\n";
  probs(h["probabilities"]);
  o << "  Cubeless equity " << fixed(h["cubeless_equity"], 3) << "\n";
  if (h["cube"].is_string()) {
    o << "  " << h["cube"].get<std::string>() << "\n";
    return o.str();
  }
  const auto& c = h["cube"];
  o << "  No double     " << fixed(c["no_double"], 3) << "\n";
  o << "  Double, take  " << fixed(c["double_take"], 3) << "\n";
  o << "  Double, pass  " << fixed(c["double_pass"], 3) << "\n";
  o << "  Proper cube action: " << c["verdict"].get<std::string>() << "  ("
    << c["model"].get<std::string>() << ")\n";
  if (h.contains("note")) o << "  " << h["note"].get<std::string>() << "\n";
  return o.str();
}

}  // namespace naqala::cli
