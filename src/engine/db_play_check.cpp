#include "engine/db_play_check.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "core/error.h"
#include "core/rng.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "solve/kalah_solver.h"
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
State random_position(const sowing::Rules& rules, const solve::Compositions& index, int n,
                      Rng& rng) {
  const solve::Board b = index.unrank(rng.below(index.count(n)), n);
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

// The final margin of the mover of s after `move` when it ends the game.
std::optional<int> final_margin(const State& s, State::Move move) {
  State c = s;
  c.play(move);
  if (!c.is_over()) return {};
  const Player me = s.to_move();
  const int margin = c.store(me) - c.store(opponent(me));
  return !c.outcome().winner && margin != 0 ? 0 : margin;  // a draw whatever the stores
}

// What the check asks of its referee: the position's exact value with the moves reaching it
// (not exact: the position is drawn again), and bounds on the final margin after one move.
struct Referee {
  std::function<solve::SowingProof(const State&)> judge;
  std::function<std::pair<int, int>(const State&, State::Move)> move_bounds;
};

// The check itself, whatever the referee: `draw` gives a position of n seeds in the pits, or
// nothing when the board it drew cannot be played (then another is drawn).
PlayCheck run_check(const AnyGame& game, Engine& engine, int max_seeds,
                    const std::function<std::optional<State>(int, Rng&)>& draw,
                    const Referee& referee, const PlayCheckOptions& options,
                    const PlayCheckProgress& on_position) {
  if (max_seeds < 1) throw Error("the play check needs a database of at least 1 seed");
  const auto start = std::chrono::steady_clock::now();
  Rng rng(options.seed);
  PlayCheck out;
  // Positions with one move or an unsettled value are drawn again, up to a bound: a
  // database whose values the referee cannot settle ends the check with fewer positions.
  // Boards that cannot be played (Kalah's with an empty row) are bounded the same way.
  const int most_drawn = 20 * options.positions + 1000;
  for (int unplayable = 0; out.checked < options.positions &&
                           out.forced + out.unsettled < most_drawn && unplayable < most_drawn;) {
    const int n = 1 + static_cast<int>(rng.below(max_seeds));
    const std::optional<State> drawn = draw(n, rng);
    if (!drawn || drawn->is_over()) {
      ++unplayable;
      continue;
    }
    const State& s = *drawn;
    State::MoveList moves;
    s.legal_moves(moves);
    if (moves.size() < 2) {
      ++out.forced;
      continue;
    }
    const solve::SowingProof judged = referee.judge(s);
    if (!judged.exact() || judged.optimal_moves.empty()) {
      ++out.unsettled;
      continue;
    }
    engine.new_game();
    const std::string move = engine.choose_move(*game.from_position(s.position()));
    const auto parsed = s.parse_move(move);
    if (!parsed) throw Error("the engine played " + move + ", not a move of " + s.position());
    const std::string text = s.format_move(*parsed);
    ++out.checked;
    const auto& best = judged.optimal_moves;
    if (std::find(best.begin(), best.end(), text) != best.end()) {
      ++out.optimal;
      ++out.result_kept;
    } else {
      // Not among the moves the referee proved: solve the move itself.
      const auto [low, high] = referee.move_bounds(s, *parsed);
      PlayMiss miss{s.position(), text, judged.low, low, high, best};
      if (low == high && low == judged.low) {
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

const sowing::Rules& checked_rules(const AnyGame& game, const std::unique_ptr<AnyState>& start) {
  const auto* typed = dynamic_cast<const TypedState<State>*>(start.get());
  if (!typed)
    throw VariantError("the play check knows two-row sowing games only, not " + game.spec());
  return typed->typed().rules();
}

}  // namespace

bool PlayMiss::keeps_result() const {
  return sign(move_low) == sign(value) && sign(move_high) == sign(value);
}

PlayCheck check_play(const AnyGame& game, Engine& engine, const solve::SowingDb& db,
                     const PlayCheckOptions& o, const PlayCheckProgress& on_position) {
  const auto start_state = game.new_game();
  const sowing::Rules& rules = checked_rules(game, start_state);
  db.check_rules(rules);
  const int max_seeds = o.max_seeds > 0 ? std::min(o.max_seeds, db.max_seeds()) : db.max_seeds();
  Referee referee;
  referee.judge = [&](const State& s) {
    return solve::solve_sowing(s, &db, o.referee_seconds, {}, o.referee_nodes);
  };
  referee.move_bounds = [&](const State& s, State::Move move) -> std::pair<int, int> {
    if (const auto v = final_margin(s, move)) return {*v, *v};
    State c = s;
    c.play(move);
    // After a capture nothing before can repeat; otherwise s itself can.
    const bool capture = c.irreversible_count() != s.irreversible_count();
    const std::uint64_t before[] = {s.hash()};
    const auto p =
        solve::solve_sowing(c, &db, o.referee_seconds,
                            capture ? std::span<const std::uint64_t>{} : before, o.referee_nodes);
    if (c.to_move() == s.to_move()) return {p.low, p.high};
    return {-p.high, -p.low};
  };
  const auto draw = [&](int n, Rng& rng) -> std::optional<State> {
    return random_position(rules, db.index(), n, rng);
  };
  return run_check(game, engine, max_seeds, draw, referee, o, on_position);
}

PlayCheck check_play_kalah(const AnyGame& game, Engine& engine, const solve::EndgameDb& db,
                           const PlayCheckOptions& o, const PlayCheckProgress& on_position) {
  const auto start_state = game.new_game();
  const sowing::Rules& rules = checked_rules(game, start_state);
  if (solve::kalah_rules(rules) != db.rules())
    throw Error("the Kalah database was built for other rules than " + rules.name);
  const int max_seeds = o.max_seeds > 0 ? o.max_seeds : db.max_seeds();
  if (max_seeds >= rules.total_seeds)
    throw Error("the play check's positions need fewer seeds in the pits than the game's " +
                std::to_string(rules.total_seeds) + " (some must be in the stores)");
  const solve::Compositions index(rules.pits, std::max(max_seeds, 1));
  constexpr std::size_t kTableMb = 128;
  solve::Solver solver(db.rules(), rules.total_seeds, &db, kTableMb);
  // The mover's final margin after `move`: the game's end, or the solver from there.
  auto bounds = [&](const State& s, State::Move move) -> std::pair<int, int> {
    if (const auto v = final_margin(s, move)) return {*v, *v};
    State c = s;
    c.play(move);
    const auto p = solve::prove_margin(c, solver, o.referee_seconds);
    if (c.to_move() == s.to_move()) return {p.low, p.high};  // an extra turn
    return {-p.high, -p.low};
  };
  Referee referee;
  referee.move_bounds = bounds;
  // Every move solved: the engine may choose any of several optimal moves.
  referee.judge = [&](const State& s) {
    State::MoveList moves;
    s.legal_moves(moves);
    solve::SowingProof p, unsettled;
    unsettled.high = 1;
    p.low = p.high = std::numeric_limits<int>::min();
    for (const auto m : moves) {
      const auto [low, high] = bounds(s, m);
      if (low != high) return unsettled;  // not within --time
      if (low > p.low) p.optimal_moves.clear();
      if (low >= p.low) p.optimal_moves.push_back(s.format_move(m));
      p.low = p.high = std::max(p.low, low);
    }
    return p;
  };
  // A board with an empty row has ended the game: drawn again.
  const auto draw = [&](int n, Rng& rng) -> std::optional<State> {
    const State s = random_position(rules, index, n, rng);
    const solve::Board b = solve::board_of(s);
    if (b.row(0) == 0 || b.row(1) == 0) return {};
    return s;
  };
  return run_check(game, engine, max_seeds, draw, referee, o, on_position);
}

}  // namespace naqala::engine
