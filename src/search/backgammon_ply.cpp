// Backgammon n-ply search with move filters.
#include "search/backgammon_ply.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "core/rng.h"

namespace naqala::bgsearch {

using backgammon::MoveList;
using Clock = std::chrono::steady_clock;

namespace {

struct RollOf {
  int a, b;
  float weight;
};
constexpr std::array<RollOf, 21> kRolls = [] {
  std::array<RollOf, 21> r{};
  int n = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= a; ++b) r[n++] = {a, b, a == b ? 1.0f / 36 : 2.0f / 36};
  return r;
}();

// Shared by the threads of one search: evaluations spent and the guards.
struct Budget {
  std::atomic<std::uint64_t> evaluations{0};
  std::uint64_t limit = 0;
  Clock::time_point deadline{};
  bool timed = false;
  std::atomic<bool> stopped{false};
  bool spend(std::uint64_t n) {
    const std::uint64_t total = evaluations.fetch_add(n, std::memory_order_relaxed) + n;
    if ((limit && total > limit) || (timed && Clock::now() > deadline))
      stopped.store(true, std::memory_order_relaxed);
    return !stopped.load(std::memory_order_relaxed);
  }
};

struct Stop {};  // thrown when the budget runs out inside a ply

Probs on_roll_plies(const Net& net, const Board& b, int plies, Budget* budget);

// The mover (b[0]) has moved to `after`; its probabilities at `plies`.
Probs after_plies(const Net& net, const Board& after, int plies, Budget* budget) {
  if (backgammon::checkers_off(after[0]) == backgammon::kCheckers)
    return bgeval::finished(after[0], after[1]);
  return on_roll_plies(net, {after[1], after[0]}, plies, budget).inverted();
}

// The best move of b[0] for the roll by 0-ply; returns the board after it.
Board best_by_zero_ply(const Net& net, const Board& b, int d0, int d1, MoveList& moves,
                       Budget* budget) {
  backgammon::generate_moves(b, Player::South, d0, d1, moves);
  if (moves.empty()) return b;
  if (budget && !budget->spend(moves.size())) throw Stop{};
  Board best_board = b;
  float best = -10;
  for (const auto& m : moves) {
    Board after = b;
    backgammon::apply_steps(after, Player::South, m);
    const float eq = bgeval::after_move(net, after[0], after[1]).equity();
    if (eq > best) best = eq, best_board = after;
  }
  return best_board;
}

Probs on_roll_plies(const Net& net, const Board& b, int plies, Budget* budget) {
  if (plies == 0) {
    if (budget && !budget->spend(1)) throw Stop{};
    return bgeval::on_roll(net, b[0], b[1]);
  }
  if (auto exact = bearoff::evaluate(b[0], b[1])) return *exact;
  auto moves = std::make_unique<MoveList>();
  Probs sum{{0, 0, 0, 0, 0}};
  for (const auto& r : kRolls) {
    const Board after = best_by_zero_ply(net, b, r.a, r.b, *moves, budget);
    const Probs p = after_plies(net, after, plies - 1, budget);
    for (int k = 0; k < 5; ++k) sum.p[k] += r.weight * p.p[k];
  }
  return sum;
}

// The root's score of a candidate: cubeless, or cubeful with the cube of `config`.
float score_of(const Candidate& c, const Config& config) {
  if (!config.cube) return c.probs.equity();
  return bgcube::equity_after_move(c.probs, config.cube->access, bgcube::stage_of(c.after),
                                   config.cube->jacoby);
}

void sort_best_first(std::vector<Candidate>& c, std::size_t n) {
  std::stable_sort(c.begin(), c.begin() + n,
                   [](const Candidate& x, const Candidate& y) { return x.equity > y.equity; });
}

}  // namespace

std::optional<Config::Cube> cube_of(const backgammon::State& s) {
  if (!s.rules().cube || !s.rules().is_money()) return std::nullopt;
  return Config::Cube{bgcube::access_of(s), bgcube::jacoby_applies(s)};
}

Probs evaluate_on_roll(const Net& net, const Board& board, int plies) {
  return on_roll_plies(net, board, plies, nullptr);
}

Result rank_moves(const Net& net, const Board& board, int d0, int d1, const Config& config) {
  const auto start = Clock::now();
  Result result;
  auto moves = std::make_unique<MoveList>();
  backgammon::generate_moves(board, Player::South, d0, d1, *moves);
  Budget budget;
  budget.limit = config.max_evaluations;
  budget.timed = config.seconds > 0;
  budget.deadline = start + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(config.seconds));
  auto& c = result.moves;
  c.resize(moves->size());
  for (std::size_t i = 0; i < moves->size(); ++i) {
    c[i].move = (*moves)[i];
    c[i].after = board;
    backgammon::apply_steps(c[i].after, Player::South, (*moves)[i]);
    c[i].probs = bgeval::after_move(net, c[i].after[0], c[i].after[1]);
    c[i].equity = score_of(c[i], config);
  }
  budget.spend(c.size());
  if (config.noise > 0) {
    // Box-Muller noise, fixed by the seed and the position's moves.
    Rng rng(config.seed ^ (c.size() * 0x9e3779b97f4a7c15ULL));
    for (auto& x : c) {
      const double u = std::max(1e-12, rng.uniform()), v = rng.uniform();
      x.equity += config.noise *
                  static_cast<float>(std::sqrt(-2 * std::log(u)) * std::cos(6.283185307 * v));
    }
  }
  std::size_t live = c.size();
  sort_best_first(c, live);
  for (int ply = 1; ply <= config.plies && live > 0; ++ply) {
    const Filter f =
        config.filters.empty()
            ? Filter{}
            : config.filters[std::min<std::size_t>(ply - 1, config.filters.size() - 1)];
    std::size_t keep = 1;
    while (keep < live && keep < static_cast<std::size_t>(f.keep) &&
           c[keep].equity >= c[0].equity - f.margin)
      ++keep;
    // Score the kept moves at this ply on the threads; a move stopped by the guard keeps
    // its previous ply.
    std::vector<Candidate> next(c.begin(), c.begin() + keep);
    std::atomic<std::size_t> cursor{0};
    std::atomic<bool> incomplete{false};
    auto work = [&] {
      for (std::size_t i; (i = cursor.fetch_add(1)) < keep;) {
        try {
          next[i].probs = after_plies(net, next[i].after, ply, &budget);
          next[i].equity = score_of(next[i], config);
          next[i].plies = ply;
        } catch (const Stop&) {
          incomplete = true;
          return;
        }
      }
    };
    const int threads = std::clamp<int>(config.threads, 1, static_cast<int>(keep));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (incomplete) break;  // the deepest complete ply stands
    std::copy(next.begin(), next.end(), c.begin());
    live = keep;
    sort_best_first(c, live);
    result.plies = ply;
  }
  result.evaluations = budget.evaluations.load();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace naqala::bgsearch
