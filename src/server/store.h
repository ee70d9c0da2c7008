#pragma once
// The server's persistent store: SQLite in WAL mode. Every accepted move is committed here
// before any client hears of it, so a game survives a restart or a kill -9 mid-game.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace SQLite {
class Database;
}

namespace naqala::server {

struct PlayerRow {
  std::int64_t id = 0;
  std::string name;
};

struct MoveRow {
  int ply = 0;      // 1-based
  char side = 'S';  // 'S', 'N' or '*' (chance)
  std::string text;
  std::int64_t south_ms = 0, north_ms = 0;  // clocks after the ply
};

// Everything about one game but its moves. Seats and extras are JSON so that new fields need
// no migration.
struct GameRow {
  std::string id;
  std::string variant;  // canonical spec
  std::string start_position;
  nlohmann::json seats;    // [south, north], each {"kind":"human","player":id,"name":..} etc.
  std::string status;      // "waiting", "playing", "over"
  nlohmann::json outcome;  // null while playing, else {"winner","reason","scores","result"}
  nlohmann::json clock;    // {"initial_ms","increment_ms","cap_ms"} or null
  std::int64_t south_ms = 0, north_ms = 0;
  std::optional<std::int64_t> match_id;
  int match_game = 0;
  nlohmann::json extra;  // draw offers used, rematch/next game
  std::int64_t created = 0;
};

struct MatchRow {
  std::int64_t id = 0;
  int best_of = 1;
  std::string draw_rule;   // "half" (0.5 each) or "both_win" (Oware: a win for each player)
  nlohmann::json players;  // [seat A, seat B]: A is the match creator's seat
  double points_a = 0, points_b = 0;
  bool over = false;
};

// A tournament as stored (docs/server.md); its entrants and games are rows of their own.
struct TournamentRow {
  std::string id;
  std::string name;
  std::int64_t organiser = 0;             // a player id
  std::string variant;                    // canonical spec
  std::string format;                     // "roundrobin", "swiss", "knockout"
  int rounds = 0;                         // as asked; 0 = the format's default
  int games_per_pairing = 0;              // as asked; 0 = the format's default
  nlohmann::json clock;                   // as games store it, or null
  std::optional<std::int64_t> starts_at;  // ms since 1970 (UTC); nullopt = the organiser starts it
  std::string status;                     // "open", "playing", "over"
  nlohmann::json extra;                   // notes (why a start failed, ...)
  std::int64_t created = 0;
};

// A seat of a tournament: {"kind":"human","player":id,"name":..} or
// {"kind":"computer","level":n,"name":..}, as the games' seats.
struct EntrantRow {
  int seed = 0;  // 0-based, in the order of entry
  nlohmann::json seat;
};

struct TournamentGameRow {
  int round = 0, pairing = 0, game = 0;  // 1-based
  std::string game_id;
};

// Milliseconds since 1970 (UTC) now.
std::int64_t now_ms();

class Store {
 public:
  // Opens (creating if needed) and migrates the schema. ":memory:" works for tests.
  explicit Store(const std::string& path);
  ~Store();

  PlayerRow add_player(const std::string& name, const std::string& token_hash);
  std::optional<PlayerRow> player_by_token_hash(const std::string& token_hash);

  std::int64_t add_match(const MatchRow& m);
  void update_match(const MatchRow& m);
  std::optional<MatchRow> match(std::int64_t id);

  void add_game(const GameRow& g);
  void update_game(const GameRow& g);
  // Appends plies and updates the game row in one transaction.
  void commit_plies(const GameRow& g, const std::vector<MoveRow>& plies);
  std::optional<GameRow> game(const std::string& id);
  std::vector<MoveRow> moves(const std::string& game_id);
  // Games not over, oldest first: reloaded at start-up.
  std::vector<std::string> unfinished_games();
  std::vector<GameRow> recent_games(int limit);

  int schema_version();

  // Tournaments (store_tournaments.cpp).
  void add_tournament(const TournamentRow& t);
  void update_tournament(const TournamentRow& t);  // status and extra
  std::optional<TournamentRow> tournament(const std::string& id);
  std::vector<TournamentRow> recent_tournaments(int limit);
  std::vector<std::string> tournaments_with_status(const std::string& status);
  // Adds the entrant at the next seed and returns it.
  EntrantRow add_entrant(const std::string& tournament_id, const nlohmann::json& seat);
  std::vector<EntrantRow> entrants(const std::string& tournament_id);
  void add_tournament_game(const std::string& tournament_id, const TournamentGameRow& g);
  std::vector<TournamentGameRow> tournament_games(const std::string& tournament_id);

 private:
  void migrate();
  std::unique_ptr<SQLite::Database> db_;
};

}  // namespace naqala::server
