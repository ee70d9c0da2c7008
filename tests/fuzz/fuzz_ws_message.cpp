// WebSocket messages to the server's hub (one hub on an in-memory database, kept across
// inputs): each is answered with JSON or an error frame, never a crash; everything the hub
// sends is valid JSON. In an input, $G stands for a game's id and $T for a player's token (the
// first byte picks the game, Kalah or backgammon, and who sends: South, North or a stranger).
#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_support.h"
#include "server/hub.h"
#include "server/store.h"

using namespace naqala;
using namespace naqala::server;

namespace {

struct CheckingClient : Client {
  void send(std::shared_ptr<const std::string> text) override {
    fuzz::check(nlohmann::json::accept(*text), "the hub sent text that is not JSON: " + *text);
  }
};

struct World {
  boost::asio::io_context io;
  Store store{":memory:"};
  Hub hub{io, store, 1};
  std::string tokens[3];
  std::string games[2];
  CheckingClient clients[3];
  World() {
    for (int i = 0; i < 3; ++i)
      tokens[i] = hub.create_player({{"name", "p" + std::to_string(i)}})["token"];
    const char* variants[2] = {"kalah", "backgammon"};
    for (int g = 0; g < 2; ++g) {
      games[g] = hub.create_game(
          {{"token", tokens[0]}, {"variant", variants[g]}, {"opponent", "human"}})["id"];
      hub.handle(clients[1], R"({"type":"hello","token":")" + tokens[1] + "\"}");
      hub.handle(clients[1], R"({"type":"join","game":")" + games[g] + "\"}");
    }
    io.restart();
    io.poll();
  }
};

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
    s.replace(at, from.size(), to);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static World w;
  const int who = data[0] % 3;
  std::string message(reinterpret_cast<const char*>(data) + 1, size - 1);
  replace_all(message, "$G", w.games[(data[0] >> 2) & 1]);
  replace_all(message, "$T", w.tokens[who]);
  w.hub.handle(w.clients[who], message);
  w.io.restart();
  w.io.poll();
  return 0;
}
