#include "server/store.h"

#include <SQLiteCpp/SQLiteCpp.h>

#include <chrono>

#include "core/json_text.h"

namespace naqala::server {

namespace {

// Each entry moves the schema one version up; never edit a shipped entry, append a new one.
const char* const kMigrations[] = {
    R"sql(
CREATE TABLE players (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created INTEGER NOT NULL
);
CREATE TABLE matches (
  id INTEGER PRIMARY KEY,
  best_of INTEGER NOT NULL,
  draw_rule TEXT NOT NULL,
  players TEXT NOT NULL,
  points_a REAL NOT NULL DEFAULT 0,
  points_b REAL NOT NULL DEFAULT 0,
  over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  variant TEXT NOT NULL,
  start_position TEXT NOT NULL,
  seats TEXT NOT NULL,
  status TEXT NOT NULL,
  outcome TEXT NOT NULL,
  clock TEXT NOT NULL,
  south_ms INTEGER NOT NULL,
  north_ms INTEGER NOT NULL,
  match_id INTEGER REFERENCES matches(id),
  match_game INTEGER NOT NULL DEFAULT 0,
  extra TEXT NOT NULL,
  created INTEGER NOT NULL
);
CREATE INDEX games_status ON games(status);
CREATE TABLE moves (
  game_id TEXT NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  side TEXT NOT NULL,
  text TEXT NOT NULL,
  south_ms INTEGER NOT NULL,
  north_ms INTEGER NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)
);
)sql",
    // Tournaments (docs/server.md): the settings, the entrants by seed, and the game played in
    // each slot. Results live in the games themselves.
    R"sql(
CREATE TABLE tournaments (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  organiser INTEGER NOT NULL REFERENCES players(id),
  variant TEXT NOT NULL,
  format TEXT NOT NULL,
  rounds INTEGER NOT NULL,
  games_per_pairing INTEGER NOT NULL,
  clock TEXT NOT NULL,
  starts_at INTEGER,
  status TEXT NOT NULL,
  extra TEXT NOT NULL,
  created INTEGER NOT NULL
);
CREATE INDEX tournaments_status ON tournaments(status);
CREATE TABLE tournament_entrants (
  tournament_id TEXT NOT NULL REFERENCES tournaments(id),
  seed INTEGER NOT NULL,
  seat TEXT NOT NULL,
  PRIMARY KEY (tournament_id, seed)
);
CREATE TABLE tournament_games (
  tournament_id TEXT NOT NULL REFERENCES tournaments(id),
  round INTEGER NOT NULL,
  pairing INTEGER NOT NULL,
  game INTEGER NOT NULL,
  game_id TEXT NOT NULL,
  PRIMARY KEY (tournament_id, round, pairing, game)
);
)sql",
    // Accounts (docs/server.md): a password (an Argon2id hash) lets a player sign in by name
    // from another browser, which gets a token of its own.
    R"sql(
CREATE TABLE logins (
  player_id INTEGER PRIMARY KEY REFERENCES players(id),
  name_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL
);
CREATE TABLE tokens (
  token_hash TEXT PRIMARY KEY,
  player_id INTEGER NOT NULL REFERENCES players(id),
  created INTEGER NOT NULL
);
)sql",
    // Ratings (docs/server.md): Glicko-2 per player and game, and each rated game's change.
    R"sql(
CREATE TABLE ratings (
  player_id INTEGER NOT NULL REFERENCES players(id),
  game TEXT NOT NULL,
  rating REAL NOT NULL,
  deviation REAL NOT NULL,
  volatility REAL NOT NULL,
  games INTEGER NOT NULL,
  PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_game ON ratings(game, rating);
CREATE TABLE rating_changes (
  game_id TEXT NOT NULL REFERENCES games(id),
  player_id INTEGER NOT NULL REFERENCES players(id),
  game TEXT NOT NULL,
  opponent INTEGER NOT NULL,
  score REAL NOT NULL,
  before REAL NOT NULL,
  after REAL NOT NULL,
  deviation REAL NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_changes_player ON rating_changes(player_id, at);
)sql",
};

}  // namespace

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

