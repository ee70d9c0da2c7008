// perft of every new preset against a second, independent mover: a slow, literal reading of
// RULES.md (vectors, explicit rings, a hand-written case per game) that shares nothing with the
// engine but the board size. Depths are chosen to run in well under a second.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "games/typed_state.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using testing::preset;

struct Ref {
  std::string game;
  int n = 6;               // pits per row
  std::vector<int> b;      // pits (row after row), then South's store, North's store
  std::vector<int> owner;  // per pit: 0 South, 1 North
  int mover = 0;
  std::array<int, 2> tuz{-1, -1};
  bool tuz_choice = false;
  bool gift = false;   // el-akil:feeding=gift
  bool joint = false;  // Congklak's simultaneous start is going on
  // Its lock-step: each player's hand (the hole of his last seed, seeds left, the tick his
  // sowing ended); a player whose hand is empty and not ended chooses his next pit.
  struct Hand {
    int hole = 0, left = 0, end = 0;
  };
  std::array<Hand, 2> hs{};
  int tick = 0;
  bool choosing(int p) const { return joint && hs[p].end == 0 && hs[p].left == 0; }
  bool over = false;
  bool reached = false;    // the last sowing dropped a seed into a pit of the opponent
  std::vector<int> burnt;  // Pallanguzhi: pits skipped this round
  int starter = 0;         // who started the round

  int pits() const { return game == "gabata" ? 3 * n : 2 * n; }
  int store(int p) const { return pits() + p; }
  int row_first(int p) const { return game == "gabata" ? p * 2 * n : p * n; }
  int opposite(int h) const { return 2 * n - 1 - h; }
  int seeds_of(int p) const {
    int s = 0;
    for (int h = 0; h < pits(); ++h)
      if (owner[h] == p) s += b[h];
    return s;
  }

  // The order in which player p's seeds travel.
  std::vector<int> ring(int p) const {
    std::vector<int> r;
    if (game == "gabata") {
      for (int c = 0; c < 6; ++c) r.push_back(c);           // South's row, columns 1..6
      for (int c = 6; c >= 4; --c) r.push_back(6 + c - 1);  // middle row, columns 6..4
      for (int i = 0; i < 6; ++i) r.push_back(12 + i);      // North's row from his left
      for (int c = 1; c <= 3; ++c) r.push_back(6 + c - 1);  // middle row, columns 1..3
      return r;
    }
    const bool own_store = game == "kenyan-bao" || game == "congklak" || game == "mangala";
    const bool both_stores = game == "mangala";
    auto add_store = [&](int q) {
      if (both_stores || (own_store && q == p)) r.push_back(store(q));
    };
    if (game == "congklak") {  // clockwise
      for (int i = n - 1; i >= 0; --i) r.push_back(i);
      add_store(0);
      for (int i = 2 * n - 1; i >= n; --i) r.push_back(i);
      add_store(1);
    } else {
      for (int i = 0; i < n; ++i) r.push_back(i);
      add_store(0);
      for (int i = n; i < 2 * n; ++i) r.push_back(i);
      add_store(1);
    }
    return r;
  }
  int after(const std::vector<int>& r, int h) const {
    auto it = std::find(r.begin(), r.end(), h);
    do {
      it = it + 1 == r.end() ? r.begin() : it + 1;
    } while (*it < pits() && burnt[*it]);
    return *it;
  }
};

Ref make_ref(const State& s, const std::string& game) {
  Ref x;
  x.game = game;
  const Rules& r = s.rules();
  x.n = r.pits;
  for (int h = 0; h < r.holes; ++h) x.b.push_back(s.seeds(h));
  for (int h = 0; h < r.pit_count(); ++h) x.owner.push_back(index(s.owner_of(h)));
  x.mover = index(s.to_move());
  x.tuz = {s.tuz(Player::South), s.tuz(Player::North)};
  x.tuz_choice = r.tuz == TuzKind::Choice;
  x.gift = r.feeding == Feeding::Gift;
  x.joint = s.phase() == State::Phase::Joint;
  for (int h = 0; h < r.pit_count(); ++h) x.burnt.push_back(s.burnt(h));
  x.starter = index(r.first);
  return x;
}

