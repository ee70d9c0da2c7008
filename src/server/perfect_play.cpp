#include "server/perfect_play.h"

#include "core/error.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "solve/sowing_solve.h"

namespace naqala::server {

nlohmann::json perfect_play(const AnyState& state,
                            const std::vector<std::shared_ptr<const solve::SowingDb>>& dbs) {
  nlohmann::json out = {{"known", false}};
  const auto* typed = dynamic_cast<const TypedState<sowing::State>*>(&state);
  if (!typed || state.is_over()) return out;
  const sowing::State& s = typed->typed();
  const solve::SowingDb* db = nullptr;
  for (const auto& d : dbs) {
    if (s.seeds_in_play() > d->max_seeds()) continue;
    try {
      d->check_rules(s.rules());
      db = d.get();
      break;
    } catch (const Error&) {  // built for other rules
    }
  }
  if (!db) return out;
  // A node budget keeps the answer quick (the hub's thread waits for it) and the same on any
  // machine; what it does not settle stays unknown.
  const auto seen = typed->history();
  const auto before = seen.empty() ? seen : seen.first(seen.size() - 1);
  constexpr std::uint64_t kNodes = 200'000;
  const auto p = solve::solve_sowing(s, db, 0, before, kNodes);
  if (!p.decided()) return out;
  out["known"] = true;
  out["to_move"] = std::string(name(s.to_move()));
  out["result"] = p.low >= 1 ? "won" : p.high <= -1 ? "lost" : "drawn";
  out["exact"] = p.exact();
  out["margin_low"] = p.low;
  out["margin_high"] = p.high;
  out["best_move"] = p.best_move;
  out["optimal_moves"] = p.optimal_moves;
  out["db_seeds"] = db->max_seeds();
  return out;
}

}  // namespace naqala::server
