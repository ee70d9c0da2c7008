#include "eval/sowing_eval.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "core/data_dir.h"
#include "core/error.h"

namespace naqala::eval {

using sowing::CaptureKind;
using sowing::Rules;
using sowing::State;

namespace {

// The optional parts of a pit table (pit_table.h) fit `r`: a `late` part as large as the table,
// a `pairs` part only where captures take the pit opposite, with an entry for every pit and two
// counts. Read by every evaluation with a table, whether it came from a file or not.
void check_table_parts(const Rules& r, const PitTable& t) {
  if (!t.late.empty() && t.late.size() != t.value.size())
    throw Error("the evaluation file's 'late' table has " + std::to_string(t.late.size()) +
                " entries; its table has " + std::to_string(t.value.size()));
  if (t.pair.empty()) return;
  if (r.capture != CaptureKind::Opposite)
    throw Error(
        "the evaluation file has a 'pairs' table, for rulesets that capture the pit "
        "opposite; " +
        r.name + " does not");
  if (t.pair.size() != static_cast<std::size_t>(r.pits * kPairCounts * kPairCounts))
    throw Error("the evaluation file's 'pairs' table has " + std::to_string(t.pair.size()) +
                " entries; " + r.name + " needs " +
                std::to_string(r.pits * kPairCounts * kPairCounts));
}

// The file that holds a preset's trained evaluation: data/PRESET/eval.txt for the preset as it
// is, data/PRESET/eval-OPTION-VALUE[-OPTION-VALUE...].txt for a choice of its options (Kalah's
// seeds=6: data/kalah/eval-seeds-6.txt). A file that is not there: no table.
std::string shipped_eval_path(const Rules& r) {
  auto chosen = r.chosen;  // in the order they were given: the name must not depend on it
  std::sort(chosen.begin(), chosen.end());
  std::string file = "eval";
  for (const auto& [key, value] : chosen) file += "-" + key + "-" + value;
  return data_dir() + "/" + r.name + "/" + file + ".txt";
}

// The file a preset plays for one part of its evaluation: the one the environment variable
// `variable` names (for the preset as it is; it must be there), else `shipped` when it is there;
// `required` says which. Nothing when the variable says `none` or no file is there.
struct PresetFile {
  std::string path;
  bool required = false;
};
std::optional<PresetFile> preset_file(const Rules& r, const std::string& variable,
                                      const std::string& shipped) {
  const char* env = std::getenv(variable.c_str());
  const std::string chosen = env ? env : "";
  if (chosen == "none") return {};
  if (!chosen.empty() && r.chosen.empty()) return PresetFile{chosen, true};
  if (!std::filesystem::exists(shipped)) return {};
  return PresetFile{shipped, false};
}

// The trained evaluation the preset chooses, or null.
std::shared_ptr<const TrainedSowingEval> shipped_eval(const Rules& r) {
  if (r.name.empty() || r.rows != 2 || r.labels > r.pits) return nullptr;
  const auto file = preset_file(r, eval_variable(r.name), shipped_eval_path(r));
  if (!file) return nullptr;
  auto e = read_trained_eval_once(file->path);
  // A user's ruleset of the same name on another board is not the preset.
  return file->required || e->table.pits == r.pits ? e : nullptr;
}

// The network the preset chooses (kalah_net.h), or null: the file NAQALA_<PRESET>_NET names
// (`none`: no network) for the preset as it is, else data/PRESET/net.txt when it is there (the
// preset as it is only). Only rulesets that capture the pit opposite on two rows take one.
std::shared_ptr<const KalahNet> shipped_net(const Rules& r) {
  if (r.name.empty() || r.rows != 2 || r.labels > r.pits || r.capture != CaptureKind::Opposite ||
      !r.chosen.empty())
    return nullptr;
  const auto file =
      preset_file(r, preset_variable(r.name, "NET"), data_dir() + "/" + r.name + "/net.txt");
  if (!file) return nullptr;
  auto net = read_kalah_net_once(file->path);
  return file->required || net->pits == r.pits ? net : nullptr;
}

}  // namespace

SowingWeights trained_sowing_weights(const Rules& r, const TrainedSowingEval& e) {
  if (e.weights.size() > static_cast<std::size_t>(kSowingFeatures))
    throw Error("the evaluation file has " + std::to_string(e.weights.size()) +
                " weights; the sowing evaluation has " + std::to_string(kSowingFeatures));
  if (e.table.pits != r.pits || r.labels > r.pits || r.rows != 2)
    throw Error("the evaluation file's table is for " + std::to_string(e.table.pits) +
                " pits a row; " + r.name + " has " + std::to_string(r.pits));
  check_table_parts(r, e.table);
  SowingWeights w;
  std::copy(e.weights.begin(), e.weights.end(), w.w.begin());
  w.table = std::make_shared<const PitTable>(e.table);
  return w;
}

SowingWeights default_sowing_weights(const Rules& r) {
  if (const auto e = shipped_eval(r)) {
    SowingWeights w = trained_sowing_weights(r, *e);
    w.net = shipped_net(r);
    return w;
  }
  // Fitted by `naqala tune VARIANT ...` (docs/engines.md), in the feature order of
  // SowingFeature. Other rulesets take the set of their capture kind. Kalah's and Oware's
  // were fitted before `exposed` and `tuz` existed (their levels are measured with them).
  SowingWeights w;
  w.w = {106, 5, 133, 100, -41, 182, -65, 0, 0};                                 // kalah
  if (r.capture == CaptureKind::Counts) w.w = {99, 5, 60, 61, -26, 0, 0, 0, 0};  // oware
  if (r.capture == CaptureKind::None) w.w = {100, 5, 60, 0, 0, 100, -50, 0, 0};
  // toguz: `naqala tune toguz --games 400 --depth 4 --seed 1`
  if (r.tuz != sowing::TuzKind::None) w.w = {87, 8, 168, 65, -21, 0, 0, -2, 433};
  // namnam: `naqala tune namnam --games 400 --depth 6 --seed 1` (the seeds a player owns are
  // his at the round's end, so they weigh nearly as much as his store)
  if (r.rounds == sowing::RoundKind::NamNam) w.w = {118, 125, -34, 0, 0, 0, 0, 0, 0};
  return w;
}

SowingEval::SowingEval(const Rules& r, SowingWeights weights)
    : pits_(r.pits),
      holes_(r.pit_count()),
      labels_(r.labels),
      by_owner_(r.labels > r.pits),
      min_seeds_(r.min_seeds),
      extra_turn_(r.extra_turn ? 1 : 0),
      capture_(r.capture),
      empty_capture_(r.empty_capture),
      chain_(r.chain),
      cycle_owner_(r.cycle == sowing::CycleRule::Owner && r.rounds == sowing::RoundKind::None),
      total_seeds_(std::max(1, r.total_seeds)),
      count_mask_(r.count_mask),
      table_(weights.table),
      net_(weights.net),
      late_(table_ && !table_->late.empty()),
      pairs_(table_ && !table_->pair.empty()),
      weights_(weights) {
  if (table_ && (table_->pits != r.pits || by_owner_))
    throw Error("a pit table of " + std::to_string(table_->pits) + " pits a row cannot evaluate " +
                r.name);
  if (table_) check_table_parts(r, *table_);
  if (net_ && (net_->pits != r.pits || by_owner_ || r.rows != 2 || r.pits > 8 ||
               r.capture != CaptureKind::Opposite))
    throw Error("a Kalah network of " + std::to_string(net_->pits) +
                " pits a row cannot evaluate " + r.name);
  for (Player p : {Player::South, Player::North}) {
    const int pi = index(p);
    lap_[pi] = r.cycle_length[pi] - (r.skip_origin ? 1 : 0);
    for (int i = 0; i < r.labels; ++i) {
      const int origin = r.label_hole[pi][i];
      for (int c = 1; c <= kMaxCount; ++c) {
        int seeds = c;
        int hole = origin;
        // Sowing from the origin itself: its first seed goes back in (a single seed moves on).
        if (r.start == sowing::SowStart::Origin && c > 1) --seeds;
        while (seeds > 0) {
          hole = r.next[pi][hole];
          if (r.skip_origin && hole == origin) continue;
          --seeds;
        }
        landing_[pi][i * (kMaxCount + 1) + c] = static_cast<std::uint8_t>(hole);
      }
    }
  }
}

}  // namespace naqala::eval
