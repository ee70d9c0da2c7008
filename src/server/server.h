#pragma once
// `naqala serve`: one process for the JSON API, the live game channel (WebSocket) and the
// built front-end (docs/server.md). Networking and the hub run on one thread; engines think
// on their own pool.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>  // Boost 1.74 Asio uses std::exchange without including it
#include <vector>

namespace naqala::server {

struct ServerOptions {
  std::string host = "127.0.0.1";
  unsigned short port = 8080;  // 0 = any free port (tests)
  std::string db = "naqala.db";
  std::string web_root;                  // the built front-end; empty = API only
  std::vector<std::string> endgame_dbs;  // sowing databases the game analysis reads
  int engine_threads = 1;
  std::size_t max_message = 4096;   // bytes in one WebSocket message
  std::size_t max_body = 16384;     // bytes in one HTTP request body
  double messages_per_second = 20;  // per connection, with a burst of twice that
  double requests_per_second = 50;  // HTTP requests per client address, bursts of twice that
};

class Server {
 public:
  // Opens the store, reloads unfinished games and binds; throws std::runtime_error (with
  // what went wrong) when the port or the database cannot be had.
  explicit Server(ServerOptions options);
  ~Server();
  unsigned short port() const;
  void run();   // serves until stop()
  void stop();  // from any thread

  // One connection held in memory instead of a socket: `bytes` as a client would send them,
  // then the end of its stream (a half-close). The server's own HTTP and WebSocket sessions
  // read it, on the calling thread, until they end; returns every byte the server wrote back.
  // For tests and the fuzzer; never while run() is serving on another thread.
  std::string serve_in_memory(std::string_view bytes);

  struct Impl;  // public so the sessions in server.cpp can name it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace naqala::server
