#pragma once
// Evaluation of sowing positions (every ruleset of the sowing engine, users' TOML variants
// included). A linear sum of features, each counted from the view of the player to move;
// docs/engines.md describes them and how the weights were tuned. A player's side is his row,
// or, where pits change hands or the board has a middle row (Nam-Nam, Gabata), the pits he owns.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "eval/kalah_net.h"
#include "eval/pit_table.h"
#include "games/sowing/state.h"
#include "search/values.h"

namespace naqala::eval {

// The features, in the order of SowingWeights::w.
enum SowingFeature : int {
  kStoreDiff,      // seeds in own store minus the opponent's
  kRowDiff,        // seeds on own row (own pits) minus the opponent's
  kMobilityDiff,   // playable own pits minus the opponent's
  kCaptureNow,     // the most seeds one own move captures now
  kCaptureThreat,  // the most seeds one opponent move would capture if he moved now
  kExtraTurns,     // own pits whose sowing ends in own store (extra-turn games)
  kOpponentExtra,  // the opponent's such pits
  kExposed,        // seeds in own pits close to capture, minus the opponent's (see below)
  kTuz,            // own tuz minus the opponent's (Toguz korgool: 1, 0 or -1)
  kCycleRow,       // row_diff x the share of seeds captured x 4, where a cycle ends the game
                   // with each side taking his own seeds (Oware's `cycle = owner`); else 0
  kKroo,           // seeds in own pits that hold more than one lap (a kroo), minus the opponent's
  kPitTable,       // the pit table's value (pit_table.h), hundredths of a seed: weight 1 plays
                   // it as fitted, 0 leaves it out; 0 where the ruleset has no table
  kSowingFeatures,
};

inline constexpr std::array<const char*, kSowingFeatures> kSowingFeatureNames = {
    "store_diff",     "row_diff", "mobility_diff", "capture_now", "capture_threat", "extra_turns",
    "opponent_extra", "exposed",  "tuz",           "cycle_row",   "kroo",           "pit_table"};

// Weights in search units (kPoint = one seed) per unit of each feature; the value is the sum
// of weight times feature, so a feature that is bad for the mover has a negative weight.
struct SowingWeights {
  std::array<int, kSowingFeatures> w{};
  std::shared_ptr<const PitTable> table;  // null: no pit table
  // A Kalah network (kalah_net.h): boards with at most net->max_seeds seeds in the pits are
  // valued by the store difference and the network, the others by the weights and the table.
  std::shared_ptr<const KalahNet> net;
};

// The weights a preset plays with: tuned ones for the presets that have them (see
// default_sowing_weights in sowing_eval.cpp), a sound general set for any other ruleset.
// A preset with a trained evaluation (pit_table.h) plays it: data/PRESET/eval.txt for the
// preset as it is, data/PRESET/eval-OPTION-VALUE....txt for a choice of options (options in
// name order), each read once. NAQALA_<PRESET>_EVAL (Oware: NAQALA_OWARE_EVAL) names another
// file for the preset as it is, or `none`: the linear weights below for all its options.
SowingWeights default_sowing_weights(const sowing::Rules& rules);

// The weights of a trained evaluation file for `rules` (pit_table.h); throws naqala::Error
// when the file's table does not fit the board or it has too many weights.
SowingWeights trained_sowing_weights(const sowing::Rules& rules, const TrainedSowingEval& e);

class SowingEval {
 public:
  SowingEval(const sowing::Rules& rules, SowingWeights weights);
  explicit SowingEval(const sowing::Rules& rules)
      : SowingEval(rules, default_sowing_weights(rules)) {}

  int operator()(const sowing::State& s) const {
    if (net_) {
      const Player me = s.to_move(), you = opponent(me);
      const int diff = s.store(me) - s.store(you);
      if (total_seeds_ - s.store(me) - s.store(you) <= net_->max_seeds) {
        std::uint8_t mine[8], theirs[8];
        for (int i = 0; i < pits_; ++i) {
          mine[i] = static_cast<std::uint8_t>(s.pit(me, i));
          theirs[i] = static_cast<std::uint8_t>(s.pit(you, i));
        }
        int active[2 * 8 + 1];
        const int n = net_->active(mine, theirs, active);
        const float v = search::kPoint * (static_cast<float>(diff) + net_->forward(active, n));
        return std::clamp(static_cast<int>(v + (v < 0 ? -0.5f : 0.5f)), -search::kWin / 4,
                          search::kWin / 4);
      }
    }
    std::array<int, kSowingFeatures> f;
    features(s, f);
    int v = 0;
    for (int i = 0; i < kSowingFeatures; ++i) v += weights_.w[i] * f[i];
    return std::clamp(v, -search::kWin / 4, search::kWin / 4);
  }

