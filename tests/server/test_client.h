#pragma once
// What the server's tests share: a server on its own thread, HTTP requests, and a WebSocket
// client that waits for the message it needs.
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

#include "scratch_dir.h"
#include "server/server.h"

namespace naqala::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using json = nlohmann::json;

// A server running on its own thread.
class Running {
 public:
  explicit Running(const std::filesystem::path& db, double requests_per_second = 1000,
                   double messages_per_second = 200) {
    naqala::server::ServerOptions o;
    o.port = 0;
    o.db = db.string();
    o.messages_per_second = messages_per_second;
    o.requests_per_second = requests_per_second;
    server_ = std::make_unique<naqala::server::Server>(o);
    thread_ = std::thread([this] { server_->run(); });
  }
  ~Running() {
    server_->stop();
    thread_.join();
    server_.reset();
  }
  unsigned short port() const { return server_->port(); }

 private:
  std::unique_ptr<naqala::server::Server> server_;
  std::thread thread_;
};

struct Reply {
  int status;
  std::string body;
  json json_body() const { return json::parse(body); }
};

inline Reply request(unsigned short port, http::verb verb, const std::string& target,
                     const std::string& body = "") {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "localhost");
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return {static_cast<int>(res.result_int()), res.body()};
}

inline json post(unsigned short port, const std::string& target, const json& body,
                 int expect = 201) {
  Reply r = request(port, http::verb::post, target, body.dump());
  EXPECT_EQ(r.status, expect) << r.body;
  return r.json_body();
}

inline std::string new_player(unsigned short port, const std::string& name) {
  return post(port, "/api/players", {{"name", name}})["token"].get<std::string>();
}

// Waits end on the awaited message; this limit is only a hang guard, far beyond what a slow or
// loaded machine needs.
constexpr auto kHangGuard = std::chrono::milliseconds(std::chrono::minutes(5));

// A WebSocket client.
class Ws {
 public:
  // receive_buffer > 0 sets the socket's receive buffer (bytes), so that what the server sends
  // backs up on its side while the client is not reading.
  explicit Ws(unsigned short port, int receive_buffer = 0) : ws_(io_) {
    auto& socket = beast::get_lowest_layer(ws_).socket();
    socket.open(tcp::v4());
    if (receive_buffer > 0)
      socket.set_option(asio::socket_base::receive_buffer_size(receive_buffer));
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
    ws_.handshake("localhost", "/ws");
  }
  void send(const json& j) { send_text(j.dump()); }
  void send_text(const std::string& text) {
    ws_.text(true);
    ws_.write(asio::buffer(text));
  }
  void send_binary(const std::string& bytes) {
    ws_.binary(true);
    ws_.write(asio::buffer(bytes));
  }
  // The next message, or null on timeout / closed connection.
  json read(std::chrono::milliseconds timeout = kHangGuard) {
    beast::flat_buffer buffer;
    bool done = false;
    beast::error_code result;
    ws_.async_read(buffer, [&](beast::error_code ec, std::size_t) {
      result = ec;
      done = true;
    });
    io_.restart();
    io_.run_for(timeout);
    if (!done) {
      beast::get_lowest_layer(ws_).socket().cancel();
      io_.restart();
      io_.run();
      error = asio::error::timed_out;
      return nullptr;
    }
    if (result) {
      error = result;
      return nullptr;
    }
    return json::parse(beast::buffers_to_string(buffer.data()));
  }
  // Reads until a message satisfies `pred` (skipping others); null if none came.
  template <class Pred>
  json until(Pred pred, std::chrono::milliseconds timeout = kHangGuard) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      json m = read(std::chrono::duration_cast<std::chrono::milliseconds>(
          end - std::chrono::steady_clock::now()));
      if (m.is_null()) return m;
      if (pred(m)) return m;
    }
    return nullptr;
  }
  json game_with_plies(const std::string& id, std::size_t plies) {
    return until([&](json& m) {
      return m["type"] == "game" && m["id"] == id && m["plies"].size() >= plies;
    });
  }
  json error_reply() {
    return until([](json& m) { return m["type"] == "error"; });
  }
  // Why the server closed the connection (after read() gave websocket::error::closed).
  const websocket::close_reason& close_reason() const { return ws_.reason(); }
  beast::error_code error;

 private:
  asio::io_context io_;
  websocket::stream<beast::tcp_stream> ws_;
};

// Ann, who made game `id` and plays South, watches it; Bob joins it as North.
inline void take_seats(Ws& a, const std::string& ann, Ws& b, const std::string& bob,
                       const std::string& id) {
  a.send({{"type", "hello"}, {"token", ann}});
  b.send({{"type", "hello"}, {"token", bob}});
  a.send({{"type", "watch"}, {"game", id}});
  b.send({{"type", "join"}, {"game", id}});
}

// The view in which the game is under way, as `ws` sees it (null if it never came).
inline json playing_view(Ws& ws) {
  return ws.until([](json& m) { return m["type"] == "game" && m["status"] == "playing"; });
}

// A server on a database of the test's own, which the test may restart.
class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = scratch_.path() / "server.db";
    server_ = std::make_unique<Running>(db_);
    port_ = server_->port();
  }
  void TearDown() override { server_.reset(); }
  void restart() {
    server_.reset();
    server_ = std::make_unique<Running>(db_);
    port_ = server_->port();
  }

  ScratchDir scratch_;  // removed, with the database, after the test
  std::filesystem::path db_;
  std::unique_ptr<Running> server_;
  unsigned short port_ = 0;
};

}  // namespace naqala::testing
