#pragma once
// Ratings on the server (docs/server.md, "Ratings"): Glicko-2 (src/play/glicko2.h) per player
// and game, the game being the preset (`kalah`, `oware`, ... whatever its options: a rating in
// one sowing game says little of another). Only rated games count: both seats people, rated
// when created (casual games, the default, stay unrated). Each rated game is a rating period
// of its own, so a rating moves after every game, as on game servers.
#include <nlohmann/json.hpp>
#include <string>

#include "server/store.h"

namespace naqala::server {

// The game a variant spec is rated in: its preset's name.
std::string rated_game(const std::string& variant);

// Rates a finished game if it is rated (idempotent: a game is rated once).
void rate_game(Store& store, const GameRow& game);

// GET /api/players/ID: name, ratings, rating history, recent games with results.
nlohmann::json player_page(Store& store, std::int64_t id);
// GET /api/ratings?game=G: the best rated players of a game.
nlohmann::json leaderboard(Store& store, const std::string& game);

}  // namespace naqala::server
