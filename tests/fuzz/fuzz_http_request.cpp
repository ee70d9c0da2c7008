// HTTP requests to a real `naqala serve` (in this process, on a free port, an in-memory
// database): the input is written to a connection, which is then half-closed. Whatever the
// bytes, the server answers with an HTTP status line or closes, and stays up (checked with
// /api/health every 256 inputs).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "fuzz_support.h"
#include "server/server.h"

using namespace naqala;

namespace {

struct Running {
  std::unique_ptr<server::Server> server;
  std::thread thread;
  Running() {
    server::ServerOptions o;
    o.port = 0;
    o.db = ":memory:";
    o.requests_per_second = 1e9;
    o.messages_per_second = 1e9;
    server = std::make_unique<server::Server>(o);
    thread = std::thread([this] { server->run(); });
  }
  // At exit (after -max_total_time): a thread still joinable here would call std::terminate.
  ~Running() {
    server->stop();
    thread.join();
  }
};

// The server's whole answer to `bytes` (the connection half-closed after them).
std::string round_trip(unsigned short port, const std::string& bytes) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    fuzz::broken("the server does not accept connections");
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may close early, e.g. on a bad header
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string reply;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
    reply.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return reply;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Running r;
  static unsigned count = 0;
  const unsigned short port = r.server->port();
  const std::string reply =
      round_trip(port, std::string(reinterpret_cast<const char*>(data), size));
  fuzz::check(reply.empty() || reply.starts_with("HTTP/1."),
              "a reply that is not HTTP: " + reply.substr(0, 80));
  if (++count % 256 == 0) {
    const std::string health = round_trip(port, "GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
    fuzz::check(health.starts_with("HTTP/1.1 200"), "the server stopped answering: " + health);
  }
  return 0;
}
