// The store's tournament tables (schema in store.cpp, migration 2).
#include <SQLiteCpp/SQLiteCpp.h>

#include "core/json_text.h"
#include "server/store.h"

namespace naqala::server {

namespace {

constexpr const char* kTournamentColumns =
    "id, name, organiser, variant, format, rounds, games_per_pairing, clock, starts_at, status, "
    "extra, created";

TournamentRow read_tournament(SQLite::Statement& q) {
  TournamentRow t;
  t.id = q.getColumn(0).getString();
  t.name = q.getColumn(1).getString();
  t.organiser = q.getColumn(2).getInt64();
  t.variant = q.getColumn(3).getString();
  t.format = q.getColumn(4).getString();
  t.rounds = q.getColumn(5).getInt();
  t.games_per_pairing = q.getColumn(6).getInt();
  t.clock = nlohmann::json::parse(q.getColumn(7).getString());
  if (!q.getColumn(8).isNull()) t.starts_at = q.getColumn(8).getInt64();
  t.status = q.getColumn(9).getString();
  t.extra = nlohmann::json::parse(q.getColumn(10).getString());
  t.created = q.getColumn(11).getInt64();
  return t;
}

}  // namespace

void Store::add_tournament(const TournamentRow& t) {
  SQLite::Statement q(*db_, std::string("INSERT INTO tournaments(") + kTournamentColumns +
                                ") VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
  q.bind(1, t.id);
  q.bind(2, t.name);
  q.bind(3, static_cast<int64_t>(t.organiser));
  q.bind(4, t.variant);
  q.bind(5, t.format);
  q.bind(6, t.rounds);
  q.bind(7, t.games_per_pairing);
  q.bind(8, json_text(t.clock));
  if (t.starts_at)
    q.bind(9, static_cast<int64_t>(*t.starts_at));
  else
    q.bind(9);
  q.bind(10, t.status);
  q.bind(11, json_text(t.extra));
  q.bind(12, static_cast<int64_t>(t.created ? t.created : now_ms()));
  q.exec();
}

void Store::update_tournament(const TournamentRow& t) {
  SQLite::Statement q(*db_, "UPDATE tournaments SET status=?, extra=? WHERE id=?");
  q.bind(1, t.status);
  q.bind(2, json_text(t.extra));
  q.bind(3, t.id);
  q.exec();
}

std::optional<TournamentRow> Store::tournament(const std::string& id) {
  SQLite::Statement q(*db_,
                      std::string("SELECT ") + kTournamentColumns + " FROM tournaments WHERE id=?");
  q.bind(1, id);
  if (!q.executeStep()) return std::nullopt;
  return read_tournament(q);
}

std::vector<TournamentRow> Store::recent_tournaments(int limit) {
  SQLite::Statement q(*db_, std::string("SELECT ") + kTournamentColumns +
                                " FROM tournaments ORDER BY created DESC LIMIT ?");
  q.bind(1, limit);
  std::vector<TournamentRow> out;
  while (q.executeStep()) out.push_back(read_tournament(q));
  return out;
}

std::vector<std::string> Store::tournaments_with_status(const std::string& status) {
  SQLite::Statement q(*db_, "SELECT id FROM tournaments WHERE status=? ORDER BY created");
  q.bind(1, status);
  std::vector<std::string> out;
  while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  return out;
}

EntrantRow Store::add_entrant(const std::string& tournament_id, const nlohmann::json& seat) {
  SQLite::Transaction t(*db_);
  SQLite::Statement count(*db_, "SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id=?");
  count.bind(1, tournament_id);
  count.executeStep();
  const int seed = count.getColumn(0).getInt();
  SQLite::Statement q(*db_,
                      "INSERT INTO tournament_entrants(tournament_id, seed, seat) VALUES(?,?,?)");
  q.bind(1, tournament_id);
  q.bind(2, seed);
  q.bind(3, json_text(seat));
  q.exec();
  t.commit();
  return {seed, seat};
}

std::vector<EntrantRow> Store::entrants(const std::string& tournament_id) {
  SQLite::Statement q(
      *db_, "SELECT seed, seat FROM tournament_entrants WHERE tournament_id=? ORDER BY seed");
  q.bind(1, tournament_id);
  std::vector<EntrantRow> out;
  while (q.executeStep())
    out.push_back({q.getColumn(0).getInt(), nlohmann::json::parse(q.getColumn(1).getString())});
  return out;
}

void Store::add_tournament_game(const std::string& tournament_id, const TournamentGameRow& g) {
  SQLite::Statement q(*db_,
                      "INSERT INTO tournament_games(tournament_id, round, pairing, game, game_id) "
                      "VALUES(?,?,?,?,?)");
  q.bind(1, tournament_id);
  q.bind(2, g.round);
  q.bind(3, g.pairing);
  q.bind(4, g.game);
  q.bind(5, g.game_id);
  q.exec();
}

std::vector<TournamentGameRow> Store::tournament_games(const std::string& tournament_id) {
  SQLite::Statement q(*db_,
                      "SELECT round, pairing, game, game_id FROM tournament_games "
                      "WHERE tournament_id=? ORDER BY round, pairing, game");
  q.bind(1, tournament_id);
  std::vector<TournamentGameRow> out;
  while (q.executeStep())
    out.push_back({q.getColumn(0).getInt(), q.getColumn(1).getInt(), q.getColumn(2).getInt(),
                   q.getColumn(3).getString()});
  return out;
}

}  // namespace naqala::server
