#pragma once
// Accounts (docs/server.md): a player made without a password plays as before, with the token
// his browser keeps; a password (at creation, or added later) lets him sign in by name from
// another browser, which gets a token of its own. Hashing a password takes a few tenths of a
// second, so each request comes as a SlowRequest: its work runs off the network thread, its
// finish (the store, the reply) back on it.
#include <functional>
#include <nlohmann/json.hpp>

#include "server/hub.h"
#include "server/store.h"

namespace naqala::server {

struct SlowRequest {
  std::function<void()> work;              // off the network thread; touches only its captures
  std::function<nlohmann::json()> finish;  // on it: the reply body, or throws ApiError
};

class Accounts {
 public:
  Accounts(Store& store, Hub& hub) : store_(store), hub_(hub) {}

  // POST /api/players with a "password": a player with an account.
  SlowRequest create(const nlohmann::json& body);
  // POST /api/players/signin {"name", "password"}: a new token for this browser.
  SlowRequest sign_in(const nlohmann::json& body);
  // POST /api/players/password {"token", "password", "current_password"}: adds (or changes)
  // the password of the token's player.
  SlowRequest set_password(const nlohmann::json& body);

 private:
  Store& store_;
  Hub& hub_;
};

}  // namespace naqala::server
