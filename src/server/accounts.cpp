#include "server/accounts.h"

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

SlowRequest Accounts::sign_in(const json& body) {
  if (!body.is_object())
    throw ApiError(400, "the body must be a JSON object {\"name\": ..., \"password\": ...}");
  const std::string name = text_field(body, "name");
  const std::string password = text_field(body, "password");
  auto login = store_.login_by_name(name_key(name));
  if (password.size() > 128) throw ApiError(400, "a password has 8 to 128 characters");
  auto ok = std::make_shared<bool>(false);
  const std::string hash = login ? login->password_hash : "";
  return {[hash, password, ok] {
            // An unknown name costs the time of a wrong password: the answer tells no more.
            static const std::string nobody = hash_password("nobody's password");
            *ok = verify_password(hash.empty() ? nobody : hash, password) && !hash.empty();
          },
          [this, login, ok] {
            if (!login || !*ok) throw ApiError(401, "wrong name or password");
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
          [this, me, hash, current_ok] {
            if (!*current_ok) throw ApiError(401, "the current password is wrong");
            if (!store_.set_login(me.id, name_key(me.name), *hash)) taken(me.name);
            return json{{"id", me.id}, {"name", me.name}, {"account", true}};
          }};
}

}  // namespace naqala::server
