// The board as backgammon players draw it (gnubg's text layout): seen by the player to move,
// whose home board is bottom right, points 13-24 on top, 12-1 below, the bar in the middle.
// The checkers keep their symbol whoever moves: X is South, O is North.
#include <nlohmann/json.hpp>

#include "games/backgammon/backgammon.h"

namespace naqala::backgammon {

namespace {

constexpr int kRows = 5;  // checkers drawn per point; more are shown as a count

char symbol(Player p) {
  return p == Player::South ? 'X' : 'O';
}

// Player p's checkers on *viewer's* point (1-based).
int on_point(const State& s, Player viewer, Player p, int point) {
  return p == viewer ? s.side(p)[point - 1] : s.side(p)[24 - point];
}

std::string cell(const State& s, Player viewer, int point, int row) {
  // row 0 is nearest the edge of the board.
  const Player me = viewer, opp = opponent(viewer);
  const int mine = on_point(s, viewer, me, point), theirs = on_point(s, viewer, opp, point);
  const int n = mine ? mine : theirs;
  const char c = symbol(mine ? me : opp);
  if (n == 0 || row >= n) return "   ";
  if (row == kRows - 1 && n > kRows) {
    std::string num = std::to_string(n);
    return num.size() == 1 ? " " + num + " " : num + " ";
  }
  return std::string(" ") + c + " ";
}

std::string phase_text(const State& s) {
  const std::string who(name(s.to_move()));
  static const char* kinds[] = {"", "a single game", "a gammon", "a backgammon"};
  if (s.resignation_offered())
    return std::string(name(s.on_roll())) + " offers to resign " + kinds[s.resignation_offered()] +
           " (" + std::to_string(s.resignation_value(s.resignation_offered()) * s.cube()) +
           (s.resignation_value(s.resignation_offered()) * s.cube() == 1 ? " point" : " points") +
           "); " + who + " to accept or decline";
  switch (s.phase()) {
    case Phase::Opening:
      return "opening roll: each player rolls one die";
    case Phase::TurnStart:
      return who + " to roll or double";
    case Phase::Doubled:
      return who + " to take or drop a double to " + std::to_string(2 * s.cube());
    case Phase::Rolling:
      return who + " to roll";
    case Phase::Moving:
      return who + " rolled " + std::to_string(s.die(0)) + "-" + std::to_string(s.die(1));
    case Phase::GameOver:
      break;
  }
  const auto& r = s.last_result();
  std::string t = std::string(name(r.winner)) + " wins " +
                  (r.dropped    ? std::string("(double dropped)")
                   : r.resigned ? std::string(kinds[r.multiplier]) + " (resigned)"
                                : std::string(kinds[r.multiplier])) +
                  ", " + std::to_string(r.points) + (r.points == 1 ? " point" : " points");
  return t;
}

}  // namespace

std::string State::render() const {
  const Player viewer = phase_ == Phase::Doubled ? to_move() : turn_;
  const Player opp = opponent(viewer);
  auto label = [&](Player p) {
    return std::string(1, symbol(p)) + ": " + std::string(name(p)) + "  pips " +
           std::to_string(pips(p)) + "  off " + std::to_string(checkers_off(side(p)));
  };
  std::string score_line;
  if (rules_.match > 0)
    score_line = std::to_string(rules_.match) + "-point match, score " + std::string(name(viewer)) +
                 " " + std::to_string(score(viewer)) + " - " + std::string(name(opp)) + " " +
                 std::to_string(score(opp)) +
                 (crawford_game_ && phase_ != Phase::GameOver ? " (Crawford game)" : "");
  else if (rules_.series > 0)
    score_line = "game " + std::to_string(std::min<int>(games_played_ + 1, rules_.series)) +
                 " of " + std::to_string(rules_.series) + ", points " + std::string(name(viewer)) +
                 " " + std::to_string(score(viewer)) + " - " + std::string(name(opp)) + " " +
                 std::to_string(score(opp));
  else
    score_line = "money game";
  std::string cube_line;
  if (rules_.cube) {
    const auto owner = cube_owner();
    cube_line = "cube " + std::to_string(cube()) +
                (owner ? " owned by " + std::string(name(*owner)) : std::string(" in the middle"));
  } else {
    cube_line = "no cube";
  }

  std::string out;
  out += " +13-14-15-16-17-18------19-20-21-22-23-24-+   " + label(opp) + "\n";
  for (int row = 0; row < kRows; ++row) {
    std::string line = " |";
    for (int p = 13; p <= 18; ++p) line += cell(*this, viewer, p, row);
    line += "|";
    const int bar_o = side(opp)[kBar];
    line += row < bar_o ? (row == kRows - 1 && bar_o > kRows
                               ? std::to_string(bar_o) + (bar_o > 9 ? " " : "  ")
                               : std::string(" ") + symbol(opp) + " ")
                        : "   ";
    line += "|";
    for (int p = 19; p <= 24; ++p) line += cell(*this, viewer, p, row);
    line += "|";
    if (row == 0) line += "   " + score_line;
    out += line + "\n";
  }
  out += std::string(viewer == Player::South ? "v" : "^") +
         "|                  |BAR|                  |   " + cube_line + "\n";
  for (int row = kRows - 1; row >= 0; --row) {
    std::string line = " |";
    for (int p = 12; p >= 7; --p) line += cell(*this, viewer, p, row);
    line += "|";
    const int bar_x = side(viewer)[kBar];
    line += row < bar_x ? (row == kRows - 1 && bar_x > kRows
                               ? std::to_string(bar_x) + (bar_x > 9 ? " " : "  ")
                               : std::string(" ") + symbol(viewer) + " ")
                        : "   ";
    line += "|";
    for (int p = 6; p >= 1; --p) line += cell(*this, viewer, p, row);
    line += "|";
    if (row == 0) line += "   " + phase_text(*this);
    out += line + "\n";
  }
  out += " +12-11-10--9--8--7-------6--5--4--3--2--1-+   " + label(viewer) + "\n";
  out += " gnubg ID " + gnubg_id() + "\n";
  return out;
}

nlohmann::json State::board_json() const {
  using nlohmann::json;
  json j;
  // points[k] for South's point k+1: positive South checkers, negative North checkers.
  json points = json::array();
  for (int i = 0; i < 24; ++i) {
    const int s = board_[0][i], n = board_[1][23 - i];
    points.push_back(s ? s : -n);
  }
  j["points"] = points;
  j["bar"] = {{"south", board_[0][kBar]}, {"north", board_[1][kBar]}};
  j["off"] = {{"south", checkers_off(board_[0])}, {"north", checkers_off(board_[1])}};
  j["pips"] = {{"south", pips(Player::South)}, {"north", pips(Player::North)}};
  static const char* phases[] = {"opening", "turn_start", "doubled",
                                 "rolling", "moving",     "game_over"};
  j["phase"] = phases[static_cast<int>(phase_)];
  j["on_roll"] = name(turn_);
  j["to_move"] = name(to_move());
  j["dice"] = dice_[0] ? json::array({dice_[0], dice_[1]}) : json::array();
  j["cube"] = {{"value", cube()},
               {"owner", cube_owner() ? json(name(*cube_owner())) : json(nullptr)},
               {"enabled", rules_.cube}};
  j["score"] = {{"south", score_[0]}, {"north", score_[1]}};
  j["match"] = rules_.match;
  j["series"] = rules_.series;
  j["crawford_game"] = crawford_game_;
  j["position_id"] = position_id();
  j["match_id"] = match_id();
  j["gnubg_id"] = gnubg_id();
  // A pending resignation offer: who offers, its level and what accepting it scores.
  static const char* levels[] = {"", "single", "gammon", "backgammon"};
  if (offer_)
    j["resignation"] = {{"by", name(turn_)},
                        {"level", levels[offer_]},
                        {"points", resignation_value(offer_) * cube()}};
  else
    j["resignation"] = nullptr;
  j["resignation_declined"] = declined_;
  if (phase_ == Phase::GameOver)
    j["result"] = {{"winner", name(last_.winner)},
                   {"points", last_.points},
                   {"multiplier", last_.multiplier},
                   {"dropped", last_.dropped},
                   {"resigned", last_.resigned}};
  return j;
}

}  // namespace naqala::backgammon
