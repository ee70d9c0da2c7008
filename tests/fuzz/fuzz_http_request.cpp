// HTTP requests to a real `naqala serve` (in this process, on a free port, an in-memory
// database): the input is written to a connection, which is then half-closed. Whatever the
// bytes, the server answers with an HTTP status line or closes, and stays up (checked with
// /api/health every 256 inputs).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sodium.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "fuzz_support.h"
#include "server/server.h"

using namespace naqala;

// libsodium's Argon2id, replaced in this program only: a sign-in or an account costs 64 MiB
// and a few tenths of a second by design, which made an input that found /api/login a thousand
// times slower than the rest. Defined here, these win over the shared library's at link time;
// the server's code around them (fields, lockouts, tokens, the store) runs as it does in
// `naqala serve`. The stand-in is an FNV-1a of the password, checked as the real one is.
namespace {
void fake_hash(char out[crypto_pwhash_STRBYTES], const char* passwd, unsigned long long size) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned long long i = 0; i < size; ++i)
    h = (h ^ static_cast<unsigned char>(passwd[i])) * 0x100000001b3ULL;
  std::snprintf(out, crypto_pwhash_STRBYTES, "$fuzz$%016llx", static_cast<unsigned long long>(h));
}
}  // namespace

extern "C" int crypto_pwhash_str(char out[crypto_pwhash_STRBYTES], const char* const passwd,
                                 unsigned long long passwdlen, unsigned long long, size_t) {
  fake_hash(out, passwd, passwdlen);
  return 0;
}

extern "C" int crypto_pwhash_str_verify(const char str[crypto_pwhash_STRBYTES],
                                        const char* const passwd, unsigned long long passwdlen) {
  char expected[crypto_pwhash_STRBYTES];
  fake_hash(expected, passwd, passwdlen);
  return std::strncmp(str, expected, crypto_pwhash_STRBYTES) == 0 ? 0 : -1;
}

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

// libFuzzer's watchdog (-timeout) is a SIGALRM every timeout/2 + 1 seconds, installed without
// SA_RESTART, and it lands on this thread: a connect, send or read it interrupts fails with
// EINTR. Taken for the server's doing, that stopped long runs ("does not accept connections",
// or a health check with an empty reply, after 70,000 to 460,000 inputs: a few hundred alarms
// in), and cut inputs short unnoticed (a send that stopped half-way, a reply read in part).
// Every call here goes on after EINTR.
int connect_to(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) fuzz::broken(std::string("socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
  if (errno == EINTR) {  // the connection goes on being made: wait for it
    pollfd p{fd, POLLOUT, 0};
    while (::poll(&p, 1, -1) < 0)
      if (errno != EINTR) break;
    int error = 0;
    socklen_t length = sizeof error;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error == 0) return fd;
    errno = error;
  }
  fuzz::broken(std::string("the server does not accept connections: ") + std::strerror(errno));
}

// The server's whole answer to `bytes` (the connection half-closed after them).
std::string round_trip(unsigned short port, const std::string& bytes) {
  const int fd = connect_to(port);
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the server may close early, e.g. on a bad header
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  std::string reply;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    reply.append(buf, static_cast<std::size_t>(n));
  }
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
