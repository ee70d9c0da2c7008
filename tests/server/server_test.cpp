// API and WebSocket tests of `naqala serve`: a real server on a free port, real sockets.
#include "server/server.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "scratch_dir.h"
#include "server/store.h"
#include "server/test_client.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;
using namespace std::chrono_literals;
using namespace naqala::testing;

// Sends raw bytes as a request and reads the reply as HTTP (status 0 if none came).
http::response<http::string_body> raw_response(unsigned short port, const std::string& bytes) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  asio::write(stream.socket(), asio::buffer(bytes));
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  beast::error_code ec;
  http::read(stream, buffer, res, ec);
  if (ec) res.result(0);
  return res;
}

Reply raw_request(unsigned short port, const std::string& bytes) {
  const auto res = raw_response(port, bytes);
  return {static_cast<int>(res.result_int()), res.body()};
}

TEST_F(ServerTest, ListsEveryRegisteredVariant) {
  Reply r = request(port_, http::verb::get, "/api/variants");
  ASSERT_EQ(r.status, 200);
  std::vector<std::string> names;
  for (const auto& v : r.json_body()) names.push_back(v["name"]);
  for (const char* v : {"kalah", "oware", "backgammon"})
    EXPECT_NE(std::find(names.begin(), names.end(), v), names.end()) << v;
  Reply rules = request(port_, http::verb::get, "/api/rules?variant=oware");
  EXPECT_EQ(rules.status, 200);
  EXPECT_FALSE(rules.json_body()["rules"].get<std::string>().empty());
}

// The computer levels' measured ratings (data/level-ratings.json) go out with their variant,
// level by level; a variant never measured has none.
TEST_F(ServerTest, VariantsCarryTheLevelsMeasuredRatings) {
  Reply r = request(port_, http::verb::get, "/api/variants");
  ASSERT_EQ(r.status, 200);
  ASSERT_GE(r.json_body().size(), 21u);
  for (const auto& v : r.json_body()) {
    const std::string name = v["name"];
    ASSERT_TRUE(v.contains("levels")) << name << ": every preset's levels are measured";
    ASSERT_EQ(v["levels"].size(), 10u) << name;
    for (int i = 0; i < 10; ++i) {
      EXPECT_EQ(v["levels"][i]["level"], i + 1) << name;
      EXPECT_GT(v["levels"][i]["deviation"].get<int>(), 0) << name;
    }
    // Where the levels differ most, level 10 is measured stronger than level 1.
    if (name == "kalah" || name == "oware" || name == "toguz" || name == "bao" ||
        name == "backgammon" || name == "namnam" || name == "gabata") {
      EXPECT_GT(v["levels"][9]["rating"].get<int>(), v["levels"][0]["rating"].get<int>()) << name;
    }
  }
}

TEST_F(ServerTest, BadHttpRequestsGetClearErrors) {
  EXPECT_EQ(request(port_, http::verb::post, "/api/players", "{not json").status, 400);
  EXPECT_EQ(request(port_, http::verb::post, "/api/players", R"({"name": ""})").status, 400);
  EXPECT_EQ(request(port_, http::verb::post, "/api/players", R"({"name": 5})").status, 400);
  const std::string token = new_player(port_, "ann");

  Reply unknown = request(port_, http::verb::post, "/api/games",
                          json{{"token", token}, {"variant", "chess"}}.dump());
  EXPECT_EQ(unknown.status, 400);
  // What a server client may send: the presets, never a variant file, which it refuses.
  EXPECT_NE(unknown.body.find("the server plays the presets "), std::string::npos) << unknown.body;
  EXPECT_NE(unknown.body.find("kalah"), std::string::npos) << unknown.body;
  EXPECT_EQ(unknown.body.find(".toml"), std::string::npos) << unknown.body;

  Reply bad_option = request(port_, http::verb::post, "/api/games",
                             json{{"token", token}, {"variant", "kalah:seeds=99"}}.dump());
  EXPECT_EQ(bad_option.status, 400) << bad_option.body;

  Reply level = request(port_, http::verb::post, "/api/games",
                        json{{"token", token}, {"variant", "kalah"}, {"level", 11}}.dump());
  EXPECT_EQ(level.status, 400);
  EXPECT_NE(level.body.find("from 1 to 10"), std::string::npos) << level.body;

  Reply best_of = request(port_, http::verb::post, "/api/games",
                          json{{"token", token}, {"variant", "kalah"}, {"best_of", 4}}.dump());
  EXPECT_EQ(best_of.status, 400);
  Reply clock = request(
      port_, http::verb::post, "/api/games",
      json{{"token", token}, {"variant", "oware"}, {"clock", {{"preset", "blitz"}}}}.dump());
  EXPECT_EQ(clock.status, 400);
  EXPECT_NE(clock.body.find("oware"), std::string::npos) << clock.body;

  EXPECT_EQ(
      request(port_, http::verb::post, "/api/games", json{{"variant", "kalah"}}.dump()).status,
      400);
  EXPECT_EQ(request(port_, http::verb::post, "/api/games",
                    json{{"token", "nope"}, {"variant", "kalah"}}.dump())
                .status,
            401);
  EXPECT_EQ(request(port_, http::verb::post, "/api/games",
                    json{{"token", token}, {"variant", "../../etc/passwd.toml"}}.dump())
                .status,
            400);
  EXPECT_EQ(request(port_, http::verb::get, "/api/games/nosuchgame").status, 404);
  EXPECT_EQ(request(port_, http::verb::get, "/api/nothing").status, 404);
  EXPECT_EQ(request(port_, http::verb::post, "/api/players", std::string(20000, 'x')).status, 413);
  // The server is still there.
  EXPECT_EQ(request(port_, http::verb::get, "/api/health").status, 200);
}