struct RefMove {
  int hole = -1, north_hole = -1;
  bool tuz = false;
  bool gift = false;  // one seed from `hole` to the starving opponent's pit 1 (Lane)
};

// Player p's k-th pit along his path (0-based): his row, then Gabata's middle half or the
// opponent's row (Nam-Nam).
int label_hole(const Ref& x, int p, int k) {
  if (k < x.n) return x.row_first(p) + k;
  if (x.game == "gabata") return p == 0 ? 11 - (k - 6) : 6 + (k - 6);
  return x.row_first(1 - p) + k - x.n;
}

// Plays one move; returns the hole of the last seed (or -1 when the sowing never ends).
int ref_sow(Ref& x, int origin, bool declare_tuz, bool& extra) {
  const int p = x.mover;
  const auto ring = x.ring(p);
  const std::string& g = x.game;
  extra = false;
  int hand = x.b[origin];
  x.b[origin] = 0;
  int h = origin, lap_origin = origin;
  x.reached = false;
  auto put = [&](int hole, bool last) -> bool {  // true: the move ends here
    if (hole < x.pits() && x.owner[hole] != p) x.reached = true;
    if (hole == x.tuz[0] || hole == x.tuz[1]) {
      ++x.b[x.store(hole == x.tuz[0] ? 0 : 1)];
      return false;
    }
    ++x.b[hole];
    if (hole >= x.pits() || x.b[hole] != 4) return false;
    if (g == "ayoayo-fours") {  // S4:101: the sower takes every four; a last four ends the move
      x.b[x.store(p)] += 4, x.b[hole] = 0;
      return last;
    }
    if (g == "namnam") {  // S4:374-376: the owner takes, but a last four is the mover's
      x.b[x.store(last ? p : x.owner[hole])] += 4, x.b[hole] = 0;
      return last;
    }
    if (g == "pallanguzhi") x.b[x.store(x.owner[hole])] += 4, x.b[hole] = 0;  // pasu (S0:30)
    return false;
  };
  if ((g == "toguz" || g == "mangala") && hand > 1) {  // the first seed back into the origin
    put(origin, false);
    --hand;
  }
  const bool skip_origin = g == "awale" || g == "ayoayo" || g == "kenyan-bao";
  for (int laps = 0; laps < 100000; ++laps) {
    bool ended = false;
    while (hand > 0) {
      h = x.after(ring, h);
      if (skip_origin && h == lap_origin) h = x.after(ring, h);
      --hand;
      ended = put(h, hand == 0);
    }
    if (ended) return h;
    if (h >= x.pits()) {
      extra = h == x.store(p) && g != "mangala" ? true : h == x.store(p);
      return h;
    }
    const int c = x.b[h];
    const bool mine = x.owner[h] == p;
    if (g == "pallanguzhi") {
      const int nx = x.after(ring, h);
      if (x.b[nx] > 0) {
        hand = x.b[nx], x.b[nx] = 0, h = lap_origin = nx;
        continue;
      }
      const int f = x.after(ring, nx);
      if (x.b[f] > 0) {
        x.b[x.store(p)] += x.b[f], x.b[f] = 0;
        const int o = x.opposite(f);
        if (o != nx) x.b[x.store(p)] += x.b[o], x.b[o] = 0;
      }
      return h;
    }
    if (g == "madjnuni" || g == "el-akil" || g == "el-ghasheem") {
      if (c == 1) return h;
      if (c == 2 || c == 4) {
        // Forward in madjnuni (S4:47), backward in el-akil (S4:68); pits of both sides.
        int k = h;
        for (int i = 0; i < x.pits(); ++i) {
          x.b[x.store(p)] += x.b[k], x.b[k] = 0;
          const int dist = g == "madjnuni" ? 1 : static_cast<int>(ring.size()) - 1;
          int nk = k;
          for (int d = 0; d < dist; ++d) nk = x.after(ring, nk);
          if (nk == h || (x.b[nk] != 2 && x.b[nk] != 4)) break;
          k = nk;
        }
        return h;
      }
      hand = c, x.b[h] = 0, lap_origin = h;
      continue;
    }
    const bool relay = g == "ayoayo" || g == "ayoayo-fours" || g == "namnam" ||
                       g == "kenyan-bao-laps" || g == "congklak" || g == "gabata";
    if (relay && c > 1) {
      hand = c, x.b[h] = 0, lap_origin = h;
      continue;
    }
    // The move ends in pit h: captures.
    if (g == "gabata" && c == 1) {
      const int col = h < 6 ? h : h < 12 ? h - 6 : 5 - (h - 12);
      for (int k : {col, 6 + col, 12 + (5 - col)})
        if (k != h) x.b[x.store(p)] += x.b[k], x.b[k] = 0;
    }
    if ((g == "ayoayo" || g == "kenyan-bao" || g == "kenyan-bao-laps" || g == "congklak" ||
         g == "mangala") &&
        mine && c == 1 && x.b[x.opposite(h)] > 0) {
      x.b[x.store(p)] += x.b[x.opposite(h)], x.b[x.opposite(h)] = 0;
      if (g == "congklak" || g == "mangala") x.b[x.store(p)] += 1, x.b[h] = 0;
      return h;
    }
    if ((g == "toguz" || g == "mangala") && !mine) {
      const int pos = h - x.row_first(1 - p);
      const int theirs = x.tuz[1 - p];
      const bool eligible = g == "toguz" && c == 3 && x.tuz[p] == -1 && pos != x.n - 1 &&
                            !(theirs >= 0 && theirs - x.row_first(p) == pos);
      if (eligible && (!x.tuz_choice || declare_tuz)) {
        x.tuz[p] = h;
        x.b[x.store(p)] += 3, x.b[h] = 0;
      } else if (c % 2 == 0) {
        x.b[x.store(p)] += c, x.b[h] = 0;
      }
    }
    if (g == "awale" && !mine && c >= 2 && c <= 4) {
      // Chain backwards over the opponent's pits holding 2-4; a capture of all is none.
      int take = 0, k = h;
      std::vector<int> taken;
      while (k >= x.row_first(1 - p) && k < x.row_first(1 - p) + x.n && x.b[k] >= 2 &&
             x.b[k] <= 4) {
        taken.push_back(k), take += x.b[k];
        if (k == x.row_first(1 - p)) break;
        --k;
      }
      if (take != x.seeds_of(1 - p))
        for (int t : taken) x.b[x.store(p)] += x.b[t], x.b[t] = 0;
    }
    return h;
  }
  return -1;
}

