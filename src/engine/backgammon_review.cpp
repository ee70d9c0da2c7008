// Decision-by-decision review of backgammon play.
#include "engine/backgammon_review.h"

#include <algorithm>

#include "core/error.h"
#include "eval/backgammon_cube.h"
#include "eval/backgammon_evaluator.h"
#include "games/backgammon/family.h"

namespace naqala::engine {

using backgammon::Move;
using backgammon::Phase;
using backgammon::State;

std::string decision_mark(double loss) {
  return loss >= 0.16 ? "??" : loss >= 0.08 ? "?" : loss >= 0.04 ? "?!" : "";
}

BackgammonReview::BackgammonReview(const NetEngineConfig& judge) : judge_(judge) {
  judge_.search.noise = 0;
}

nlohmann::json BackgammonReview::judge(const State& s, const Move& played) {
  if (s.resignation_offered() || s.is_over() || s.is_chance_node()) return nullptr;
  const bgnet::Net& net = bgeval::shipped_net();
  const Player p = s.to_move();
  Totals& totals = totals_[index(p)];
  const backgammon::Board board{s.side(s.on_roll()), s.side(opponent(s.on_roll()))};
  nlohmann::json entry = {{"game", s.game_number()},
                          {"player", std::string(name(p))},
                          {"on_roll", std::string(name(s.on_roll()))},
                          {"position", s.gnubg_id()},
                          {"played", s.format_move(played)}};
  double loss = 0;
  if (s.phase() == Phase::Moving && played.kind == Move::Kind::Checkers) {
    const auto r = bgsearch::rank_moves(net, board, s.die(0), s.die(1), judge_.search);
    if (r.moves.size() < 2) return nullptr;  // forced
    backgammon::Board after = board;
    backgammon::apply_steps(after, Player::South, played);
    const bgsearch::Candidate* chosen = nullptr;
    for (const auto& cand : r.moves)
      if (cand.after == after) chosen = &cand;
    if (!chosen) throw Error("internal: the played move is not among the legal moves");
    if (chosen->plies == r.moves[0].plies) {
      loss = r.moves[0].equity - chosen->equity;
    } else {
      // Cut by a filter: compared with the best move at the ply the played one reached.
      bgsearch::Config shallow = judge_.search;
      shallow.plies = chosen->plies;
      loss = bgsearch::rank_moves(net, board, s.die(0), s.die(1), shallow).moves[0].equity -
             chosen->equity;
    }
    loss = std::max(0.0, loss);
    entry["kind"] = "checker";
    entry["best"] = s.format_move(r.moves[0].move);
    entry["best_equity"] = r.moves[0].equity;
    entry["played_equity"] = chosen->equity;
    entry["probabilities"] = r.moves[0].probs.p;
    totals.checker_loss += loss;
    ++totals.checker_decisions;
  } else if (s.phase() == Phase::TurnStart || s.phase() == Phase::Doubled) {
    const bgnet::Probs pr = bgsearch::evaluate_on_roll(net, board, std::max(1, judge_.cube_plies));
    const bgcube::Access access = !s.cube_owner() ? bgcube::Access::Centred : bgcube::Access::Mine;
    const auto d =
        bgcube::money_decision(pr, access, bgcube::stage_of(board), bgcube::jacoby_applies(s));
    const double cube = s.cube();
    std::string best;
    if (s.phase() == Phase::TurnStart) {
      const double take_or_pass = std::min(d.double_take, d.double_pass);
      const double chosen = played.kind == Move::Kind::Double ? take_or_pass : d.no_double;
      loss = cube * (std::max<double>(d.no_double, take_or_pass) - chosen);
      best = d.should_double ? "double" : "roll";
    } else {
      // The taker's view: a take is worth -double_take, a drop -double_pass.
      const double chosen = played.kind == Move::Kind::Take ? -d.double_take : -d.double_pass;
      loss = cube * (std::max<double>(-d.double_take, -d.double_pass) - chosen);
      best = d.should_take ? "take" : "drop";
    }
    // Only real decisions count: a roll far from any double is not one.
    if (s.phase() != Phase::Doubled && played.kind != Move::Kind::Double && !d.should_double &&
        pr[0] <= 0.6)
      return nullptr;
    entry["kind"] = "cube";
    entry["best"] = best;
    entry["verdict"] = d.verdict;
    entry["probabilities"] = pr.p;  // the player on roll's, before his roll
    totals.cube_loss += loss;
    ++totals.cube_decisions;
  } else {
    return nullptr;  // a pass, or a resignation's answer
  }
  if (loss >= 0.16) ++totals.blunders;
  entry["loss"] = loss;
  entry["mark"] = decision_mark(loss);
  return entry;
}

nlohmann::json BackgammonReview::players() const {
  nlohmann::json out = nlohmann::json::array();
  for (int i = 0; i < 2; ++i) {
    const Totals& t = totals_[i];
    const auto rate = [](double loss, int n) { return n ? 1000 * loss / n : 0.0; };
    out.push_back({{"side", std::string(name(static_cast<Player>(i)))},
                   {"checker_decisions", t.checker_decisions},
                   {"checker_error_rate", rate(t.checker_loss, t.checker_decisions)},
                   {"cube_decisions", t.cube_decisions},
                   {"cube_error_rate", rate(t.cube_loss, t.cube_decisions)},
                   {"blunders", t.blunders}});
  }
  return out;
}

nlohmann::json backgammon_game_review(const AnyState& start,
                                      const std::vector<std::pair<char, std::string>>& plies) {
  constexpr int kLevel = 6;
  if (!dynamic_cast<const backgammon::BackgammonState*>(&start))
    throw Error("a review of every decision is backgammon's; this game is another");
  auto state = start.clone();
  BackgammonReview review(backgammon_level(kLevel));
  nlohmann::json decisions = nlohmann::json::array();
  for (std::size_t k = 0; k < plies.size(); ++k) {
    const auto& [side, text] = plies[k];
    if (side == '*') {
      state->apply_chance(text);
      continue;
    }
    const State& s = dynamic_cast<const backgammon::BackgammonState&>(*state).typed();
    if (!backgammon::parse_resignation(text) && !s.resignation_offered())
      if (const auto m = s.parse_move(text)) {
        nlohmann::json d = review.judge(s, *m);
        if (!d.is_null()) {
          d["ply"] = k + 1;
          decisions.push_back(std::move(d));
        }
      }
    state->play(text);
  }
  return {{"engine", backgammon_level_text(kLevel)},
          {"players", review.players()},
          {"decisions", decisions}};
}

}  // namespace naqala::engine
