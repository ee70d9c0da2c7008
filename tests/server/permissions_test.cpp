// Who may do what in a game (docs/security.md): every action of the game channel tried by
// each kind of outsider, then by the seated players, who alone change the game.
#include <gtest/gtest.h>

#include "test_client.h"

namespace naqala::testing {
namespace {

class PermissionsTest : public ServerTest {
 protected:
  // A Kalah game between ann (South) and bob (North), both connected and watching.
  void SetUp() override {
    ServerTest::SetUp();
    ann_ = new_player(port_, "ann");
    bob_ = new_player(port_, "bob");
    eve_ = new_player(port_, "eve");
    id_ = post(port_, "/api/games",
               {{"token", ann_}, {"variant", "kalah"}, {"opponent", "human"}})["id"];
    south_ = hello(ann_);
    south_->send({{"type", "watch"}, {"game", id_}});
    south_->until([&](json& m) { return m["type"] == "game"; });
    north_ = hello(bob_);
    north_->send({{"type", "join"}, {"game", id_}});
    ASSERT_FALSE(
        north_->until([](json& m) { return m["type"] == "game" && m["status"] == "playing"; })
            .is_null());
  }
  std::unique_ptr<Ws> hello(const std::string& token) {
    auto ws = std::make_unique<Ws>(port_);
    ws->send({{"type", "hello"}, {"token", token}});
    EXPECT_EQ(ws->read()["type"], "hello");
    return ws;
  }
  json stored() { return request(port_, http::verb::get, "/api/games/" + id_).json_body(); }

  std::string ann_, bob_, eve_, id_;
  std::unique_ptr<Ws> south_, north_;
};

const char* const kActions[] = {"move",        "resign",       "offer_draw",
                                "accept_draw", "decline_draw", "rematch"};

TEST_F(PermissionsTest, NoOutsiderChangesAGame) {
  Ws anonymous(port_);  // never said hello
  auto stranger = hello(eve_);
  Ws guessed(port_);
  guessed.send({{"type", "hello"}, {"token", std::string(32, 'a')}});
  EXPECT_EQ(guessed.error_reply()["status"], 401);
  for (const char* action : kActions) {
    json m = {{"type", action}, {"game", id_}};
    if (std::string(action) == "move") m["move"] = "1";
    anonymous.send(m);
    EXPECT_EQ(anonymous.error_reply()["status"], 401) << action;
    guessed.send(m);
    EXPECT_EQ(guessed.error_reply()["status"], 401) << action;
    stranger->send(m);
    const json e = stranger->error_reply();
    EXPECT_EQ(e["status"], 403) << action;
    EXPECT_EQ(e["request"], action);
  }
  const json g = stored();
  EXPECT_EQ(g["status"], "playing");
  EXPECT_TRUE(g["plies"].empty());
  EXPECT_TRUE(g["draw_offer"].is_null());
  // Over HTTP: a guessed token creates nothing and reads nothing private.
  EXPECT_EQ(request(port_, http::verb::post, "/api/games",
                    json{{"token", std::string(32, 'b')}, {"variant", "kalah"}}.dump())
                .status,
            401);
  EXPECT_TRUE(g["you"].is_null());
  for (const json& seat : g["seats"]) EXPECT_FALSE(seat.contains("player")) << seat;
}

TEST_F(PermissionsTest, ATokenOfAnotherDatabaseIsUnknownHere) {
  // The players of a database the server no longer serves: their tokens are stale here.
  const std::string old = ann_;
  server_.reset();
  std::filesystem::remove(db_);
  server_ = std::make_unique<Running>(db_);
  port_ = server_->port();
  Ws ws(port_);
  ws.send({{"type", "hello"}, {"token", old}});
  EXPECT_EQ(ws.error_reply()["status"], 401);
}

TEST_F(PermissionsTest, TheSeatedPlayersAloneDoEachAction) {
  // Out of turn is refused (409), in turn accepted.
  north_->send({{"type", "move"}, {"game", id_}, {"move", "1"}});
  EXPECT_EQ(north_->error_reply()["status"], 409);
  south_->send({{"type", "move"}, {"game", id_}, {"move", "1"}});
  ASSERT_FALSE(north_->game_with_plies(id_, 1).is_null());
  // A draw offered by one is declined or accepted by the other, never by the offerer.
  north_->send({{"type", "offer_draw"}, {"game", id_}});
  ASSERT_FALSE(
      south_->until([](json& m) { return m["type"] == "game" && m["draw_offer"] == "north"; })
          .is_null());
  north_->send({{"type", "accept_draw"}, {"game", id_}});
  EXPECT_EQ(north_->error_reply()["status"], 409);
  south_->send({{"type", "decline_draw"}, {"game", id_}});
  ASSERT_FALSE(
      north_->until([](json& m) { return m["type"] == "game" && m["draw_offer"].is_null(); })
          .is_null());
  // Resigning ends the game for the resigner's opponent; nothing more is accepted.
  north_->send({{"type", "resign"}, {"game", id_}});
  const json over =
      south_->until([](json& m) { return m["type"] == "game" && m["status"] == "over"; });
  ASSERT_FALSE(over.is_null());
  EXPECT_EQ(over["outcome"]["winner"], "south");
  south_->send({{"type", "resign"}, {"game", id_}});
  EXPECT_EQ(south_->error_reply()["status"], 409);
  EXPECT_EQ(stored()["plies"].size(), 1u);
}

}  // namespace
}  // namespace naqala::testing
