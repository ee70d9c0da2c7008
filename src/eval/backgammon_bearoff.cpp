// Bear-off databases: built by dynamic programming over the positions in order of pips.
#include "eval/backgammon_bearoff.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <numeric>

#include "core/fnv1a.h"

namespace naqala::bearoff {

using backgammon::Board;
using backgammon::kBar;
using backgammon::MoveList;

namespace {

// Binomial coefficients up to C(21, k).
constexpr int binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  long r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return static_cast<int>(r);
}

// Positions of at most `checkers` checkers on six points map to 6-subsets of
// {0 .. checkers + 5} (stars and bars: bar j sits after the checkers of points 1..j+1 and j
// bars before it); the rank is that subset's index in the combinatorial number system.
int rank_counts(const std::array<int, 6>& c, int checkers) {
  (void)checkers;
  int r = 0, sum = 0;
  for (int j = 0; j < 6; ++j) {
    sum += c[j];
    r += binom(sum + j, j + 1);
  }
  return r;
}

std::array<int, 6> counts_of(const Side& s) {
  std::array<int, 6> c{};
  for (int i = 0; i < 6; ++i) c[i] = s[i];
  return c;
}

int pips(const std::array<int, 6>& c) {
  int p = 0;
  for (int i = 0; i < 6; ++i) p += c[i] * (i + 1);
  return p;
}

// Every position of at most `checkers` checkers, indexed by rank.
std::vector<std::array<int, 6>> all_positions(int checkers) {
  std::vector<std::array<int, 6>> out(binom(checkers + 6, 6));
  std::array<int, 6> c{};
  // Odometer over the counts with the sum bounded.
  for (;;) {
    out[rank_counts(c, checkers)] = c;
    int j = 0;
    for (; j < 6; ++j) {
      ++c[j];
      if (std::accumulate(c.begin(), c.end(), 0) <= checkers) break;
      c[j] = 0;
    }
    if (j == 6) break;
  }
  return out;
}

constexpr int kRolls = 21;
struct Roll {
  int a, b;
  float weight;
};
constexpr std::array<Roll, kRolls> rolls() {
  std::array<Roll, kRolls> r{};
  int n = 0;
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= a; ++b) r[n++] = {a, b, a == b ? 1.0f / 36 : 2.0f / 36};
  return r;
}
constexpr auto kRollTable = rolls();

// For each position and roll, the ranks of the positions its legal moves reach.
std::vector<std::vector<int>> successors(const std::vector<std::array<int, 6>>& positions,
                                         int checkers) {
  std::vector<std::vector<int>> next(positions.size() * kRolls);
  auto moves = std::make_unique<MoveList>();
  for (std::size_t i = 1; i < positions.size(); ++i) {
    Board b{};
    for (int k = 0; k < 6; ++k) b[0][k] = static_cast<std::uint8_t>(positions[i][k]);
    for (int r = 0; r < kRolls; ++r) {
      backgammon::generate_moves(b, Player::South, kRollTable[r].a, kRollTable[r].b, *moves);
      auto& list = next[i * kRolls + r];
      for (const auto& m : *moves) {
        Board after = b;
        backgammon::apply_steps(after, Player::South, m);
        list.push_back(rank_counts(counts_of(after[0]), checkers));
      }
    }
  }
  return next;
}

std::vector<int> by_pips(const std::vector<std::array<int, 6>>& positions) {
  std::vector<int> order(positions.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return pips(positions[x]) < pips(positions[y]); });
  return order;
}

float mean(const std::array<float, kMaxRolls>& d) {
  float m = 0;
  for (int n = 0; n < kMaxRolls; ++n) m += n * d[n];
  return m;
}

