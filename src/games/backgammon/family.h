#pragma once
// The backgammon family for the registry: preset `backgammon` and its options, and the
// AnyState that adds dice (chance nodes) to the generic TypedState.
#include <memory>
#include <optional>
#include <string>

#include "games/backgammon/backgammon.h"
#include "games/registry.h"
#include "games/typed_state.h"

namespace naqala::backgammon {

// Parses the variant options (scoring, cube, jacoby, match, crawford, series); throws
// VariantError naming the option and its allowed values.
Rules parse_rules(const OptionValues& options);
// The canonical spec of a ruleset: "backgammon" plus the options that differ from the defaults.
std::string spec_of(const Rules& rules);
std::string rules_text(const Rules& rules);

class BackgammonState : public TypedState<State> {
 public:
  explicit BackgammonState(const State& s) : TypedState<State>(s, nullptr) {}
  std::unique_ptr<AnyState> clone() const override {
    return std::make_unique<BackgammonState>(*this);
  }
  // Also accepts "resign [single|gammon|backgammon]" from the player on roll (as in gnubg): an
  // offer to resign, which the opponent answers with accept or decline. Not among the listed
  // moves, so searches never offer; the answers are.
  void play(std::string_view move) override;
  bool is_chance_node() const override { return typed().is_chance_node(); }
  std::vector<ChanceText> chance_outcomes() const override;
  void apply_chance(std::string_view outcome) override;
  std::string sample_chance(Rng& rng) const override;
  // Random games with the dice rolled directly (the generic loop walks the outcome list).
  RandomPlayStats play_random(std::uint64_t seed, double seconds) const override;
};

// "resign", "resign gammon", "resign 3", ...: the multiplier 1-3, or nullopt if the text is
// not a resignation.
std::optional<int> parse_resignation(std::string_view text);
std::string format_resignation(int multiplier);

GameFamily family();

}  // namespace naqala::backgammon