void ref_play(Ref& x, const RefMove& m);

// R13 inside the lock-step: a choice whose lock-step never ends is not a move while another is.
std::vector<RefMove> without_endless_lockstep(const Ref& x, const std::vector<RefMove>& moves) {
  if (moves.size() < 2) return moves;
  std::vector<RefMove> out;
  for (const auto& m : moves) {
    Ref y = x;
    ref_play(y, m);
    if (!y.over) out.push_back(m);
  }
  return out.empty() ? moves : out;
}

std::vector<RefMove> ref_moves(const Ref& x) {
  std::vector<RefMove> out;
  if (x.over) return out;
  const std::string& g = x.game;
  const int p = x.mover;
  if (x.choosing(0) && x.choosing(1)) {
    const int labels = g == "gabata" ? 9 : x.n;
    for (int s = 0; s < labels; ++s)
      for (int k = 0; k < labels; ++k)
        if (x.b[label_hole(x, 0, s)] && x.b[label_hole(x, 1, k)])
          out.push_back({label_hole(x, 0, s), label_hole(x, 1, k)});
    return without_endless_lockstep(x, out);
  }
  std::vector<int> mine;
  const int count = g == "gabata" ? 9 : x.n;
  for (int k = 0; k < (g == "namnam" ? 2 * x.n : count); ++k) {
    const int h = label_hole(x, p, k);
    if (x.owner[h] == p && x.b[h] > 0 && h != x.tuz[0] && h != x.tuz[1]) mine.push_back(h);
  }
  if ((g == "madjnuni" || g == "el-ghasheem") && !mine.empty()) {
    int best = -1;
    for (int h : mine)
      if (h >= x.row_first(p) && h < x.row_first(p) + x.n) best = std::max(best, h);
    mine = {best};
  }
  if (g == "kenyan-bao-laps" &&
      std::any_of(mine.begin(), mine.end(), [&](int h) { return x.b[h] > 1; }))
    std::erase_if(mine, [&](int h) { return x.b[h] == 1; });
  const bool feed = g == "awale" || g == "ayoayo" || g == "el-akil" || g == "el-ghasheem";
  const bool starving = feed && x.seeds_of(1 - p) == 0;
  if (starving && x.gift) {
    for (int k = 0; k < x.n; ++k)
      if (x.b[x.row_first(p) + k]) out.push_back({x.row_first(p) + k, -1, false, true});
    return out;
  }
  // R13: a sowing that never ends is not a move while another exists.
  const bool relay = g != "awale" && g != "kenyan-bao" && g != "toguz" && g != "mangala";
  std::vector<RefMove> endless;
  if (x.joint) {  // one player's extra sowing inside the lock-step
    for (int h : mine) out.push_back({h});
    return without_endless_lockstep(x, out);
  }
  for (int h : mine) {
    if (starving || (relay && mine.size() > 1)) {
      Ref y = x;
      bool extra;
      const bool ends = ref_sow(y, h, false, extra) >= 0;
      if (!ends && relay && mine.size() > 1) {
        endless.push_back({h});
        continue;
      }
      // R3: el-akil's feeding throws a seed onto his side, even if it is captured back.
      const bool fed = g == "el-akil" || g == "el-ghasheem" ? y.reached : y.seeds_of(1 - p) > 0;
      if (starving && ends && !fed) continue;
    }
    out.push_back({h});
    if (x.tuz_choice && x.tuz[p] == -1) {
      Ref y = x;
      bool extra;
      ref_sow(y, h, true, extra);
      if (y.tuz[p] != -1) out.push_back({h, -1, true});
    }
  }
  if (out.empty()) out = endless;
  return out;
}

