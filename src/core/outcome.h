#pragma once
// How a finished game ended: who won, the final scores, and why it ended.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/player.h"

namespace naqala {

enum class EndReason : std::uint8_t {
  None,            // the game is not over
  RowEmpty,        // a player's pits are empty (Kalah-style exhaustion)
  Threshold,       // a player reached the winning score (25 in Oware, 82 in Toguz, ...)
  NoMove,          // the player to move has no legal move
  CannotFeed,      // the opponent is starving and no move feeds him
  Cycle,           // a position repeated (endless cycle)
  InfiniteSowing,  // a sowing that never ends: the game is annulled
  GrandSlam,       // a grand slam ended the game (capture_all / forbidden-and-forced)
  AllCaptured,     // every seed is in a store
  BorneOff,        // backgammon: a player bore off all checkers
  Resignation,
  Timeout,    // flag fall
  Agreement,  // draw or stalemate by agreement
  Other,
};

std::string_view to_string(EndReason r);
std::optional<EndReason> end_reason_from_string(std::string_view s);

struct Outcome {
  std::optional<Player> winner;     // nullopt = draw (or annulled, see reason)
  std::array<int, 2> scores{0, 0};  // indexed by index(Player)
  EndReason reason = EndReason::None;

  bool is_draw() const { return !winner.has_value(); }
  // Result from South's point of view: 1 win, 0 loss, 0.5 draw.
  double south_points() const { return winner ? (*winner == Player::South ? 1.0 : 0.0) : 0.5; }
  // "1-0", "0-1" or "1/2-1/2", as in game records.
  std::string result_tag() const;
  bool operator==(const Outcome&) const = default;
};

}  // namespace naqala
