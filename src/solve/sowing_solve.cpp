#include "solve/sowing_solve.h"

#include <algorithm>
#include <bit>
#include <chrono>

#include "core/error.h"
#include "core/zeroed_table.h"
#include "solve/kalah.h"
#include "solve/kalah_db.h"

namespace naqala::solve {

namespace {

using sowing::State;

// The final margin of a finished game, from `me`'s view.
int final_margin(const State& s, Player me) {
  const Outcome o = s.outcome();
  const int margin = s.store(me) - s.store(opponent(me));
  if (!o.winner && margin != 0) return 0;  // a draw whatever the stores (cycle = draw)
  return margin;
}

// Proven bounds on a final margin.
struct Range {
  int low, high;
  Range negated() const { return {-high, -low}; }
};

// A position's contribution to the hash of a set of positions (sets are combined by xor:
// no position is twice on a path, as a repetition ends the game).
std::uint64_t set_member(std::uint64_t hash) {
  std::uint64_t x = hash + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The set after adding a position; 0 is kept for "no position can repeat" (fresh).
std::uint64_t with_member(std::uint64_t set, std::uint64_t hash) {
  const std::uint64_t s = set ^ set_member(hash);
  return s == 0 ? 1 : s;
}

}  // namespace

struct SowingProver::Impl {
  // One proven fact: the final margin of the mover at (position, set) lies in [low, high].
  // `tested`/`depth`: the last test that failed there without proving anything ("at least
  // tested?" with `depth` plies left, pessimistic or optimistic), so a transposition asking it
  // again at no more depth fails at once; kCut: the depth (not the database or a cycle) was
  // what it lacked.
  struct Entry {
    std::uint64_t set;  // hash of the positions since the last capture that may repeat (0: none)
    std::array<std::uint8_t, 16> pit;  // the board from the mover's view (solve/kalah.h)
    std::uint8_t store;                // the mover's
    std::uint8_t flags;                // kNorth, kCut, kOptimistic
    std::int8_t low, high, tested;
    std::uint8_t depth, move;
    std::uint8_t generation;  // of the solve that wrote it (0: empty)
  };
  static_assert(sizeof(Entry) == 32);
  static constexpr int kWays = 2;      // entries per bucket: one 64-byte cache line
  static constexpr int kNone = -1000;  // below every margin
  static constexpr std::uint8_t kNorth = 1, kCut = 2, kOptimistic = 4;
  static constexpr int kNoTest = -128;  // `tested` of an entry that keeps no failed test

  struct Key {
    std::uint64_t set;
    Board board;
    std::uint8_t store, mover;
    std::uint64_t bucket;
  };

  explicit Impl(std::size_t table_mb) {
    table_ = solver_table<Entry>(table_mb, kWays);
    buckets_mask_ = table_.size() / kWays - 1;
  }

  void clear() { table_.clear(); }

  // The table holds facts of one ruleset: another one clears it. Only the rulesets the
  // databases take (their positions are a Board, a store and the mover: the table's key).
  void bind(const sowing::Rules& r) {
    db_rules(r);
    if (rules_ && rules_->name == r.name && rules_->chosen == r.chosen && rules_->pits == r.pits &&
        rules_->holes == r.holes)
      return;
    if (rules_) clear();
    rules_ = std::make_unique<sowing::Rules>(r);
  }

