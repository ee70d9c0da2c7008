// The sowing family's engines (Kalah, Oware, Toguz and every ruleset of games/sowing):
// alpha-beta over eval::SowingEval with the ruleset's weights, and MCTS.
#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/error.h"
#include "engine/book.h"
#include "engine/engine_family.h"
#include "engine/installed_db.h"
#include "engine/kalah_proof_pace.h"
#include "eval/pit_table.h"
#include "eval/sowing_eval.h"
#include "games/sowing/state.h"
#include "solve/compositions.h"
#include "solve/kalah_solver.h"
#include "solve/sowing_probe.h"
#include "solve/sowing_solve.h"

namespace naqala::engine {

namespace {

// Toguz korgool: nine pits a row and long games; each ply of depth costs about as much as
// two on Kalah, so the depths are smaller.
constexpr LevelTable kToguzLevels = {{
    {1, 4.0, 1, 1},
    {2, 2.5, 1, 1},
    {3, 1.5, 1, 1},
    {4, 1.0, 1, 1},
    {5, 0.5, 2, 1},
    {6, 0.2, 2, 1},
    {7, 0, 2, 1},
    {8, 0, 2, 1},
    {10, 0, 2, 1},
    {0, 0, 5, 1, 500'000},
}};

// A copy of the game's ruleset: engines keep their own, as the game object may go first.
std::shared_ptr<const sowing::Rules> rules_of(const AnyGame& game) {
  const auto probe = game.new_game();
  const auto* s = dynamic_cast<const TypedState<sowing::State>*>(probe.get());
  if (!s) throw Error("game '" + game.spec() + "' is not of the sowing family");
  return std::make_shared<const sowing::Rules>(s->typed().rules());
}

const LevelTable& levels_for(const sowing::Rules& rules) {
  return rules.tuz != sowing::TuzKind::None ? kToguzLevels : kBoardLevels;
}

bool same_ruleset(const sowing::Rules& a, const sowing::Rules& b) {
  return a.name == b.name && a.chosen == b.chosen && a.pits == b.pits && a.holes == b.holes;
}

// Alpha-beta over sowing states that refuses states of another ruleset (the evaluation's
// tables are the ruleset's).
class SowingAlphaBeta : public AlphaBetaEngine<sowing::State, eval::SowingEval> {
 public:
  // Kalah-like rulesets prove at the root with the Kalah solver (solve/kalah_solver.h) and its
  // database `kalah_db` (may be null) instead of `db`.
  struct KalahProver {
    solve::KalahRules rules;
    std::shared_ptr<const solve::EndgameDb> db;
  };
  SowingAlphaBeta(std::string name, std::shared_ptr<const sowing::Rules> rules,
                  AlphaBetaConfig config, eval::SowingWeights weights,
                  std::shared_ptr<const solve::SowingDb> db, std::optional<KalahProver> kalah,
                  std::shared_ptr<const OpeningBook> book)
      : AlphaBetaEngine(std::move(name), eval::SowingEval(*rules, weights), config),
        rules_(std::move(rules)),
        book_(std::move(book)),
        db_(std::move(db)),
        kalah_(std::move(kalah)),
        root_seconds_(config.limits.seconds * proof_share()) {
    // A depth or node limit asks for games that replay: a Kalah engine with one (a level, a
    // database given to `alphabeta:depth=D`) proves at the root only from its database.
    if (kalah_ && (config.limits.depth > 0 || config.limits.nodes > 0)) root_seconds_ = 0;
    // The root's prover is made with the engine, its table's pages mapped, so that the first
    // move does not pay for them against its clock (0.3 s over a 0.1 s move was seen).
    if (kalah_) {
      solver_ = std::make_unique<solve::Solver>(kalah_->rules, rules_->total_seeds,
                                                kalah_->db.get(), kSolverTableMb);
      solver_->touch_table();
    } else if (db_) {
      prover_ = std::make_unique<solve::SowingProver>(kProverTableMb);
      prover_->touch_table();
    }
  }
  void new_game() override {
    AlphaBetaEngine::new_game();
    pace_.new_game();
  }
  // The root's database search comes out of the move's time: the search gets what is left.
  std::string choose_move(const AnyState& state) override {
    check(state);
    if (auto b = from_book(state)) return b->best_move;
    const auto start = std::chrono::steady_clock::now();
    if (auto m = database_move(state, root_seconds_, limits().nodes)) return *m;
    search::Limits l = limits();
    if (l.seconds > 0) l.seconds = std::max(0.001, l.seconds - seconds_since(start));
    return choose(state, l);
  }
  std::string choose_move_on_clock(const AnyState& state, const Clock& clock) override {
    check(state);
    if (auto b = from_book(state)) return b->best_move;
    const auto start = std::chrono::steady_clock::now();
    if (clock.remaining > 0.5)
      if (auto m = database_move(state, clock.remaining / 100, limits().nodes)) return *m;
    Clock left = clock;
    left.remaining = std::max(0.0, clock.remaining - seconds_since(start));
    return AlphaBetaEngine::choose_move_on_clock(state, left);
  }
  Analysis analyze(const AnyState& state, const Limits& limits) override {
    check(state);
    // A depth, time or node limit asked for is a search asked for; the spec's own limits
    // (analyze without one) meet the book as a game does.
    if (limits.seconds <= 0 && limits.depth <= 0 && limits.nodes <= 0)
      if (auto b = from_book(state)) return *b;
    return AlphaBetaEngine::analyze(state, limits);
  }
  // The engine protocol's `go` and the arena: the root's database search as for a game move,
  // out of the same time (a share of the clock or of the move's time), unless the
  // search is to run until stopped or to give several lines.
  Analysis think(const AnyState& state, const SearchRequest& request) override {
    check(state);
    if (request.infinite || request.limits.multipv > 1)
      return AlphaBetaEngine::think(state, request);
    if (auto b = from_book(state)) {
      if (request.progress) request.progress(*b);
      return *b;
    }
    const auto start = std::chrono::steady_clock::now();
    // The engine's own share unless the request has a time: none for a Kalah engine whose own
    // depth or node limit makes its games replay.
    double share =
        request.limits.seconds > 0 ? request.limits.seconds * proof_share() : root_seconds_;
    if (request.on_clock)
      share = request.clock.remaining > 0.5 ? request.clock.remaining / 100 : -1;
    // A depth or node limit asks for a search that replays: no proof against the clock.
    const bool timed = request.limits.depth <= 0 && request.limits.nodes <= 0;
    const std::uint64_t nodes = request.limits.nodes > 0 ? request.limits.nodes : limits().nodes;
    if (share >= 0)
      if (auto p = database_proof(state, share, nodes, timed)) {
        Analysis a = proof_analysis(*p);
        if (request.progress) request.progress(a);
        return a;
      }
    SearchRequest left = request;
    const double used = seconds_since(start);
    if (left.limits.seconds > 0) left.limits.seconds = std::max(0.001, left.limits.seconds - used);
    if (left.on_clock) left.clock.remaining = std::max(0.0, left.clock.remaining - used);
    if (!left.on_clock && left.limits.seconds <= 0 && left.limits.depth <= 0 &&
        left.limits.nodes <= 0 && limits().seconds > 0 && limits().depth <= 0 &&
        limits().nodes <= 0)
      left.limits.seconds = std::max(0.001, limits().seconds - used);
    return AlphaBetaEngine::think(state, left);
  }

 private:
  // Where the database holds the position itself, a move proven optimal by the search on top
  // of it (solve/sowing_solve.h, the game's positions since the last capture counted), as an
  // engine with tablebases plays at the root; nothing where a small node budget does not settle
  // it, and the alpha-beta search (which probes the database below the root) moves.
  // `seconds` (0: none) bounds it too, a share of the move's time; `search_nodes` is the
  // search's node limit (0: none).
  std::optional<std::string> database_move(const AnyState& state, double seconds,
                                           std::uint64_t search_nodes) {
    if (auto p = database_proof(state, seconds, search_nodes)) return p->optimal_moves.front();
    return {};
  }
  // The proof behind database_move: exact, with at least one optimal move.
  // `timed`: the Kalah solver may spend `seconds` on a position outside its database.
  std::optional<solve::SowingProof> database_proof(const AnyState& state, double seconds,
                                                   std::uint64_t search_nodes, bool timed = true) {
    const auto& typed = dynamic_cast<const TypedState<sowing::State>&>(state);
    const sowing::State& s = typed.typed();
    if (kalah_) return kalah_proof(s, timed ? seconds : 0);
    if (!db_) return {};
    if (s.is_over() || s.seeds_in_play() > db_->max_seeds()) return {};
    const auto seen = typed.history();
    const auto before = seen.empty() ? seen : seen.first(seen.size() - 1);
    // The prover's table is kept from move to move: its entries are proven facts of the
    // ruleset, so they serve the later moves too.
    const auto p =
        prover_->solve(s, db_.get(), seconds, before, root_nodes(search_nodes, seconds), false);
    if (!p.exact() || p.optimal_moves.empty()) return {};
    return p;
  }

  // Kalah: the solver's exact margin and a move that reaches it, when it proves them within
  // `seconds` (a share of the move's time, so a time limit is needed unless the database holds
  // the position). Kalah has no repetition, so the history does not matter. Beyond the
  // database the proof is tried where it may fit in its time (engine/kalah_proof_pace.h: a
  // ceiling above the database, and fewer seeds after each failure); elsewhere the search
  // gets the whole move.
  std::optional<solve::SowingProof> kalah_proof(const sowing::State& s, double seconds) {
    const int n = s.seeds_in_play();
    const int db_seeds = kalah_->db ? kalah_->db->max_seeds() : 0;
    const bool in_db = kalah_->db && n <= db_seeds;
    if (s.is_over() || (!in_db && !pace_.should_try(n, db_seeds, seconds))) return {};
    const auto m = solve::prove_margin(s, *solver_, in_db ? 0 : seconds);
    if (!m.exact() || m.best_move.empty()) {
      if (!in_db) pace_.failed(n);
      return {};
    }
    if (!in_db) pace_.proven();
    solve::SowingProof p;
    p.low = p.high = m.low;
    p.best_move = m.best_move;
    p.optimal_moves = {m.best_move};
    p.nodes = m.nodes;
    p.seconds = m.seconds;
    return p;
  }

  // The root proof's node budget: as much as the search may spend when it has a node limit (a
  // proof node costs a fraction of a search node), none under a time limit alone (the time
  // share bounds it; at about 15 M proof nodes a second, a cap of 200,000 would end it after
  // about 0.015 s whatever the share), else 200,000 nodes (depth-limited levels).
  static std::uint64_t root_nodes(std::uint64_t search_nodes, double seconds) {
    constexpr std::uint64_t kRootNodes = 200'000;
    if (search_nodes > 0) return std::max(kRootNodes, search_nodes);
    return seconds > 0 ? 0 : kRootNodes;
  }

  // A proven final margin on the analysis scale: +-(1000 + margin), a draw 0.
  static Analysis proof_analysis(const solve::SowingProof& p) {
    Analysis a;
    a.best_move = p.optimal_moves.front();
    a.value = p.low > 0 ? 1000.0 + p.low : p.low < 0 ? -1000.0 + p.low : 0.0;
    a.pv = {a.best_move};
    a.scores.push_back({a.best_move, a.value});
    a.depth = p.depth;
    a.nodes = p.nodes;
    a.seconds = p.seconds;
    a.proven = true;
    return a;
  }

  // The root proof's share of a move's time: a quarter, half for Kalah, whose solver proves
  // the margin from far before the end (the 1,000-position check of docs/solving.md: the
  // misses were positions its quarter did not prove at the machine's load).
  double proof_share() const { return kalah_ ? 0.5 : 0.25; }

  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // The book's analysis where the book has searched every move of the position (engine/book.h).
  std::optional<Analysis> from_book(const AnyState& state) const {
    if (!book_) return {};
    return book_analysis(*book_, state);
  }

  void check(const AnyState& state) const {
    const auto& s = typed_state<sowing::State>(state, name());
    if (!same_ruleset(s.rules(), *rules_))
      throw Error("engine '" + name() + "' was made for " + rules_->name + " and cannot play " +
                  s.rules().name);
  }
  std::shared_ptr<const sowing::Rules> rules_;
  std::shared_ptr<const OpeningBook> book_;    // null: none
  std::shared_ptr<const solve::SowingDb> db_;  // null: none
  std::optional<KalahProver> kalah_;
  static constexpr std::size_t kProverTableMb = 32, kSolverTableMb = 64;
  std::unique_ptr<solve::SowingProver> prover_;  // with db_
  std::unique_ptr<solve::Solver> solver_;        // with kalah_
  KalahProofPace pace_;  // where the root proof is tried beyond the database
  double root_seconds_;  // the root's database search at most (0: none)
};

// A Kalah database of the rules' smallest boards (up to 3 million: Kalah's 6 pits, 12 seeds,
// 2.6 MB, about 0.4 s to build), built once a process for the timed engines given no db=: the
// root proof needs far fewer nodes with it (`2,5,2,7,0,3/5,1,5,0,0,0/0,18/S`: 441,000 with 10
// seeds, 218,000 with 12), so more positions are proven within the proof's share of the move.
std::shared_ptr<const solve::EndgameDb> small_kalah_db(const solve::KalahRules& rules) {
  static std::mutex mutex;
  static std::vector<std::shared_ptr<const solve::EndgameDb>> built;
  const std::lock_guard lock(mutex);
  for (const auto& db : built)
    if (db->rules() == rules) return db;
  constexpr std::uint64_t kBoards = 3'000'000;
  int seeds = 0;
  while (seeds < 24 && solve::Compositions(rules.pits, seeds + 1).offset(seeds + 2) <= kBoards)
    ++seeds;
  built.push_back(
      std::make_shared<const solve::EndgameDb>(solve::EndgameDb::build(rules, seeds, 1)));
  return built.back();
}

std::unique_ptr<Engine> make(const AnyGame& game, const EngineSpec& spec) {
  const auto rules = rules_of(game);
  if (spec.kind == "mcts") {
    const MctsConfig c = mcts_config(spec);
    eval::SowingEval eval(*rules);
    // The engine owns a copy of the ruleset; the leaf evaluation captures it with the tables.
    return std::make_unique<MctsEngine<sowing::State>>(
        spec.text, c, [eval, rules](const sowing::State& s) { return eval(s); });
  }
  AlphaBetaConfig base;
  base.options.hash_mb = 64;
  base.options.lmr_from_depth = 3;
  // db=FILE: the search probes an endgame database (naqala solve VARIANT --build-db K).
  EngineSpec rest = spec;
  std::string db_file;
  if (auto it = rest.options.find("db"); it != rest.options.end() && spec.kind == "alphabeta") {
    db_file = it->second;
    rest.options.erase(it);
  }
  // book=FILE|none: the opening book (engine/book.h); without it the preset's shipped book,
  // for the engines that play their best move (a level with noise plays without one).
  std::optional<std::string> book_file;
  if (auto it = rest.options.find("book"); it != rest.options.end()) {
    book_file = it->second;
    rest.options.erase(it);
  }
  AlphaBetaConfig c = search_config(rest, base, levels_for(*rules), {1, 0, 0}, true);
  // Checked before any database or book is read: a bad spec costs nothing.
  eval::SowingWeights w = eval::default_sowing_weights(*rules);
  w.w = parse_weights(spec, w.w, eval::kSowingFeatureNames);
  std::shared_ptr<const solve::SowingDb> db;
  std::optional<SowingAlphaBeta::KalahProver> kalah;
  // A Kalah-like ruleset plays from a database (the root proved by the solver on top of it,
  // the search's nodes probing it) when given one, or when one is installed and the engine
  // plays its best move (no noise: the default engine, the top levels). With a time per move
  // alone it also proves what it can beyond the database; without a database of its own it
  // builds the 12-seed one. Other limits keep the search alone, so its games replay.
  if (auto k = solve::kalah_rules_if_any(*rules)) {
    std::string source;
    std::shared_ptr<const solve::EndgameDb> kalah_db;
    if (!db_file.empty() || c.temperature <= 0)
      kalah_db = named_or_installed_kalah_db(game, *k, db_file, source);
    const bool timed = c.limits.seconds > 0 && c.limits.depth <= 0 && c.limits.nodes <= 0 &&
                       spec.kind == "alphabeta";
    if (kalah_db || timed)
      kalah = SowingAlphaBeta::KalahProver{*k, kalah_db ? kalah_db : small_kalah_db(*k)};
  }
  if (kalah) {
    c.options.probe = solve::kalah_probe(kalah->db);
  } else if (!db_file.empty()) {
    db = std::make_shared<const solve::SowingDb>(solve::SowingDb::load(db_file));
    db->check_rules(*rules);
    c.options.probe = solve::sowing_probe(db);
  }
  std::shared_ptr<const OpeningBook> book;
  if (book_file && *book_file != "none")
    book = read_book_once(game, *book_file);
  else if (!book_file && c.temperature <= 0)
    book = shipped_book(game);
  return std::make_unique<SowingAlphaBeta>(spec.text, rules, c, w, db, std::move(kalah),
                                           std::move(book));
}

const LevelTable& levels(const AnyGame& game) {
  return levels_for(*rules_of(game));
}

}  // namespace

EngineFamily sowing_engines() {
  return {"sowing", make, levels};
}

}  // namespace naqala::engine