void ref_play(Ref& x, const RefMove& m) {
  bool extra = false;
  if (x.joint) {
    // Lock-step: one seed per tick, South first; relay on occupied pits; a last seed in the
    // own store sows again (the player chooses, the lock-step waits); in an own empty pit it
    // captures the opposite pit with the capturing seed.
    auto take_up = [&](int p, int h) { x.hs[p].hole = h, x.hs[p].left = x.b[h], x.b[h] = 0; };
    if (m.north_hole >= 0) {
      take_up(0, m.hole);
      take_up(1, m.north_hole);
    } else {
      take_up(x.mover, m.hole);
    }
    auto has_seeds = [&](int p) {
      for (int i = 0; i < x.n; ++i)
        if (x.b[x.row_first(p) + i]) return true;
      return false;
    };
    while (!(x.hs[0].end && x.hs[1].end)) {
      if (++x.tick > 100000) {
        x.over = true;
        return;
      }
      for (int p = 0; p < 2; ++p) {
        auto& h = x.hs[p];
        if (h.end || !h.left) continue;
        h.hole = x.after(x.ring(p), h.hole);
        ++x.b[h.hole];
        if (--h.left) continue;
        if (h.hole >= x.pits()) {
          if (!has_seeds(p)) h.end = x.tick;  // else he chooses again
          continue;
        }
        if (x.b[h.hole] > 1) {
          h.left = x.b[h.hole], x.b[h.hole] = 0;
          continue;
        }
        if (x.game == "gabata") {  // the other pits of the column
          const int col = h.hole < 6 ? h.hole : h.hole < 12 ? h.hole - 6 : 5 - (h.hole - 12);
          for (int k : {col, 6 + col, 12 + (5 - col)})
            if (k != h.hole) x.b[x.store(p)] += x.b[k], x.b[k] = 0;
        } else if (x.owner[h.hole] == p && x.b[x.opposite(h.hole)] > 0) {
          x.b[x.store(p)] += x.b[x.opposite(h.hole)] + 1;
          x.b[x.opposite(h.hole)] = x.b[h.hole] = 0;
        }
        h.end = x.tick;
      }
      if (x.choosing(0) || x.choosing(1)) {
        x.mover = x.choosing(0) ? 0 : 1;
        return;
      }
    }
    x.joint = false;
    x.mover = x.hs[1].end < x.hs[0].end ? 1 : 0;
    return;
  }
  if (m.gift) {
    --x.b[m.hole];
    ++x.b[x.row_first(1 - x.mover)];
    x.mover = 1 - x.mover;
    return;
  }
  if (ref_sow(x, m.hole, m.tuz, extra) < 0) {
    x.over = true;  // a sowing that never ends
    return;
  }
  if (!extra) x.mover = 1 - x.mover;
  // R2: in el-akil and el-ghasheem a player with nothing passes; the other must feed him.
  if ((x.game == "el-akil" || x.game == "el-ghasheem") && x.seeds_of(x.mover) == 0 &&
      x.seeds_of(1 - x.mover) > 0)
    x.mover = 1 - x.mover;
  // Ends that can come early: thresholds, and Mangala's empty row (Kalah's rule).
  const int threshold = x.game == "toguz"                                                       ? 82
                        : (x.game == "ayoayo" || x.game == "kenyan-bao" || x.game == "mangala") ? 25
                                                                                                : 0;
  if (threshold && (x.b[x.store(0)] >= threshold || x.b[x.store(1)] >= threshold)) x.over = true;
  if (x.game == "mangala" && (x.seeds_of(0) == 0 || x.seeds_of(1) == 0)) x.over = true;
  if (x.game == "pallanguzhi" && (x.seeds_of(0) == 0 || x.seeds_of(1) == 0)) {
    // S0:30-31: each takes his side; refill five per pit from pit 1; the rest burn.
    for (int h = 0; h < x.pits(); ++h) x.b[x.store(x.owner[h])] += x.b[h], x.b[h] = 0;
    int out = 0;
    for (int p = 0; p < 2; ++p) {
      int left = x.b[x.store(p)];
      for (int i = 0; i < x.n; ++i) {
        const int h = x.row_first(p) + i;
        x.burnt[h] = left < 5;
        if (left >= 5) x.b[h] = 5, left -= 5;
      }
      x.b[x.store(p)] = left;
      if (x.burnt[x.row_first(p)]) ++out;
    }
    if (out) x.over = true;
    x.starter = 1 - x.starter;
    x.mover = x.starter;
  }
}

