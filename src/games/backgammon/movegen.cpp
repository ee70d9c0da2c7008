// Move generation, move text (gnubg's FormatMove / ParseMove conventions) and step
// application. Generation follows gnubg's order (dice as given, then swapped; sources from
// the back; doubles with non-increasing sources) so that the sequence kept for each distinct
// result, and hence its text, is the one gnubg shows.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "games/backgammon/backgammon.h"

namespace naqala::backgammon {

namespace {

// Exact key of a resulting position: the mover's 25 counts in 4-bit fields plus the set of
// opponent points hit (the opponent's board changes only there).
struct Key {
  std::uint64_t lo, hi;
  bool operator==(const Key&) const = default;
};

inline Key key_of(const Side& me, std::uint32_t hits) {
  std::uint64_t lo = 0, hi = 0;
  for (int i = 0; i < 16; ++i) lo |= std::uint64_t(me[i]) << (4 * i);
  for (int i = 16; i < 25; ++i) hi |= std::uint64_t(me[i]) << (4 * (i - 16));
  hi |= std::uint64_t(hits) << 36;
  return {lo, hi};
}

// Open-addressing set of the keys already in the move list; stamps make clearing free.
struct Dedup {
  static constexpr std::uint32_t kSlots = 8192;
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
  // True if `k` was new (and is now recorded as list entry `n`).
  bool insert(const Key& k, std::size_t n) {
    std::uint64_t h = (k.lo ^ (k.hi * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    std::uint32_t slot = static_cast<std::uint32_t>(h >> 51) & (kSlots - 1);
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

thread_local Dedup dedup;

}  // namespace

struct Generator {
  MoveList& out;
  int roll[4];
  int max_steps = 0, max_pips = 0;
  Move current;

  void save(int steps, int pips, const Side& me, std::uint32_t hits) {
    if (steps < max_steps || pips < max_pips) return;
    if (steps > max_steps || pips > max_pips) {
      out.clear();
      dedup.reset();
    }
    max_steps = steps;
    max_pips = pips;
    if (!dedup.insert(key_of(me, hits), out.size())) return;
    current.count = static_cast<std::uint8_t>(steps);
    for (int i = steps; i < 4; ++i) current.steps[i] = Step{};
    out.push_back(current);
  }

  static bool legal(const Side& me, const Side& opp, int from, int die) {
    const int to = from - die;
    if (to >= 0) return opp[23 - to] < 2;
    int back = 24;
    while (back > 0 && me[back] == 0) --back;
    return back <= 5 && (from == back || to == -1);
  }

  static void step(Side& me, Side& opp, int from, int to, std::uint32_t& hits) {
    --me[from];
    if (to < 0) return;
    if (opp[23 - to] == 1) {
      opp[23 - to] = 0;
      ++opp[kBar];
      hits |= 1u << to;
    }
    ++me[to];
  }

  // Returns true when no further die could be played here (so the caller saves).
  bool sub(int depth, int top, int pips, const Side& me, const Side& opp, std::uint32_t hits) {
    if (depth > 3 || roll[depth] == 0) return true;
    const int die = roll[depth];
    if (me[kBar]) {
      if (opp[die - 1] >= 2) return true;
      Side m = me, o = opp;
      std::uint32_t h = hits;
      step(m, o, kBar, kBar - die, h);
      current.steps[depth] = {static_cast<std::int8_t>(kBar), static_cast<std::int8_t>(kBar - die)};
      if (sub(depth + 1, 23, pips + die, m, o, h)) save(depth + 1, pips + die, m, h);
      return false;
    }
    bool used = false;
    for (int i = top; i >= 0; --i) {
      if (!me[i] || !legal(me, opp, i, die)) continue;
      Side m = me, o = opp;
      std::uint32_t h = hits;
      const int to = i - die < 0 ? -1 : i - die;
      step(m, o, i, to, h);
      current.steps[depth] = {static_cast<std::int8_t>(i), static_cast<std::int8_t>(to)};
      if (sub(depth + 1, roll[0] == roll[1] ? i : 23, pips + die, m, o, h))
        save(depth + 1, pips + die, m, h);
      used = true;
    }
    return !used;
  }
};

void generate_moves(const Board& board, Player mover, int d0, int d1, MoveList& out) {
  out.clear();
  dedup.reset();
  Generator g{out, {d0, d1, d0 == d1 ? d0 : 0, d0 == d1 ? d0 : 0}, 0, 0, Move::of(Move::Kind::Checkers)};
  const Side& me = board[index(mover)];
  const Side& opp = board[index(opponent(mover))];
  g.sub(0, 23, 0, me, opp, 0);
  if (d0 != d1) {
    std::swap(g.roll[0], g.roll[1]);
    g.sub(0, 23, 0, me, opp, 0);
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
inline int point_of_from(int from) { return from + 1; }
inline int point_of_to(int to) { return to + 1; }

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
    if (c.count > 1) s += "(" + std::to_string(c.count) + ")";
  }
  return s;
}

std::optional<Move> parse_checker_steps(std::string_view text) {
  // Points as written, and which of them are preceded by '/'.
  int user[8];
  std::uint32_t slash = 0;
  int c = 0;
  std::size_t i = 0;
  auto lower = [](char ch) { return static_cast<char>(std::tolower(static_cast<unsigned char>(ch))); };
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
      while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        reps = reps * 10 + (text[i++] - '0');
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
    m.steps[s] = {static_cast<std::int8_t>(pairs[2 * s] - 1), static_cast<std::int8_t>(pairs[2 * s + 1] - 1)};
  return m;
}

}  // namespace naqala::backgammon
