// The store's account tables (schema in store.cpp, migration 3).
#include <SQLiteCpp/SQLiteCpp.h>

#include "server/passwords.h"
#include "server/store.h"

namespace naqala::server {

namespace {

std::optional<LoginRow> read_login(SQLite::Statement& q) {
  if (!q.executeStep()) return std::nullopt;
  return LoginRow{{q.getColumn(0).getInt64(), q.getColumn(1).getString()},
                  q.getColumn(2).getString()};
}

}  // namespace

std::optional<LoginRow> Store::login_by_name(const std::string& name_key) {
  SQLite::Statement q(*db_,
                      "SELECT p.id, p.name, l.password_hash FROM logins l "
                      "JOIN players p ON p.id=l.player_id WHERE l.name_key=?");
  q.bind(1, name_key);
  return read_login(q);
}

std::optional<LoginRow> Store::login_of(std::int64_t player_id) {
  SQLite::Statement q(*db_,
                      "SELECT p.id, p.name, l.password_hash FROM logins l "
                      "JOIN players p ON p.id=l.player_id WHERE l.player_id=?");
  q.bind(1, static_cast<int64_t>(player_id));
  return read_login(q);
}

bool Store::set_login(std::int64_t player_id, const std::string& name_key,
                      const std::string& password_hash) {
  if (auto other = login_by_name(name_key); other && other->player.id != player_id) return false;
  SQLite::Statement q(*db_,
                      "INSERT INTO logins(player_id, name_key, password_hash) VALUES(?,?,?) "
                      "ON CONFLICT(player_id) DO UPDATE SET name_key=excluded.name_key, "
                      "password_hash=excluded.password_hash");
  q.bind(1, static_cast<int64_t>(player_id));
  q.bind(2, name_key);
  q.bind(3, password_hash);
  q.exec();
  return true;
}

void Store::add_token(std::int64_t player_id, const std::string& token_hash) {
  SQLite::Statement q(*db_, "INSERT INTO tokens(token_hash, player_id, created) VALUES(?,?,?)");
  q.bind(1, token_hash);
  q.bind(2, static_cast<int64_t>(player_id));
  q.bind(3, static_cast<int64_t>(now_ms()));
  q.exec();
}

std::vector<std::string> Store::revoke_tokens(std::int64_t player_id, const std::string& token_hash,
                                              bool others) {
  SQLite::Transaction t(*db_);
  std::vector<std::string> revoked;
  SQLite::Statement q(*db_,
                      "SELECT token_hash FROM players WHERE id=?1 UNION ALL "
                      "SELECT token_hash FROM tokens WHERE player_id=?1");
  q.bind(1, static_cast<int64_t>(player_id));
  while (q.executeStep()) {
    std::string h = q.getColumn(0).getString();
    if ((h == token_hash) != others && !h.starts_with("revoked:")) revoked.push_back(std::move(h));
  }
  for (const auto& h : revoked) {
    SQLite::Statement del(*db_, "DELETE FROM tokens WHERE token_hash=? AND player_id=?");
    del.bind(1, h);
    del.bind(2, static_cast<int64_t>(player_id));
    if (del.exec() > 0) continue;
    // Not hex, so no token's hash is ever equal to it; random, as the column is unique.
    SQLite::Statement first(*db_, "UPDATE players SET token_hash=? WHERE id=? AND token_hash=?");
    first.bind(1, "revoked:" + fresh_token());
    first.bind(2, static_cast<int64_t>(player_id));
    first.bind(3, h);
    first.exec();
  }
  t.commit();
  return revoked;
}

}  // namespace naqala::server