void ref_perft(const Ref& x, int ply, int depth, std::vector<std::uint64_t>& counts) {
  const auto moves = ref_moves(x);
  counts[ply] += moves.size();
  if (ply + 1 == depth) return;
  for (const auto& m : moves) {
    Ref y = x;
    ref_play(y, m);
    ref_perft(y, ply + 1, depth, counts);
  }
}

// On a mismatch: the first position (depth-first) where the two movers disagree.
std::string divergence(const State& s, const Ref& x, int depth) {
  State::MoveList moves;
  if (s.is_over())
    moves.clear();
  else
    s.legal_moves(moves);
  const auto ref = ref_moves(x);
  std::vector<int> board;
  for (int h = 0; h < s.rules().holes; ++h) board.push_back(s.seeds(h));
  if (board != x.b || moves.size() != ref.size())
    return s.position() + " (engine " + std::to_string(moves.size()) + " moves, reference " +
           std::to_string(ref.size()) + (board != x.b ? ", boards differ" : "") + ")";
  if (depth == 0) return "";
  for (std::size_t i = 0; i < moves.size(); ++i) {
    State t = s;
    t.play(moves[i]);
    Ref y = x;
    ref_play(y, ref[i]);
    auto d = divergence(t, y, depth - 1);
    if (!d.empty()) return "after " + s.format_move(moves[i]) + " from " + s.position() + ": " + d;
  }
  return "";
}

