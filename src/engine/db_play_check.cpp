#include "engine/db_play_check.h"

#include <algorithm>
#include <chrono>

#include "core/error.h"
#include "core/rng.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "solve/sowing_solve.h"

namespace naqala::engine {

namespace {

using sowing::State;

int sign(int v) {
  return (v > 0) - (v < 0);
}

// A random position with n seeds in the pits: a board drawn uniformly among those of n seeds,
// the captured seeds split uniformly among the splits that leave the game running, either
// side to move. Nothing is before it (a position given as text starts the game).
State random_position(const sowing::Rules& rules, const solve::SowingDb& db, int n, Rng& rng) {
  const solve::Board b = db.index().unrank(rng.below(db.index().count(n)), n);
  const int captured = rules.total_seeds - n;
  const int stop = rules.threshold > 0 ? rules.threshold - 1 : captured;  // a store at most
  const int lowest = std::max(0, captured - stop), highest = std::min(captured, stop);
  const int south = lowest + static_cast<int>(rng.below(highest - lowest + 1));
  std::string text;
  for (int side = 0; side < 2; ++side)
    for (int i = 0; i < rules.pits; ++i)
      text += std::to_string(b.pit[8 * side + i]) + (i + 1 == rules.pits ? "/" : ",");
  text += std::to_string(south) + "," + std::to_string(captured - south);
  text += rng.below(2) ? "/S" : "/N";
  return State::from_position(rules, text);
}

// The final margin of the player to move at s after `move`, as bounds.
std::pair<int, int> move_bounds(const State& s, State::Move move, const solve::SowingDb& db,
                                const PlayCheckOptions& o) {
  const Player me = s.to_move();
  State c = s;
  c.play(move);
  if (c.is_over()) {
    const int margin = c.store(me) - c.store(opponent(me));
    const int v = !c.outcome().winner && margin != 0 ? 0 : margin;  // a draw whatever the stores
    return {v, v};
  }
  // After a capture nothing before can repeat; otherwise s itself can.
  const bool capture = c.irreversible_count() != s.irreversible_count();
  const std::uint64_t before[] = {s.hash()};
  const auto p =
      solve::solve_sowing(c, &db, o.referee_seconds,
                          capture ? std::span<const std::uint64_t>{} : before, o.referee_nodes);
  if (c.to_move() == me) return {p.low, p.high};
  return {-p.high, -p.low};
}

}  // namespace

bool PlayMiss::keeps_result() const {
  return sign(move_low) == sign(value) && sign(move_high) == sign(value);
}

PlayCheck check_play(const AnyGame& game, Engine& engine, const solve::SowingDb& db,
                     const PlayCheckOptions& options,
                     const std::function<void(const PlayCheck&)>& on_position) {
  const auto start_state = game.new_game();
  const auto* typed = dynamic_cast<const TypedState<State>*>(start_state.get());
  if (!typed) throw VariantError("the play check knows two-row sowing games only");
  const sowing::Rules& rules = typed->typed().rules();
  db.check_rules(rules);
  const int max_seeds =
      options.max_seeds > 0 ? std::min(options.max_seeds, db.max_seeds()) : db.max_seeds();
  if (max_seeds < 1) throw Error("the play check needs a database of at least 1 seed");
  const auto start = std::chrono::steady_clock::now();
  Rng rng(options.seed);
  PlayCheck out;
  // Positions with one move or an unsettled value are drawn again, up to a bound: a
  // database whose values the referee cannot settle ends the check with fewer positions.
  const int most_drawn = 20 * options.positions + 1000;
  while (out.checked < options.positions && out.forced + out.unsettled < most_drawn) {
    const int n = 1 + static_cast<int>(rng.below(max_seeds));
    const State s = random_position(rules, db, n, rng);
    if (s.is_over()) continue;
    State::MoveList moves;
    s.legal_moves(moves);
    if (moves.size() < 2) {
      ++out.forced;
      continue;
    }
    const auto referee =
        solve::solve_sowing(s, &db, options.referee_seconds, {}, options.referee_nodes);
    if (!referee.exact() || referee.optimal_moves.empty()) {
      ++out.unsettled;
      continue;
    }
    engine.new_game();
    const std::string move = engine.choose_move(*game.from_position(s.position()));
    const auto parsed = s.parse_move(move);
    if (!parsed) throw Error("the engine played " + move + ", not a move of " + s.position());
    const std::string text = s.format_move(*parsed);
    ++out.checked;
    const auto& best = referee.optimal_moves;
    if (std::find(best.begin(), best.end(), text) != best.end()) {
      ++out.optimal;
      ++out.result_kept;
    } else {
      // Not among the moves the referee proved: solve the move itself.
      const auto [low, high] = move_bounds(s, *parsed, db, options);
      PlayMiss miss{s.position(), text, referee.low, low, high, best};
      if (low == high && low == referee.low) {
        ++out.optimal;
        ++out.result_kept;
      } else {
        if (miss.keeps_result()) ++out.result_kept;
        out.misses.push_back(miss);
      }
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (on_position) on_position(out);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace naqala::engine
