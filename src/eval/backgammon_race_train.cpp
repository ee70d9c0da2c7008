// Race training from one-sided race distributions (see the header).
#include "eval/backgammon_race_train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <thread>

#include "core/error.h"
#include "eval/backgammon_bearoff.h"
#include "eval/backgammon_evaluator.h"

namespace naqala::bgrace {

using backgammon::Board;
using backgammon::kBar;
using backgammon::kCheckers;
using backgammon::MoveList;

namespace {

const std::vector<float>& expected_rolls() {
  static const std::vector<float> table = [] {
    const auto& db = bearoff::one_sided();
    std::vector<float> t(bearoff::kOneSidedPositions);
    for (int i = 0; i < bearoff::kOneSidedPositions; ++i) t[i] = db.expected_rolls(i);
    return t;
  }();
  return table;
}

// Rolls still needed, estimated: checkers outside the home board counted on the 6-point (the
// database's expected rolls) plus the pips they must travel to get there at 8.17 a roll.
float estimate(const Side& s) {
  Side home{};
  int travel = 0;
  for (int i = 0; i < 6; ++i) home[i] = s[i];
  for (int i = 6; i < kBar; ++i) {
    home[5] = static_cast<std::uint8_t>(home[5] + s[i]);
    travel += s[i] * (i - 5);
  }
  return expected_rolls()[bearoff::rank(home)] + static_cast<float>(travel) / 8.17f;
}

bool cleared(const Side& s) {
  for (int i = 18; i <= kBar; ++i)
    if (s[i]) return false;
  return true;
}

int top_point(const Side& s) {
  for (int i = kBar - 1; i >= 0; --i)
    if (s[i]) return i + 1;
  return 0;
}

// Adds, with weight w, a home position reached after `roll` rolls to the distributions; its
// first checker came off at roll `first_at` if one is off (0: before the start).
void add_home(Distribution& d, const Side& s, int roll, int cleared_at, int first_at, float w) {
  const auto& db = bearoff::one_sided();
  const int r = bearoff::rank(s);
  const bool none_off = backgammon::checkers_off(s) == 0;
  for (int n = 0; n < bearoff::kMaxRolls; ++n) {
    const int at = std::min(roll + n, kRolls - 1);
    d.off[at] += w * db.off[r][n];
    if (none_off) d.first_off[at] += w * db.first_off[r][n];
  }
  if (!none_off) d.first_off[std::min(first_at, kRolls - 1)] += w;
  d.cleared[std::min(cleared_at, kRolls - 1)] += w;
}

std::uint64_t side_seed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t x = seed ^ (index * 0x9e3779b97f4a7c15ULL) ^ 0x72616365ULL;
  return splitmix64(x);
}

constexpr char kMagic[8] = {'N', 'Q', 'R', 'A', 'C', 'E', '0', '1'};

struct Record {
  Side side;
  Distribution dist;
};

}  // namespace

Distribution sample(const Side& side, int trials, Rng& rng) {
  if (side[kBar] || side[kBar - 1])
    throw Error("race sample: a race side has no checker on the bar or its 24-point");
  Distribution d;
  if (bearoff::in_home(side)) {
    add_home(d, side, 0, 0, 0, 1.0f);
    return d;
  }
  thread_local auto moves = std::make_unique<MoveList>();
  const float w = 1.0f / static_cast<float>(trials);
  for (int t = 0; t < trials; ++t) {
    Side s = side;
    int roll = 0, cleared_at = cleared(s) ? 0 : -1;
    while (!bearoff::in_home(s) && roll < kRolls - 1) {
      ++roll;
      const int d0 = 1 + static_cast<int>(rng.below(6)), d1 = 1 + static_cast<int>(rng.below(6));
      const Board before{s, Side{}};
      backgammon::generate_moves(before, Player::South, d0, d1, *moves);
      float best = 1e9f;
      Side best_side = s;
      for (const auto& m : *moves) {
        Board after = before;
        backgammon::apply_steps(after, Player::South, m);
        const float e = estimate(after[0]);
        if (e < best) best = e, best_side = after[0];
      }
      s = best_side;
      if (cleared_at < 0 && cleared(s)) cleared_at = roll;
    }
    // Checkers can come off only in the roll that brought the last one home.
    const int first_at = backgammon::checkers_off(side) > 0 ? 0 : roll;
    add_home(d, s, roll, cleared_at < 0 ? roll : cleared_at, first_at, w);
  }
  return d;
}

