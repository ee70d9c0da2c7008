#include "eval/sowing_eval.h"

namespace naqala::eval {

using sowing::CaptureKind;
using sowing::Rules;
using sowing::State;

SowingWeights default_sowing_weights(const Rules& r) {
  SowingWeights w;
  // Tuned by `naqala tune` (docs/engines.md); presets without their own set use a general one.
  w.w = {100, 0, 5, 40, -25, 30, -10};
  if (r.capture == CaptureKind::Counts) w.w = {100, 0, 8, 50, -30, 0, 0};
  return w;
}

SowingEval::SowingEval(const Rules& r, SowingWeights weights) : weights_(weights) {
  auto t = std::make_shared<Tables>();
  t->pits = r.pits;
  t->max_count = 2 * r.holes;
  for (Player p : {Player::South, Player::North}) {
    const int pi = index(p);
    auto& land = t->landing[pi];
    land.assign(static_cast<std::size_t>(r.pits) * (t->max_count + 1), 0xff);
    for (int i = 0; i < r.pits; ++i) {
      const int origin = r.first_pit(p) + i;
      for (int c = 1; c <= t->max_count; ++c) {
        int seeds = c;
        int hole = origin;
        // Sowing from the origin itself: its first seed goes back in (a single seed moves on).
        if (r.start == sowing::SowStart::Origin && c > 1) --seeds;
        while (seeds > 0) {
          hole = r.next[pi][hole];
          if (r.skip_origin && hole == origin) continue;
          --seeds;
        }
        land[i * (t->max_count + 1) + c] = static_cast<std::uint8_t>(hole);
      }
    }
  }
  tables_ = std::move(t);
}

// The most seeds one move of `p` captures at once, read from the landing hole (for counted
// captures the chain is followed backwards with every pit on the way counted one seed richer,
// as the sowing passed it).
int SowingEval::best_capture(const State& s, Player p) const {
  const Rules& r = s.rules();
  const Tables& t = *tables_;
  const int pi = index(p);
  const int first = r.first_pit(p);
  int best = 0;
  for (int i = 0; i < r.pits; ++i) {
    const int c = s.seeds(first + i);
    if (c < r.min_seeds || c > t.max_count) continue;
    const int last = t.landing[pi][i * (t.max_count + 1) + c];
    if (!r.is_pit(last)) continue;
    int take = 0;
    if (r.capture == CaptureKind::Opposite) {
      // The last seed lands in an own pit that was empty (or the origin after a full lap).
      const bool empty_before =
          s.seeds(last) == 0 || (last == first + i && c >= r.cycle_length[pi]);
      if (r.owner(last) == p && empty_before && (s.seeds(r.opposite(last)) > 0 || r.empty_capture))
        take = s.seeds(r.opposite(last)) + 1;
    } else if (r.capture == CaptureKind::Counts) {
      int h = last;
      for (int back = 0; back < c && r.is_pit(h) && r.owner(h) != p; ++back, h = r.prev[pi][h]) {
        const int after = s.seeds(h) + 1;
        if (after >= 32 || !((r.count_mask >> after) & 1)) break;
        take += after;
        if (!r.chain) break;
      }
    }
    best = std::max(best, take);
  }
  return best;
}

void SowingEval::features(const State& s, std::array<int, kSowingFeatures>& f) const {
  const Rules& r = s.rules();
  const Tables& t = *tables_;
  const Player me = s.to_move(), you = opponent(me);
  f[kStoreDiff] = s.store(me) - s.store(you);
  int rows[2] = {0, 0}, mobile[2] = {0, 0}, extra[2] = {0, 0};
  for (Player p : {Player::South, Player::North}) {
    const int pi = index(p);
    const int first = r.first_pit(p);
    const int store = r.store(p);
    for (int i = 0; i < r.pits; ++i) {
      const int c = s.seeds(first + i);
      rows[pi] += c;
      if (c >= r.min_seeds) {
        ++mobile[pi];
        if (r.extra_turn && c <= t.max_count && t.landing[pi][i * (t.max_count + 1) + c] == store)
          ++extra[pi];
      }
    }
  }
  const int m = index(me), y = index(you);
  f[kRowDiff] = rows[m] - rows[y];
  f[kMobilityDiff] = mobile[m] - mobile[y];
  f[kExtraTurns] = extra[m];
  f[kOpponentExtra] = extra[y];
  if (r.capture == CaptureKind::None) {
    f[kCaptureNow] = f[kCaptureThreat] = 0;
  } else {
    f[kCaptureNow] = best_capture(s, me);
    f[kCaptureThreat] = best_capture(s, you);
  }
}

}  // namespace naqala::eval
