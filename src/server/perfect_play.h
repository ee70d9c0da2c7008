#pragma once
// What the server's game analysis says of a position from the endgame databases: won, drawn
// or lost with perfect play, for the player to move (docs/server.md, GET .../analysis).
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "games/any_game.h"
#include "solve/sowing_db.h"

namespace naqala::server {

// {"known": false} when no database holds the position (a two-row sowing position of its
// rules with at most its K seeds in the pits) or the short search on top did not settle it;
// otherwise "known", "to_move", "result" (won/drawn/lost), "exact", "margin_low",
// "margin_high", "best_move", "optimal_moves", "db_seeds". The state's own history (the
// positions since the last capture) counts: they end the game if they come back.
nlohmann::json perfect_play(const AnyState& state,
                            const std::vector<std::shared_ptr<const solve::SowingDb>>& dbs);

}  // namespace naqala::server