Probs race_probs(const Distribution& me, const Distribution& opp) {
  // I win if my n-th roll finishes before the opponent's n-th; he has had n - 1 rolls then.
  float opp_off_ge = 1, opp_first_ge = 1, opp_clear_ge = 1;  // P(his event at roll >= n)
  float my_first_gt = 1, my_clear_gt = 1;                    // P(my event after roll n)
  float win = 0, gammon = 0, backgammon = 0, lose_gammon = 0, lose_backgammon = 0;
  for (int n = 0; n < kRolls; ++n) {
    win += me.off[n] * opp_off_ge;
    gammon += me.off[n] * opp_first_ge;
    backgammon += me.off[n] * opp_clear_ge;
    my_first_gt -= me.first_off[n];
    my_clear_gt -= me.cleared[n];
    lose_gammon += opp.off[n] * std::max(0.0f, my_first_gt);
    lose_backgammon += opp.off[n] * std::max(0.0f, my_clear_gt);
    opp_off_ge -= opp.off[n];
    opp_first_ge -= opp.first_off[n];
    opp_clear_ge -= opp.cleared[n];
  }
  Probs p;
  p.p[Probs::Win] = std::clamp(win, 0.0f, 1.0f);
  p.p[Probs::WinGammon] = std::clamp(gammon, 0.0f, p.p[Probs::Win]);
  p.p[Probs::WinBackgammon] = std::clamp(backgammon, 0.0f, p.p[Probs::WinGammon]);
  p.p[Probs::LoseGammon] = std::clamp(lose_gammon, 0.0f, 1 - p.p[Probs::Win]);
  p.p[Probs::LoseBackgammon] = std::clamp(lose_backgammon, 0.0f, p.p[Probs::LoseGammon]);
  return p;
}

std::vector<Side> collect_sides(const bgnet::Net& net, const Config& config) {
  std::vector<Side> out;
  Rng rng(side_seed(config.seed, ~0ULL));
  auto moves = std::make_unique<MoveList>();
  for (int g = 0; g < config.games; ++g) {
    Board b = backgammon::start_board();
    for (int ply = 0; ply < 1000; ++ply) {
      int d0 = 1 + static_cast<int>(rng.below(6)), d1 = 1 + static_cast<int>(rng.below(6));
      if (ply == 0)
        while (d0 == d1) d0 = 1 + static_cast<int>(rng.below(6));
      backgammon::generate_moves(b, Player::South, d0, d1, *moves);
      Board best_board = b;
      float best = -10;
      for (const auto& m : *moves) {
        Board after = b;
        backgammon::apply_steps(after, Player::South, m);
        const float eq = bgeval::after_move(net, after[0], after[1]).equity();
        if (eq > best) best = eq, best_board = after;
      }
      if (backgammon::checkers_off(best_board[0]) == kCheckers) break;
      b = {best_board[1], best_board[0]};
      if (bgnet::classify(b[0], b[1]) != bgnet::PositionClass::Race) continue;
      if (bearoff::in_home(b[0]) && bearoff::in_home(b[1])) break;
      // One position in three, each side: a game's race positions are much alike.
      for (const Side& s : b)
        if (rng.below(3) == 0 && top_point(s) < kBar) out.push_back(s);
    }
  }
  // Random sides: 15 checkers between a lowest and a highest point (7..18), so that races
  // with every checker still outside the home board are trained too.
  for (int i = 0; i < config.random_sides; ++i) {
    const int top = 7 + static_cast<int>(rng.below(12));
    const int low = 1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(top)));
    Side s{};
    s[top - 1] = 1;
    for (int k = 1; k < kCheckers; ++k)
      ++s[low - 1 + rng.below(static_cast<std::uint32_t>(top - low + 1))];
    out.push_back(s);
  }
  return out;
}

