#include "solve/kalah_solver.h"

#include <algorithm>
#include <bit>

#include "core/error.h"
#include "games/sowing/state.h"

namespace naqala::solve {

Solver::Solver(const KalahRules& rules, int total_seeds, const EndgameDb* db, std::size_t table_mb)
    : rules_(rules),
      db_(db),
      db_seeds_(db ? db->max_seeds() : -1),
      index_(rules.pits, std::max(total_seeds, db ? db->max_seeds() : 0)) {
  if (db && (db->rules().pits != rules.pits || db->rules().empty_capture != rules.empty_capture ||
             db->rules().extra_turn != rules.extra_turn))
    throw Error("the database is for other rules (" + default_db_name(db->rules(), db_seeds_) +
                "), not for this variant's (" + default_db_name(rules, db_seeds_) + ")");
  table_ = solver_table<Entry>(table_mb, kWays);
  buckets_mask_ = table_.size() / kWays - 1;
}

Solver::Entry* Solver::probe(std::uint64_t key) {
  Entry* bucket = bucket_of(key);
  for (int i = 0; i < kWays; ++i)
    if (bucket[i].key == key) return &bucket[i];
  return nullptr;
}

void Solver::store(std::uint64_t key, int low, int high, int move, std::uint64_t work) {
  const auto work32 = static_cast<std::uint32_t>(std::min<std::uint64_t>(work, 0xffffffffu));
  Entry* bucket = bucket_of(key);
  Entry* slot = &bucket[0];
  for (int i = 0; i < kWays; ++i) {
    if (bucket[i].key == key) {
      // Both are proven facts: keep the tighter of each bound.
      Entry& e = bucket[i];
      if (low > e.low && move >= 0) e.move = static_cast<std::uint8_t>(move);
      e.low = static_cast<std::uint8_t>(std::max<int>(e.low, low));
      e.high = static_cast<std::uint8_t>(std::min<int>(e.high, high));
      e.work = std::max(e.work, work32);
      return;
    }
    if (bucket[i].work < slot->work) slot = &bucket[i];  // empty slots have work 0
  }
  *slot = Entry{key,
                static_cast<std::uint8_t>(low),
                static_cast<std::uint8_t>(high),
                static_cast<std::uint8_t>(move < 0 ? 0xff : move),
                0,
                work32};
}

bool Solver::out_of_time() {
  if (node_limit_ > 0 && stats_.nodes >= node_limit_) return true;
  return deadline_ > 0 &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >
             deadline_;
}

// Fail-soft null-window test "is the value of b at least target?" for a board that is not
// over and holds more seeds than the database: a result >= target is a lower bound on the
// value, one below it an upper bound.
int Solver::search(const Board& b, int n, int target) {
  ++stats_.nodes;
  // A node can cost microseconds (database pages read from disk), so the clock is read every
  // 1,024 nodes: at 65,536 a 0.05 s proof under load overran by seconds.
  if ((stats_.nodes & 0x3ff) == 0 && out_of_time()) stopped_ = true;
  if (stopped_) return 0;
  const std::uint64_t key = index_.key(b, n) + 1;
  int low = 0, high = n, table_move = -1;
  if (const Entry* e = probe(key)) {
    if (e->low >= target) return e->low;
    if (e->high < target) return e->high;
    low = e->low;
    high = e->high;
    table_move = e->move == 0xff ? -1 : e->move;
  }
  const std::uint64_t nodes_before = stats_.nodes;

  // Every move, with what is already known of it. The table lines of all children are
  // fetched first, so their cache misses overlap.
  std::array<Child, 8> kids;
  std::array<std::uint64_t, 8> keys{};
  std::array<Sowing, 8> sown;
  int moves = 0;
  for (int i = 0; i < rules_.pits; ++i) {
    if (b.pit[i] == 0) continue;
    Child& c = kids[moves];
    c.board = b;
    sown[moves] = sow(rules_, c.board, i);
    const Sowing& s = sown[moves];
    c.pit = static_cast<std::uint8_t>(i);
    c.gained = s.gained;
    c.left = n - s.gained;
    c.extra = s.extra;
    if (!s.over && !s.extra) c.board.flip();
    if (!s.over && c.left > db_seeds_) {
      keys[moves] = index_.key(c.board, c.left) + 1;
      __builtin_prefetch(bucket_of(keys[moves]));
    }
    ++moves;
  }
  int count = 0, best = -1;  // best: the highest upper bound of the moves set aside
  for (int k = 0; k < moves; ++k) {
    Child& c = kids[k];
    const Sowing& s = sown[k];
    if (s.over) {
      c.low = c.high = s.gained + c.board.row(0);
    } else {
      int child_low = 0, child_high = c.left;  // for whoever moves in c.board
      if (c.left <= db_seeds_) {
        child_low = child_high = db_->value(c.board, c.left);
      } else if (const Entry* e = probe(keys[k])) {
        child_low = e->low;
        child_high = e->high;
      }
      c.low = s.gained + (s.extra ? child_low : c.left - child_high);
      c.high = s.gained + (s.extra ? child_high : c.left - child_low);
    }
    if (c.low >= target) {  // answered without a search
      store(key, c.low, high, c.pit, stats_.nodes - nodes_before + 1);
      return c.low;
    }
    if (c.high < target) {  // cannot reach the target: set aside
      best = std::max(best, c.high);
      continue;
    }
    c.order =
        (c.pit == table_move ? 1 << 20 : 0) + (s.extra ? (1 << 16) + c.pit : 64 * s.gained + c.pit);
    if (count != k) kids[count] = c;
    ++count;
  }
  // Insertion sort, best order first: what std::sort does below 16 elements (equal orders
  // keep their places), without GCC's -Warray-bounds false alarm on its larger-range path.
  for (int i = 1; i < count; ++i)
    for (int j = i; j > 0 && kids[j].order > kids[j - 1].order; --j)
      std::swap(kids[j], kids[j - 1]);

  for (int k = 0; k < count; ++k) {
    const Child& c = kids[k];
    const int v = c.extra
                      ? c.gained + search(c.board, c.left, target - c.gained)
                      : c.gained + c.left - search(c.board, c.left, c.gained + c.left - target + 1);
    if (stopped_) return 0;
    if (v >= target) {
      store(key, v, high, c.pit, stats_.nodes - nodes_before + 1);
      return v;
    }
    best = std::max(best, v);
  }
  store(key, low, std::min(high, best), -1, stats_.nodes - nodes_before + 1);
  return best;
}

std::optional<bool> Solver::at_least(const Board& b, int target, double seconds) {
  const Result r = solve(b, target, seconds);
  if (r.low >= target) return true;
  if (r.high < target) return false;
  return std::nullopt;
}

Solver::Result Solver::solve(const Board& b, int first_guess, double seconds,
                             const std::function<bool(const Result&)>& on_step) {
  stats_ = {};
  stopped_ = false;
  deadline_ = seconds;
  start_ = std::chrono::steady_clock::now();
  const int n = b.seeds();
  Result r;
  r.high = n;
  if (b.row(0) == 0 || b.row(1) == 0) {
    r.low = r.high = b.row(0);  // over: each player takes his own pits
  } else if (n <= db_seeds_) {
    r.low = r.high = db_->value(b, n);
  }
  int target = std::clamp(first_guess, 0, n);
  while (r.low < r.high) {
    target = std::clamp(target, r.low + 1, r.high);
    const int v = search(b, n, target);
    if (stopped_) break;
    if (v >= target) {
      r.low = v;
      target = v + 1;
    } else {
      r.high = v;
      target = v;
    }
    stats_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (on_step && !on_step(r)) break;
  }
  if (r.exact()) r.best_move = best_move(b, r.low);
  stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return r;
}

int Solver::best_move(const Board& b, int value) {
  const int n = b.seeds();
  if (b.row(0) == 0 || b.row(1) == 0) return -1;  // over
  // The first move whose child reaches the value: known (game over, database) or proved by a
  // null-window search, cheap once the table holds the proof.
  for (int i = 0; i < rules_.pits; ++i) {
    if (b.pit[i] == 0) continue;
    Board c = b;
    const Sowing s = sow(rules_, c, i);
    const int left = n - s.gained;
    if (!s.over && !s.extra) c.flip();
    int v;
    if (s.over) {
      v = s.gained + c.row(0);
    } else if (left <= db_seeds_) {
      const int child = db_->value(c, left);
      v = s.gained + (s.extra ? child : left - child);
    } else if (s.extra) {
      v = s.gained + search(c, left, value - s.gained);
    } else {
      v = s.gained + left - search(c, left, s.gained + left - value + 1);
    }
    if (stopped_) return -1;
    if (v >= value) return i;
  }
  return -1;
}

MarginProof prove_margin(const sowing::State& s, Solver& solver, double seconds, bool result_only,
                         const std::function<void(const MarginProof&)>& on_step) {
  const Player me = s.to_move();
  const Board board = board_of(s);
  // margin = diff + 2 * value - n: the first test is "does he win", a value of at least `win`.
  const int n = board.seeds(), diff = s.store(me) - s.store(opponent(me));
  const int win = (n - diff + 2) / 2;
  MarginProof p;
  auto to_margins = [&](const Solver::Result& r) {
    p.low = diff + 2 * r.low - n;
    p.high = diff + 2 * r.high - n;
    p.nodes = solver.stats().nodes;
  };
  const auto r = solver.solve(board, win, seconds, [&](const Solver::Result& step) {
    to_margins(step);
    p.seconds = solver.stats().seconds;
    if (on_step) on_step(p);
    return !(result_only && p.decided());
  });
  to_margins(r);
  p.seconds = solver.stats().seconds;
  if (r.best_move >= 0) p.best_move = s.format_move(static_cast<sowing::State::Move>(r.best_move));
  return p;
}

}  // namespace naqala::solve
