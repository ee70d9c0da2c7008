#pragma once
// Accounts (docs/server.md): a player made without a password plays as before, with the token
// his browser keeps; a password (at creation, or added later) lets him sign in by name from
// another browser, which gets a token of its own. Hashing a password takes a few tenths of a
// second, so each request comes as a SlowRequest: its work runs off the network thread, its
// finish (the store, the reply) back on it.
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

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
  // POST /api/players/signout {"token", "others"}: signs this browser's token out, or (others
  // true) every other browser's. A player without a password cannot sign his only token out.
  nlohmann::json sign_out(const nlohmann::json& body);

 private:
  // Wrong passwords per name (any name, known or not, so the answer tells nothing): after
  // kFreeGuesses, sign-in by that name waits a minute, doubling with each further miss up to
  // 15 minutes; the right password clears it. Kept in memory, bounded.
  struct Misses {
    int count = 0;
    std::int64_t until_ms = 0;
  };
  static constexpr int kFreeGuesses = 5;
  void check_not_locked(const std::string& key);
  void record_miss(const std::string& key);

  Store& store_;
  Hub& hub_;
  std::map<std::string, Misses> misses_;
};

}  // namespace naqala::server
