// The engine protocol (docs/protocol.md): the first byte picks the variant, the rest is command
// lines to `naqala engine`. Whatever the lines, each is answered without a crash or an
// exception, and every line the engine writes is one of the protocol's replies. The engine is
// `random` (a search would only spend the fuzzer's time) and may not be changed: an Engine
// option could name `cmd:` programs, and a Variant naming a file would read the machine's files.
// The server runs synchronously (ServerOptions::synchronous: each `go` searches on this thread,
// where a thread started for every `go` cost more than the random engine's move; `go infinite`
// is then answered with an error), and the engine's seed is given, so nothing reads
// std::random_device. The threaded server, stop and isready during a search, is tested in
// tests/protocol/engine_server_test.cpp.
#include <cctype>
#include <set>
#include <sstream>
#include <string>

#include "fuzz_support.h"
#include "protocol/engine_server.h"

using namespace naqala;

namespace {

// The server reads option names in any case ("ENGINE", "engine"), so the check does too: a
// case-sensitive one let `setoption name engine value level:10` through, and every `go` after
// it searched for seconds (or ran a `cmd:` program).
bool allowed(std::string line) {
  for (auto& c : line) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (line.find("setoption") == std::string::npos) return true;
  return line.find("engine") == std::string::npos && line.find('/') == std::string::npos &&
         line.find("toml") == std::string::npos;
}

void check_replies(const std::string& out) {
  static const std::set<std::string> replies = {"id",      "option", "uciok",
                                                "readyok", "info",   "bestmove"};
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    fuzz::check(replies.contains(line.substr(0, line.find(' '))),
                "the engine wrote a line that is not a reply: " + line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::ostringstream out;
  {
    protocol::ServerOptions options;
    options.variant = fuzz::pick_variant(data[0]);
    options.engine = "random:seed=1";
    options.synchronous = true;
    protocol::EngineServer server(options, out);
    std::istringstream in(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
    for (std::string line; std::getline(in, line);) {
      if (!allowed(line)) continue;
      if (!server.handle(line)) break;
    }
    server.handle("stop");
    server.finish();
  }
  check_replies(out.str());
  return 0;
}
