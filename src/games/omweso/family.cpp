#include "games/omweso/family.h"

#include <memory>

#include "games/board4/family_common.h"
#include "games/omweso/omweso.h"
#include "games/typed_state_json.h"

namespace naqala::omweso {

namespace {

VariantInfo info_of(Version v) {
  VariantInfo i;
  i.family = "omweso";
  if (v == Version::Standard) {
    i.name = "omweso";
    i.title = "Omweso";
    i.summary = "Uganda's four-row game: free setup, relay sowing, captures of both facing pits";
    i.aliases = {"mweso"};
    i.sowing_seconds = Rules{}.sowing_seconds;
    i.tournament = std::make_shared<const nlohmann::json>(
        nlohmann::json{{"flag", "loss"},
                       {"source",
                        "S4:144, 308: a player who has not moved by the referee's count of three "
                        "loses; S4:253-255: a sowing not finished in 2 minutes annuls the game"}});
  } else {
    i.name = "omweso-s0";
    i.title = "Omweso (S0 description)";
    i.summary =
        "Omweso as S0 tells it: 4 per inner pit, single sowing, optional captures, three ways to "
        "win";
  }
  i.options = option_infos(v);
  return i;
}

std::string rules_text(const Rules& r) {
  if (r.version == Version::Standard)
    return "Omweso (RULES.md 12, A18 standard). 4 x 8 board, no nyumba; each player sows only in "
           "his own 16 "
           "pits. Setup: South places his 32 seeds as he likes (one pit at a time, a1..h1 then "
           "a2..h2), then "
           "North; then South moves. A move lifts a pit of 2 or more seeds and sows "
           "counter-clockwise, "
           "relaying from occupied pits until a seed falls into an empty pit. When the last seed "
           "falls into an "
           "occupied own front pit and both opponent pits of that column hold seeds, both are "
           "taken and sown "
           "from the pit the move started from (that pit first), counter-clockwise, and the move "
           "goes on. From "
           "the four leftmost pits (a1, b1, a2, b2) a move may go clockwise if its first lap "
           "captures. An "
           "endless sowing annuls the game; so does a repeated position. A player with no legal "
           "move loses." +
           std::string(r.reverse_resow ? " Reverse-captured seeds may go clockwise again when "
                                         "that sowing captures at once."
                                       : "") +
           (r.win_both_ends ? " Captures at both ends of the board in one move win." : "") +
           (r.sowing_seconds ? " A sowing must end within " + std::to_string(r.sowing_seconds) +
                                   " seconds (a clock rule)."
                             : "");
  return "Omweso as S0 describes it. 4 seeds in each inner pit. A move lifts any non-empty pit and "
         "sows it once "
         "counter-clockwise (clockwise only if that sowing captures); no relay. A last seed in an "
         "occupied own "
         "front pit with both opponent pits of the column occupied may capture both (optional); "
         "the caught "
         "seeds are sown from the start pit, and further captures may follow. Wins: the opponent "
         "cannot move; "
         "both opponent kichwa taken within two consecutive moves; two captures before the "
         "opponent's first. "
         "A deadlock (repeated position) annuls the game.";
}

}  // namespace

GameFamily family() {
  GameFamily f;
  f.name = "omweso";
  f.variants = [] {
    return std::vector<VariantInfo>{info_of(Version::Standard), info_of(Version::S0)};
  };
  f.make = [](const VariantSpec& spec) -> std::unique_ptr<AnyGame> {
    for (Version v : {Version::Standard, Version::S0}) {
      VariantInfo i = info_of(v);
      if (!board4::names(i, spec.name)) continue;
      auto rules = std::make_shared<const Rules>(make_rules(v, spec.options));
      i.sowing_seconds = rules->version == Version::Standard ? rules->sowing_seconds : 0;
      return std::make_unique<board4::FourRowGame<State, Rules>>(rules, i, rules_text(*rules));
    }
    return nullptr;
  };
  return f;
}

}  // namespace naqala::omweso

// The board for the browser, instantiated here once (games/typed_state_json.h).
template nlohmann::json naqala::TypedState<naqala::omweso::State>::board_json() const;