  void features(const sowing::State& s, std::array<int, kSowingFeatures>& f) const {
    if (by_owner_) return features_by<true>(s, f);
    return features_by<false>(s, f);
  }

  const SowingWeights& weights() const { return weights_; }

 private:
  template <bool kByOwner>
  void features_by(const sowing::State& s, std::array<int, kSowingFeatures>& f) const {
    // One loop per capture kind: the pit loop tests no rule it does not need.
    if (capture_ == sowing::CaptureKind::Opposite)
      return features_for<sowing::CaptureKind::Opposite, kByOwner>(s, f);
    if (capture_ == sowing::CaptureKind::Counts)
      return features_for<sowing::CaptureKind::Counts, kByOwner>(s, f);
    return features_for<sowing::CaptureKind::None, kByOwner>(s, f);
  }

  // The evaluation is most of alpha-beta's time, and which pits are empty is unpredictable,
  // so the pit loop decides by masks and conditional moves; it branches only where a capture
  // is possible (rare). kByOwner: a player's pits are those he owns now, walked by his move
  // labels (his row first, then the pits he could come to own); otherwise his row.
  template <sowing::CaptureKind kCapture, bool kByOwner>
  void features_for(const sowing::State& s, std::array<int, kSowingFeatures>& f) const {
    const sowing::Rules& r = s.rules();
    const Player me = s.to_move(), you = opponent(me);
    int rows[2] = {0, 0}, mobile[2] = {0, 0}, extra[2] = {0, 0}, capture[2] = {0, 0};
    int exposed[2] = {0, 0}, kroo[2] = {0, 0}, table = 0, late = 0;
    // Bit h of `empty`: pit h holds no seed (opposite captures). Bit h of `capturable`: pit h,
    // one seed richer, holds a capturing count (counts captures).
    // Bit h of `north`: North owns pit h (by owner only).
    std::uint32_t empty = 0, capturable = 0, north = 0;
    for (int h = 0; h < holes_; ++h) {
      const int after = s.seeds(h) + 1;
      empty |= static_cast<std::uint32_t>(after == 1) << h;
      capturable |= static_cast<std::uint32_t>(after < 32 && ((count_mask_ >> (after & 31)) & 1))
                    << h;
      if constexpr (kByOwner)
        north |= static_cast<std::uint32_t>(s.owner_of(h) == Player::North) << h;
    }
    for (int pi = 0; pi < 2; ++pi) {
      const Player p = static_cast<Player>(pi);
      const int first = r.first_pit(p);  // North's row is the third on Gabata's board
      const int store = r.store(p);
      const std::uint8_t* land = landing_[pi].data();
      std::uint32_t own = ((1u << pits_) - 1) << first;
      if constexpr (kByOwner) own = pi ? north : ~north & ((1u << holes_) - 1);
      const std::uint32_t own_empty = empty & own;
      const std::uint32_t target = capturable & ~own;  // the opponent's capturing pits
      // This row's entries of the pit table: the mover's first (never by owner: refused).
      const int row_start = p == me ? 0 : pits_ * kTableCounts;
      const std::int16_t* row_table = table_ ? table_->value.data() + row_start : nullptr;
      const std::int16_t* row_late = late_ ? table_->late.data() + row_start : nullptr;
      for (int i = 0; i < (kByOwner ? labels_ : pits_); ++i) {
        const int hole = kByOwner ? r.label_hole[pi][i] : first + i;
        if constexpr (kByOwner)
          if (!((own >> hole) & 1)) continue;
        const int c = s.seeds(hole);
        rows[pi] += c;
        if constexpr (!kByOwner) {
          if (row_table) table += row_table[PitTable::index(0, i, pits_, c)];
          if (row_late) late += row_late[PitTable::index(0, i, pits_, c)];
        }
        // Close to capture: one more seed makes the pit a Counts capture (Oware's 1 and 2,
        // Toguz's odd counts), or its opposite pit is empty, where an opponent's sowing
        // ending captures it (Kalah).
        if constexpr (kCapture == sowing::CaptureKind::Counts)
          exposed[pi] += (capturable >> hole) & 1 ? c : 0;
        else if constexpr (kCapture == sowing::CaptureKind::Opposite)
          exposed[pi] += (empty >> (2 * pits_ - 1 - hole)) & 1 ? c : 0;
        // A pit that laps the board sows every pit at least once: the big capture it builds
        // up to is what its owner plays for (Oware's kroo).
        kroo[pi] += c > lap_[pi] ? c : 0;
        const bool playable = c >= min_seeds_;
        mobile[pi] += playable;
        // A pit that cannot move, or holds more seeds than the table covers, is not looked at.
        const bool looked = playable && c <= kMaxCount;
        const int last = land[i * (kMaxCount + 1) + (looked ? c : 0)];
        extra[pi] += looked && last == store ? extra_turn_ : 0;
        int take = 0;
        if constexpr (kCapture == sowing::CaptureKind::Opposite) {
          // The last seed lands in an own pit that was empty (or is the origin after a lap).
          const bool lands_empty = ((own_empty >> last) & 1) || last == hole;
          if (!looked || last == store || !lands_empty) continue;
          const int opposite = 2 * pits_ - 1 - last;
          if (s.seeds(opposite) > 0 || empty_capture_) take = s.seeds(opposite) + 1;
        } else if constexpr (kCapture == sowing::CaptureKind::Counts) {
          // Backwards along the chain, each pit one seed richer, as the sowing passed it.
          if (!looked || !((target >> last) & 1)) continue;
          const std::uint8_t* prev = r.prev[pi].data();
          int h = last;
          for (int back = 0; back < c && ((target >> h) & 1); ++back, h = prev[h]) {
            take += s.seeds(h) + 1;
            if (!chain_) break;
          }
        }
        capture[pi] = std::max(capture[pi], take);
      }
    }
    const int m = index(me), y = index(you);
    f[kStoreDiff] = s.store(me) - s.store(you);
    f[kRowDiff] = rows[m] - rows[y];
    f[kMobilityDiff] = mobile[m] - mobile[y];
    f[kCaptureNow] = capture[m];
    f[kCaptureThreat] = capture[y];
    f[kExtraTurns] = extra[m];
    f[kOpponentExtra] = extra[y];
    f[kExposed] = exposed[m] - exposed[y];
    f[kTuz] = (s.tuz(me) >= 0) - (s.tuz(you) >= 0);
    // Late in a game a repetition grows likely, and under an owner cycle rule the seeds on a
    // player's side are then his: they weigh more as the board empties.
    f[kCycleRow] = cycle_owner_ ? f[kRowDiff] * 4 * (s.store(me) + s.store(you)) / total_seeds_ : 0;
    f[kKroo] = kroo[m] - kroo[y];
    if constexpr (!kByOwner) {
      const int stored = s.store(me) + s.store(you);
      if (late_) table = (table * (total_seeds_ - stored) + late * stored) / total_seeds_;
      if (pairs_) {
        const int mine = r.first_pit(me), theirs = r.first_pit(you) + pits_ - 1;
        for (int k = 0; k < pits_; ++k)
          table += table_->pair[PitTable::pair_index(k, s.seeds(mine + k), s.seeds(theirs - k))];
      }
    }
    f[kPitTable] = table;
  }

