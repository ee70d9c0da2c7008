#include "server/ratings.h"

#include <cmath>

#include "games/registry.h"
#include "play/glicko2.h"
#include "server/fields.h"
#include "server/tournament_state.h"

namespace naqala::server {

using json = nlohmann::json;

namespace {

// An established rating has played and has a deviation under this (Glicko-2's "provisional").
constexpr double kProvisionalDeviation = 110;

json rating_view(const RatingRow& r) {
  return {{"game", r.game},
          {"rating", std::round(r.rating)},
          {"deviation", std::round(r.deviation)},
          {"games", r.games},
          {"provisional", r.deviation >= kProvisionalDeviation}};
}

}  // namespace

std::string rated_game(const std::string& variant) {
  return make_game(variant)->info().name;
}

void rate_game(Store& store, const GameRow& g) {
  if (!g.extra.value("rated", false) || g.status != "over") return;
  const auto south = south_points(g);
  std::int64_t ids[2];
  for (int i = 0; i < 2; ++i) {
    if (g.seats[i].value("kind", "") != "human") return;
    ids[i] = g.seats[i]["player"].get<std::int64_t>();
  }
  const std::string game = rated_game(g.variant);
  RatingRow before[2];
  for (int i = 0; i < 2; ++i) {
    before[i] = store.rating(ids[i], game).value_or(RatingRow{});
    before[i].player = ids[i];
    before[i].game = game;
  }
  std::vector<RatingRow> after;
  std::vector<RatingChange> changes;
  for (int i = 0; i < 2; ++i) {
    const RatingRow& me = before[i];
    const RatingRow& other = before[1 - i];
    const double score = i == 0 ? *south : 1 - *south;
    const auto r =
        play::glicko2_update({me.rating, me.deviation, me.volatility},
                             {{{other.rating, other.deviation, other.volatility}, score}});
    RatingRow next = me;
    next.rating = r.rating;
    next.deviation = r.deviation;
    next.volatility = r.volatility;
    ++next.games;
    after.push_back(next);
    changes.push_back({g.id, ids[i], game, ids[1 - i], score, me.rating, r.rating, r.deviation, 0});
  }
  store.record_ratings(after, changes);
}

json player_page(Store& store, std::int64_t id) {
  const auto p = store.player(id);
  if (!p) throw ApiError(404, "no player " + std::to_string(id));
  json ratings = json::array(), history = json::array(), games = json::array();
  for (const auto& r : store.ratings_of(id)) ratings.push_back(rating_view(r));
  for (const auto& c : store.rating_history(id, 100)) {
    const auto opponent = store.player(c.opponent);
    history.push_back({{"game_id", c.game_id},
                       {"game", c.game},
                       {"opponent", opponent ? opponent->name : ""},
                       {"opponent_id", c.opponent},
                       {"score", c.score},
                       {"before", std::round(c.before)},
                       {"after", std::round(c.after)},
                       {"deviation", std::round(c.deviation)},
                       {"at", c.at}});
  }
  for (const auto& g : store.games_of(id, 50)) {
    const int mine = g.seats[0].value("player", std::int64_t{-1}) == id ? 0 : 1;
    json item = {
        {"id", g.id},
        {"variant", g.variant},
        {"side", mine == 0 ? "south" : "north"},
        {"opponent", g.seats[1 - mine].value("name", "")},
        {"status", g.status},
        // A rated tournament's games against the computer stay casual.
        {"rated", g.extra.value("rated", false) && g.seats[1 - mine].value("kind", "") == "human"},
        {"created", g.created}};
    // The result from this player's side: "win", "draw", "loss", or null while played.
    const auto south = south_points(g);
    item["result"] = !south                         ? json(nullptr)
                     : *south == 0.5                ? json("draw")
                     : (*south == 1) == (mine == 0) ? json("win")
                                                    : json("loss");
    games.push_back(item);
  }
  return {{"id", p->id},
          {"name", p->name},
          {"ratings", ratings},
          {"history", history},
          {"games", games}};
}

json leaderboard(Store& store, const std::string& game) {
  json rows = json::array();
  int rank = 0;
  for (const auto& r : store.leaderboard(game, 100)) {
    json item = rating_view(r);
    item["rank"] = ++rank;
    item["player"] = r.player;
    item["name"] = r.name;
    rows.push_back(item);
  }
  return {{"game", game}, {"players", rows}};
}

}  // namespace naqala::server