  Key key_of(const State& s, std::uint64_t hash, std::uint64_t set) const {
    Key k{set, board_of(s), static_cast<std::uint8_t>(s.store(s.to_move())),
          static_cast<std::uint8_t>(s.to_move() == Player::North), 0};
    k.bucket = bucket_of(hash, set);
    return k;
  }
  std::uint64_t bucket_of(std::uint64_t hash, std::uint64_t set) const {
    return ((hash ^ set * 0x9e3779b97f4a7c15ULL) * 0xd6e8feb86659fd93ULL >> 20) & buckets_mask_;
  }
  static bool same(const Entry& e, const Key& k) {
    return e.generation != 0 && e.set == k.set && (e.flags & kNorth) == k.mover &&
           e.store == k.store && e.pit == k.board.pit;
  }
  Entry* probe(const Key& k) {
    Entry* b = &table_[k.bucket * kWays];
    for (int i = 0; i < kWays; ++i)
      if (same(b[i], k)) return &b[i];
    return nullptr;
  }
  // Keeps the tighter of each bound when the entry is there; else takes the slot of an
  // earlier solve first, then the one of the shallower search.
  void store(const Key& k, Range r, int tested, int depth, int move, bool optimistic, bool cut) {
    Entry* b = &table_[k.bucket * kWays];
    Entry* slot = nullptr;
    for (int i = 0; i < kWays; ++i)
      if (same(b[i], k)) slot = &b[i];
    if (slot) {
      r.low = std::max<int>(r.low, slot->low);
      r.high = std::min<int>(r.high, slot->high);
      if (move < 0) move = slot->move == 0xff ? -1 : slot->move;
    } else {
      slot = &b[0];
      auto worth = [&](const Entry& e) {
        return e.generation == 0 ? -2 : e.generation != generation_ ? -1 : e.depth;
      };
      for (int i = 1; i < kWays; ++i)
        if (worth(b[i]) < worth(*slot)) slot = &b[i];
    }
    slot->set = k.set;
    slot->pit = k.board.pit;
    slot->store = k.store;
    slot->flags =
        static_cast<std::uint8_t>(k.mover | (cut ? kCut : 0) | (optimistic ? kOptimistic : 0));
    slot->low = static_cast<std::int8_t>(std::clamp(r.low, -127, 127));
    slot->high = static_cast<std::int8_t>(std::clamp(r.high, -127, 127));
    slot->tested = static_cast<std::int8_t>(std::clamp(tested, kNoTest, 127));
    slot->depth = static_cast<std::uint8_t>(std::min(depth, 255));
    slot->move = static_cast<std::uint8_t>(move < 0 ? 0xff : move);
    slot->generation = generation_;
  }

  // ---- one solve ----
  void start(const SowingDb* db, double seconds, std::uint64_t max_nodes) {
    db_ = db;
    seconds_ = seconds;
    max_nodes_ = max_nodes;
    start_ = std::chrono::steady_clock::now();
    nodes_ = 0;
    stopped_ = cut_ = false;
    path_.clear();
    generation_ = generation_ == 255 ? 1 : generation_ + 1;
  }
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // What the database says of s for the game as naqala plays it (false: nothing).
  bool database(const State& s, int& low, int& high) const {
    const int n = s.seeds_in_play();
    if (!db_ || n > db_->max_seeds()) return false;
    const Player me = s.to_move();
    const int diff = s.store(me) - s.store(opponent(me));
    const auto b = db_->bounds(board_of(s), n);
    // The database counts a play that never ends as none of the seeds left for the bound's
    // player. Under the draw rule a cycle can be worse than that for him (when he leads by more
    // than the seeds left): then this board is left to the search. A bound strictly inside
    // (-n, n) is reached without any cycle and holds under every rule.
    if (rules_->cycle == sowing::CycleRule::Draw &&
        ((b.low == -n && diff - n > 0) || (b.high == n && diff + n < 0)))
      return false;
    const int stop = rules_->threshold;
    if (stop == 0 || (s.store(me) + n < stop && s.store(opponent(me)) + n < stop)) {
      low = diff + b.low;
      high = diff + b.high;
    } else if (2 * stop > rules_->total_seeds) {
      // The stop at a majority keeps the result of the game played to the end, not its margin.
      const Range w = widest(s);
      low = w.low;
      high = w.high;
      if (diff + b.low > 0) low = 1;
      if (diff + b.low == 0) low = 0;
      if (diff + b.high < 0) high = -1;
      if (diff + b.high == 0) high = 0;
    } else {
      return false;
    }
    return true;
  }

  // Bounds that hold for any end of the game from s.
  Range widest(const State& s) const {
    const Player me = s.to_move();
    const int diff = s.store(me) - s.store(opponent(me)), n = s.seeds_in_play();
    Range r{diff - n, diff + n};
    if (rules_->cycle == sowing::CycleRule::Draw) {
      r.low = std::min(r.low, 0);
      r.high = std::max(r.high, 0);
    }
    return r;
  }

