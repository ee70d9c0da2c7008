// The data-driven sowing engine against plain hand-written loops of the same rules: the
// generality must cost nothing. Each iteration is one uniformly random game from the start;
// the `plies` rate is the figure to compare (run: build/release/bench/naqala_bench).
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>

#include "core/rng.h"
#include "games/registry.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"

namespace {

using naqala::Rng;

constexpr int kPlyCap = 2000;  // both sides of each comparison stop a game at the same cap

// Plain Kalah 6x4: holes 0-5 South, 6 South store, 7-12 North, 13 North store.
int plain_kalah_game(Rng& rng) {
  std::array<int, 14> b{4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0};
  int p = 0, plies = 0;
  while (plies < kPlyCap) {
    int base = p ? 7 : 0, moves[6], n = 0;
    for (int i = 0; i < 6; ++i)
      if (b[base + i]) moves[n++] = base + i;
    int h = moves[rng.below(n)], s = b[h], skip = p ? 6 : 13, store = p ? 13 : 6;
    b[h] = 0;
    while (s) {
      h = h == 13 ? 0 : h + 1;
      if (h == skip) continue;
      ++b[h];
      --s;
    }
    ++plies;
    if (h >= base && h < base + 6 && b[h] == 1 && b[12 - h]) {
      b[store] += b[12 - h] + 1;
      b[12 - h] = b[h] = 0;
    }
    int south = b[0] + b[1] + b[2] + b[3] + b[4] + b[5];
    int north = b[7] + b[8] + b[9] + b[10] + b[11] + b[12];
    if (!south || !north) break;
    if (h != store) p ^= 1;
  }
  return plies;
}

// Plain Oware abapa: holes 0-5 South, 6-11 North; origin skipped on laps, 2-3 chain captures,
// grand slam captures nothing, must feed, 25 wins or 24-24.
int plain_oware_game(Rng& rng) {
  std::array<int, 12> b;
  b.fill(4);
  int stores[2] = {0, 0}, p = 0, plies = 0;
  while (plies < kPlyCap) {
    const int base = p * 6, obase = 6 - base;
    int opp_seeds = 0;
    for (int i = 0; i < 6; ++i) opp_seeds += b[obase + i];
    int moves[6], n = 0;
    for (int i = 0; i < 6; ++i) {
      const int h = base + i;
      if (b[h] && (opp_seeds || b[h] > 5 - i)) moves[n++] = h;
    }
    if (!n) break;  // cannot feed (or cannot move): the game ends
    const int origin = moves[rng.below(n)];
    int h = origin, s = b[origin];
    b[origin] = 0;
    while (s) {
      h = h == 11 ? 0 : h + 1;
      if (h == origin) continue;
      ++b[h];
      --s;
    }
    ++plies;
    if (h >= obase && h < obase + 6 && (b[h] == 2 || b[h] == 3)) {
      int take = 0, c = h;
      while (c >= obase && (b[c] == 2 || b[c] == 3)) take += b[c--];
      int left = 0;
      for (int i = 0; i < 6; ++i) left += b[obase + i];
      if (take != left) {
        for (c = h; c >= obase && (b[c] == 2 || b[c] == 3); --c) b[c] = 0;
        stores[p] += take;
      }
    }
    if (stores[0] >= 25 || stores[1] >= 25 || (stores[0] == 24 && stores[1] == 24)) break;
    p ^= 1;
  }
  return plies;
}

// Plain Toguz Korgool: holes 0-8 South, 9-17 North; the first stone back into the origin,
// even captures, the automatic tuz (never pit 9, not the number of the other's tuz, one each;
// stones sown into it go to its owner), 82 ends the game, 81-81 draws.
int plain_toguz_game(Rng& rng) {
  std::array<int, 18> b;
  b.fill(9);
  int stores[2] = {0, 0}, tuz[2] = {-1, -1}, p = 0, plies = 0;
  while (plies < kPlyCap) {
    const int base = p * 9, obase = 9 - base;
    int moves[9], n = 0;
    for (int i = 0; i < 9; ++i)
      if (b[base + i]) moves[n++] = base + i;  // a tuz is always empty
    if (!n) break;
    const int origin = moves[rng.below(n)];
    int s = b[origin], h = origin;
    b[origin] = 0;
    if (s > 1) {
      b[origin] = 1;
      --s;
    }
    while (s) {
      h = h == 17 ? 0 : h + 1;
      if (h == tuz[0])
        ++stores[0];
      else if (h == tuz[1])
        ++stores[1];
      else
        ++b[h];
      --s;
    }
    ++plies;
    if (h >= obase && h < obase + 9 && h != tuz[0] && h != tuz[1]) {
      if (b[h] % 2 == 0) {
        stores[p] += b[h];
        b[h] = 0;
      } else if (b[h] == 3 && tuz[p] < 0 && h != obase + 8 &&
                 !(tuz[1 - p] >= 0 && tuz[1 - p] - base == h - obase)) {
        tuz[p] = h;
        stores[p] += 3;
        b[h] = 0;
      }
    }
    if (stores[0] >= 82 || stores[1] >= 82 || (stores[0] == 81 && stores[1] == 81)) break;
    p ^= 1;
  }
  return plies;
}

// Plain WNG Mangala: holes 0-5 South, 6 South store, 7-12 North, 13 North store, both stores
// sown; the first seed back into the origin, extra turn in the own store, the Kalah capture
// and the even capture, 25 ends the game, 24-24 draws, an empty row ends it.
int plain_mangala_game(Rng& rng) {
  std::array<int, 14> b{4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0};
  int p = 0, plies = 0;
  while (plies < kPlyCap) {
    const int base = p ? 7 : 0, obase = 7 - base, store = base + 6;
    int moves[6], n = 0;
    for (int i = 0; i < 6; ++i)
      if (b[base + i]) moves[n++] = base + i;
    int h = moves[rng.below(n)], s = b[h];
    b[h] = 0;
    if (s > 1) {
      b[h] = 1;
      --s;
    }
    while (s--) {
      h = h == 13 ? 0 : h + 1;
      ++b[h];
    }
    ++plies;
    if (h >= base && h < base + 6 && b[h] == 1 && b[12 - h]) {
      b[store] += b[12 - h] + 1;
      b[12 - h] = b[h] = 0;
    } else if (h >= obase && h < obase + 6 && b[h] % 2 == 0) {
      b[store] += b[h];
      b[h] = 0;
    }
    if (b[6] >= 25 || b[13] >= 25 || (b[6] == 24 && b[13] == 24)) break;
    int south = b[0] + b[1] + b[2] + b[3] + b[4] + b[5];
    int north = b[7] + b[8] + b[9] + b[10] + b[11] + b[12];
    if (!south || !north) break;
    if (h != store) p ^= 1;
  }
  return plies;
}

template <int (*Game)(Rng&)>
void BM_Plain(benchmark::State& state) {
  Rng rng(1);
  std::int64_t plies = 0;
  for (auto _ : state) plies += Game(rng);
  state.counters["plies"] =
      benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}

void BM_Engine(benchmark::State& state, const char* preset) {
  using naqala::sowing::State;
  const auto& presets = naqala::sowing::presets();
  std::string_view toml;
  for (const auto& p : presets)
    if (p.name == preset) toml = p.toml;
  auto rules = naqala::sowing::load_rules(toml, preset, {});
  const State start = State::initial(*rules);
  Rng rng(1);
  State::MoveList moves;
  std::int64_t plies = 0;
  for (auto _ : state) {
    State s = start;
    for (int ply = 0; ply < kPlyCap && !s.is_over(); ++ply) {
      s.legal_moves(moves);
      s.play(moves[rng.below(static_cast<std::uint32_t>(moves.size()))]);
      ++plies;
    }
  }
  state.counters["plies"] =
      benchmark::Counter(static_cast<double>(plies), benchmark::Counter::kIsRate);
}

void BM_Perft(benchmark::State& state, const char* variant, int depth) {
  auto game = naqala::make_game(variant);
  auto start = game->new_game();
  std::uint64_t nodes = 0;
  for (auto _ : state)
    for (auto c : start->perft(depth)) nodes += c;
  state.counters["nodes"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_Plain<plain_kalah_game>)->Name("random_game/kalah/plain_loop");
BENCHMARK_CAPTURE(BM_Engine, kalah, "kalah")->Name("random_game/kalah/engine");
BENCHMARK(BM_Plain<plain_oware_game>)->Name("random_game/oware/plain_loop");
BENCHMARK_CAPTURE(BM_Engine, oware, "oware")->Name("random_game/oware/engine");
BENCHMARK(BM_Plain<plain_toguz_game>)->Name("random_game/toguz/plain_loop");
BENCHMARK_CAPTURE(BM_Engine, toguz, "toguz")->Name("random_game/toguz/engine");
BENCHMARK(BM_Plain<plain_mangala_game>)->Name("random_game/mangala/plain_loop");
BENCHMARK_CAPTURE(BM_Engine, mangala, "mangala")->Name("random_game/mangala/engine");
// Every other preset, engine only (no plain loop to compare with: the figures per preset).
const bool kEveryPreset = [] {
  for (const char* name :
       {"bantumi", "awale", "ayoayo", "ayoayo-fours", "namnam", "kenyan-bao", "kenyan-bao-laps",
        "congklak", "pallanguzhi", "madjnuni", "el-akil", "el-ghasheem", "gabata"})
    benchmark::RegisterBenchmark(("random_game/" + std::string(name) + "/engine").c_str(),
                                 BM_Engine, name);
  return true;
}();
BENCHMARK_CAPTURE(BM_Perft, kalah, "kalah", 8)
    ->Name("perft/kalah/8")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Perft, oware, "oware", 8)
    ->Name("perft/oware/8")
    ->Unit(benchmark::kMillisecond);

}  // namespace