struct PerftCase {
  const char* game;
  OptionValues options;
  const char* position;  // empty: the start
  int depth;
};

class ReferencePerft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(ReferencePerft, MatchesTheIndependentMover) {
  const auto& c = GetParam();
  auto rules = preset(c.game, c.options);
  State s = *c.position ? State::from_position(*rules, c.position) : State::initial(*rules);
  TypedState<State> any(s, rules);
  const auto engine = any.perft(c.depth);
  std::vector<std::uint64_t> reference(c.depth, 0);
  ref_perft(make_ref(s, c.game), 0, c.depth, reference);
  EXPECT_EQ(engine, reference) << c.game << " from " << s.position();
  if (engine != reference) ADD_FAILURE() << divergence(s, make_ref(s, c.game), c.depth - 1);
  EXPECT_GT(engine.back(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Presets, ReferencePerft,
    ::testing::Values(
        PerftCase{"awale", {}, "", 7},
        PerftCase{"awale", {}, "1,0,0,0,0,13/0,0,0,0,0,0/20,14/S", 4},
        PerftCase{"ayoayo", {}, "", 6}, PerftCase{"ayoayo-fours", {}, "", 6},
        // Depth 6 reaches a round's end (the sweep of the last four), which the
        // reference does not play; NamNam.* tests cover it.
        PerftCase{"namnam", {}, "", 5}, PerftCase{"kenyan-bao", {}, "", 6},
        PerftCase{"kenyan-bao-laps", {}, "", 6}, PerftCase{"congklak", {}, "", 3},
        PerftCase{"congklak", {{"simultaneous_start", "false"}}, "", 5},
        PerftCase{"pallanguzhi", {}, "", 6}, PerftCase{"toguz", {}, "", 5},
        PerftCase{"toguz", {{"tuz", "choice"}}, "", 5},
        PerftCase{"toguz", {}, "9,9,9,9,9,9,9,9,9/2,2,2,9,9,9,9,9,9/10,11/S", 4},
        PerftCase{"mangala", {}, "", 7},
        PerftCase{"madjnuni", {}, "9,2,11,5,3,7,8/4,6,2,13,9,7,12/0,0/S", 9},
        PerftCase{"el-akil", {}, "0,9,9,9,9,0/0,9,9,9,9,0/0,0/S", 6},
        PerftCase{"el-ghasheem", {}, "4,9,5,7,6,4/8,4,6,5,4,10/0,0/S", 9},
        PerftCase{"gabata", {{"start", "alternate"}}, "", 6}, PerftCase{"gabata", {}, "", 3},
        PerftCase{"el-akil", {{"feeding", "gift"}}, "3,2,0,0,0,1/0,0,0,0,0,0/40,26/S", 5},
        PerftCase{"mangala", {}, "0,0,7,7,1,9/1,0,4,4,0,6/2,7/N", 6},
        PerftCase{"toguz", {}, "0,20,9,2,9,1,9,19,9/2,0,12,9,9,9,1,0,9/19,14/N/tuz:N2", 5}),
    [](const auto& info) {
      std::string n = std::string(info.param.game) + "_" + std::to_string(info.index);
      for (auto& ch : n)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return n;
    });

}  // namespace
}  // namespace naqala::sowing