// Requests that are not HTTP, or not what this server serves, get a 4xx with a JSON reason
// rather than a closed connection; text that is not UTF-8 never reaches the JSON writer raw.
TEST_F(ServerTest, GarbageRequestsGetA4xx) {
  Reply garbage = raw_request(port_, "HELLO THERE\r\n\r\n");
  EXPECT_EQ(garbage.status, 400) << garbage.body;
  EXPECT_NE(garbage.body.find("malformed HTTP request"), std::string::npos) << garbage.body;
  Reply length = raw_request(
      port_, "POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n{}");
  EXPECT_EQ(length.status, 400) << length.body;
  Reply ws = raw_request(port_,
                         "GET /nowhere HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                         "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n");
  EXPECT_EQ(ws.status, 404) << ws.body;
  EXPECT_NE(ws.body.find("/ws"), std::string::npos) << ws.body;
  Reply latin1 = request(port_, http::verb::get, "/api/rules?variant=%FF");
  EXPECT_EQ(latin1.status, 400) << latin1.body;
  EXPECT_NO_THROW(latin1.json_body()) << latin1.body;
  EXPECT_EQ(request(port_, http::verb::get, "/api/health").status, 200);
}

TEST_F(ServerTest, SecurityHeadersOnEveryReplyAndWebSocketOriginChecked) {
  for (const char* target : {"/api/health", "/api/nothing", "/index.html"}) {
    const auto res =
        raw_response(port_, std::string("GET ") + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_NE(res["Content-Security-Policy"].find("default-src 'self'"), std::string::npos)
        << target;
    EXPECT_EQ(res["X-Frame-Options"], "DENY") << target;
    EXPECT_EQ(res["X-Content-Type-Options"], "nosniff") << target;
  }
  const std::string upgrade =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) +
      "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
  EXPECT_EQ(raw_request(port_, upgrade + "Origin: https://evil.example\r\n\r\n").status, 403);
  EXPECT_EQ(
      raw_request(port_, upgrade + "Origin: http://127.0.0.1:" + std::to_string(port_) + "\r\n\r\n")
          .status,
      101);
  EXPECT_EQ(raw_request(port_, upgrade + "\r\n").status, 101);  // a program: no Origin
}

TEST_F(ServerTest, AHostileNameIsJustAName) {
  const std::string name = "Bob'); DROP TABLE players;--";
  json p = post(port_, "/api/players", {{"name", name}});
  EXPECT_EQ(p["name"], name);
  json g = post(port_, "/api/games",
                {{"token", p["token"]}, {"variant", "kalah"}, {"opponent", "human"}});
  Reply view = request(port_, http::verb::get, "/api/games/" + g["id"].get<std::string>());
  ASSERT_EQ(view.status, 200) << view.body;
  EXPECT_NE(view.body.find("DROP TABLE"), std::string::npos) << view.body;
  EXPECT_EQ(post(port_, "/api/players", {{"name", "ann"}})["name"], "ann");  // the table is there
}

TEST_F(ServerTest, UnknownMessageTypeAndHugeRepeatCount) {
  Ws ws(port_);
  ws.send({{"type", "dance"}});
  json e = ws.read();
  ASSERT_FALSE(e.is_null());
  EXPECT_NE(e["message"].get<std::string>().find("unknown message type 'dance'"), std::string::npos)
      << e;
  // A backgammon move with a repeat count far beyond any move: refused, the server lives on.
  const std::string ann = new_player(port_, "ann"), bob = new_player(port_, "bob");
  json g =
      post(port_, "/api/games", {{"token", ann}, {"variant", "backgammon"}, {"opponent", "human"}});
  const std::string id = g["id"];
  Ws b(port_);
  b.send({{"type", "hello"}, {"token", bob}});
  b.send({{"type", "join"}, {"game", id}});
  ws.send({{"type", "hello"}, {"token", ann}});
  ws.send({{"type", "watch"}, {"game", id}});
  ws.send({{"type", "move"}, {"game", id}, {"move", "8/4(2147483647)"}});
  EXPECT_FALSE(ws.error_reply().is_null());
  ws.send({{"type", "ping"}});
  EXPECT_FALSE(ws.until([](json& m) { return m["type"] == "pong"; }).is_null());
}

TEST_F(ServerTest, MalformedWebSocketMessagesGetErrorFrames) {
  Ws ws(port_);
  ws.send_text("{oops");
  json e = ws.read();
  ASSERT_FALSE(e.is_null());
  EXPECT_EQ(e["type"], "error");
  EXPECT_NE(e["message"].get<std::string>().find("not JSON"), std::string::npos);
  ws.send_text("[1,2,3]");
  EXPECT_EQ(ws.read()["type"], "error");
  ws.send({{"type", "dance"}, {"game", "x"}});
  EXPECT_NE(ws.read()["message"].get<std::string>().find("unknown message type"),
            std::string::npos);
  ws.send({{"type", "hello"}, {"token", 42}});
  EXPECT_EQ(ws.read()["status"], 400);
  ws.send({{"type", "hello"}, {"token", "wrong"}});
  EXPECT_EQ(ws.read()["status"], 401);
  ws.send_binary(std::string("\x00\x01\x02", 3));
  EXPECT_EQ(ws.read()["type"], "error");
  ws.send({{"type", "watch"}, {"game", "nosuchgame"}});
  EXPECT_EQ(ws.read()["status"], 404);
  ws.send({{"type", "ping"}});
  EXPECT_EQ(ws.read()["type"], "pong");

  // A message over the size limit closes that connection (close code 1009), nothing else.
  Ws big(port_);
  big.send_text(R"({"type":"ping","pad":")" + std::string(10000, 'x') + "\"}");
  EXPECT_TRUE(big.read().is_null());
  EXPECT_TRUE(big.error);
  ws.send({{"type", "ping"}});
  EXPECT_EQ(ws.read()["type"], "pong");
}

