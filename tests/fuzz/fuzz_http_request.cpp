// HTTP requests to a real `naqala serve` (in this process, an in-memory database): the input
// is one connection's bytes, then its half-close. The connection is held in memory
// (Server::serve_in_memory): the server's own HTTP and WebSocket session code reads it, on this
// thread, where a TCP connection to the server's thread cost most of the time of an input.
// Whatever the bytes, the server answers with an HTTP status line or closes, and stays up
// (checked with /api/health every 256 inputs). The TCP side is tested in tests/server/.
#include <sodium.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

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

server::Server& the_server() {
  static server::Server server = [] {
    server::ServerOptions o;
    o.port = 0;  // it listens, but nothing connects: the input comes in memory
    o.db = ":memory:";
    o.requests_per_second = 1e9;
    o.messages_per_second = 1e9;
    return server::Server(o);
  }();
  return server;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static unsigned count = 0;
  server::Server& server = the_server();
  const std::string reply =
      server.serve_in_memory(std::string_view(reinterpret_cast<const char*>(data), size));
  fuzz::check(reply.empty() || reply.starts_with("HTTP/1."),
              "a reply that is not HTTP: " + reply.substr(0, 80));
  if (++count % 256 == 0) {
    const std::string health =
        server.serve_in_memory("GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n");
    fuzz::check(health.starts_with("HTTP/1.1 200"), "the server stopped answering: " + health);
  }
  return 0;
}