  // A null-window alpha-beta test "is the margin of the mover at s at least t?" over bounds:
  // the leaves cut by the depth count at their lower bound (`optimistic` false) or at their
  // upper one. A pessimistic result of t or more is a proven lower bound on the margin, an
  // optimistic one below t a proven upper bound (the other results prove nothing); the mode
  // flips with the mover, as the negation of one is the other. `set`: the positions since the
  // last capture on the path (0: s is fresh, nothing before it can repeat), path_[from..].
  int value(const State& s, int depth, int t, bool optimistic, std::uint64_t set,
            std::size_t from) {
    ++nodes_;
    if ((nodes_ & 0xfff) == 0 && seconds_ > 0 && elapsed() > seconds_) stopped_ = true;
    if (max_nodes_ && nodes_ > max_nodes_) stopped_ = true;
    if (stopped_) return 0;
    const Player me = s.to_move();
    if (s.is_over()) return final_margin(s, me);
    const std::uint64_t hash = s.hash();
    if (set != 0 && std::find(path_.begin() + static_cast<std::ptrdiff_t>(from), path_.end(),
                              hash) != path_.end()) {
      State ended = s;  // a repetition: the cycle rule ends the game here
      ended.end_by_cycle();
      return final_margin(ended, me);
    }
    Range r = widest(s);
    if (set == 0 && database(s, r.low, r.high)) return optimistic ? r.high : r.low;
    // Proven bounds that answer the test are an answer in either mode.
    if (r.low >= t) return r.low;
    if (r.high < t) return r.high;
    // The leaves of the depth go without the table: most of them are new, and each probe is
    // a cache miss.
    if (depth == 0) {
      cut_ = true;
      return optimistic ? r.high : r.low;
    }
    const Key key = key_of(s, hash, set);
    int first = -1;
    if (const Entry* e = probe(key)) {
      r.low = std::max<int>(r.low, e->low);
      r.high = std::min<int>(r.high, e->high);
      if (r.low >= t) return r.low;
      if (r.high < t) return r.high;
      // The same test failed here before, as deep: it fails again (a failed test proves
      // nothing, so the answer stays sound whatever it is).
      if (e->tested == t && e->depth >= depth && ((e->flags & kOptimistic) != 0) == optimistic) {
        if (e->flags & kCut) cut_ = true;
        return optimistic ? t : t - 1;
      }
      first = e->move == 0xff ? -1 : e->move;
    }
    State::MoveList moves;
    s.legal_moves(moves);
    std::array<int, State::MoveList::capacity()> order;  // (not zeroed: a hot path)
    const int n = static_cast<int>(moves.size());
    const int stores = s.store(me);
    for (int i = 0; i < n; ++i) {
      State c = s;
      c.play(moves[i]);
      // The table's move first, then by the seeds the move takes (captures first).
      order[i] = (moves[i] == first ? 1 << 20 : 0) + (c.store(me) - stores) * 64 - i;
      // The children's table lines are fetched together, so their cache misses overlap.
      if (depth > 1 && !c.is_over() && c.irreversible_count() == s.irreversible_count())
        __builtin_prefetch(&table_[bucket_of(c.hash(), with_member(set, hash)) * kWays]);
    }
    path_.push_back(hash);
    const bool cut_above = cut_;
    cut_ = false;
    int best = kNone, best_move = -1;
    for (int k = 0; k < n; ++k) {
      int pick = k;
      for (int j = k + 1; j < n; ++j)
        if (order[j] > order[pick]) pick = j;
      std::swap(order[k], order[pick]);
      std::swap(moves[k], moves[pick]);
      State c = s;
      c.play(moves[k]);
      const bool capture = c.irreversible_count() != s.irreversible_count();
      const std::uint64_t child_set = capture ? 0 : with_member(set, hash);
      const std::size_t child_from = capture ? path_.size() : from;
      const int v = c.to_move() == me
                        ? value(c, depth - 1, t, optimistic, child_set, child_from)
                        : -value(c, depth - 1, 1 - t, !optimistic, child_set, child_from);
      if (stopped_) break;
      if (v > best) {
        best = v;
        best_move = moves[k];
      }
      if (best >= t) break;
    }
    path_.pop_back();
    if (!stopped_) {
      if (!optimistic && best >= t) {
        store(key, {std::max(r.low, best), r.high}, kNoTest, 0, best_move, false, false);
      } else if (optimistic && best < t) {
        store(key, {r.low, std::min(r.high, best)}, kNoTest, 0, best_move, false, false);
      } else {
        store(key, r, t, depth, best_move, optimistic, cut_);
      }
    }
    cut_ = cut_ || cut_above;
    return best;
  }

