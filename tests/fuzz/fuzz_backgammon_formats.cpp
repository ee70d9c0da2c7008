// Backgammon's exchange formats: .mat match files, gnubg position and match IDs, FIBS boards.
// The first byte picks the format; every input is a ParseError or reads back after writing.
#include <string>

#include "core/error.h"
#include "fuzz_support.h"
#include "games/backgammon/formats.h"
#include "games/backgammon/mat.h"

using namespace naqala;
using namespace naqala::backgammon;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 4) {
      case 0: {
        const MatchRecord m = import_mat(text);
        replay(m);
        const MatchRecord back = import_mat(export_mat(m));
        fuzz::check(back.events == m.events, ".mat events change through export and import");
        break;
      }
      case 1: {
        const Player p = data[0] & 0x80 ? Player::North : Player::South;
        const Board b = decode_position_id(text, p);
        fuzz::check(decode_position_id(encode_position_id(b, p), p) == b,
                    "a position ID does not round-trip");
        break;
      }
      case 2: {
        const MatchKey k = decode_match_id(text);
        fuzz::check(decode_match_id(encode_match_id(k)) == k, "a match ID does not round-trip");
        break;
      }
      case 3: {
        const std::string written = write_fibs_board(parse_fibs_board(text));
        fuzz::check(write_fibs_board(parse_fibs_board(written)) == written,
                    "a FIBS board does not round-trip: " + written);
        break;
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
