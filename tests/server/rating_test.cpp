// Ratings: rated games between people move both players' Glicko-2 ratings in that game;
// casual games and games against the computer leave them alone; the player page shows them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "play/glicko2.h"
#include "server/test_client.h"

namespace {

using namespace naqala::testing;

class RatingTest : public ServerTest {};

// Ann (South) and Bob play `body`'s game; Bob resigns it.
std::string bob_resigns(unsigned short port, const std::string& ann, const std::string& bob,
                        json body) {
  body["token"] = ann;
  body["opponent"] = "human";
  body["side"] = "south";
  const std::string id = post(port, "/api/games", body)["id"];
  Ws a(port), b(port);
  take_seats(a, ann, b, bob, id);
  EXPECT_FALSE(playing_view(a).is_null());
  b.send({{"type", "resign"}, {"game", id}});
  EXPECT_FALSE(
      a.until([](json& m) { return m["type"] == "game" && m["status"] == "over"; }).is_null());
  return id;
}

json page(unsigned short port, std::int64_t id) {
  const Reply r = request(port, http::verb::get, "/api/players/" + std::to_string(id));
  EXPECT_EQ(r.status, 200) << r.body;
  return r.json_body();
}

TEST_F(RatingTest, ARatedGameMovesBothRatingsAndACasualOneDoesNot) {
  const json ann = post(port_, "/api/players", {{"name", "ann"}});
  const json bob = post(port_, "/api/players", {{"name", "bob"}});
  bob_resigns(port_, ann["token"], bob["token"], {{"variant", "kalah"}});  // casual
  EXPECT_TRUE(page(port_, ann["id"])["ratings"].empty());

  const std::string id =
      bob_resigns(port_, ann["token"], bob["token"], {{"variant", "kalah"}, {"rated", true}});
  // Both were unrated (1500, RD 350): Glicko-2 of one won game against the other.
  const auto want = naqala::play::glicko2_update({}, {{{}, 1.0}});
  const json a = page(port_, ann["id"]), b = page(port_, bob["id"]);
  ASSERT_EQ(a["ratings"].size(), 1u);
  EXPECT_EQ(a["ratings"][0]["game"], "kalah");
  EXPECT_EQ(a["ratings"][0]["rating"], std::round(want.rating));
  EXPECT_EQ(a["ratings"][0]["deviation"], std::round(want.deviation));
  EXPECT_EQ(a["ratings"][0]["games"], 1);
  EXPECT_EQ(a["ratings"][0]["provisional"], true);
  EXPECT_EQ(b["ratings"][0]["rating"], std::round(3000 - want.rating));  // symmetric
  ASSERT_EQ(a["history"].size(), 1u);
  EXPECT_EQ(a["history"][0]["game_id"], id);
  EXPECT_EQ(a["history"][0]["before"], 1500);
  EXPECT_EQ(a["history"][0]["opponent"], "bob");
  EXPECT_EQ(a["history"][0]["score"], 1);
  ASSERT_EQ(a["games"].size(), 2u);
  EXPECT_EQ(a["games"][0]["result"], "win");
  EXPECT_EQ(a["games"][0]["rated"], true);
  EXPECT_EQ(b["games"][0]["result"], "loss");
  EXPECT_EQ(b["games"][1]["rated"], false);

  const json board = request(port_, http::verb::get, "/api/ratings?game=kalah").json_body();
  ASSERT_EQ(board["players"].size(), 2u);
  EXPECT_EQ(board["players"][0]["name"], "ann");
  EXPECT_EQ(board["players"][0]["rank"], 1);
  // Another game's ratings are apart; the ratings survive a restart.
  restart();
  EXPECT_TRUE(
      request(port_, http::verb::get, "/api/ratings?game=oware").json_body()["players"].empty());
  EXPECT_EQ(page(port_, ann["id"])["ratings"][0]["games"], 1);
}

TEST_F(RatingTest, BadRatingRequestsGetClearErrors) {
  const std::string ann = new_player(port_, "ann");
  const Reply computer = request(
      port_, http::verb::post, "/api/games",
      json{{"token", ann}, {"variant", "kalah"}, {"opponent", "computer"}, {"rated", true}}.dump());
  EXPECT_EQ(computer.status, 400);
  EXPECT_NE(computer.body.find("unrated"), std::string::npos);
  EXPECT_EQ(request(port_, http::verb::post, "/api/games",
                    json{{"token", ann}, {"variant", "kalah"}, {"rated", "yes"}}.dump())
                .status,
            400);
  EXPECT_EQ(request(port_, http::verb::get, "/api/players/ann").status, 400);
  EXPECT_EQ(request(port_, http::verb::get, "/api/players/999").status, 404);
  EXPECT_EQ(request(port_, http::verb::get, "/api/ratings").status, 400);
}

}  // namespace