TEST_F(ServerTest, FloodingIsRateLimited) {
  // This server allows 200 messages a second with a burst of 400.
  Ws ws(port_);
  // Past the burst the messages are refused one by one (and past 100 refusals, the
  // connection is closed). The first 400 always pass; a client slowed down by a loaded machine
  // may see the bucket refill, so it sends rounds until one is refused.
  int pongs = 0, limited = 0;
  for (int round = 0; round < 50 && limited == 0; ++round) {
    // The server closes a flood only after its refusals (AFloodIsClosedAfterItsRepliesAreWritten).
    ASSERT_FALSE(ws.error) << "closed before a refusal came: " << ws.error.message();
    for (int i = 0; i < 460; ++i) ws.send({{"type", "ping"}});
    for (int i = 0; i < 460; ++i) {
      json m = ws.read();
      if (m.is_null()) break;  // closed after too many refusals
      if (m["type"] == "pong" && round == 0) ++pongs;
      if (m["type"] == "error" && m["status"] == 429) ++limited;
    }
    if (round == 0) {
      EXPECT_GE(pongs, 400);
    }
  }
  EXPECT_GT(limited, 0);
}

// Past 100 refusals the connection is closed, but after every reply already queued: a client
// that writes without reading (its replies back up on the server) still gets the replies to what
// was handled and every refusal, then the close with its reason.
TEST_F(ServerTest, AFloodIsClosedAfterItsRepliesAreWritten) {
  server_.reset();
  server_ = std::make_unique<Running>(db_, /*requests_per_second=*/1000, /*messages_per_second=*/1);
  port_ = server_->port();
  Ws ws(port_, /*receive_buffer=*/1024);
  // A burst of 2 passes, 100 are refused, the next closes; the rest are dropped.
  for (int i = 0; i < 300; ++i) ws.send({{"type", "ping"}});
  int pongs = 0, limited = 0;
  for (json m = ws.read(); !m.is_null(); m = ws.read()) {
    if (m["type"] == "pong")
      ++pongs;
    else if (m["type"] == "error" && m["status"] == 429)
      ++limited;
    else
      ADD_FAILURE() << m;
  }
  EXPECT_GE(pongs, 2);
  EXPECT_EQ(limited, 100);
  EXPECT_EQ(ws.error, websocket::error::closed) << ws.error.message();
  EXPECT_EQ(ws.close_reason().code, websocket::close_code::policy_error);
  EXPECT_EQ(ws.close_reason().reason, "too many messages");
}

TEST_F(ServerTest, HttpRequestsAreRateLimitedPerAddress) {
  server_.reset();
  server_ = std::make_unique<Running>(db_, /*requests_per_second=*/5);
  port_ = server_->port();
  // A burst of 10 passes, then each request over the rate is refused with a clear message.
  // Requests are sent until one is refused (however slow the machine, they come faster than 5 a
  // second); the passes are bounded by the burst plus what the bucket refilled meanwhile.
  int ok = 0, limited = 0;
  std::string message;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000 && limited == 0; ++i) {
    Reply r = request(port_, http::verb::get, "/api/health");
    if (r.status == 200) ++ok;
    if (r.status == 429) {
      ++limited;
      message = r.json_body()["error"];
    }
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(ok, 10);
  EXPECT_LE(ok, 10 + 5 * elapsed + 1);
  EXPECT_EQ(limited, 1);
  EXPECT_NE(message.find("at most 5 a second"), std::string::npos) << message;
  std::this_thread::sleep_for(1100ms);
  EXPECT_EQ(request(port_, http::verb::get, "/api/health").status, 200);  // the bucket refills
}

// Two players seated in a new game against each other, both watching it.
struct Table {
  std::string id, south_token, north_token;
  std::unique_ptr<Ws> south, north;
  json view;  // the first view with the game being played
};

Table human_game(unsigned short port, const json& request_body) {
  const std::string ann = new_player(port, "ann"), bob = new_player(port, "bob");
  json body = request_body;
  body["token"] = ann;
  body["opponent"] = "human";
  Table t{post(port, "/api/games", body)["id"], ann, bob, {}, {}, {}};
  t.south = std::make_unique<Ws>(port);
  t.north = std::make_unique<Ws>(port);
  t.south->send({{"type", "hello"}, {"token", ann}});
  t.north->send({{"type", "hello"}, {"token", bob}});
  t.south->send({{"type", "watch"}, {"game", t.id}});
  t.north->send({{"type", "join"}, {"game", t.id}});
  t.view = t.south->until([](json& m) { return m["type"] == "game" && m["status"] == "playing"; });
  return t;
}

int seeds_on(const json& board) {
  int n = board["stores"][0].get<int>() + board["stores"][1].get<int>();
  for (const auto& row : board["rows"])
    for (const auto& c : row) n += c.get<int>();
  if (board.contains("middle_row")) {  // rows[2] repeats it, reversed
    for (const auto& c : board["rows"][2]) n -= c.get<int>();
    for (const auto& c : board["middle_row"]) n += c.get<int>();
  }
  return n;
}

