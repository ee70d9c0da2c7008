#include "games/omweso/family.h"

#include <memory>

#include "core/error.h"
#include "games/omweso/omweso.h"
#include "games/typed_state.h"

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
  } else {
    i.name = "omweso-s0";
    i.title = "Omweso (S0 description)";
    i.summary =
        "Omweso as S0 tells it: 4 per inner pit, single sowing, optional captures, three ways to "
        "win";
    i.options = {{"impasse_plies",
                  "plies without a capture that make an impasse (annulled); 0 = never",
                  "int",
                  "200",
                  {"0..10000"}}};
  }
  return i;
}

const char* rules_text(Version v) {
  if (v == Version::Standard)
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
           "move loses.";
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

class OmwesoGame : public AnyGame {
 public:
  explicit OmwesoGame(std::shared_ptr<const Rules> rules)
      : rules_(std::move(rules)), info_(info_of(rules_->version)) {}
  const VariantInfo& info() const override { return info_; }
  std::string spec() const override {
    return rules_->chosen.empty() ? rules_->name : rules_->name + ":" + rules_->chosen;
  }
  std::unique_ptr<AnyState> new_game() const override {
    return std::make_unique<TypedState<State>>(State::initial(*rules_), rules_);
  }
  std::unique_ptr<AnyState> from_position(std::string_view text) const override {
    return std::make_unique<TypedState<State>>(State::from_position(*rules_, text), rules_);
  }
  std::string rules_text() const override { return omweso::rules_text(rules_->version); }

 private:
  std::shared_ptr<const Rules> rules_;
  VariantInfo info_;
};

}  // namespace

GameFamily family() {
  GameFamily f;
  f.name = "omweso";
  f.variants = [] {
    return std::vector<VariantInfo>{info_of(Version::Standard), info_of(Version::S0)};
  };
  f.make = [](const VariantSpec& spec) -> std::unique_ptr<AnyGame> {
    for (Version v : {Version::Standard, Version::S0}) {
      const VariantInfo i = info_of(v);
      bool match = spec.name == i.name;
      for (const auto& a : i.aliases) match = match || spec.name == a;
      if (!match) continue;
      auto rules = std::make_shared<Rules>();
      rules->name = i.name;
      rules->version = v;
      for (const auto& [key, value] : spec.options) {
        if (v != Version::S0 || key != "impasse_plies")
          throw VariantError("unknown option '" + key + "' for " + i.name + "; " +
                             (v == Version::S0 ? "options: impasse_plies" : "it has no options"));
        int n = -1;
        try {
          std::size_t used = 0;
          n = std::stoi(value, &used);
          if (used != value.size()) n = -1;
        } catch (const std::exception&) {
        }
        if (n < 0 || n > 10000)
          throw VariantError("impasse_plies=" + value +
                             " is not allowed; allowed: 0 (never) to 10000");
        rules->impasse_plies = n;
        if (n != 200) {
          rules->chosen = "impasse_plies=";
          rules->chosen += std::to_string(n);
        }
      }
      return std::make_unique<OmwesoGame>(std::move(rules));
    }
    return nullptr;
  };
  return f;
}

}  // namespace naqala::omweso
