// Accounts: a password lets a player sign in from a new browser; playing without one goes on
// as before.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <string>

#include "server/test_client.h"

namespace {

using namespace naqala::testing;

class AccountTest : public ServerTest {};

// The player a token says hello as (null when the token is refused).
json hello(unsigned short port, const std::string& token) {
  Ws ws(port);
  ws.send({{"type", "hello"}, {"token", token}});
  json m = ws.read();
  return m["type"] == "hello" ? m["player"] : json(nullptr);
}

std::string error_of(unsigned short port, const std::string& target, const json& body, int status) {
  const Reply r = request(port, http::verb::post, target, body.dump());
  EXPECT_EQ(r.status, status) << target << " " << body << ": " << r.body;
  return r.json_body().value("error", "");
}

TEST_F(AccountTest, APasswordSignsInFromANewBrowser) {
  const json ann = post(port_, "/api/players", {{"name", "Ann"}, {"password", "correct horse"}});
  EXPECT_EQ(ann["account"], true);
  const json first = hello(port_, ann["token"]);
  EXPECT_EQ(first["id"], ann["id"]);

  // Another browser: the name (in any case) and the password give a token of its own.
  const json again =
      post(port_, "/api/players/signin", {{"name", "ann"}, {"password", "correct horse"}}, 200);
  EXPECT_EQ(again["id"], ann["id"]);
  EXPECT_EQ(again["name"], "Ann");
  EXPECT_NE(again["token"], ann["token"]);
  EXPECT_EQ(hello(port_, again["token"])["id"], ann["id"]);
  EXPECT_EQ(hello(port_, ann["token"])["id"], ann["id"]);  // the first browser stays signed in

  // The same answer for a wrong password and an unknown name.
  EXPECT_EQ(
      error_of(port_, "/api/players/signin", {{"name", "Ann"}, {"password", "wrong horse"}}, 401),
      "wrong name or password");
  EXPECT_EQ(
      error_of(port_, "/api/players/signin", {{"name", "Zed"}, {"password", "wrong horse"}}, 401),
      "wrong name or password");
  EXPECT_NE(error_of(port_, "/api/players", {{"name", "ANN"}, {"password", "another one"}}, 409)
                .find("belongs to an account"),
            std::string::npos);
  EXPECT_NE(error_of(port_, "/api/players", {{"name", "Bo"}, {"password", "short"}}, 400)
                .find("8 to 128"),
            std::string::npos);
  EXPECT_NE(error_of(port_, "/api/players/signin", {{"name", "Ann"}}, 400).find("password"),
            std::string::npos);

  // The store keeps an Argon2id hash, never the password.
  {
    SQLite::Database db(db_.string());
    const std::string hash =
        db.execAndGet("SELECT password_hash FROM logins WHERE name_key='ann'").getString();
    EXPECT_EQ(hash.rfind("$argon2id$", 0), 0u) << hash;
    EXPECT_EQ(hash.find("correct horse"), std::string::npos);
  }
  // And the account survives a restart.
  restart();
  EXPECT_EQ(post(port_, "/api/players/signin", {{"name", "Ann"}, {"password", "correct horse"}},
                 200)["id"],
            ann["id"]);
}

TEST_F(AccountTest, PlayingWithoutAnAccountGoesOnAndAPasswordCanComeLater) {
  const std::string token = new_player(port_, "Cy");  // no password, as before
  const json cy = hello(port_, token);
  ASSERT_FALSE(cy.is_null());
  EXPECT_EQ(
      error_of(port_, "/api/players/signin", {{"name", "Cy"}, {"password", "whatever!"}}, 401),
      "wrong name or password");
  EXPECT_NE(
      error_of(port_, "/api/players/password", {{"token", "nope"}, {"password", "whatever!"}}, 401)
          .find("unknown token"),
      std::string::npos);
  post(port_, "/api/players/password", {{"token", token}, {"password", "first secret"}}, 200);
  const json signed_in =
      post(port_, "/api/players/signin", {{"name", "cy"}, {"password", "first secret"}}, 200);
  EXPECT_EQ(signed_in["id"], cy["id"]);
  // Changing it needs the current one.
  EXPECT_NE(error_of(port_, "/api/players/password",
                     {{"token", token}, {"password", "second secret"}}, 400)
                .find("current_password"),
            std::string::npos);
  EXPECT_NE(
      error_of(port_, "/api/players/password",
               {{"token", token}, {"password", "second secret"}, {"current_password", "nope"}}, 401)
          .find("current password"),
      std::string::npos);
  post(port_, "/api/players/password",
       {{"token", token}, {"password", "second secret"}, {"current_password", "first secret"}},
       200);
  EXPECT_EQ(
      error_of(port_, "/api/players/signin", {{"name", "Cy"}, {"password", "first secret"}}, 401),
      "wrong name or password");
  post(port_, "/api/players/signin", {{"name", "Cy"}, {"password", "second secret"}}, 200);
  // A second "Cy" without a password may still play; with one, the name is taken.
  EXPECT_FALSE(hello(port_, new_player(port_, "Cy")).is_null());
  error_of(port_, "/api/players", {{"name", "cy"}, {"password", "third secret"}}, 409);
}

}  // namespace