TEST_F(ServerTest, RelaySowingsComeWithTheirPathLapByLap) {
  Table t = human_game(port_, {{"variant", "ayoayo"}});
  ASSERT_FALSE(t.view.is_null());
  const int total = seeds_on(t.view["board"]);
  std::size_t most_laps = 0;
  json view = t.view;
  for (std::size_t ply = 1; ply <= 12 && view["status"] == "playing"; ++ply) {
    Ws& mover = view["to_move"] == "south" ? *t.south : *t.north;
    mover.send({{"type", "move"}, {"game", t.id}, {"move", view["legal"].back()}});
    view = t.south->game_with_plies(t.id, ply);
    ASSERT_FALSE(view.is_null());
    const json& path = view["path"];
    ASSERT_TRUE(path.is_object()) << "ayoayo sows in relays: every move is traced";
    EXPECT_EQ(path["ply"], ply);
    for (const auto& lap : path["laps"]) {
      // The seeds on the board as a lap starts, and those in the hand it sows, are all seeds.
      EXPECT_EQ(seeds_on(lap["board"]) + static_cast<int>(lap["pits"].size()), total) << lap;
      for (const auto& pit : lap["pits"]) EXPECT_TRUE(pit.get<std::string>().size() >= 2) << pit;
    }
    // The last lap ends where the move's last seed fell: after it, the board is the new one
    // but for what the move captured there.
    json last = path["laps"].back();
    json board = last["board"];
    for (const auto& pit : last["pits"]) {
      const std::string p = pit;
      if (p.starts_with("store:")) continue;
      board["rows"][p[0] == 'S' ? 0 : 1][std::stoi(p.substr(1)) - 1] =
          board["rows"][p[0] == 'S' ? 0 : 1][std::stoi(p.substr(1)) - 1].get<int>() + 1;
    }
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < 6; ++i) {
        const int now = view["board"]["rows"][r][i], sown = board["rows"][r][i];
        EXPECT_TRUE(now == sown || now == 0) << "row " << r << " pit " << i + 1;
      }
    most_laps = std::max(most_laps, path["laps"].size());
  }
  EXPECT_GT(most_laps, 1u) << "some move of the first twelve relays";

  // Bao's sowing is traced too, lap by lap, in its own pit names.
  Table bao = human_game(port_, {{"variant", "bao"}});
  ASSERT_FALSE(bao.view.is_null());
  bao.south->send({{"type", "move"}, {"game", bao.id}, {"move", bao.view["legal"][0]}});
  json after = bao.south->game_with_plies(bao.id, 1);
  ASSERT_TRUE(after["path"].is_object()) << after;
  EXPECT_TRUE(after["path"]["laps"][0]["board"].contains("south"));
  EXPECT_TRUE(
      std::string("abcdefgh").find(after["path"]["laps"][0]["pits"][0].get<std::string>()[0]) !=
      std::string::npos);
}

TEST_F(ServerTest, ToguzLimitsDrawOffersToThreeAPlayer) {
  Table t = human_game(port_, {{"variant", "toguz"}});
  ASSERT_FALSE(t.view.is_null());
  EXPECT_EQ(t.view["draw_offers_left"], json::array({3, 3}));
  for (int i = 0; i < 3; ++i) {
    t.south->send({{"type", "offer_draw"}, {"game", t.id}});
    ASSERT_FALSE(
        t.north->until([](json& m) { return m["type"] == "game" && m["draw_offer"] == "south"; })
            .is_null());
    t.north->send({{"type", "decline_draw"}, {"game", t.id}});
    json v =
        t.south->until([](json& m) { return m["type"] == "game" && m["draw_offer"].is_null(); });
    EXPECT_EQ(v["draw_offers_left"][0], 2 - i);
  }
  t.south->send({{"type", "offer_draw"}, {"game", t.id}});
  json refused = t.south->error_reply();
  EXPECT_EQ(refused["status"], 409);
  EXPECT_NE(refused["message"].get<std::string>().find("at most 3 times"), std::string::npos);
  // North still has his three.
  t.north->send({{"type", "offer_draw"}, {"game", t.id}});
  json offered =
      t.south->until([](json& m) { return m["type"] == "game" && m["draw_offer"] == "north"; });
  EXPECT_EQ(offered["draw_offers_left"], json::array({0, 2}));
}

TEST_F(ServerTest, ToguzEndsWhenAKazanReaches82) {
  Table t = human_game(port_, {{"variant", "toguz"}});
  ASSERT_FALSE(t.view.is_null());
  t.south.reset();
  t.north.reset();
  // The game goes on from a position one capture short of 82 (South's 9 sows a stone back
  // into itself and makes North's pit 1 even), written into the store while the server is down.
  server_.reset();
  {
    SQLite::Database db(db_.string(), SQLite::OPEN_READWRITE);
    SQLite::Statement q(db, "UPDATE games SET start_position=? WHERE id=?");
    q.bind(1, "5,5,5,5,5,5,5,5,2/1,5,5,5,5,5,5,5,4/80,0/S");
    q.bind(2, t.id);
    ASSERT_EQ(q.exec(), 1);
  }
  server_ = std::make_unique<Running>(db_);
  port_ = server_->port();
  Ws south(port_);
  south.send({{"type", "hello"}, {"token", t.south_token}});
  south.send({{"type", "move"}, {"game", t.id}, {"move", "9"}});
  json over = south.until([](json& m) { return m["type"] == "game" && m["status"] == "over"; });
  ASSERT_FALSE(over.is_null());
  // The other player's polite resignation (RULES.md section 15) is the game's own end.
  EXPECT_EQ(over["outcome"]["winner"], "south");
  EXPECT_EQ(over["outcome"]["reason"], "threshold");
  EXPECT_EQ(over["outcome"]["scores"][0], 82);
}

TEST_F(ServerTest, CongklakSimultaneousStartRunsBothClocks) {
  Table t =
      human_game(port_, {{"variant", "congklak"}, {"clock", {{"minutes", 1}, {"increment", 0}}}});
  ASSERT_FALSE(t.view.is_null());
  EXPECT_EQ(t.view["clock"]["running_sides"], json::array({"south", "north"}));
  std::this_thread::sleep_for(300ms);
  t.north->send(
      {{"type", "move"}, {"game", t.id}, {"move", t.view["joint"]["north"]["options"][0]}});
  json half = t.south->until(
      [](json& m) { return m["type"] == "game" && m["joint"]["north"]["chosen"] == true; });
  ASSERT_FALSE(half.is_null());
  // North's clock stopped when he chose; South's runs on until he chooses.
  EXPECT_EQ(half["clock"]["running_sides"], json::array({"south"}));
  const int north_ms = half["clock"]["north_ms"];
  EXPECT_LE(north_ms, 60000 - 250);
  std::this_thread::sleep_for(300ms);
  t.south->send(
      {{"type", "move"}, {"game", t.id}, {"move", t.view["joint"]["south"]["options"][0]}});
  json played = t.south->game_with_plies(t.id, 1);
  ASSERT_FALSE(played.is_null());
  EXPECT_EQ(played["clock"]["north_ms"], north_ms);
  EXPECT_LE(played["clock"]["south_ms"].get<int>(), 60000 - 550);
  EXPECT_EQ(played["clock"]["running_sides"].size(), 1u);
}