OneSided build_one_sided() {
  const auto positions = all_positions(15);
  const auto next = successors(positions, 15);
  OneSided db;
  db.off.assign(positions.size(), {});
  db.first_off.assign(positions.size(), {});
  std::vector<float> expect_off(positions.size(), 0), expect_first(positions.size(), 0);
  db.off[0][0] = 1;
  db.first_off[0][0] = 1;
  for (int i : by_pips(positions)) {
    if (i == 0) continue;
    const int on_board = std::accumulate(positions[i].begin(), positions[i].end(), 0);
    auto& off = db.off[i];
    auto& first = db.first_off[i];
    for (int r = 0; r < kRolls; ++r) {
      const auto& list = next[i * kRolls + r];
      int best = list[0], best_first = list[0];
      for (int j : list) {
        if (expect_off[j] < expect_off[best]) best = j;
        if (expect_first[j] < expect_first[best_first]) best_first = j;
      }
      const float w = kRollTable[r].weight;
      for (int n = 1; n < kMaxRolls; ++n) off[n] += w * db.off[best][n - 1];
      // The first checker is off once a move leaves fewer than 15 on the board.
      const int left =
          std::accumulate(positions[best_first].begin(), positions[best_first].end(), 0);
      if (left < 15)
        first[1] += w;
      else
        for (int n = 1; n < kMaxRolls; ++n) first[n] += w * db.first_off[best_first][n - 1];
    }
    if (on_board < 15) first = {}, first[0] = 1;
    expect_off[i] = mean(off);
    expect_first[i] = mean(first);
  }
  return db;
}

TwoSided build_two_sided() {
  constexpr int kN = kTwoSidedPositions;
  const auto positions = all_positions(kTwoSidedCheckers);
  const auto next = successors(positions, kTwoSidedCheckers);
  TwoSided db;
  db.win.assign(kN * kN, 0);
  // Pairs in order of total pips: a move lowers the mover's pips, so every value needed is
  // already known.
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(kN * kN);
  for (int a = 0; a < kN; ++a)
    for (int b = 0; b < kN; ++b) pairs.push_back({a, b});
  std::stable_sort(pairs.begin(), pairs.end(), [&](auto x, auto y) {
    return pips(positions[x.first]) + pips(positions[x.second]) <
           pips(positions[y.first]) + pips(positions[y.second]);
  });
  for (auto [a, b] : pairs) {
    if (a == 0) {
      db.win[a * kN + b] = 1;  // nothing left to bear off: already won
      continue;
    }
    if (b == 0) continue;  // the opponent has already won
    float v = 0;
    for (int r = 0; r < kRolls; ++r) {
      float best = 0;
      for (int j : next[a * kRolls + r])
        best = std::max(best, j == 0 ? 1.0f : 1 - db.win[b * kN + j]);
      v += kRollTable[r].weight * best;
    }
    db.win[a * kN + b] = v;
  }
  return db;
}

int on_board(const Side& s) {
  int n = 0;
  for (int i = 0; i <= kBar; ++i) n += s[i];
  return n;
}

}  // namespace

bool in_home(const Side& s) {
  for (int i = 6; i <= kBar; ++i)
    if (s[i]) return false;
  return true;
}

int rank(const Side& s, int checkers) {
  return rank_counts(counts_of(s), checkers);
}

float OneSided::expected_rolls(int index) const {
  return mean(off[index]);
}