namespace {

// Reads the cache's records that match `sides` (in order) and returns them; a cache of
// another seed or trial count is refused.
std::vector<Record> read_cache(const Config& c, const std::vector<Side>& sides) {
  std::vector<Record> records;
  std::ifstream in(c.cache, std::ios::binary);
  if (!in) return records;
  char magic[8];
  std::uint64_t seed = 0;
  std::int32_t trials = 0;
  in.read(magic, 8);
  in.read(reinterpret_cast<char*>(&seed), sizeof seed);
  in.read(reinterpret_cast<char*>(&trials), sizeof trials);
  if (!in) return records;
  if (std::memcmp(magic, kMagic, 8) != 0)
    throw Error("race training: " + c.cache + " is not a race sample cache");
  if (seed != c.seed || trials != c.trials)
    throw Error("race training: " + c.cache + " holds seed " + std::to_string(seed) + " and " +
                std::to_string(trials) + " trials, not seed " + std::to_string(c.seed) + " and " +
                std::to_string(c.trials) + "; name another --race-cache");
  Record r;
  while (records.size() < sides.size() && in.read(reinterpret_cast<char*>(&r), sizeof r)) {
    if (r.side != sides[records.size()])
      throw Error("race training: " + c.cache +
                  " was made from other sides (another net or build); name another --race-cache");
    records.push_back(r);
  }
  return records;
}

}  // namespace

void train(bgnet::Net& net, const Config& config,
           const std::function<void(const Progress&)>& report) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

  const std::vector<Side> sides = collect_sides(net, config);
  report({"sides collected", sides.size(), sides.size(), elapsed()});

  std::vector<Record> records =
      config.cache.empty() ? std::vector<Record>{} : read_cache(config, sides);
  std::ofstream cache;
  if (!config.cache.empty()) {
    if (records.empty()) {
      cache.open(config.cache, std::ios::binary | std::ios::trunc);
      const std::int32_t trials = config.trials;
      cache.write(kMagic, 8);
      cache.write(reinterpret_cast<const char*>(&config.seed), sizeof config.seed);
      cache.write(reinterpret_cast<const char*>(&trials), sizeof trials);
    } else {
      // Cut a partly written record off, then append.
      std::filesystem::resize_file(config.cache, 8 + sizeof(std::uint64_t) + sizeof(std::int32_t) +
                                                     records.size() * sizeof(Record));
      cache.open(config.cache, std::ios::binary | std::ios::app);
    }
    if (!cache) throw Error("race training: cannot write " + config.cache);
  }
  const int threads = std::max(1, config.threads);
  constexpr std::size_t kBlock = 64;
  while (records.size() < sides.size()) {
    const std::size_t first = records.size();
    const std::size_t n = std::min(kBlock, sides.size() - first);
    std::vector<Record> block(n);
    auto work = [&](int t) {
      for (std::size_t i = t; i < n; i += threads) {
        Rng rng(side_seed(config.seed, first + i));
        block[i].side = sides[first + i];
        block[i].dist = sample(block[i].side, config.trials, rng);
      }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    for (const auto& r : block) {
      records.push_back(r);
      if (cache) cache.write(reinterpret_cast<const char*>(&r), sizeof r);
    }
    if (cache) cache.flush();
    if (records.size() % (kBlock * 16) == 0 || records.size() == sides.size())
      report({"sides sampled", records.size(), sides.size(), elapsed()});
  }

  // Pairs of sides with close pip counts most of the time (the races that are close), any two
  // sides otherwise; no contact, not both bearing off (the databases answer those).
  std::vector<int> order(records.size()), pips(records.size()), top(records.size());
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = 0; i < records.size(); ++i) {
    pips[i] = backgammon::pip_count(records[i].side);
    top[i] = top_point(records[i].side);
  }
  std::sort(order.begin(), order.end(), [&](int a, int b) { return pips[a] < pips[b]; });
  const int count = static_cast<int>(order.size());
  Rng rng(side_seed(config.seed, ~1ULL));
  const int near = std::max(2, count / 30);
  for (std::uint64_t step = 0; step < config.steps;) {
    const int i = static_cast<int>(rng.below(count));
    const int j =
        rng.below(10) < 7
            ? std::clamp(i - near + static_cast<int>(rng.below(2 * near + 1)), 0, count - 1)
            : static_cast<int>(rng.below(count));
    const Record& a = records[order[i]];
    const Record& b = records[order[j]];
    if (top[order[i]] + top[order[j]] > 24) continue;
    if (bearoff::in_home(a.side) && bearoff::in_home(b.side)) continue;
    const float rate =
        config.rate * (1.0f - 0.9f * static_cast<float>(step) / static_cast<float>(config.steps));
    net.train(a.side, b.side, race_probs(a.dist, b.dist), rate);
    net.train(b.side, a.side, race_probs(b.dist, a.dist), rate);
    ++step;
    if (step % 500000 == 0 || step == config.steps)
      report({"pairs trained", step, config.steps, elapsed()});
  }
}

}  // namespace naqala::bgrace
