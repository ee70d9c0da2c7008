#include "engine/backgammon_engine.h"

#include <chrono>
#include <random>
#include <string>

#include "core/error.h"
#include "games/backgammon/bot.h"
#include "games/backgammon/family.h"

namespace naqala::engine {

namespace {

using backgammon::BackgammonState;

const BackgammonState& backgammon_state(const AnyState& state) {
  const auto* s = dynamic_cast<const BackgammonState*>(&state);
  if (!s) throw Error("the backgammon engine was given a state of another game");
  if (s->is_over()) throw IllegalMoveError("the game is over; there is no move to choose");
  if (s->is_chance_node()) throw IllegalMoveError("the dice are to be rolled, not a move chosen");
  return *s;
}

class BackgammonBot : public Engine {
 public:
  BackgammonBot(int level, std::uint64_t seed) : level_(level), rng_(seed) {}
  std::string name() const override { return "backgammon-bot:level=" + std::to_string(level_); }

  std::string choose_move(const AnyState& state) override {
    const auto& s = backgammon_state(state).typed();
    // Weaker levels blunder: a random checker play with probability (10 - level) / 27.
    if (s.phase() == backgammon::Phase::Moving &&
        rng_.below(27) < static_cast<std::uint32_t>(10 - level_)) {
      const auto moves = state.legal_moves();
      return moves[rng_.below(static_cast<std::uint32_t>(moves.size()))];
    }
    return s.format_move(backgammon::choose_move(s, &rng_).move);
  }

  Analysis analyze(const AnyState& state, const Limits&) override {
    const auto start = std::chrono::steady_clock::now();
    const auto& s = backgammon_state(state).typed();
    Analysis a;
    const auto choice = backgammon::choose_move(s, &rng_);
    a.best_move = s.format_move(choice.move);
    a.pv = {a.best_move};
    a.depth = 1;
    // Checker plays: every move with the bot's cubeless equity for the mover (in points).
    if (s.phase() == backgammon::Phase::Moving) {
      backgammon::MoveList moves;
      s.legal_moves(moves);
      for (const auto& m : moves) {
        backgammon::Board b = s.board();
        if (m.kind == backgammon::Move::Kind::Checkers) backgammon::apply_steps(b, s.on_roll(), m);
        const double eq = backgammon::evaluate_after_move(b, s.on_roll()).equity() * s.cube();
        a.scores.push_back({s.format_move(m), eq});
        ++a.nodes;
      }
      std::stable_sort(a.scores.begin(), a.scores.end(),
                       [](const MoveScore& x, const MoveScore& y) { return x.value > y.value; });
      a.value = a.scores.empty() ? 0 : a.scores.front().value;
    } else {
      const auto e = backgammon::evaluate_on_roll(s.board(), s.on_roll());
      const double eq = e.equity() * s.cube();
      a.value = s.to_move() == s.on_roll() ? eq : -eq;
      for (const auto& m : state.legal_moves())
        a.scores.push_back({m, m == a.best_move ? a.value : a.value - 0.01});
    }
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return a;
  }

 private:
  int level_;
  Rng rng_;
};

}  // namespace

std::unique_ptr<Engine> make_backgammon_engine(const AnyState& probe, std::string_view spec) {
  if (!dynamic_cast<const BackgammonState*>(&probe)) return nullptr;
  int level = 10;
  if (spec.starts_with("level:")) {
    const std::string n(spec.substr(6));
    try {
      std::size_t used = 0;
      level = std::stoi(n, &used);
      if (used != n.size()) level = 0;
    } catch (const std::exception&) {
      level = 0;
    }
    if (level < 1 || level > 10)
      throw VariantError("engine '" + std::string(spec) +
                         "': the level must be a whole number from 1 to 10");
  } else if (spec != "level" && spec != "bot") {
    throw VariantError(
        "engine '" + std::string(spec) +
        "': backgammon plays with level:N (N = 1..10), the 1-ply bot with cube decisions, or "
        "random; the alpha-beta and MCTS searches do not handle dice yet");
  }
  return std::make_unique<BackgammonBot>(level, std::random_device{}());
}

}  // namespace naqala::engine
