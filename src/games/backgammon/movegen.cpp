// Move generation, move text (gnubg's FormatMove / ParseMove conventions) and step
// application. Generation follows gnubg's order (dice as given, then swapped; sources from
// the back; doubles with non-increasing sources) so that the sequence kept for each distinct
// result, and hence its text, is the one gnubg shows.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "games/backgammon/backgammon.h"

namespace naqala::backgammon {

// Named, not anonymous: Generator (a friend of Position, so of external linkage) holds a
// Dedup, which a unity build's GCC warns about (-Wsubobject-linkage) if its type is anonymous.
namespace movegen_detail {

// Exact key of a resulting position: the mover's 25 counts in 4-bit fields plus the set of
// opponent points hit (the opponent's board changes only there).
struct Key {
  std::uint64_t lo, hi;
  bool operator==(const Key&) const = default;
};

// The keys already in the move list. Short lists (most positions) are scanned; past
// kLinear entries an open-addressing table takes over. Stamps make clearing free.
struct Dedup {
  static constexpr std::uint32_t kSlots = 8192;
  static constexpr std::size_t kLinear = 8;
  std::uint32_t stamp[kSlots];
  std::uint16_t index[kSlots];
  Key keys[kMaxMoves];
  std::uint32_t current = 1;

  Dedup() { std::memset(stamp, 0, sizeof stamp); }
  void reset() {
    if (++current == 0) {
      std::memset(stamp, 0, sizeof stamp);
      current = 1;
    }
  }
  static std::uint32_t slot_of(const Key& k) {
    const std::uint64_t h = (k.lo ^ (k.hi * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::uint32_t>(h >> 51) & (kSlots - 1);
  }
  void hash_in(const Key& k, std::size_t n) {
    std::uint32_t slot = slot_of(k);
    while (stamp[slot] == current) slot = (slot + 1) & (kSlots - 1);
    stamp[slot] = current;
    index[slot] = static_cast<std::uint16_t>(n);
  }
  // True if `k` was new (and is now recorded as list entry `n`).
  bool insert(const Key& k, std::size_t n) {
    if (n < kLinear) {
      for (std::size_t i = 0; i < n; ++i)
        if (keys[i] == k) return false;
      keys[n] = k;
      if (n + 1 == kLinear)
        for (std::size_t i = 0; i <= n; ++i) hash_in(keys[i], i);
      return true;
    }
    std::uint32_t slot = slot_of(k);
    while (stamp[slot] == current) {
      if (keys[index[slot]] == k) return false;
      slot = (slot + 1) & (kSlots - 1);
    }
    stamp[slot] = current;
    index[slot] = static_cast<std::uint16_t>(n);
    keys[n] = k;
    return true;
  }
};

}  // namespace movegen_detail

using movegen_detail::Dedup;
using movegen_detail::Key;

namespace {

thread_local Dedup dedup;

}  // namespace

struct Generator {
  MoveList& out;
  Dedup& seen;
  const Side& opp;  // the opponent as before the move: hits only turn blots into empty points
  int roll[4];
  int max_steps = 0, max_pips = 0;
  bool swapped = false;
  Move current;

  // The higher-die rule (docs/games/backgammon.md): both dice when possible, else the higher
  // one; only the moves that use the most dice, then the most pips, are kept.
  void save(int steps, int pips, Key key) {
    if (steps < max_steps || pips < max_pips) return;
    if (steps > max_steps || pips > max_pips) {
      out.clear();
      seen.reset();
    }
    max_steps = steps;
    max_pips = pips;
    if (!seen.insert(key, out.size())) return;
    current.count = static_cast<std::uint8_t>(steps);
    out.push_back(current);
  }

  // The key after moving a checker (my counts in 4-bit fields, hits above them).
  void step_key(Key& key, int from, int to) const {
    if (from < 16)
      key.lo -= std::uint64_t(1) << (4 * from);
    else
      key.hi -= std::uint64_t(1) << (4 * (from - 16));
    if (to < 0) return;
    if (opp[23 - to] == 1) key.hi |= std::uint64_t(1) << (36 + to);
    if (to < 16)
      key.lo += std::uint64_t(1) << (4 * to);
    else
      key.hi += std::uint64_t(1) << (4 * (to - 16));
  }

