#include "engine/arena.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>

#include "core/error.h"
#include "core/rng.h"
#include "engine/engine.h"
#include "games/registry.h"

namespace naqala::engine {

namespace {

double elo_of(double p) {
  p = std::clamp(p, 1e-6, 1 - 1e-6);
  return -400.0 * std::log10(1.0 / p - 1.0);
}

}  // namespace

void play_random_opening(AnyState& s, int plies, Rng& rng, int setup_plies) {
  if (setup_plies >= 0) {
    for (int p = 0; p < setup_plies; ++p) {
      const auto setup = s.uniform_setup_move(rng);
      if (!setup) break;
      s.play(*setup);
    }
    if (s.in_setup()) {
      if (plies > 0)
        throw Error("--setup-plies " + std::to_string(setup_plies) +
                    " leaves the rest of the setup to the engines, so there can be no random "
                    "plies of play before it (--opening-plies " +
                    std::to_string(plies) +
                    "): give --opening-plies 0, or setup plies that "
                    "complete the setup");
      return;
    }
  }
  for (int p = 0; p < plies && !s.is_over(); ++p) {
    if (s.is_chance_node()) {
      s.apply_chance(s.sample_chance(rng));
      --p;
      continue;
    }
    if (const auto setup = s.opening_setup_move(rng)) {
      s.play(*setup);
      --p;
      continue;
    }
    // Openings are made of ordinary moves: no cube action (backgammon's "double").
    auto moves = s.legal_moves();
    std::erase(moves, std::string("double"));
    if (moves.empty()) break;
    s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
  }
}

std::vector<std::string> make_openings(const AnyGame& game, int count, int plies,
                                       std::uint64_t seed, int setup_plies) {
  if (setup_plies >= 0) {
    if (!game.new_game()->in_setup())
      throw Error("--setup-plies: " + game.spec() +
                  " has no setup phase (Omweso's layout has one); leave it unset");
  }
  Rng rng(seed);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (int attempt = 0; static_cast<int>(out.size()) < count; ++attempt) {
    auto s = game.new_game();
    play_random_opening(*s, plies, rng, setup_plies);
    if (s->is_over()) continue;
    const std::string pos = s->position();
    if (attempt < 50 * count && !seen.insert(pos).second) continue;
    out.push_back(pos);
  }
  return out;
}

void elo_from_results(int wins, int draws, int losses, double& elo, double& margin) {
  const int n = wins + draws + losses;
  if (n == 0) {
    elo = margin = 0;
    return;
  }
  if (wins == n || losses == n) {
    // A clean sweep has no finite maximum-likelihood estimate. The estimate adds half a
    // point in one more game (score (n + 0.5) / (n + 1)); the margin reaches down to the
    // one-sided 95% bound, the score p with p^n = 0.05 (the sweep is that unlikely below it).
    const double sign = wins == n ? 1 : -1;
    elo = sign * elo_of((n + 0.5) / (n + 1));
    margin = std::abs(elo) - elo_of(std::pow(0.05, 1.0 / n));
    return;
  }
  const double mu = (wins + 0.5 * draws) / n;
  const double var =
      (wins * std::pow(1 - mu, 2) + draws * std::pow(0.5 - mu, 2) + losses * std::pow(mu, 2)) / n;
  const double half = 1.96 * std::sqrt(var / n);
  elo = elo_of(mu);
  // A lopsided short match puts mu +- half beyond 0 or 1, where the Elo is unbounded: the
  // interval stops at the sweep estimates, (n + 0.5) / (n + 1) and its mirror.
  const double edge = 0.5 / (n + 1);
  margin = (elo_of(std::min(mu + half, 1 - edge)) - elo_of(std::max(mu - half, edge))) / 2;
}

EngineGame play_engine_game(const AnyGame& game, const std::string& start_position,
                            const std::array<Engine*, 2>& by_side,
                            const std::array<std::string, 2>& names, const EngineGameOptions& o,
                            Rng& dice) {
  auto s = game.from_position(start_position);
  GameHistory history{start_position, {}};
  for (auto* e : by_side) e->new_game();
  EngineGame r;
  std::array<double, 2> clock{o.clock_base, o.clock_base};  // by side
  int failed_side = -1;
  std::string failure, failure_kind;
  while (!s->is_over() && r.plies < o.max_plies) {
    if (s->is_chance_node()) {
      const std::string roll = s->sample_chance(dice);
      s->apply_chance(roll);
      history.moves.push_back(roll);
      r.moves.emplace_back('*', roll);
      continue;
    }
    const int side = index(s->to_move());
    SearchRequest request;
    request.history = &history;
    request.limits.seconds = o.movetime;
    if (o.clock_base > 0) {
      request.on_clock = true;
      request.clock = {clock[side], o.clock_increment};
    }
    const auto start = std::chrono::steady_clock::now();
    std::string move;
    try {
      move = by_side[side]->think(*s, request).best_move;
    } catch (const EngineFailure& f) {
      failure_kind = f.kind();
      failure = f.what();
    }
    const double used =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.seconds[side] += used;
    ++r.decisions[side];
    if (failure.empty() && o.clock_base > 0) {
      clock[side] -= used;
      if (clock[side] < -o.time_margin) {
        failure_kind = "time forfeit";
        failure = names[side] + " ran out of time";
      }
      clock[side] += o.clock_increment;
    }
    if (failure.empty()) {
      try {
        s->play(move);
      } catch (const Error& err) {
        failure_kind = "illegal move";
        failure = names[side] + " played '" + move + "': " + err.what();
      }
    }
    if (!failure.empty()) {
      failed_side = side;
      failure += " (position " + s->position() + ")";
      break;
    }
    history.moves.push_back(move);
    r.moves.emplace_back(side == 0 ? 'S' : 'N', move);
    ++r.plies;
  }
  const Outcome out = s->outcome();
  double south = out.south_points();
  if (failed_side >= 0) {
    // The engine that failed loses the game.
    south = failed_side == 0 ? 0.0 : 1.0;
    r.end = failure_kind;
    r.failure = failure;
  } else if (!s->is_over()) {
    // Adjudicated by the score so far.
    south = out.scores[0] > out.scores[1] ? 1.0 : out.scores[0] < out.scores[1] ? 0.0 : 0.5;
    r.end = "adjudicated";
  } else {
    r.end = std::string(to_string(out.reason));
  }
  r.south_points = south;
  r.result = south == 1.0 ? "1-0" : south == 0.0 ? "0-1" : "1/2-1/2";
  return r;
}

ArenaResult run_arena(const ArenaOptions& o) {
  if (o.games < 1) throw Error("--games must be at least 1");
  if (o.threads < 1) throw Error("--threads must be at least 1");
  auto game = make_game(o.variant);
  const auto build = [&o](const AnyGame& g, const std::string& spec) {
    return o.make_engine ? o.make_engine(g, spec) : make_engine(g, spec);
  };
  // Fail early, on the calling thread, if a spec is wrong.
  for (const auto& spec : o.engines) build(*game, spec);
  const int pairs = (o.games + 1) / 2;
  const int total = 2 * pairs;
  const auto openings = make_openings(*game, pairs, o.opening_plies, o.seed, o.setup_plies);

  ArenaResult result;
  result.results.resize(total);
  std::atomic<int> next{0}, done{0};
  std::mutex mutex;
  std::array<double, 2> seconds{};
  std::array<std::uint64_t, 2> moves{};
  std::exception_ptr failure;

  auto worker = [&](int thread) {
    try {
      auto local_game = make_game(o.variant);
      std::array<std::unique_ptr<Engine>, 2> engines{build(*local_game, o.engines[0]),
                                                     build(*local_game, o.engines[1])};
      Rng dice(o.seed * 1000003 + thread);
      std::array<double, 2> my_seconds{};
      std::array<std::uint64_t, 2> my_moves{};
      for (int g; (g = next.fetch_add(1)) < total;) {
        const int first_side = g % 2;  // engines[0] plays South in even games
        const std::array<Engine*, 2> by_side{engines[first_side].get(),
                                             engines[1 - first_side].get()};
        const std::array<std::string, 2> names{o.engines[first_side], o.engines[1 - first_side]};
        const EngineGame played =
            play_engine_game(*local_game, openings[g / 2], by_side, names, o.game, dice);
        for (int side = 0; side < 2; ++side) {
          const int e = side == first_side ? 0 : 1;
          my_seconds[e] += played.seconds[side];
          my_moves[e] += played.decisions[side];
        }
        ArenaGame r;
        r.opening = openings[g / 2];
        r.first_engine_side = first_side;
        r.plies = played.plies;
        r.end = played.end;
        r.failure = played.failure;
        r.result = played.result;
        r.first_engine_points = first_side == 0 ? played.south_points : 1.0 - played.south_points;
        result.results[g] = r;
        const int d = done.fetch_add(1) + 1;
        if (o.progress) {
          std::lock_guard lock(mutex);
          o.progress(d, total);
        }
      }
      std::lock_guard lock(mutex);
      for (int e = 0; e < 2; ++e) {
        seconds[e] += my_seconds[e];
        moves[e] += my_moves[e];
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      next.store(total);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < o.threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);

  result.games = total;
  for (const auto& r : result.results) {
    if (r.first_engine_points == 1.0)
      ++result.wins;
    else if (r.first_engine_points == 0.0)
      ++result.losses;
    else
      ++result.draws;
    if (r.result == "1-0") ++result.south_wins;
    if (r.result == "0-1") ++result.north_wins;
  }
  result.score = (result.wins + 0.5 * result.draws) / total;
  elo_from_results(result.wins, result.draws, result.losses, result.elo, result.elo_margin);
  for (int e = 0; e < 2; ++e) {
    result.moves[e] = moves[e];
    result.seconds_per_move[e] = moves[e] ? seconds[e] / moves[e] : 0;
  }
  return result;
}

}  // namespace naqala::engine