GameRow read_game(SQLite::Statement& q) {
  GameRow g;
  g.id = q.getColumn(0).getString();
  g.variant = q.getColumn(1).getString();
  g.start_position = q.getColumn(2).getString();
  g.seats = nlohmann::json::parse(q.getColumn(3).getString());
  g.status = q.getColumn(4).getString();
  g.outcome = nlohmann::json::parse(q.getColumn(5).getString());
  g.clock = nlohmann::json::parse(q.getColumn(6).getString());
  g.south_ms = q.getColumn(7).getInt64();
  g.north_ms = q.getColumn(8).getInt64();
  if (!q.getColumn(9).isNull()) g.match_id = q.getColumn(9).getInt64();
  g.match_game = q.getColumn(10).getInt();
  g.extra = nlohmann::json::parse(q.getColumn(11).getString());
  g.created = q.getColumn(12).getInt64();
  return g;
}

constexpr const char* kGameColumns =
    "id, variant, start_position, seats, status, outcome, clock, south_ms, north_ms, match_id, "
    "match_game, extra, created";

}  // namespace

Store::Store(const std::string& path)
    : db_(std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE)) {
  db_->exec("PRAGMA journal_mode=WAL");
  // NORMAL in WAL mode: a committed transaction survives a killed process (kill -9); only a
  // power cut may lose the last commits. FULL would fsync every move.
  db_->exec("PRAGMA synchronous=NORMAL");
  db_->exec("PRAGMA foreign_keys=ON");
  db_->setBusyTimeout(5000);
  migrate();
}

Store::~Store() = default;

int Store::schema_version() {
  return db_->execAndGet("PRAGMA user_version").getInt();
}

void Store::migrate() {
  const int have = schema_version();
  const int want = static_cast<int>(std::size(kMigrations));
  for (int v = have; v < want; ++v) {
    SQLite::Transaction t(*db_);
    db_->exec(kMigrations[v]);
    db_->exec("PRAGMA user_version=" + std::to_string(v + 1));
    t.commit();
  }
}

PlayerRow Store::add_player(const std::string& name, const std::string& token_hash) {
  SQLite::Statement q(*db_, "INSERT INTO players(name, token_hash, created) VALUES(?,?,?)");
  q.bind(1, name);
  q.bind(2, token_hash);
  q.bind(3, static_cast<int64_t>(now_ms()));
  q.exec();
  return {db_->getLastInsertRowid(), name};
}

std::optional<PlayerRow> Store::player_by_token_hash(const std::string& token_hash) {
  // The token made with the player, or one a sign-in gave.
  SQLite::Statement q(*db_,
                      "SELECT id, name FROM players WHERE token_hash=?1 UNION ALL "
                      "SELECT p.id, p.name FROM tokens t JOIN players p ON p.id=t.player_id "
                      "WHERE t.token_hash=?1");
  q.bind(1, token_hash);
  if (!q.executeStep()) return std::nullopt;
  return PlayerRow{q.getColumn(0).getInt64(), q.getColumn(1).getString()};
}

std::int64_t Store::add_match(const MatchRow& m) {
  SQLite::Statement q(*db_, "INSERT INTO matches(best_of, draw_rule, players) VALUES(?,?,?)");
  q.bind(1, m.best_of);
  q.bind(2, m.draw_rule);
  q.bind(3, json_text(m.players));
  q.exec();
  return db_->getLastInsertRowid();
}

void Store::update_match(const MatchRow& m) {
  SQLite::Statement q(*db_,
                      "UPDATE matches SET points_a=?, points_b=?, over=?, players=? WHERE id=?");
  q.bind(1, m.points_a);
  q.bind(2, m.points_b);
  q.bind(3, m.over ? 1 : 0);
  q.bind(4, json_text(m.players));
  q.bind(5, static_cast<int64_t>(m.id));
  q.exec();
}

std::optional<MatchRow> Store::match(std::int64_t id) {
  SQLite::Statement q(
      *db_,
      "SELECT id, best_of, draw_rule, players, points_a, points_b, over FROM matches WHERE id=?");
  q.bind(1, static_cast<int64_t>(id));
  if (!q.executeStep()) return std::nullopt;
  MatchRow m;
  m.id = q.getColumn(0).getInt64();
  m.best_of = q.getColumn(1).getInt();
  m.draw_rule = q.getColumn(2).getString();
  m.players = nlohmann::json::parse(q.getColumn(3).getString());
  m.points_a = q.getColumn(4).getDouble();
  m.points_b = q.getColumn(5).getDouble();
  m.over = q.getColumn(6).getInt() != 0;
  return m;
}

