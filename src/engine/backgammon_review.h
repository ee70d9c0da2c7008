#pragma once
// The review of a backgammon game or match, decision by decision, as gnubg's analysis gives
// it: the equity each checker play loses against the best move at the judging level's plies,
// each cube action against Janowski's money decision, gnubg's marks, and each player's error
// rates in thousandths of a point per decision. `naqala mat analyze` and the server's review
// (GET /api/games/ID/analysis) share it.
#include <array>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/backgammon_net_engine.h"
#include "games/any_game.h"
#include "games/backgammon/backgammon.h"

namespace naqala::engine {

// gnubg's marks: doubtful ("?!") from 0.04, bad ("?") from 0.08, very bad ("??", a blunder)
// from 0.16 points.
std::string decision_mark(double loss);

class BackgammonReview {
 public:
  explicit BackgammonReview(const NetEngineConfig& judge);
  // Judges `played`, the decision of the player to move in `s` (not yet played). Returns the
  // decision's entry, or null when it is not one the rates count: a forced move, a roll far
  // from any double, a resignation offer or its answer.
  nlohmann::json judge(const backgammon::State& s, const backgammon::Move& played);
  // Each player's rates, South first: {side, checker_decisions, checker_error_rate,
  // cube_decisions, cube_error_rate, blunders}.
  nlohmann::json players() const;

 private:
  struct Totals {
    double checker_loss = 0, cube_loss = 0;
    int checker_decisions = 0, cube_decisions = 0, blunders = 0;
  };
  NetEngineConfig judge_;
  std::array<Totals, 2> totals_{};
};

// The review of a whole game from its start (`start`, a backgammon state) through `plies`
// (side 'S', 'N' or '*' for the dice, and the ply's text): {engine, players, decisions}, each
// decision with the number of its ply (from 1). Level 6 (0 ply) judges: a game's review is
// quick enough to answer at once. Throws naqala::Error when the game is not backgammon.
nlohmann::json backgammon_game_review(const AnyState& start,
                                      const std::vector<std::pair<char, std::string>>& plies);

}  // namespace naqala::engine