namespace {

// Where built tables are kept between runs: $NAQALA_CACHE_DIR, else $XDG_CACHE_HOME/naqala,
// else ~/.cache/naqala; empty when none can be named.
std::filesystem::path cache_dir() {
  if (const char* d = std::getenv("NAQALA_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d)
    return std::filesystem::path(d) / "naqala";
  if (const char* d = std::getenv("HOME"); d && *d)
    return std::filesystem::path(d) / ".cache" / "naqala";
  return {};
}

// A table of floats kept in `name` under the cache directory with its FNV-1a checksum; a
// missing, short or damaged file is rebuilt by `build` and written again (a new file renamed
// over the old, so processes building at once never read half a file). Failing to write
// only costs the next run the build.
std::vector<float> cached(const std::string& name, std::size_t size,
                          const std::function<std::vector<float>()>& build) {
  const auto dir = cache_dir();
  const auto path = dir / name;
  if (!dir.empty()) {
    std::ifstream in(path, std::ios::binary);
    std::vector<float> v(size);
    std::uint64_t sum = 0;
    if (in.read(reinterpret_cast<char*>(v.data()),
                static_cast<std::streamsize>(size * sizeof(float))) &&
        in.read(reinterpret_cast<char*>(&sum), sizeof sum) && in.peek() == EOF &&
        sum == fnv1a(v.data(), size * sizeof(float)))
      return v;
  }
  std::vector<float> v = build();
  if (!dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const auto tmp = path.string() + "." + std::to_string(::getpid()) + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      const std::uint64_t sum = fnv1a(v.data(), v.size() * sizeof(float));
      out.write(reinterpret_cast<const char*>(v.data()),
                static_cast<std::streamsize>(v.size() * sizeof(float)));
      out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) std::filesystem::remove(tmp, ec);
  }
  return v;
}

}  // namespace

const OneSided& one_sided() {
  static const OneSided db = [] {
    constexpr std::size_t kRow = kMaxRolls, kHalf = std::size_t{kOneSidedPositions} * kRow;
    const auto flat = cached("bearoff-one-sided-v1.bin", 2 * kHalf, [] {
      const OneSided built = build_one_sided();
      std::vector<float> v(2 * kHalf);
      std::memcpy(v.data(), built.off.data(), kHalf * sizeof(float));
      std::memcpy(v.data() + kHalf, built.first_off.data(), kHalf * sizeof(float));
      return v;
    });
    OneSided o;
    o.off.resize(kOneSidedPositions);
    o.first_off.resize(kOneSidedPositions);
    std::memcpy(o.off.data(), flat.data(), kHalf * sizeof(float));
    std::memcpy(o.first_off.data(), flat.data() + kHalf, kHalf * sizeof(float));
    return o;
  }();
  return db;
}

const TwoSided& two_sided() {
  static const TwoSided db{cached("bearoff-two-sided-v1.bin",
                                  std::size_t{kTwoSidedPositions} * kTwoSidedPositions,
                                  [] { return build_two_sided().win; })};
  return db;
}

std::uint64_t checksum() {
  std::uint64_t h = kFnv1aBasis;
  auto mix = [&](const void* p, std::size_t n) { h = fnv1a(p, n, h); };
  const OneSided& o = one_sided();
  mix(o.off.data(), o.off.size() * sizeof o.off[0]);
  mix(o.first_off.data(), o.first_off.size() * sizeof o.first_off[0]);
  const TwoSided& t = two_sided();
  mix(t.win.data(), t.win.size() * sizeof(float));
  return h;
}

std::optional<bgnet::Probs> evaluate(const Side& me, const Side& opp) {
  if (!in_home(me) || !in_home(opp)) return std::nullopt;
  const int mine = on_board(me), theirs = on_board(opp);
  if (mine == 0 || theirs == 0) return std::nullopt;
  bgnet::Probs r;
  if (mine <= kTwoSidedCheckers && theirs <= kTwoSidedCheckers) {
    r.p = {two_sided().at(rank(me, kTwoSidedCheckers), rank(opp, kTwoSidedCheckers)), 0, 0, 0, 0};
    return r;
  }
  const OneSided& db = one_sided();
  const auto& a = db.off[rank(me)];
  const auto& b = db.off[rank(opp)];
  const auto& a_first = db.first_off[rank(me)];
  const auto& b_first = db.first_off[rank(opp)];
  // I win if I finish at my roll n before the opponent's n-th roll.
  float b_at_least = 1, b_first_at_least = 1, win = 0, gammon = 0, gammon_loss = 0;
  float a_first_after = 1;  // P(my first checker needs more than n rolls)
  for (int n = 0; n < kMaxRolls; ++n) {
    // b_at_least = P(opp needs >= n rolls), b_first_at_least likewise for his first checker.
    win += a[n] * b_at_least;
    if (theirs == 15) gammon += a[n] * b_first_at_least;
    a_first_after -= a_first[n];
    if (mine == 15) gammon_loss += b[n] * std::max(0.0f, a_first_after);
    b_at_least -= b[n];
    b_first_at_least -= b_first[n];
  }
  r.p = {std::clamp(win, 0.0f, 1.0f), std::min(gammon, win), 0, std::min(gammon_loss, 1 - win), 0};
  return r;
}

}  // namespace naqala::bearoff
