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

// A player with a password: sign-in finds him by his name's key (passwords.h, name_key).
struct LoginRow {
  PlayerRow player;
  std::string password_hash;
};

// A player's Glicko-2 rating in one game (a preset: "kalah", "oware", ...).
struct RatingRow {
  std::int64_t player = 0;
  std::string name;  // the player's
  std::string game;
  double rating = 1500, deviation = 350, volatility = 0.06;
  int games = 0;
};

// What one rated game did to one player's rating.
struct RatingChange {
  std::string game_id;
  std::int64_t player = 0;
  std::string game;
  std::int64_t opponent = 0;
  double score = 0;  // 1, 0.5, 0
  double before = 0, after = 0, deviation = 0;
  std::int64_t at = 0;
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

  // Accounts (store_accounts.cpp).
  std::optional<LoginRow> login_by_name(const std::string& name_key);
  std::optional<LoginRow> login_of(std::int64_t player_id);
  // Sets (or replaces) the player's password; false when another player's account has that
  // name key.
  bool set_login(std::int64_t player_id, const std::string& name_key,
                 const std::string& password_hash);
  void add_token(std::int64_t player_id, const std::string& token_hash);
  // Signs tokens of the player out: the one hashed `token_hash` (`others` false), or every one
  // but it (true). Returns the hashes signed out. The token the player was made with cannot be
  // deleted (players.token_hash): it is replaced by a value no token hashes to.
  std::vector<std::string> revoke_tokens(std::int64_t player_id, const std::string& token_hash,
                                         bool others);

  // Ratings and players' pages (store_ratings.cpp).
  std::optional<PlayerRow> player(std::int64_t id);
  std::optional<RatingRow> rating(std::int64_t player, const std::string& game);
  // Both players' new ratings and their changes, in one transaction; false (and nothing
  // written) when the game was rated already.
  bool record_ratings(const std::vector<RatingRow>& ratings,
                      const std::vector<RatingChange>& changes);
  std::vector<RatingRow> ratings_of(std::int64_t player);
  std::vector<RatingRow> leaderboard(const std::string& game, int limit);
  std::vector<RatingChange> rating_history(std::int64_t player, int limit);
  std::vector<GameRow> games_of(std::int64_t player, int limit);

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