  const SowingDb* db_ = nullptr;
  std::unique_ptr<sowing::Rules> rules_;
  double seconds_ = 0;
  std::uint64_t max_nodes_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::uint64_t> path_;  // hashes of the positions on the path (the game's first)
  std::uint64_t nodes_ = 0;
  bool stopped_ = false, cut_ = false;
  std::uint8_t generation_ = 0;
  ZeroedTable<Entry> table_;
  std::size_t buckets_mask_ = 0;
};

SowingProver::SowingProver(std::size_t table_mb) : impl_(std::make_unique<Impl>(table_mb)) {}
SowingProver::~SowingProver() = default;
void SowingProver::touch_table() {
  impl_->table_.touch_pages();
}

SowingProof SowingProver::solve(const State& s, const SowingDb* db, double seconds,
                                std::span<const std::uint64_t> before, std::uint64_t max_nodes,
                                bool every_optimal) {
  if (db) db->check_rules(s.rules());
  Impl& x = *impl_;
  x.bind(s.rules());
  x.start(db, seconds, max_nodes);
  SowingProof proof;
  const Player me = s.to_move();
  Range root = x.widest(s);
  if (s.is_over()) {
    root.low = root.high = final_margin(s, me);
  } else if (before.empty()) {
    int low, high;
    if (x.database(s, low, high)) root = {std::max(root.low, low), std::min(root.high, high)};
  }
  proof.low = root.low;
  proof.high = root.high;
  if (s.is_over()) return proof;

  // The root's moves, each with the bounds proven for it so far (from the mover's view).
  std::uint64_t set = 0;
  for (const std::uint64_t h : before) set = with_member(set, h);
  x.path_.assign(before.begin(), before.end());
  const std::uint64_t hash = s.hash();
  x.path_.push_back(hash);
  struct RootMove {
    State::Move move;
    State child;
    std::uint64_t set;
    std::size_t from;
    Range bounds;
  };
  std::vector<RootMove> moves;
  {
    State::MoveList list;
    s.legal_moves(list);
    for (const auto m : list) {
      State c = s;
      c.play(m);
      const bool capture = c.irreversible_count() != s.irreversible_count();
      Range b = c.is_over()         ? Range{final_margin(c, me), final_margin(c, me)}
                : c.to_move() == me ? x.widest(c)
                                    : x.widest(c).negated();
      moves.push_back(
          {m, c, capture ? 0 : with_member(set, hash), capture ? x.path_.size() : 0, b});
    }
  }
  // Best proven first: the order of the answer and of the search.
  auto rank = [&] {
    std::stable_sort(moves.begin(), moves.end(), [](const RootMove& a, const RootMove& b) {
      return a.bounds.low != b.bounds.low ? a.bounds.low > b.bounds.low
                                          : a.bounds.high > b.bounds.high;
    });
  };
  auto bracket = [&] {
    Range r{Impl::kNone, Impl::kNone};
    for (const auto& m : moves) {
      r.low = std::max(r.low, m.bounds.low);
      r.high = std::max(r.high, m.bounds.high);
    }
    proof.low = std::max(root.low, r.low);
    proof.high = std::min(root.high, r.high);
  };
  // "At least t?" at the root: true or false when proven, nullopt when open (cut_ says
  // whether the depth left it open). First a move proven to reach t (pessimistic tests), else
  // every move proven below it (optimistic ones). `only`: that move's first test alone.
  auto root_test = [&](int t, int depth, const RootMove* only) -> std::optional<bool> {
    x.cut_ = false;
    rank();
    auto test = [&](RootMove& m, bool optimistic) {
      return m.child.to_move() == me
                 ? x.value(m.child, depth - 1, t, optimistic, m.set, m.from)
                 : -x.value(m.child, depth - 1, 1 - t, !optimistic, m.set, m.from);
    };
    for (auto& m : moves) {
      if (only && &m != only) continue;
      if (m.bounds.low >= t) return true;
      if (m.bounds.high < t || m.child.is_over()) continue;
      const int v = test(m, false);
      if (x.stopped_) return std::nullopt;
      if (v >= t) {
        m.bounds.low = std::max(m.bounds.low, v);
        return true;
      }
    }
    if (only) return std::nullopt;
    bool open = false;
    for (auto& m : moves) {
      if (m.bounds.high < t) continue;
      const int v = m.child.is_over() ? m.bounds.high : test(m, true);
      if (x.stopped_) return std::nullopt;
      if (v < t) {
        m.bounds.high = std::min(m.bounds.high, v);
      } else {
        open = true;
      }
    }
    if (open) return std::nullopt;
    return false;
  };
  auto proven_optimal = [&] {
    return proof.exact() && std::any_of(moves.begin(), moves.end(), [&](const RootMove& m) {
             return m.bounds.low >= proof.high;
           });
  };

  bracket();
  int target = proof.low + (proof.high - proof.low + 1) / 2;
  for (int depth = 1; depth < 1000 && !proven_optimal(); ++depth) {
    bool cut = false, open = false;
    while (!proven_optimal()) {
      // Bisection of the bracket; once the value is known (the root's database entry), a
      // move that reaches it.
      int t = proof.exact() ? proof.low : std::clamp(target, proof.low + 1, proof.high);
      auto answer = root_test(t, depth, nullptr);
      if (x.stopped_) break;
      bracket();
      if (!answer) {
        cut = cut || x.cut_;
        if (x.cut_ || proof.exact()) {
          open = true;
          break;
        }
        // Left open by the database or a cycle, not the depth: the other ends of the bracket
        // may still be decided at this depth.
        bool decided = false;
        for (const int other : {proof.low + 1, proof.high}) {
          if (other == t || proof.exact()) continue;
          answer = root_test(other, depth, nullptr);
          if (x.stopped_) break;
          bracket();
          cut = cut || x.cut_;
          if (answer) {
            decided = true;
            break;
          }
        }
        if (!decided || x.stopped_) {
          open = true;
          break;
        }
      }
      target = proof.low + (proof.high - proof.low + 1) / 2;
    }
    if (x.stopped_) break;
    proof.depth = depth;
    if (open && !cut) break;  // nothing more to learn from deeper searches
  }
  // Every move proven to reach the value, tested at the last depth.
  if (proof.exact() && every_optimal && !x.stopped_)
    for (auto& m : moves)
      if (m.bounds.low < proof.low && m.bounds.high >= proof.low) {
        root_test(proof.low, std::max(proof.depth, 1), &m);
        if (x.stopped_) break;
      }
  rank();
  bracket();
  proof.best_move = moves.empty() ? "" : s.format_move(moves.front().move);
  for (const auto& m : moves)
    if (m.bounds.low >= proof.high) proof.optimal_moves.push_back(s.format_move(m.move));
  proof.nodes = x.nodes_;
  proof.seconds = x.elapsed();
  return proof;
}

SowingProof solve_sowing(const State& s, const SowingDb* db, double seconds,
                         std::span<const std::uint64_t> before, std::uint64_t max_nodes) {
  // About an entry a node up to 32 MiB; a budget of 200,000 nodes gets 8 MiB.
  std::size_t mb = 32;
  if (max_nodes > 0) mb = std::clamp<std::size_t>(std::bit_ceil(max_nodes * 32) >> 20, 1, 32);
  SowingProver prover(mb);
  return prover.solve(s, db, seconds, before, max_nodes);
}

}  // namespace naqala::solve
