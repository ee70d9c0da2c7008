// Game records (docs/records.md): parsed, replayed with the rules (a clear error or a game),
// and a record that replays writes and reads back to the same plies.
#include <string>

#include "core/error.h"
#include "fuzz_support.h"
#include "play/record.h"

using namespace naqala;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  GameRecord rec;
  try {
    rec = parse_record(text);
    const std::string variant = rec.tag("Variant");
    if (variant.find('/') != std::string::npos || variant.find(".toml") != std::string::npos)
      return 0;  // a Variant naming a file would read the fuzzing machine's files
    replay_record(rec);
  } catch (const Error&) {
    return 0;
  }
  const GameRecord again = parse_record(format_record(rec));
  fuzz::check(again.plies.size() == rec.plies.size(), "the plies do not survive a rewrite");
  for (std::size_t i = 0; i < rec.plies.size(); ++i)
    fuzz::check(
        again.plies[i].text == rec.plies[i].text && again.plies[i].side == rec.plies[i].side,
        "ply " + std::to_string(i + 1) + " changes in a rewrite");
  return 0;
}