TEST_F(ServerTest, HumanGameRefusesIllegalAndOutOfTurnMoves) {
  const std::string ann = new_player(port_, "ann"), bob = new_player(port_, "bob"),
                    eve = new_player(port_, "eve");
  json g = post(port_, "/api/games", {{"token", ann}, {"variant", "kalah"}, {"opponent", "human"}});
  const std::string id = g["id"];
  EXPECT_EQ(g["status"], "waiting");
  EXPECT_EQ(g["you"], "south");

  Ws a(port_), b(port_), spectator(port_);
  a.send({{"type", "hello"}, {"token", ann}});
  EXPECT_EQ(a.read()["type"], "hello");
  a.send({{"type", "watch"}, {"game", id}});
  EXPECT_EQ(a.read()["you"], "south");
  a.send({{"type", "move"}, {"game", id}, {"move", "1"}});
  EXPECT_EQ(a.error_reply()["status"], 409);  // nobody in the other seat yet

  b.send({{"type", "move"}, {"game", id}, {"move", "1"}});
  EXPECT_EQ(b.error_reply()["status"], 401);  // no hello
  b.send({{"type", "hello"}, {"token", bob}});
  b.read();
  b.send({{"type", "join"}, {"game", id}});
  json joined = b.until([](json& m) { return m["type"] == "game" && m["status"] == "playing"; });
  ASSERT_FALSE(joined.is_null());
  EXPECT_EQ(joined["you"], "north");
  EXPECT_EQ(joined["seats"][1]["name"], "bob");
  EXPECT_FALSE(joined["seats"][1].contains("player"));  // ids stay private

  spectator.send({{"type", "hello"}, {"token", eve}});
  spectator.read();
  spectator.send({{"type", "join"}, {"game", id}});
  EXPECT_EQ(spectator.error_reply()["status"], 409);
  spectator.send({{"type", "move"}, {"game", id}, {"move", "1"}});
  EXPECT_EQ(spectator.error_reply()["status"], 403);

  a.send({{"type", "move"}, {"game", id}, {"move", "7"}});
  json illegal = a.error_reply();
  EXPECT_EQ(illegal["status"], 400);
  EXPECT_NE(illegal["message"].get<std::string>().find("legal moves: 1 2 3 4 5 6"),
            std::string::npos)
      << illegal;
  a.send({{"type", "move"}, {"game", id}, {"move", "x"}});
  EXPECT_EQ(a.error_reply()["status"], 400);
  b.send({{"type", "move"}, {"game", id}, {"move", "1"}});
  EXPECT_EQ(b.error_reply()["status"], 409);  // not North's turn

  a.send({{"type", "move"}, {"game", id}, {"move", "1"}, {"ply", 0}});
  json after = b.game_with_plies(id, 1);
  ASSERT_FALSE(after.is_null());
  EXPECT_EQ(after["board"]["rows"][0][0], 0);
  EXPECT_EQ(after["to_move"], "north");
  // A stale move (the client saw an older position) is refused.
  b.send({{"type", "move"}, {"game", id}, {"move", "1"}, {"ply", 0}});
  EXPECT_EQ(b.error_reply()["status"], 409);
  spectator.send({{"type", "watch"}, {"game", id}});
  EXPECT_EQ(spectator.until([](json& m) { return m["type"] == "game"; })["you"], nullptr);

  Reply listed = request(port_, http::verb::get, "/api/games");
  EXPECT_EQ(listed.json_body()["live"].size(), 1u);
}

TEST_F(ServerTest, ComputerAnswersAndResignationEndsTheGameWithARecord) {
  const std::string ann = new_player(port_, "ann");
  json g = post(port_, "/api/games", {{"token", ann}, {"variant", "oware"}, {"level", 1}});
  const std::string id = g["id"];
  Ws a(port_);
  a.send({{"type", "hello"}, {"token", ann}});
  a.send({{"type", "watch"}, {"game", id}});
  a.send({{"type", "move"}, {"game", id}, {"move", g["legal"][0]}});
  json answered = a.until([&](json& m) {
    return m["type"] == "game" && m["plies"].size() == 2 && m["to_move"] == "south";
  });
  ASSERT_FALSE(answered.is_null());
  EXPECT_EQ(answered["plies"][1]["side"], "N");

  a.send({{"type", "offer_draw"}, {"game", id}});
  EXPECT_EQ(a.error_reply()["status"], 409);  // the computer does not take draws
  a.send({{"type", "resign"}, {"game", id}});
  json over = a.until([](json& m) { return m["type"] == "game" && m["status"] == "over"; });
  ASSERT_FALSE(over.is_null());
  EXPECT_EQ(over["outcome"]["winner"], "north");
  EXPECT_EQ(over["outcome"]["reason"], "resignation");

  Reply record = request(port_, http::verb::get, "/api/games/" + id + "/record");
  EXPECT_EQ(record.status, 200);
  EXPECT_NE(record.body.find("[Variant \"oware\"]"), std::string::npos) << record.body;
  EXPECT_NE(record.body.find("[Termination \"resignation\"]"), std::string::npos) << record.body;
  EXPECT_NE(record.body.find("\n0-1"), std::string::npos) << record.body;
  json review = request(port_, http::verb::get, "/api/games/" + id + "/review").json_body();
  EXPECT_EQ(review["boards"].size(), 3u);
  // The analysis: no endgame database is loaded, so nothing is known; a ply outside the game
  // or not a number is refused.
  json analysis =
      request(port_, http::verb::get, "/api/games/" + id + "/analysis?ply=2").json_body();
  EXPECT_EQ(analysis["known"], false);
  EXPECT_EQ(analysis["ply"], 2);
  EXPECT_EQ(request(port_, http::verb::get, "/api/games/" + id + "/analysis?ply=3").status, 400);
  EXPECT_EQ(request(port_, http::verb::get, "/api/games/" + id + "/analysis?ply=x").status, 400);
  EXPECT_EQ(request(port_, http::verb::get, "/api/games/" + id + "/analysis").status, 400);

  a.send({{"type", "rematch"}, {"game", id}});
  json rematch = a.until([](json& m) { return m["type"] == "game" && !m["next_game"].is_null(); });
  ASSERT_FALSE(rematch.is_null());
  json next =
      request(port_, http::verb::get, "/api/games/" + rematch["next_game"].get<std::string>())
          .json_body();
  EXPECT_EQ(next["seats"][1]["name"], "ann");  // colours swapped
}