void Store::add_game(const GameRow& g) {
  SQLite::Statement q(*db_, std::string("INSERT INTO games(") + kGameColumns +
                                ") VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)");
  q.bind(1, g.id);
  q.bind(2, g.variant);
  q.bind(3, g.start_position);
  q.bind(4, json_text(g.seats));
  q.bind(5, g.status);
  q.bind(6, json_text(g.outcome));
  q.bind(7, json_text(g.clock));
  q.bind(8, static_cast<int64_t>(g.south_ms));
  q.bind(9, static_cast<int64_t>(g.north_ms));
  if (g.match_id)
    q.bind(10, static_cast<int64_t>(*g.match_id));
  else
    q.bind(10);
  q.bind(11, g.match_game);
  q.bind(12, json_text(g.extra));
  q.bind(13, static_cast<int64_t>(g.created ? g.created : now_ms()));
  q.exec();
}

void Store::update_game(const GameRow& g) {
  SQLite::Statement q(
      *db_,
      "UPDATE games SET seats=?, status=?, outcome=?, south_ms=?, north_ms=?, extra=? "
      "WHERE id=?");
  q.bind(1, json_text(g.seats));
  q.bind(2, g.status);
  q.bind(3, json_text(g.outcome));
  q.bind(4, static_cast<int64_t>(g.south_ms));
  q.bind(5, static_cast<int64_t>(g.north_ms));
  q.bind(6, json_text(g.extra));
  q.bind(7, g.id);
  q.exec();
}

void Store::commit_plies(const GameRow& g, const std::vector<MoveRow>& plies) {
  SQLite::Transaction t(*db_);
  SQLite::Statement q(*db_,
                      "INSERT INTO moves(game_id, ply, side, text, south_ms, north_ms, at) "
                      "VALUES(?,?,?,?,?,?,?)");
  const auto at = now_ms();
  for (const auto& m : plies) {
    q.bind(1, g.id);
    q.bind(2, m.ply);
    q.bind(3, std::string(1, m.side));
    q.bind(4, m.text);
    q.bind(5, static_cast<int64_t>(m.south_ms));
    q.bind(6, static_cast<int64_t>(m.north_ms));
    q.bind(7, static_cast<int64_t>(at));
    q.exec();
    q.reset();
  }
  update_game(g);
  t.commit();
}

std::optional<GameRow> Store::game(const std::string& id) {
  SQLite::Statement q(*db_, std::string("SELECT ") + kGameColumns + " FROM games WHERE id=?");
  q.bind(1, id);
  if (!q.executeStep()) return std::nullopt;
  return read_game(q);
}

std::vector<MoveRow> Store::moves(const std::string& game_id) {
  SQLite::Statement q(
      *db_, "SELECT ply, side, text, south_ms, north_ms FROM moves WHERE game_id=? ORDER BY ply");
  q.bind(1, game_id);
  std::vector<MoveRow> out;
  while (q.executeStep()) {
    MoveRow m;
    m.ply = q.getColumn(0).getInt();
    const std::string side = q.getColumn(1).getString();
    m.side = side.empty() ? '?' : side[0];
    m.text = q.getColumn(2).getString();
    m.south_ms = q.getColumn(3).getInt64();
    m.north_ms = q.getColumn(4).getInt64();
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<std::string> Store::unfinished_games() {
  SQLite::Statement q(*db_, "SELECT id FROM games WHERE status != 'over' ORDER BY created");
  std::vector<std::string> out;
  while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  return out;
}

std::vector<GameRow> Store::games_of(std::int64_t player, int limit) {
  SQLite::Statement q(*db_, std::string("SELECT ") + kGameColumns +
                                " FROM games WHERE json_extract(seats, '$[0].player')=?1 OR "
                                "json_extract(seats, '$[1].player')=?1 ORDER BY created DESC "
                                "LIMIT ?2");
  q.bind(1, static_cast<int64_t>(player));
  q.bind(2, limit);
  std::vector<GameRow> out;
  while (q.executeStep()) out.push_back(read_game(q));
  return out;
}

std::vector<GameRow> Store::recent_games(int limit) {
  SQLite::Statement q(
      *db_, std::string("SELECT ") + kGameColumns + " FROM games ORDER BY created DESC LIMIT ?");
  q.bind(1, limit);
  std::vector<GameRow> out;
  while (q.executeStep()) out.push_back(read_game(q));
  return out;
}

}  // namespace naqala::server
