#include "solve/kalah.h"

#include <stdexcept>
#include <string>

#include "core/error.h"
#include "games/sowing/state.h"
#include "solve/compositions.h"

namespace naqala::solve {

KalahRules kalah_rules(const sowing::Rules& r) {
  auto refuse = [&](const std::string& why) {
    throw VariantError("the Kalah solver cannot solve " + r.name + ": " + why +
                       " (it solves Kalah and its variants: kalah with any seeds= and "
                       "empty_capture=, or a TOML variant of Kalah with 1 to 8 pits per row)");
  };
  using namespace sowing;
  if (r.general || r.rows != 2) refuse("it has rules beyond single laps on two rows");
  if (r.pits < 1 || r.pits > 8) refuse("it has " + std::to_string(r.pits) + " pits per row");
  if (r.direction != Direction::Ccw) refuse("it sows clockwise");
  if (r.start != SowStart::Next || r.skip_origin || r.skip_full != 0)
    refuse("its sowing does not start in the next hole and pass every hole");
  if (r.stores != StoreSowing::Own) refuse("its sowing does not go through the own store only");
  if (r.min_seeds != 1) refuse("a pit needs more than one seed to be played");
  if (r.capture != CaptureKind::Opposite || !r.with_last_seed)
    refuse("its capture is not Kalah's (the last seed in an own empty pit takes the opposite pit)");
  if (r.must_feed) refuse("it obliges to feed");
  if (r.row_empty != RowEmptyCheck::Immediate || r.remaining != Remaining::Owner)
    refuse("its game does not end as soon as a row is empty, each player taking his own pits");
  if (r.threshold != 0) refuse("its game ends when a store reaches a threshold");
  if (r.cycle != CycleRule::None) refuse("its game ends on cycles");
  if (r.total_seeds > 255) refuse("it has more than 255 seeds");
  try {
    Compositions(r.pits, r.total_seeds);
  } catch (const std::overflow_error&) {
    refuse("its boards are too many to number in 64 bits");
  }
  return KalahRules{r.pits, r.empty_capture, r.extra_turn};
}

std::optional<KalahRules> kalah_rules_if_any(const sowing::Rules& rules) {
  try {
    return kalah_rules(rules);
  } catch (const VariantError&) {
    return std::nullopt;
  }
}

Board board_of(const sowing::State& s) {
  const sowing::Rules& r = s.rules();
  const Player me = s.to_move();
  Board b;
  for (int i = 0; i < r.pits; ++i) {
    b.pit[i] = static_cast<std::uint8_t>(s.pit(me, i));
    b.pit[8 + i] = static_cast<std::uint8_t>(s.pit(opponent(me), i));
  }
  return b;
}

}  // namespace naqala::solve