TEST_F(ServerTest, DrawOffersAndMatchesBestOfThree) {
  const std::string ann = new_player(port_, "ann"), bob = new_player(port_, "bob");
  json g = post(port_, "/api/games",
                {{"token", ann}, {"variant", "oware"}, {"opponent", "human"}, {"best_of", 3}});
  const std::string id = g["id"];
  EXPECT_EQ(g["match"]["draw_rule"], "both_win");
  Ws a(port_), b(port_);
  take_seats(a, ann, b, bob, id);
  ASSERT_FALSE(playing_view(a).is_null());

  b.send({{"type", "accept_draw"}, {"game", id}});
  EXPECT_EQ(b.error_reply()["status"], 409);
  a.send({{"type", "offer_draw"}, {"game", id}});
  ASSERT_FALSE(
      b.until([](json& m) { return m["type"] == "game" && m["draw_offer"] == "south"; }).is_null());
  b.send({{"type", "accept_draw"}, {"game", id}});
  json drawn = a.until([](json& m) { return m["type"] == "game" && m["status"] == "over"; });
  ASSERT_FALSE(drawn.is_null());
  EXPECT_EQ(drawn["outcome"]["reason"], "agreement");
  // Oware: a drawn game counts as a win for each player.
  EXPECT_EQ(drawn["match"]["points"]["south"], 1.0);
  EXPECT_EQ(drawn["match"]["points"]["north"], 1.0);
  ASSERT_TRUE(drawn["next_game"].is_string());

  const std::string second = drawn["next_game"];
  a.send({{"type", "watch"}, {"game", second}});
  json g2 = a.until([&](json& m) { return m["type"] == "game" && m["id"] == second; });
  EXPECT_EQ(g2["you"], "north");  // colours alternate
  EXPECT_EQ(g2["match"]["game"], 2);
  a.send({{"type", "resign"}, {"game", second}});
  json end = a.until(
      [&](json& m) { return m["type"] == "game" && m["id"] == second && m["status"] == "over"; });
  ASSERT_FALSE(end.is_null());
  EXPECT_EQ(end["match"]["points"]["south"], 2.0);  // bob, South in game 2, leads 2-1
  EXPECT_TRUE(end["match"]["over"].get<bool>());
  EXPECT_TRUE(end["next_game"].is_null());
}

TEST_F(ServerTest, FlagFallIsALoss) {
  const std::string ann = new_player(port_, "ann"), bob = new_player(port_, "bob");
  json g = post(port_, "/api/games",
                {{"token", ann},
                 {"variant", "kalah"},
                 {"opponent", "human"},
                 {"clock", {{"minutes", 0.01}}}});
  const std::string id = g["id"];
  Ws a(port_), b(port_);
  take_seats(a, ann, b, bob, id);
  // 0.6 s each; South does not move.
  json over = a.until([](json& m) { return m["type"] == "game" && m["status"] == "over"; });
  ASSERT_FALSE(over.is_null());
  EXPECT_EQ(over["outcome"]["reason"], "timeout");
  EXPECT_EQ(over["outcome"]["winner"], "north");
  EXPECT_LE(over["clock"]["south_ms"].get<int>(), 0);
}

TEST_F(ServerTest, ASecondServerOnTheSameDatabaseIsRefused) {
  naqala::server::ServerOptions o;
  o.port = 0;
  o.db = db_.string();
  try {
    naqala::server::Server second(o);
    FAIL() << "a second server opened " << db_;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("in use by another naqala serve (pid " + std::to_string(::getpid())),
              std::string::npos)
        << what;
    EXPECT_NE(what.find(db_.string()), std::string::npos) << what;
  }
  EXPECT_EQ(request(port_, http::verb::get, "/api/health").status, 200);  // the first lives on
}

TEST_F(ServerTest, SowingAnimationTimeIsNotCharged) {
  Table t = human_game(port_, {{"variant", "kalah"}, {"clock", {{"minutes", 1}}}});
  ASSERT_FALSE(t.view.is_null());
  const std::string id = t.id;
  Ws& a = *t.south;
  a.send({{"type", "move"}, {"game", id}, {"move", "1"}});
  json after = a.game_with_plies(id, 1);
  ASSERT_FALSE(after.is_null());
  // North's clock runs, but only once the browser's sowing animation is over.
  EXPECT_EQ(after["clock"]["running"], "north");
  EXPECT_GT(after["clock"]["starts_in_ms"].get<int>(), 0);
  EXPECT_LE(after["clock"]["starts_in_ms"].get<int>(), 3000);
  EXPECT_EQ(after["clock"]["north_ms"], 60000);
}

