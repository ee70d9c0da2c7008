// The store's rating tables (schema in store.cpp, migration 4) and players' pages.
#include <SQLiteCpp/SQLiteCpp.h>

#include "server/store.h"

namespace naqala::server {

namespace {

constexpr const char* kRatingSelect =
    "SELECT r.player_id, p.name, r.game, r.rating, r.deviation, r.volatility, r.games "
    "FROM ratings r JOIN players p ON p.id=r.player_id ";

RatingRow read_rating(SQLite::Statement& q) {
  return {q.getColumn(0).getInt64(),  q.getColumn(1).getString(), q.getColumn(2).getString(),
          q.getColumn(3).getDouble(), q.getColumn(4).getDouble(), q.getColumn(5).getDouble(),
          q.getColumn(6).getInt()};
}

}  // namespace

std::optional<PlayerRow> Store::player(std::int64_t id) {
  SQLite::Statement q(*db_, "SELECT id, name FROM players WHERE id=?");
  q.bind(1, static_cast<int64_t>(id));
  if (!q.executeStep()) return std::nullopt;
  return PlayerRow{q.getColumn(0).getInt64(), q.getColumn(1).getString()};
}

std::optional<RatingRow> Store::rating(std::int64_t player, const std::string& game) {
  SQLite::Statement q(*db_, std::string(kRatingSelect) + "WHERE r.player_id=? AND r.game=?");
  q.bind(1, static_cast<int64_t>(player));
  q.bind(2, game);
  if (!q.executeStep()) return std::nullopt;
  return read_rating(q);
}

bool Store::record_ratings(const std::vector<RatingRow>& ratings,
                           const std::vector<RatingChange>& changes) {
  SQLite::Transaction t(*db_);
  SQLite::Statement change(*db_,
                           "INSERT OR IGNORE INTO rating_changes(game_id, player_id, game, "
                           "opponent, score, before, after, deviation, at) "
                           "VALUES(?,?,?,?,?,?,?,?,?)");
  for (const auto& c : changes) {
    change.bind(1, c.game_id);
    change.bind(2, static_cast<int64_t>(c.player));
    change.bind(3, c.game);
    change.bind(4, static_cast<int64_t>(c.opponent));
    change.bind(5, c.score);
    change.bind(6, c.before);
    change.bind(7, c.after);
    change.bind(8, c.deviation);
    change.bind(9, static_cast<int64_t>(c.at ? c.at : now_ms()));
    if (change.exec() == 0) return false;  // rated already: the transaction rolls back
    change.reset();
  }
  SQLite::Statement q(*db_,
                      "INSERT INTO ratings(player_id, game, rating, deviation, volatility, games) "
                      "VALUES(?,?,?,?,?,?) ON CONFLICT(player_id, game) DO UPDATE SET "
                      "rating=excluded.rating, deviation=excluded.deviation, "
                      "volatility=excluded.volatility, games=excluded.games");
  for (const auto& r : ratings) {
    q.bind(1, static_cast<int64_t>(r.player));
    q.bind(2, r.game);
    q.bind(3, r.rating);
    q.bind(4, r.deviation);
    q.bind(5, r.volatility);
    q.bind(6, r.games);
    q.exec();
    q.reset();
  }
  t.commit();
  return true;
}

std::vector<RatingRow> Store::ratings_of(std::int64_t player) {
  SQLite::Statement q(*db_, std::string(kRatingSelect) + "WHERE r.player_id=? ORDER BY r.game");
  q.bind(1, static_cast<int64_t>(player));
  std::vector<RatingRow> out;
  while (q.executeStep()) out.push_back(read_rating(q));
  return out;
}

std::vector<RatingRow> Store::leaderboard(const std::string& game, int limit) {
  SQLite::Statement q(*db_, std::string(kRatingSelect) +
                                "WHERE r.game=? ORDER BY r.rating DESC, r.deviation LIMIT ?");
  q.bind(1, game);
  q.bind(2, limit);
  std::vector<RatingRow> out;
  while (q.executeStep()) out.push_back(read_rating(q));
  return out;
}

std::vector<RatingChange> Store::rating_history(std::int64_t player, int limit) {
  SQLite::Statement q(*db_,
                      "SELECT game_id, player_id, game, opponent, score, before, after, "
                      "deviation, at FROM rating_changes WHERE player_id=? "
                      "ORDER BY at DESC, rowid DESC LIMIT ?");
  q.bind(1, static_cast<int64_t>(player));
  q.bind(2, limit);
  std::vector<RatingChange> out;
  while (q.executeStep())
    out.push_back(
        {q.getColumn(0).getString(), q.getColumn(1).getInt64(), q.getColumn(2).getString(),
         q.getColumn(3).getInt64(), q.getColumn(4).getDouble(), q.getColumn(5).getDouble(),
         q.getColumn(6).getDouble(), q.getColumn(7).getDouble(), q.getColumn(8).getInt64()});
  return out;
}

}  // namespace naqala::server