  static constexpr int kMaxCount = 2 * sowing::kMaxHoles;  // counts above this are not looked ahead
  int pits_ = 0;
  int holes_ = 0;          // pits on the board (all rows)
  int labels_ = 0;         // pits a player may own (by owner only)
  bool by_owner_ = false;  // pits change hands (Nam-Nam) or the board has a middle row (Gabata)
  int min_seeds_ = 1;
  int extra_turn_ = 0;
  sowing::CaptureKind capture_ = sowing::CaptureKind::None;
  bool empty_capture_ = false;
  bool chain_ = false;
  bool cycle_owner_ = false;  // a repetition ends the game, each side taking his own seeds
  int total_seeds_ = 1;
  std::array<int, 2> lap_{};  // holes one sowing passes before it comes round (origin skipped)
  std::uint32_t count_mask_ = 0;
  std::shared_ptr<const PitTable> table_;  // only on boards of two rows walked by row
  std::shared_ptr<const KalahNet> net_;    // only on boards of two rows walked by row
  bool late_ = false;                      // the table has a `late` half (pit_table.h)
  bool pairs_ = false;                     // ... and a pair table
  // landing[p][label * (kMaxCount + 1) + count]: the hole where the last of `count` seeds sown
  // by p from the pit of that move label lands (the 12+ skip, which depends on the board, is
  // ignored). Labels below `pits` are his row's pits.
  std::array<std::array<std::uint8_t, sowing::kMaxLabels*(kMaxCount + 1)>, 2> landing_{};
  SowingWeights weights_;
};

// Bounds on a player's final store margin for the prover (search/prove.h): stores never lose
// seeds, so whatever is not yet in the opponent's store may still become R's, and R keeps
// what his store holds.
struct SowingMarginBounds {
  int lower(const sowing::State& s, Player r) const {
    return 2 * s.store(r) - s.rules().total_seeds;
  }
  int upper(const sowing::State& s, Player r) const {
    return s.rules().total_seeds - 2 * s.store(opponent(r));
  }
};

}  // namespace naqala::eval