TEST_F(ServerTest, CheckerAnimationTimeIsNotCharged) {
  Table t = human_game(port_, {{"variant", "backgammon"}, {"clock", {{"minutes", 1}}}});
  ASSERT_FALSE(t.view.is_null());
  // The opening roll is made: its winner moves (a checker move, no cube yet).
  json v = t.view;
  const bool south = v["to_move"] == "south";
  Ws& mover = south ? *t.south : *t.north;
  const std::size_t plies = v["plies"].size();
  mover.send({{"type", "move"}, {"game", t.id}, {"move", v["legal"][0]}});
  json after = mover.game_with_plies(t.id, plies + 1);
  ASSERT_FALSE(after.is_null());
  // The other player's clock runs once the browser has shown the move checker by checker.
  EXPECT_EQ(after["clock"]["running"], south ? "north" : "south");
  EXPECT_GT(after["clock"]["starts_in_ms"].get<int>(), 0);
  EXPECT_LE(after["clock"]["starts_in_ms"].get<int>(), 1500);
  EXPECT_EQ(after["clock"][south ? "north_ms" : "south_ms"], 60000);
}

// Backgammon's resignation offers (docs/server.md): only the player to move offers, a level is
// single, gammon or backgammon, the answer comes from the other player, and an accepted offer
// scores its value times the cube into the match.
TEST_F(ServerTest, BackgammonResignationOffersAreAnsweredAndScoredWithTheCube) {
  Table t = human_game(port_, {{"variant", "backgammon:match=7"}});
  ASSERT_FALSE(t.view.is_null());
  const std::string first_side = t.view["to_move"];
  const std::string second_side = first_side == "south" ? "north" : "south";
  Ws& first = first_side == "south" ? *t.south : *t.north;
  Ws& second = first_side == "south" ? *t.north : *t.south;
  const auto offer = [&](Ws& ws, const std::string& level) {
    ws.send({{"type", "offer_resign"}, {"game", t.id}, {"level", level}});
  };
  const auto refused = [](Ws& ws, int status, const std::string& says) {
    json e = ws.error_reply();
    EXPECT_EQ(e["status"], status) << e;
    EXPECT_NE(e.value("message", "").find(says), std::string::npos) << e;
  };
  offer(second, "single");
  refused(second, 409, "only the player to move");
  offer(first, "triple");
  refused(first, 400, "single, gammon, backgammon");
  first.send({{"type", "accept_resign"}, {"game", t.id}});
  refused(first, 409, "no resignation offer");
  // The first mover plays; the other doubles and the double is taken: the cube is at 2.
  std::size_t n = t.view["plies"].size();
  first.send({{"type", "move"}, {"game", t.id}, {"move", t.view["legal"][0]}});
  ASSERT_FALSE(second.game_with_plies(t.id, ++n).is_null());
  second.send({{"type", "move"}, {"game", t.id}, {"move", "double"}});
  ASSERT_FALSE(first.game_with_plies(t.id, ++n).is_null());
  first.send({{"type", "move"}, {"game", t.id}, {"move", "take"}});
  json v = second.game_with_plies(t.id, n + 2);  // the take and the doubler's roll
  ASSERT_FALSE(v.is_null());
  n = v["plies"].size();
  ASSERT_EQ(v["to_move"], second_side);
  ASSERT_EQ(v["board"]["phase"], "moving");
  offer(second, "gammon");
  v = first.game_with_plies(t.id, ++n);
  ASSERT_FALSE(v.is_null());
  EXPECT_EQ(v["to_move"], first_side);
  EXPECT_EQ(v["board"]["resignation"],
            json({{"by", second_side}, {"level", "gammon"}, {"points", 4}}));
  EXPECT_EQ(v["legal"], json({"accept", "decline"}));
  offer(second, "backgammon");  // an offer waits for its answer
  refused(second, 409, "only the player to move");
  first.send({{"type", "decline_resign"}, {"game", t.id}});
  v = second.game_with_plies(t.id, ++n);
  ASSERT_FALSE(v.is_null());
  EXPECT_TRUE(v["board"]["resignation"].is_null());
  EXPECT_EQ(v["to_move"], second_side);  // play goes on where it stopped
  offer(second, "single");               // less than a declined offer, in the same turn
  refused(second, 400, "declined this turn");
  offer(second, "backgammon");
  ASSERT_FALSE(first.game_with_plies(t.id, ++n).is_null());
  first.send({{"type", "accept_resign"}, {"game", t.id}});
  v = first.game_with_plies(t.id, ++n);
  ASSERT_FALSE(v.is_null());
  EXPECT_EQ(v["board"]["score"][first_side], 6);  // a backgammon at cube 2
  EXPECT_EQ(v["status"], "playing");              // the match to 7 goes on
  Reply record = request(port_, http::verb::get, "/api/games/" + t.id + "/record");
  EXPECT_NE(record.body.find("resign gammon"), std::string::npos) << record.body;
  EXPECT_NE(record.body.find("decline"), std::string::npos) << record.body;
  EXPECT_NE(record.body.find("resign backgammon"), std::string::npos) << record.body;
  EXPECT_NE(record.body.find("accept"), std::string::npos) << record.body;
  // Other games have no levels of resignation.
  json kalah = post(port_, "/api/games", {{"token", t.south_token}, {"variant", "kalah"}});
  t.south->send({{"type", "offer_resign"}, {"game", kalah["id"]}, {"level", "single"}});
  refused(*t.south, 400, "backgammon's");
  // The review judges every decision: the opening move (an opening roll has several plays),
  // the double and the take; the resignation offers and answers are not decisions.
  Reply review = request(port_, http::verb::get, "/api/games/" + t.id + "/analysis");
  ASSERT_EQ(review.status, 200) << review.body;
  const json r = review.json_body();
  ASSERT_EQ(r["players"].size(), 2u);
  std::vector<std::string> kinds;
  for (const auto& d : r["decisions"]) {
    kinds.push_back(d["kind"]);
    EXPECT_GE(d["loss"].get<double>(), 0) << d;
  }
  EXPECT_EQ(r["decisions"][0]["ply"], 2) << r;  // after the opening roll
  EXPECT_EQ(kinds, (std::vector<std::string>{"checker", "cube", "cube"})) << r;
  EXPECT_EQ(
      request(port_, http::verb::get, "/api/games/" + kalah["id"].get<std::string>() + "/analysis")
          .status,
      400);
}

