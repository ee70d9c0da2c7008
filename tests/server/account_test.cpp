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

// Signing out: a browser's own token, or every other browser's; a changed password signs the
// other browsers out too. An open connection of a signed-out token is refused from its next
// message, and a restart does not bring a token back.
TEST_F(AccountTest, SigningOutEndsTokensAndAChangedPasswordEndsTheOtherBrowsers) {
  const json ann = post(port_, "/api/players", {{"name", "Ann"}, {"password", "correct horse"}});
  const auto sign_in = [&] {
    return post(port_, "/api/players/signin", {{"name", "Ann"}, {"password", "correct horse"}},
                200)["token"]
        .get<std::string>();
  };
  const std::string first = ann["token"], second = sign_in(), third = sign_in();
  Ws open(port_);
  open.send({{"type", "hello"}, {"token", second}});
  ASSERT_EQ(open.read()["type"], "hello");

  EXPECT_EQ(post(port_, "/api/players/signout", {{"token", second}}, 200)["signed_out"], 1);
  EXPECT_TRUE(hello(port_, second).is_null());
  open.send({{"type", "watch"}, {"game", "none"}});
  const json refused = open.read();
  EXPECT_EQ(refused["type"], "error");
  EXPECT_NE(refused.value("message", "").find("signed out"), std::string::npos) << refused;
  EXPECT_EQ(hello(port_, third)["id"], ann["id"]);

  // Every other browser: the first keeps its token, the third loses it.
  EXPECT_EQ(
      post(port_, "/api/players/signout", {{"token", first}, {"others", true}}, 200)["signed_out"],
      1);
  EXPECT_TRUE(hello(port_, third).is_null());
  EXPECT_EQ(hello(port_, first)["id"], ann["id"]);
  EXPECT_NE(error_of(port_, "/api/players/signout", {{"token", first}, {"others", "yes"}}, 400)
                .find("others"),
            std::string::npos);

  // A new password, set from a fourth browser, signs the first out.
  const std::string fourth = sign_in();
  EXPECT_EQ(post(port_, "/api/players/password",
                 {{"token", fourth},
                  {"password", "battery staple"},
                  {"current_password", "correct horse"}},
                 200)["signed_out"],
            1);
  EXPECT_TRUE(hello(port_, first).is_null());
  restart();
  EXPECT_TRUE(hello(port_, first).is_null());
  EXPECT_TRUE(hello(port_, second).is_null());
  EXPECT_EQ(hello(port_, fourth)["id"], ann["id"]);

  // A player without a password would be lost for good: his only token stays.
  const std::string guest = new_player(port_, "Cy");
  EXPECT_NE(error_of(port_, "/api/players/signout", {{"token", guest}}, 409).find("password"),
            std::string::npos);
  EXPECT_EQ(
      post(port_, "/api/players/signout", {{"token", guest}, {"others", true}}, 200)["signed_out"],
      0);
  EXPECT_FALSE(hello(port_, guest).is_null());
  error_of(port_, "/api/players/signout", {{"token", "nope"}}, 401);
}

// Guessing: after five wrong passwords a name waits (a minute at first) even for the right
// one, and an unknown name is treated the same, so the answer tells nothing. The right
// password before that clears the count.
TEST_F(AccountTest, WrongPasswordsMakeTheNameWait) {
  post(port_, "/api/players", {{"name", "Dee"}, {"password", "correct horse"}});
  for (const std::string name : {"Dee", "Nobody"}) {
    for (int i = 0; i < 5; ++i)
      EXPECT_EQ(error_of(port_, "/api/players/signin",
                         {{"name", name}, {"password", "wrong horse"}}, 401),
                "wrong name or password")
          << name << " " << i;
    const std::string wait = error_of(port_, "/api/players/signin",
                                      {{"name", name}, {"password", "correct horse"}}, 429);
    EXPECT_NE(wait.find("try again in"), std::string::npos) << name << ": " << wait;
  }
  // Four misses, the right one, a miss: a count that was not cleared would now wait.
  post(port_, "/api/players", {{"name", "Eve"}, {"password", "correct horse"}});
  for (int i = 0; i < 4; ++i)
    error_of(port_, "/api/players/signin", {{"name", "Eve"}, {"password", "wrong horse"}}, 401);
  post(port_, "/api/players/signin", {{"name", "eve"}, {"password", "correct horse"}}, 200);
  error_of(port_, "/api/players/signin", {{"name", "Eve"}, {"password", "wrong horse"}}, 401);
  post(port_, "/api/players/signin", {{"name", "eve"}, {"password", "correct horse"}}, 200);
}

}  // namespace
