// Server::serve_in_memory, the seam of the HTTP fuzzer (tests/fuzz/fuzz_http_request.cpp): one
// connection held in memory, read by the server's own HTTP and WebSocket sessions on the calling
// thread. It answers as a TCP connection is answered (the same body as a running server's),
// requests in a row on one connection each get their reply, bad requests their 4xx, the rate
// limit counts its requests, and an upgrade is accepted by the WebSocket session.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scratch_dir.h"
#include "server/server.h"
#include "server/test_client.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using json = nlohmann::json;
using naqala::server::Server;
using naqala::server::ServerOptions;

ServerOptions in_memory_options(double requests_per_second = 1000) {
  ServerOptions o;
  o.port = 0;
  o.db = ":memory:";
  o.requests_per_second = requests_per_second;
  return o;
}

// The HTTP replies at the start of `bytes`, in order (reading stops at what is not one).
std::vector<http::response<http::string_body>> replies(const std::string& bytes) {
  asio::io_context io;
  beast::test::stream in(io, bytes);
  in.close_remote();
  beast::flat_buffer buffer;
  std::vector<http::response<http::string_body>> out;
  for (;;) {
    http::response_parser<http::string_body> parser;
    parser.skip(false);
    beast::error_code ec;
    http::read(in, buffer, parser, ec);
    if (ec) break;
    out.push_back(parser.release());
    if (out.back().result() == http::status::switching_protocols) break;
  }
  return out;
}

const std::string kHealth = "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n";

TEST(ServeInMemory, AnswersAsATcpConnectionIsAnswered) {
  naqala::testing::ScratchDir scratch;
  naqala::testing::Running running(scratch.path() / "server.db");
  const auto tcp = naqala::testing::request(running.port(), http::verb::get, "/api/variants");
  ASSERT_EQ(tcp.status, 200);

  Server server(in_memory_options());
  const auto r = replies(server.serve_in_memory(
      "GET /api/variants HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].result_int(), 200u);
  EXPECT_EQ(r[0].body(), tcp.body);
  EXPECT_EQ(r[0]["X-Frame-Options"], "DENY");  // the session's own send()
}

TEST(ServeInMemory, RequestsInARowEachGetTheirReplyThenTheConnectionEnds) {
  Server server(in_memory_options());
  const std::string bytes =
      server.serve_in_memory(kHealth + "GET /api/clocks HTTP/1.1\r\nHost: x\r\n\r\n" + kHealth +
                             "GET /api/nothing " + "HTTP/1.1\r\nHost: x\r\n\r\n");
  const auto r = replies(bytes);
  ASSERT_EQ(r.size(), 4u) << bytes;
  EXPECT_EQ(json::parse(r[0].body()), json({{"ok", true}}));
  EXPECT_EQ(r[1].result_int(), 200u);
  EXPECT_FALSE(json::parse(r[1].body()).empty());
  EXPECT_EQ(r[2].result_int(), 200u);
  EXPECT_EQ(r[3].result_int(), 404u);
  // The same server serves the next connection (nothing left pending from this one).
  EXPECT_EQ(replies(server.serve_in_memory(kHealth)).size(), 1u);
  EXPECT_TRUE(server.serve_in_memory("").empty());  // a connection closed at once: no reply
}

TEST(ServeInMemory, BadRequestsGetTheirFourHundreds) {
  Server server(in_memory_options());
  auto only = [&](const std::string& bytes) {
    const auto r = replies(server.serve_in_memory(bytes));
    EXPECT_EQ(r.size(), 1u) << bytes;
    return r.empty() ? http::response<http::string_body>{} : r[0];
  };
  const auto garbage = only("HELLO THERE\r\n\r\n");
  EXPECT_EQ(garbage.result_int(), 400u);
  EXPECT_NE(garbage.body().find("malformed HTTP request"), std::string::npos) << garbage.body();
  EXPECT_EQ(only("POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n{}")
                .result_int(),
            400u);
  EXPECT_EQ(only("POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Length: 20000\r\n\r\n" +
                 std::string(20000, 'x'))
                .result_int(),
            413u);
  EXPECT_EQ(only("GET /api/rules?variant=%FF HTTP/1.1\r\nHost: x\r\n\r\n").result_int(), 400u);
}

TEST(ServeInMemory, TheRateLimitCountsItsRequests) {
  Server server(in_memory_options(1));  // bursts of 2
  const auto r = replies(server.serve_in_memory(kHealth + kHealth + kHealth));
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].result_int(), 200u);
  EXPECT_EQ(r[1].result_int(), 200u);
  EXPECT_EQ(r[2].result_int(), 429u);
}

TEST(ServeInMemory, AnUpgradeReachesTheWebSocketSession) {
  Server server(in_memory_options());
  const std::string upgrade =
      "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
  // The WebSocket session accepts it (its reply) and then reads the end of the stream. (A
  // client sends no frame before that reply, RFC 6455 4.1: bytes that came with the request are
  // not read as frames, in memory as over TCP; fuzz_ws_message sends the hub its messages.)
  const std::string reply = server.serve_in_memory(upgrade);
  const auto r = replies(reply);
  ASSERT_EQ(r.size(), 1u) << reply;
  EXPECT_EQ(r[0].result_int(), 101u);
  EXPECT_EQ(r[0]["Sec-WebSocket-Accept"], "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  // An upgrade to another path is refused, the hub never reached.
  const auto elsewhere = replies(server.serve_in_memory(
      "GET /nowhere HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"));
  ASSERT_EQ(elsewhere.size(), 1u);
  EXPECT_EQ(elsewhere[0].result_int(), 404u);
}

}  // namespace