TEST_F(ServerTest, GamesSurviveARestart) {
  const std::string ann = new_player(port_, "ann"), bob = new_player(port_, "bob");
  json g = post(port_, "/api/games",
                {{"token", ann},
                 {"variant", "kalah"},
                 {"opponent", "human"},
                 {"clock", {{"preset", "oware"}}}});
  const std::string id = g["id"];
  json before;
  {
    Ws a(port_), b(port_);
    take_seats(a, ann, b, bob, id);
    ASSERT_FALSE(playing_view(a).is_null());
    std::size_t n = 0;
    for (const auto& [who, move] :
         std::vector<std::pair<Ws*, std::string>>{{&a, "1"}, {&b, "2"}, {&a, "2"}}) {
      who->send({{"type", "move"}, {"game", id}, {"move", move}});
      before = a.game_with_plies(id, ++n);
      ASSERT_FALSE(before.is_null()) << move;
    }
  }
  restart();
  json after = request(port_, http::verb::get, "/api/games/" + id).json_body();
  EXPECT_EQ(after["plies"], before["plies"]);
  EXPECT_EQ(after["board"], before["board"]);
  EXPECT_EQ(after["status"], "playing");
  EXPECT_LE(after["clock"]["south_ms"].get<int>(), 20 * 60000);
  // Play goes on with the same tokens.
  EXPECT_EQ(after["to_move"], "south");  // Kalah: South's last sowing ended in his store
  Ws a(port_);
  a.send({{"type", "hello"}, {"token", ann}});
  a.send({{"type", "watch"}, {"game", id}});
  a.send({{"type", "move"}, {"game", id}, {"move", after["legal"][0]}});
  EXPECT_FALSE(a.game_with_plies(id, 4).is_null());
  naqala::server::Store store(db_.string());
  EXPECT_EQ(store.schema_version(), 4);  // 2: tournaments, 3: accounts, 4: ratings
  EXPECT_EQ(store.moves(id).size(), 4u);
}

TEST_F(ServerTest, ConcurrentGamesStayApart) {
  constexpr int kThreads = 6, kGamesPerThread = 3, kPlies = 12;
  std::vector<std::thread> threads;
  std::atomic<int> finished_plies{0}, failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string s = new_player(port_, "s" + std::to_string(t)),
                        n = new_player(port_, "n" + std::to_string(t));
      for (int k = 0; k < kGamesPerThread; ++k) {
        json g =
            post(port_, "/api/games",
                 {{"token", s}, {"variant", k % 2 ? "oware" : "kalah"}, {"opponent", "human"}});
        const std::string id = g["id"];
        Ws south(port_), north(port_);
        south.send({{"type", "hello"}, {"token", s}});
        north.send({{"type", "hello"}, {"token", n}});
        north.send({{"type", "join"}, {"game", id}});
        json view =
            north.until([](json& m) { return m["type"] == "game" && m["status"] == "playing"; });
        for (int p = 0; p < kPlies && !view.is_null() && view["status"] == "playing"; ++p) {
          Ws& mover = view["to_move"] == "south" ? south : north;
          const auto legal = view["legal"];
          mover.send({{"type", "move"}, {"game", id}, {"move", legal[(p * 7 + t) % legal.size()]}});
          view = north.game_with_plies(id, view["plies"].size() + 1);
          if (view.is_null())
            ++failures;
          else
            ++finished_plies;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GE(finished_plies.load(), kThreads * kGamesPerThread * 6);
  // Every game's moves in the store replay exactly (the server reloads them).
  Reply listed = request(port_, http::verb::get, "/api/games");
  const json all = listed.json_body();
  for (const auto& g : all["live"]) {
    json view =
        request(port_, http::verb::get, "/api/games/" + g["id"].get<std::string>()).json_body();
    EXPECT_EQ(view["plies"].size(), g["plies"].get<std::size_t>());
  }
  restart();
  EXPECT_EQ(request(port_, http::verb::get, "/api/games").json_body()["live"].size(),
            listed.json_body()["live"].size());
}

}  // namespace

namespace {

TEST_F(ServerTest, CongklakStartsWithSimultaneousSecretChoices) {
  const std::string ann = new_player(port_, "ann"), bob = new_player(port_, "bob");
  json g =
      post(port_, "/api/games", {{"token", ann}, {"variant", "congklak"}, {"opponent", "human"}});
  const std::string id = g["id"];
  Ws a(port_), b(port_);
  take_seats(a, ann, b, bob, id);
  json view = playing_view(b);
  ASSERT_FALSE(view.is_null());
  ASSERT_TRUE(view["joint"].is_object()) << view["board"];
  const std::string south = view["joint"]["south"]["options"][0],
                    north = view["joint"]["north"]["options"][1];

  b.send({{"type", "move"}, {"game", id}, {"move", "99"}});
  EXPECT_EQ(b.error_reply()["status"], 400);
  b.send({{"type", "move"}, {"game", id}, {"move", north}});
  json half =
      a.until([](json& m) { return m["type"] == "game" && m["joint"]["north"]["chosen"] == true; });
  ASSERT_FALSE(half.is_null());
  EXPECT_EQ(half["plies"].size(), 0u);
  // North's choice stays secret: the view says that he chose, not what.
  EXPECT_EQ(half["legal"], view["legal"]);
  EXPECT_EQ(half["joint"]["north"].size(), 2u);
  b.send({{"type", "move"}, {"game", id}, {"move", north}});
  EXPECT_EQ(b.error_reply()["status"], 409);
  a.send({{"type", "move"}, {"game", id}, {"move", south}});
  json played = a.game_with_plies(id, 1);
  ASSERT_FALSE(played.is_null());
  EXPECT_EQ(played["plies"][0]["text"], south + "+" + north);
  EXPECT_TRUE(played["joint"].is_null());
}

}  // namespace
