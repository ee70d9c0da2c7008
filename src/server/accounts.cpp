#include "server/accounts.h"

#include <algorithm>
#include <memory>

#include "server/fields.h"
#include "server/passwords.h"

namespace naqala::server {

using json = nlohmann::json;

namespace {

[[noreturn]] void taken(const std::string& name) {
  throw ApiError(409, "the name '" + name +
                          "' belongs to an account already: sign in with its password, or "
                          "choose another name");
}

}  // namespace

SlowRequest Accounts::create(const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object {\"name\": \"...\"}");
  const std::string name = display_name_field(body);
  auto password = std::make_shared<std::string>(text_field(body, "password"));
  check_password(*password);
  if (store_.login_by_name(name_key(name))) taken(name);
  auto hash = std::make_shared<std::string>();
  return {[password, hash] { *hash = hash_password(*password); },
          [this, name, hash] {
            const std::string token = fresh_token();
            if (store_.login_by_name(name_key(name))) taken(name);  // while it was hashed
            const PlayerRow p = store_.add_player(name, token_hash(token));
            store_.set_login(p.id, name_key(name), *hash);
            return json{{"id", p.id}, {"name", p.name}, {"token", token}, {"account", true}};
          }};
}

void Accounts::check_not_locked(const std::string& key) {
  const auto it = misses_.find(key);
  if (it == misses_.end()) return;
  const std::int64_t wait_ms = it->second.until_ms - now_ms();
  if (wait_ms > 0)
    throw ApiError(429, "too many wrong passwords for this name: try again in " +
                            std::to_string((wait_ms + 999) / 1000) + " s");
}

void Accounts::record_miss(const std::string& key) {
  constexpr std::size_t kMaxNames = 10000;
  if (misses_.size() >= kMaxNames && !misses_.count(key)) {
    std::erase_if(misses_, [now = now_ms()](const auto& m) { return m.second.until_ms <= now; });
    if (misses_.size() >= kMaxNames) misses_.clear();  // a flood of names: forget, stay bounded
  }
  Misses& m = misses_[key];
  if (++m.count < kFreeGuesses) return;
  const int doublings = std::min(m.count - kFreeGuesses, 4);  // 1, 2, 4, 8, then 15 minutes
  m.until_ms = now_ms() + std::min<std::int64_t>(60'000LL << doublings, 15 * 60'000LL);
}

SlowRequest Accounts::sign_in(const json& body) {
  if (!body.is_object())
    throw ApiError(400, "the body must be a JSON object {\"name\": ..., \"password\": ...}");
  const std::string name = text_field(body, "name");
  const std::string password = text_field(body, "password");
  const std::string key = name_key(name);
  check_not_locked(key);
  auto login = store_.login_by_name(key);
  if (password.size() > 128) throw ApiError(400, "a password has 8 to 128 characters");
  auto ok = std::make_shared<bool>(false);
  const std::string hash = login ? login->password_hash : "";
  return {[hash, password, ok] {
            // An unknown name costs the time of a wrong password: the answer tells no more.
            static const std::string nobody = hash_password("nobody's password");
            *ok = verify_password(hash.empty() ? nobody : hash, password) && !hash.empty();
          },
          [this, login, ok, key] {
            if (!login || !*ok) {
              record_miss(key);
              throw ApiError(401, "wrong name or password");
            }
            misses_.erase(key);
            const std::string token = fresh_token();
            store_.add_token(login->player.id, token_hash(token));
            return json{{"id", login->player.id},
                        {"name", login->player.name},
                        {"token", token},
                        {"account", true}};
          }};
}

SlowRequest Accounts::set_password(const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  const PlayerRow me = hub_.require_player(body);
  const std::string password = text_field(body, "password");
  check_password(password);
  const auto login = store_.login_of(me.id);
  const std::string current = text_field(body, "current_password", login.has_value());
  if (auto other = store_.login_by_name(name_key(me.name)); other && other->player.id != me.id)
    taken(me.name);
  auto hash = std::make_shared<std::string>();
  auto current_ok = std::make_shared<bool>(true);
  return {[login, current, password, hash, current_ok] {
            if (login) *current_ok = verify_password(login->password_hash, current);
            if (*current_ok) *hash = hash_password(password);
          },
          [this, me, hash, current_ok, changed = login.has_value(),
           mine = token_hash(text_field(body, "token"))] {
            if (!*current_ok) throw ApiError(401, "the current password is wrong");
            if (!store_.set_login(me.id, name_key(me.name), *hash)) taken(me.name);
            // A changed password signs every other browser out: whoever knew the old one is
            // out too.
            std::size_t out = 0;
            if (changed) {
              const auto revoked = store_.revoke_tokens(me.id, mine, true);
              hub_.signed_out(revoked);
              out = revoked.size();
            }
            return json{{"id", me.id}, {"name", me.name}, {"account", true}, {"signed_out", out}};
          }};
}

json Accounts::sign_out(const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  const PlayerRow me = hub_.require_player(body);
  bool others = false;
  if (body.contains("others")) {
    if (!body["others"].is_boolean())
      throw ApiError(400, "field \"others\" is true (every other browser) or false (this one)");
    others = body["others"].get<bool>();
  }
  if (!others && !store_.login_of(me.id))
    throw ApiError(409,
                   "this player has no password, so this browser is the only way to him: "
                   "signing out would lose him for good; add a password first");
  const auto revoked = store_.revoke_tokens(me.id, token_hash(text_field(body, "token")), others);
  hub_.signed_out(revoked);
  return json{{"id", me.id}, {"signed_out", revoked.size()}};
}

}  // namespace naqala::server