  // Moves one of my checkers, updating the key.
  void step(Side& me, Key& key, int from, int to) const {
    --me[from];
    if (from < 16)
      key.lo -= std::uint64_t(1) << (4 * from);
    else
      key.hi -= std::uint64_t(1) << (4 * (from - 16));
    if (to < 0) return;
    if (opp[23 - to] == 1) key.hi |= std::uint64_t(1) << (36 + to);
    ++me[to];
    if (to < 16)
      key.lo += std::uint64_t(1) << (4 * to);
    else
      key.hi += std::uint64_t(1) << (4 * (to - 16));
  }

  // Returns true when no further die could be played here (so the caller saves). `occupied`
  // has bit i set when me[i] > 0 (points 0..23); `back` is the rearmost occupied point.
  bool sub(int depth, int top, int pips, const Side& me, Key key, std::uint32_t occupied,
           int back) {
    if (depth > 3 || roll[depth] == 0) return true;
    const int die = roll[depth];
    // At the last die only the resulting key matters: no board copy, no further call.
    const bool last = depth == 3 || roll[depth + 1] == 0;
    if (me[kBar]) {  // Bar first (docs/games/backgammon.md): enter before any other move.
      if (opp[die - 1] >= 2) return true;
      const int to = kBar - die;
      if (last) {
        Key k = key;
        step_key(k, kBar, to);
        current.steps[depth] = {static_cast<std::int8_t>(kBar), static_cast<std::int8_t>(to)};
        save(depth + 1, pips + die, k);
        return false;
      }
      Side m = me;
      Key k = key;
      step(m, k, kBar, to);
      current.steps[depth] = {static_cast<std::int8_t>(kBar), static_cast<std::int8_t>(to)};
      if (sub(depth + 1, 23, pips + die, m, k, occupied | (1u << to), std::max(back, to)))
        save(depth + 1, pips + die, k);
      return false;
    }
    // Bearing off (docs/games/backgammon.md) needs every checker home; a higher die bears off
    // only from the rearmost.
    bool used = false;
    const int first = std::min(top, back);
    std::uint32_t candidates = first >= 31 ? occupied : occupied & ((2u << first) - 1);
    // Second pass (dice swapped): two steps that neither enter from the bar, nor bear off,
    // nor move the same checker give a position the first pass found by playing them in the
    // other order (landing is blocked only by made points, which steps never change). So the
    // second step only continues the first checker or bears off. (If a skipped step were
    // legal, the first pass found a move of both dice, so `used` needs no correction.)
    if (swapped && depth == 1 && current.steps[0].from != kBar && current.steps[0].to >= 0)
      candidates &= (1u << current.steps[0].to) | ((1u << die) - 1);
    while (candidates) {
      const int i = 31 - __builtin_clz(candidates);
      candidates &= ~(1u << i);
      const int to = i - die;
      if (to >= 0) {
        if (opp[23 - to] >= 2) continue;
      } else if (back > 5 || (i != back && to != -1)) {
        continue;
      }
      used = true;
      current.steps[depth] = {static_cast<std::int8_t>(i),
                              static_cast<std::int8_t>(to < 0 ? -1 : to)};
      if (last) {
        Key k = key;
        step_key(k, i, to < 0 ? -1 : to);
        save(depth + 1, pips + die, k);
        continue;
      }
      Side m = me;
      Key k = key;
      step(m, k, i, to < 0 ? -1 : to);
      std::uint32_t occ = occupied;
      if (m[i] == 0) occ &= ~(1u << i);
      if (to >= 0) occ |= 1u << to;
      int b = back;
      while (b > 0 && !(occ & (1u << b))) --b;
      if (sub(depth + 1, roll[0] == roll[1] ? i : 23, pips + die, m, k, occ, b))
        save(depth + 1, pips + die, k);
    }
    return !used;
  }
};

void generate_moves(const Board& board, Player mover, int d0, int d1, MoveList& out) {
  out.clear();
  Dedup& seen = dedup;  // one thread-local lookup per generation
  seen.reset();
  const Side& me = board[index(mover)];
  const Side& opp = board[index(opponent(mover))];
  Generator g{out, seen, opp,   {d0, d1, d0 == d1 ? d0 : 0, d0 == d1 ? d0 : 0},
              0,   0,    false, Move::of(Move::Kind::Checkers)};
  Key key{0, std::uint64_t(me[kBar]) << 32};
  std::uint32_t occupied = 0;
  for (int i = 0; i < 24; ++i) {
    if (!me[i]) continue;
    occupied |= 1u << i;
    if (i < 16)
      key.lo |= std::uint64_t(me[i]) << (4 * i);
    else
      key.hi |= std::uint64_t(me[i]) << (4 * (i - 16));
  }
  // The rearmost checker; the bar counts as behind every point (no bearing off).
  const int back = me[kBar] ? 24 : (occupied ? 31 - __builtin_clz(occupied) : 0);
  g.sub(0, 23, 0, me, key, occupied, back);
  if (d0 != d1) {
    std::swap(g.roll[0], g.roll[1]);
    g.swapped = true;
    g.sub(0, 23, 0, me, key, occupied, back);
  }
}

bool apply_steps(Board& board, Player mover, const Move& m) {
  Side& me = board[index(mover)];
  Side& opp = board[index(opponent(mover))];
  for (int i = 0; i < m.count; ++i) {
    const int from = m.steps[i].from, to = m.steps[i].to;
    if (from < 0 || from > kBar || to < -1 || to >= kBar || me[from] == 0) return false;
    if (to >= 0 && opp[23 - to] >= 2) return false;
    --me[from];
    if (to < 0) continue;
    if (opp[23 - to] == 1) {
      opp[23 - to] = 0;
      ++opp[kBar];
    }
    ++me[to];
  }
  return true;
}

namespace {

// gnubg point numbers: 25 = bar, 0 = off, else index + 1.
inline int point_of_from(int from) {
  return from + 1;
}
inline int point_of_to(int to) {
  return to + 1;
}

void append_point(std::string& s, int p) {
  if (p == 0)
    s += "off";
  else if (p == 25)
    s += "bar";
  else
    s += std::to_string(p);
}

}  // namespace

std::string format_checker_move(const Board& before, Player mover, const Move& m) {
  const Side& opp = before[index(opponent(mover))];
  auto blot_at = [&](int point) { return point >= 1 && point <= 24 && opp[24 - point] != 0; };

  struct Chain {
    int pts[6];
    int len;
    int count;
    bool active;
  };
  std::array<Chain, 4> chains{};
  const int n = m.count;
  for (int i = 0; i < n; ++i)
    chains[i] = {{point_of_from(m.steps[i].from), point_of_to(m.steps[i].to)}, 2, 1, true};
  std::sort(chains.begin(), chains.begin() + n, [](const Chain& a, const Chain& b) {
    if (a.pts[0] != b.pts[0]) return a.pts[0] > b.pts[0];
    return a.pts[1] > b.pts[1];
  });
  // Join the steps of one checker; keep an intermediate point only where it hit.
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      Chain& a = chains[i];
      Chain& b = chains[j];
      if (!a.active || !b.active || a.pts[a.len - 1] != b.pts[0]) continue;
      if (blot_at(a.pts[a.len - 1]))
        a.pts[a.len++] = b.pts[1];
      else
        a.pts[a.len - 1] = b.pts[1];
      b.active = false;
    }
  // Identical chains print once with a count.
  for (int i = 0; i < n; ++i) {
    if (!chains[i].active) continue;
    for (int j = i + 1; j < n; ++j) {
      if (!chains[j].active || chains[j].len != chains[i].len) continue;
      if (std::equal(chains[i].pts, chains[i].pts + chains[i].len, chains[j].pts)) {
        ++chains[i].count;
        chains[j].active = false;
      }
    }
  }
  std::string s;
  std::uint32_t marked = 0;
  for (int i = 0; i < n; ++i) {
    const Chain& c = chains[i];
    if (!c.active) continue;
    if (!s.empty()) s += ' ';
    append_point(s, c.pts[0]);
    for (int k = 1; k + 1 < c.len; ++k) {
      s += '/';
      append_point(s, c.pts[k]);
      s += '*';
      marked |= 1u << c.pts[k];
    }
    const int dest = c.pts[c.len - 1];
    s += '/';
    append_point(s, dest);
    if (dest && blot_at(dest) && !(marked & (1u << dest))) {
      s += '*';
      marked |= 1u << dest;
    }
    if (c.count > 1) {
      s += '(';
      s += std::to_string(c.count);
      s += ')';
    }
  }
  return s;
}

std::optional<Move> parse_checker_steps(std::string_view text) {
  // Points as written, and which of them are preceded by '/'.
  int user[8];
  std::uint32_t slash = 0;
  int c = 0;
  std::size_t i = 0;
  auto lower = [](char ch) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  };
  while (i < text.size()) {
    const char ch = text[i];
    if (std::isspace(static_cast<unsigned char>(ch))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(ch))) {
      int v = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        v = v * 10 + (text[i] - '0');
        if (v > 25) return std::nullopt;
        ++i;
      }
      if (c == 8) return std::nullopt;
      user[c++] = v;
    } else if (lower(ch) == 'o') {
      if (c == 8) return std::nullopt;
      user[c++] = 0;
      ++i;
      if (i < text.size() && lower(text[i]) == 'f') ++i;
      if (i < text.size() && lower(text[i]) == 'f') ++i;
    } else if (lower(ch) == 'b') {
      if (c == 8) return std::nullopt;
      user[c++] = 25;
      ++i;
      if (i < text.size() && lower(text[i]) == 'a') ++i;
      if (i < text.size() && lower(text[i]) == 'r') ++i;
    } else if (ch == '/' || ch == '-') {
      if (c == 0 || (slash & (1u << c))) return std::nullopt;
      slash |= 1u << c;
      ++i;
    } else if (ch == '*' || ch == ',') {
      ++i;
    } else if (ch == '(') {
      ++i;
      int reps = 0;
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        reps = reps * 10 + (text[i++] - '0');
        if (reps > 8) return std::nullopt;  // a move has at most 4 steps of 2 points
      }
      if (i >= text.size() || text[i] != ')') return std::nullopt;
      ++i;
      const int extra = reps - 1;
      if (extra < 1 || c < 2 || (slash & (1u << c))) return std::nullopt;
      int begin = c - 1;
      while (begin >= 0 && (slash & (1u << begin))) --begin;
      if (begin < 0) return std::nullopt;
      const int end = c;
      if (c + (end - begin) * extra > 8) return std::nullopt;
      for (int r = 0; r < extra; ++r)
        for (int j = begin; j < end; ++j) {
          if (slash & (1u << j)) slash |= 1u << c;
          user[c++] = user[j];
        }
    } else {
      return std::nullopt;
    }
  }
  if (c == 0 || (slash & (1u << c))) return std::nullopt;
  // Pair points into (from, to); a destination followed by '/' is also the next source.
  int pairs[8];
  int k = 0;
  for (int j = 0; j < c; ++j) {
    if (k == 8) return std::nullopt;
    const bool is_dest = k & 1;
    if ((is_dest && user[j] == 25) || (!is_dest && user[j] == 0)) return std::nullopt;
    pairs[k] = user[j];
    if (is_dest && (slash & (1u << (j + 1)))) {
      if (k == 7 || user[j] == 0 || user[j] == 25) return std::nullopt;
      pairs[++k] = user[j];
    }
    ++k;
  }
  if (k & 1) return std::nullopt;
  Move m = Move::of(Move::Kind::Checkers);
  m.count = static_cast<std::uint8_t>(k / 2);
  for (int s = 0; s < m.count; ++s)
    m.steps[s] = {static_cast<std::int8_t>(pairs[2 * s] - 1),
                  static_cast<std::int8_t>(pairs[2 * s + 1] - 1)};
  return m;
}

}  // namespace naqala::backgammon
