#pragma once
// Evaluation of two-row sowing positions (every ruleset of the sowing engine, users' TOML
// variants included). A linear sum of features, each counted from the view of the player to
// move; docs/engines.md describes them and how the weights were tuned.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "games/sowing/state.h"
#include "search/values.h"

namespace naqala::eval {

// The features, in the order of SowingWeights::w.
enum SowingFeature : int {
  kStoreDiff,      // seeds in own store minus the opponent's
  kRowDiff,        // seeds on own row minus the opponent's row
  kMobilityDiff,   // playable own pits minus the opponent's
  kCaptureNow,     // the most seeds one own move captures now
  kCaptureThreat,  // the most seeds one opponent move would capture if he moved now
  kExtraTurns,     // own pits whose sowing ends in own store (extra-turn games)
  kOpponentExtra,  // the opponent's such pits
  kSowingFeatures,
};

inline constexpr std::array<const char*, kSowingFeatures> kSowingFeatureNames = {
    "store_diff",     "row_diff",    "mobility_diff", "capture_now",
    "capture_threat", "extra_turns", "opponent_extra"};

// Weights in search units (kPoint = one seed) per unit of each feature; the value is the sum
// of weight times feature, so a feature that is bad for the mover has a negative weight.
struct SowingWeights {
  std::array<int, kSowingFeatures> w{};
};

// The weights a preset plays with: tuned ones for the presets that have them (see
// default_sowing_weights in sowing_eval.cpp), a sound general set for any other ruleset.
SowingWeights default_sowing_weights(const sowing::Rules& rules);

class SowingEval {
 public:
  SowingEval(const sowing::Rules& rules, SowingWeights weights);
  explicit SowingEval(const sowing::Rules& rules)
      : SowingEval(rules, default_sowing_weights(rules)) {}

  int operator()(const sowing::State& s) const {
    std::array<int, kSowingFeatures> f;
    features(s, f);
    int v = 0;
    for (int i = 0; i < kSowingFeatures; ++i) v += weights_.w[i] * f[i];
    return std::clamp(v, -search::kWin / 4, search::kWin / 4);
  }
  void features(const sowing::State& s, std::array<int, kSowingFeatures>& f) const;
  const SowingWeights& weights() const { return weights_; }

 private:
  struct Tables {
    int pits = 0;
    int max_count = 0;  // counts above this are not looked ahead
    // landing[p][pit][count]: the hole the last seed of `count` seeds sown by p from his pit
    // lands in (ignoring the 12+ skip, which depends on the board).
    std::array<std::vector<std::uint8_t>, 2> landing;
  };
  int best_capture(const sowing::State& s, Player p) const;
  std::shared_ptr<const Tables> tables_;
  SowingWeights weights_;
};

}  // namespace naqala::eval
