// The neural backgammon engine.
#include "engine/backgammon_net_engine.h"

#include <chrono>

#include "core/error.h"
#include "engine/backgammon_resign.h"
#include "engine/typed_engines.h"
#include "eval/backgammon_cube.h"

namespace naqala::engine {

namespace {

using backgammon::Phase;
using backgammon::State;

struct LevelRow {
  int plies;
  float noise;
  int keep0, keep1;  // filter counts after ply 0 and ply 1
  int cube_plies;
};
// Levels 1-5: 0-ply with less and less noise (equity, standard deviation); 6: plain 0-ply;
// 7: 1-ply; 8-10: 2-ply with wider and wider filters. Levels 6-10 decide the cube at 2 plies
// (under 10 ms of CPU): on 300 contact positions where doubling is a question it lost a third
// of what 0 ply did (docs/games/backgammon.md, "Contact doubling against gnubg").
constexpr std::array<LevelRow, 10> kLevels = {{
    {0, 0.30f, 8, 2, 0},
    {0, 0.18f, 8, 2, 0},
    {0, 0.10f, 8, 2, 0},
    {0, 0.05f, 8, 2, 0},
    {0, 0.02f, 8, 2, 0},
    {0, 0, 8, 2, 2},
    {1, 0, 8, 2, 2},
    {2, 0, 8, 2, 2},
    {2, 0, 10, 3, 2},
    {2, 0, 14, 5, 2},
}};

bgsearch::Config config_of(const LevelRow& l) {
  bgsearch::Config c;
  c.plies = l.plies;
  c.noise = l.noise;
  c.filters = {{l.keep0, 0.16f}, {l.keep1, 0.04f}};
  // A budget of evaluations keeps a level's strength on a busy machine; the wall-time guard
  // only stops a search that would run far too long.
  c.max_evaluations = l.plies == 0 ? 0 : l.plies == 1 ? 2'000'000 : 10'000'000;
  c.seconds = 30;
  c.threads = l.plies == 0 ? 1 : 2;
  return c;
}

bgeval::Board board_of(const State& s) {
  return {s.side(s.on_roll()), s.side(opponent(s.on_roll()))};
}

class NetEngine : public Engine {
 public:
  NetEngine(std::string name, const NetEngineConfig& c)
      : name_(std::move(name)), config_(c), net_(bgeval::shipped_net()) {}
  std::string name() const override { return name_; }

  std::string choose_move(const AnyState& state) override {
    return analyze(state, Limits{}).best_move;
  }

  Analysis analyze(const AnyState& state, const Limits& limits) override {
    const auto& s = typed_state<State>(state, name_);
    if (s.is_over()) throw IllegalMoveError("the game is over; there is no move to choose");
    if (s.is_chance_node()) throw IllegalMoveError("a chance event (dice) is due, not a move");
    const auto start = std::chrono::steady_clock::now();
    Analysis a;
    if (s.resignation_offered()) {
      // The answer to the opponent's offer: what it scores against what playing on is worth,
      // both for the answerer (points per cube, or match-winning chance).
      const double accept =
          bgresign::for_opponent(s, bgresign::resigned_value(s, s.resignation_offered()));
      const double play_on =
          bgresign::for_opponent(s, bgresign::play_on_value(s, net_, config_.cube_plies));
      const bool accepted = bgresign::accepts(s, net_, config_.cube_plies);
      a.scores = {{"accept", accept}, {"decline", play_on}};
      if (!accepted) std::swap(a.scores[0], a.scores[1]);
      a.best_move = a.scores[0].move;
      a.value = a.scores[0].value;
      a.depth = config_.cube_plies;
    } else if (s.phase() == Phase::Moving) {
      bgsearch::Config c = config_.search;
      // A depth asks for that many plies; a time is a guard, never a replacement for the
      // level's plies.
      if (limits.depth > 0) c.plies = std::min(limits.depth, 3);
      if (limits.seconds > 0) c.seconds = limits.seconds;
      if (limits.nodes > 0) c.max_evaluations = limits.nodes;
      c.seed = seed_++;
      c.cube = bgsearch::cube_of(s);
      const auto r = bgsearch::rank_moves(net_, board_of(s), s.die(0), s.die(1), c);
      if (r.moves.empty()) {
        a.best_move = s.format_move(backgammon::Move::of(backgammon::Move::Kind::Pass));
        a.scores = {{a.best_move, 0.0}};
        a.value = -bgsearch::evaluate_on_roll(net_, {board_of(s)[1], board_of(s)[0]}, 0).equity();
      } else {
        for (const auto& m : r.moves) a.scores.push_back({s.format_move(m.move), m.equity});
        a.best_move = a.scores[0].move;
        a.value = r.moves[0].equity;
      }
      a.depth = r.plies;
      a.nodes = r.evaluations;
    } else {
      // Cube decisions: the doubler's (player on roll's) chances with him to roll.
      const bgnet::Probs p = bgsearch::evaluate_on_roll(net_, board_of(s), config_.cube_plies);
      const backgammon::Move m = bgcube::cube_action(s, p);
      a.best_move = s.format_move(m);
      const float eq = s.phase() == Phase::Doubled ? -p.equity() : p.equity();
      for (const auto& text : state.legal_moves())
        a.scores.push_back({text, text == a.best_move ? eq : eq - 0.001});
      std::stable_sort(a.scores.begin(), a.scores.end(),
                       [](const MoveScore& x, const MoveScore& y) { return x.value > y.value; });
      a.value = eq;
      a.depth = config_.cube_plies;
    }
    a.pv = {a.best_move};
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return a;
  }

 private:
  std::string name_;
  NetEngineConfig config_;
  const bgnet::Net& net_;
  std::uint64_t seed_ = config_.search.seed;
};

}  // namespace

NetEngineConfig backgammon_level(int level) {
  if (level < 1 || level > 10)
    throw VariantError("level " + std::to_string(level) + " does not exist; levels are 1 to 10");
  const LevelRow& l = kLevels[level - 1];
  return {config_of(l), l.cube_plies};
}

std::string backgammon_level_text(int level) {
  const LevelRow& l = kLevels[level - 1];
  std::string s = "net:plies=" + std::to_string(l.plies);
  if (l.noise > 0) {
    std::string n = std::to_string(l.noise);
    n.erase(n.find_last_not_of('0') + 1);
    s += ",noise=" + n;
  }
  if (l.plies > 0) s += ",keep=" + std::to_string(l.keep0) + "/" + std::to_string(l.keep1);
  const auto c = config_of(l);
  if (c.max_evaluations) s += ",evals=" + std::to_string(c.max_evaluations);
  s += ",cube=" + std::to_string(l.cube_plies);
  if (c.threads > 1) s += ",threads=" + std::to_string(c.threads);
  return s;
}

std::unique_ptr<Engine> make_backgammon_net_engine(std::string name,
                                                   const NetEngineConfig& config) {
  return std::make_unique<NetEngine>(std::move(name), config);
}

}  // namespace naqala::engine
