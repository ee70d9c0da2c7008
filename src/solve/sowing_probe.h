#pragma once
// The endgame database as the alpha-beta search sees it (search/alphabeta.h's probe): the
// value of a sowing position with at most K seeds in the pits, on the search's scale, where
// the database knows it exactly.
#include <functional>
#include <memory>

#include "games/sowing/state.h"
#include "search/values.h"
#include "solve/kalah.h"
#include "solve/kalah_db.h"
#include "solve/sowing_db.h"

namespace naqala::solve {

// The probe for positions of the rules the database was built for. A board whose
// bounds differ (its value depends on the cycle rule or the history) is left to the search.
// With a stop at a majority that a store can still reach, the result is exact but not the
// margin: then `exact` is false and the margin is the one played to the end.
inline std::function<bool(const void*, int&, bool&)> sowing_probe(
    std::shared_ptr<const SowingDb> db) {
  return [db](const void* p, int& value, bool& exact) {
    const auto& s = *static_cast<const sowing::State*>(p);
    const int n = s.seeds_in_play();
    if (n > db->max_seeds()) return false;
    const auto b = db->bounds(board_of(s), n);
    if (!b.exact()) return false;
    const Player me = s.to_move();
    const int mine = s.store(me), theirs = s.store(opponent(me)), margin = mine - theirs + b.low;
    const int stop = s.rules().threshold;
    exact = stop == 0 || (mine + n < stop && theirs + n < stop);
    if (!exact && 2 * stop <= s.rules().total_seeds) return false;  // not a majority: unknown
    value = margin > 0   ? search::kWin + search::kPoint * margin
            : margin < 0 ? -search::kWin + search::kPoint * margin
                         : 0;
    return true;
  };
}

// The probe of a Kalah database (solve/kalah_db.h): Kalah has no stop at a store count, so every
// value it holds is the exact final margin.
inline std::function<bool(const void*, int&, bool&)> kalah_probe(
    std::shared_ptr<const EndgameDb> db) {
  return [db](const void* p, int& value, bool& exact) {
    const auto& s = *static_cast<const sowing::State*>(p);
    const int n = s.seeds_in_play();
    if (n > db->max_seeds()) return false;
    const Player me = s.to_move();
    const int margin = s.store(me) - s.store(opponent(me)) + 2 * db->value(board_of(s), n) - n;
    exact = true;
    value = margin > 0   ? search::kWin + search::kPoint * margin
            : margin < 0 ? -search::kWin + search::kPoint * margin
                         : 0;
    return true;
  };
}

}  // namespace naqala::solve
