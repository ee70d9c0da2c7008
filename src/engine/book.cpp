#include "engine/book.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <queue>
#include <sstream>
#include <thread>

#include "core/data_dir.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/text_file.h"
#include "engine/engine_spec.h"
#include "eval/pit_table.h"
#include "play/atomic_write.h"

namespace naqala::engine {

const BookNode* OpeningBook::find(const std::string& position) const {
  const auto it = index.find(position);
  return it == index.end() ? nullptr : &nodes[it->second];
}

void OpeningBook::add(BookNode node) {
  index.emplace(node.position, nodes.size());
  nodes.push_back(std::move(node));
}

namespace {

constexpr int kProvenHundredths = 100'000;  // 1000 points: a proven result

// Hundredths of a point as text with two decimals ("-0.05", "12.50"), exactly.
std::string hundredths_text(int v) {
  const int a = std::abs(v);
  const int cents = a % 100;
  return std::string(v < 0 ? "-" : "") + std::to_string(a / 100) + "." + (cents < 10 ? "0" : "") +
         std::to_string(cents);
}

std::optional<int> parse_hundredths(const std::string& t) {
  double v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || !(std::abs(v) < 1e6)) return {};
  return static_cast<int>(std::llround(v * 100));
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto at = text.find(by, start);
    out.push_back(text.substr(start, at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

// What each move of a position leads to.
struct MoveResult {
  std::string move;
  std::string position;     // the position after it
  bool finished = false;    // the game is over there
  int finished_value = 0;   // then: its value for the player who moved
  bool same_mover = false;  // the player who moved moves again (Kalah's last seed in the store)
};

// A finished game's value for `view`, on the book's scale.
int outcome_value(const Outcome& o, Player view) {
  const int margin = o.scores[index(view)] - o.scores[index(opponent(view))];
  return o.winner ? (*o.winner == view ? kProvenHundredths : -kProvenHundredths) + 100 * margin : 0;
}

std::vector<MoveResult> moves_of(const AnyState& state) {
  std::vector<MoveResult> out;
  for (const auto& m : state.legal_moves()) {
    auto next = state.clone();
    next->play(m);
    MoveResult r{m, next->position()};
    r.finished = next->is_over();
    if (r.finished)
      r.finished_value = outcome_value(next->outcome(), state.to_move());
    else
      r.same_mover = next->to_move() == state.to_move();
    out.push_back(std::move(r));
  }
  return out;
}

// A move's value for the player who plays it, from the book: nullopt when its position is not
// in the book.
std::optional<int> move_value(const OpeningBook& book, const MoveResult& r) {
  if (r.finished) return r.finished_value;
  const BookNode* child = book.find(r.position);
  if (!child) return {};
  return r.same_mover ? child->value : -child->value;
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

}  // namespace

OpeningBook parse_book(const std::string& text, const std::string& path) {
  OpeningBook book;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  auto bad = [&](const std::string& expected) {
    return Error(path + ":" + std::to_string(number) + ": expected " + expected);
  };
  bool versioned = false;
  long long declared = -1;
  std::map<std::string, bool> seen;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (!versioned) {
      if (line != "naqala-book " + std::to_string(kBookVersion))
        throw bad("'naqala-book " + std::to_string(kBookVersion) +
                  "' first (an opening book of this version)");
      versioned = true;
      continue;
    }
    if (line.find('\t') == std::string::npos) {
      const auto space = line.find(' ');
      const std::string key = line.substr(0, space);
      const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
      if (!book.nodes.empty() || seen[key] || value.empty())
        throw bad("a position line (six fields separated by tabs)");
      seen[key] = true;
      if (key == "variant") {
        book.variant = value;
      } else if (key == "made-by") {
        book.made_by = value;
      } else if (key == "engine") {
        book.engine = value;
      } else if (key == "weight") {
        double w = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), w);
        if (ec != std::errc() || end != value.data() + value.size() || !(w >= 0 && w <= 1000))
          throw bad("'weight W' with W from 0 to 1000");
        book.weight = w;
      } else if (key == "seed") {
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), book.seed);
        if (ec != std::errc() || end != value.data() + value.size())
          throw bad("'seed S' with a whole number S");
      } else if (key == "positions") {
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), declared);
        if (ec != std::errc() || end != value.data() + value.size() || declared < 1)
          throw bad("'positions N' with N at least 1");
      } else {
        throw bad("'variant', 'made-by', 'engine', 'weight', 'seed', 'positions' or a position");
      }
      continue;
    }
    if (declared < 0 || book.variant.empty() || book.engine.empty())
      throw bad("the header's 'variant', 'engine' and 'positions' lines before the positions");
    const auto fields = split(line, '\t');
    if (fields.size() != 6)
      throw bad(
          "six fields separated by tabs: position, tree|search, best moves, value, search value, "
          "search move");
    BookNode node;
    node.position = fields[0];
    node.line = number;
    if (fields[1] != "tree" && fields[1] != "search")
      throw bad("'tree' (every move scored) or 'search' (a leaf) as the second field");
    node.inner = fields[1] == "tree";
    node.best = split(fields[2], ' ');
    if (fields[2].empty() || std::any_of(node.best.begin(), node.best.end(),
                                         [](const std::string& m) { return m.empty(); }))
      throw bad("the best moves, separated by single spaces");
    const auto value = parse_hundredths(fields[3]);
    const auto search = parse_hundredths(fields[4]);
    if (!value || !search) throw bad("the value and the search value, in points");
    node.value = *value;
    node.search = *search;
    node.search_move = fields[5];
    if (node.position.empty() || node.search_move.empty())
      throw bad("a position text and a search move");
    if (book.index.count(node.position)) throw bad("each position once; this one is repeated");
    book.add(std::move(node));
  }
  if (!versioned) throw bad("'naqala-book " + std::to_string(kBookVersion) + "' (an empty file)");
  if (declared < 0 || book.variant.empty() || book.engine.empty())
    throw bad("a header with 'variant', 'engine' and 'positions' lines (a cut file?)");
  if (static_cast<long long>(book.nodes.size()) != declared)
    throw bad("the " + std::to_string(declared) + " positions the header announces; the file has " +
              std::to_string(book.nodes.size()) + " (cut short?)");
  return book;
}

OpeningBook load_book(const std::string& path) {
  return parse_book(read_text_file(path, "the opening book"), path);
}

std::string book_text(const OpeningBook& book) {
  std::ostringstream out;
  out << "naqala-book " << kBookVersion << "\n";
  out << "# naqala opening book (docs/engines.md, \"Opening book\"): position, tree (every move\n"
         "# scored, value negamaxed) or search (a leaf), best moves, value, the position's own\n"
         "# search value and move; values in points for the player to move\n";
  out << "variant " << book.variant << "\n";
  out << "made-by " << book.made_by << "\n";
  out << "engine " << book.engine << "\n";
  std::ostringstream weight;
  weight << book.weight;
  out << "weight " << weight.str() << "\n";
  out << "seed " << book.seed << "\n";
  out << "positions " << book.nodes.size() << "\n";
  for (const auto& n : book.nodes) {
    out << n.position << '\t' << (n.inner ? "tree" : "search") << '\t';
    for (std::size_t i = 0; i < n.best.size(); ++i) out << (i ? " " : "") << n.best[i];
    out << '\t' << hundredths_text(n.value) << '\t' << hundredths_text(n.search) << '\t'
        << n.search_move << "\n";
  }
  return out.str();
}

void check_book(const AnyGame& game, const OpeningBook& book, const std::string& path) {
  if (book.variant != game.spec())
    throw Error(path + ": the book was built for " + book.variant + ", not " + game.spec());
  for (const auto& n : book.nodes) {
    auto bad = [&](const std::string& what) {
      return Error(path + ":" + std::to_string(n.line) + ": " + what);
    };
    std::unique_ptr<AnyState> s;
    try {
      s = game.from_position(n.position);
    } catch (const Error& e) {
      throw bad("not a position of " + game.spec() + ": " + e.what());
    }
    if (s->is_over()) throw bad("the game is over in this position; the book holds live ones");
    const auto legal = s->legal_moves();
    for (const auto& m : n.best)
      if (std::find(legal.begin(), legal.end(), m) == legal.end())
        throw bad("the best move '" + m + "' is not legal here; legal moves: " + join_moves(legal));
    if (std::find(legal.begin(), legal.end(), n.search_move) == legal.end())
      throw bad("the search move '" + n.search_move +
                "' is not legal here; legal moves: " + join_moves(legal));
    if (!n.inner) {
      if (n.value != n.search || n.best != std::vector<std::string>{n.search_move})
        throw bad("a leaf's value and move are its search's");
      continue;
    }
    int best = std::numeric_limits<int>::min();
    std::vector<std::string> best_moves;
    for (const auto& r : moves_of(*s)) {
      const auto v = move_value(book, r);
      if (!v) throw bad("move " + r.move + " leads to a position the book does not hold");
      if (*v > best) best_moves.clear();
      if (*v >= best) {
        best = *v;
        best_moves.push_back(r.move);
      }
    }
    if (best != n.value || best_moves != n.best)
      throw bad("the value and best moves are not those of the moves' positions (" +
                hundredths_text(best) + " by " + join_moves(best_moves) + ")");
  }
  if (book.nodes.empty() || book.nodes.front().position != game.new_game()->position())
    throw Error(path + ": the book's first position is not the start of " + game.spec());
}

std::shared_ptr<const OpeningBook> read_book_once(const AnyGame& game, const std::string& path) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, std::shared_ptr<const OpeningBook>> read;
  const std::lock_guard lock(mutex);
  auto& b = read[{game.spec(), path}];
  if (!b) {
    auto book = std::make_shared<OpeningBook>(load_book(path));
    check_book(game, *book, path);
    b = std::move(book);
  }
  return b;
}

std::string book_variable(const std::string& preset) {
  return eval::preset_variable(preset, "BOOK");
}

std::string shipped_book_path(const std::string& preset) {
  return data_dir() + "/" + preset + "/book.txt";
}

std::shared_ptr<const OpeningBook> shipped_book(const AnyGame& game) {
  const std::string preset = game.info().name;
  const char* env = std::getenv(book_variable(preset).c_str());
  const std::string chosen = env ? env : "";
  if (chosen == "none") return nullptr;
  if (!chosen.empty()) return read_book_once(game, chosen);  // must be there, and this game's
  const std::string path = shipped_book_path(preset);
  if (!std::filesystem::exists(path)) return nullptr;
  // The preset's book serves the preset as shipped, not a choice of its options (kalah:seeds=6).
  std::ifstream in(path);
  std::string line;
  while (read_bounded_line(in, line, path) && !line.starts_with("variant ")) {
  }
  if (line != "variant " + game.spec()) return nullptr;
  return read_book_once(game, path);
}

std::optional<Analysis> book_analysis(const OpeningBook& book, const AnyState& state) {
  const BookNode* node = book.find(state.position());
  if (!node || !node->inner) return {};
  Analysis a;
  a.from_book = true;
  for (const auto& r : moves_of(state)) {
    const auto v = move_value(book, r);
    if (!v) return {};  // a book that check_book refused: search instead
    a.scores.push_back({r.move, *v / 100.0});
  }
  std::stable_sort(a.scores.begin(), a.scores.end(),
                   [](const MoveScore& x, const MoveScore& y) { return x.value > y.value; });
  a.best_move = node->best.front();
  a.value = node->value / 100.0;
  // The line the book holds: its best moves while they lead to inner positions.
  auto walk = state.clone();
  for (const BookNode* n = node; n && n->inner && a.pv.size() < 256;) {
    a.pv.push_back(n->best.front());
    walk->play(n->best.front());
    n = walk->is_over() ? nullptr : book.find(walk->position());
  }
  a.depth = static_cast<int>(a.pv.size());
  return a;
}

namespace {

// The deterministic search that scores the book's positions: an alpha-beta spec with a depth or
// node limit, on one thread, without noise and without a book.
std::string book_search_spec(const std::string& text) {
  const EngineSpec spec = parse_spec(text);
  if (spec.kind != "alphabeta")
    bad_spec(spec, "the book's positions are scored by an alphabeta engine");
  const auto& o = spec.options;
  if (!o.count("depth") && !o.count("nodes"))
    bad_spec(spec, "give the book's search a depth= or nodes= limit, so the book replays");
  for (const char* key : {"time", "noise", "book"})
    if (o.count(key))
      bad_spec(spec, std::string(key) + "= is not for the book's search (it must replay exactly)");
  if (o.count("threads") && o.at("threads") != "1")
    bad_spec(spec, "the book's search runs on one thread (--threads searches positions at once)");
  return text + (text.find(':') == std::string::npos ? ":" : ",") + "book=none";
}

struct Scored {
  int value = 0;
  std::string move;
};

// Scores positions with `threads` engines at once; each search starts from an empty table,
// so a position's value does not depend on what was searched before it or beside it.
std::vector<Scored> score_positions(const AnyGame& game, const std::string& spec,
                                    const std::vector<std::string>& positions, int threads) {
  std::vector<Scored> out(positions.size());
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::string failure;
  auto work = [&] {
    try {
      auto engine = make_engine(game, spec);
      for (std::size_t i; (i = next++) < positions.size();) {
        engine->new_game();
        const auto state = game.from_position(positions[i]);
        const Analysis a = engine->analyze(*state, Limits{});
        out[i] = {static_cast<int>(std::llround(a.value * 100)), a.best_move};
      }
    } catch (const std::exception& e) {
      const std::lock_guard lock(failure_mutex);
      failure = e.what();
      next = positions.size();
    }
  };
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(positions.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (!failure.empty()) throw Error("the book's search failed: " + failure);
  return out;
}

// The book as a tree to grow: each inner node's moves, and its values negamaxed.
class BookTree {
 public:
  BookTree(const AnyGame& game, OpeningBook& book) : game_(game), book_(book) {
    for (std::size_t i = 0; i < book_.nodes.size(); ++i)
      if (book_.nodes[i].inner) moves_[i] = moves_of(*game_.from_position(book_.nodes[i].position));
  }

  // Negamaxes the values from the leaves up (a position reached again on its own line counts
  // by its search value).
  void back_up() {
    state_.assign(book_.nodes.size(), 0);
    for (std::size_t i = book_.nodes.size(); i-- > 0;) value_of(i);
  }

  // The leaf of lowest drop-out priority: plies from the start + weight x the points lost
  // against the best move at each step (Lincke 2000); ties go by a hash of the seed and the
  // position. -1: nothing left to expand.
  long next_leaf() const {
    const std::size_t n = book_.nodes.size();
    std::vector<double> cost(n, std::numeric_limits<double>::infinity());
    using Item = std::pair<double, std::size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    cost[0] = 0;
    queue.push({0, 0});
    while (!queue.empty()) {
      const auto [c, i] = queue.top();
      queue.pop();
      if (c > cost[i]) continue;
      const auto it = moves_.find(i);
      if (it == moves_.end()) continue;
      for (const auto& r : it->second) {
        if (r.finished) continue;
        const std::size_t j = book_.index.at(r.position);
        const int v = r.same_mover ? book_.nodes[j].value : -book_.nodes[j].value;
        const double next = c + 1 + book_.weight * (book_.nodes[i].value - v) / 100.0;
        if (next < cost[j]) {
          cost[j] = next;
          queue.push({next, j});
        }
      }
    }
    long best = -1;
    std::uint64_t best_key = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (book_.nodes[i].inner || cost[i] == std::numeric_limits<double>::infinity()) continue;
      std::uint64_t mix = fnv1a(book_.nodes[i].position) ^ book_.seed;
      const std::uint64_t key = splitmix64(mix);
      if (best < 0 || cost[i] < cost[best] ||
          (cost[i] == cost[best] &&
           (key < best_key ||
            (key == best_key && book_.nodes[i].position < book_.nodes[best].position)))) {
        best = static_cast<long>(i);
        best_key = key;
      }
    }
    return best;
  }

  // Plays every move of the leaf, scores the positions new to the book and makes it inner.
  void expand(std::size_t leaf, const std::string& spec, int threads) {
    auto moves = moves_of(*game_.from_position(book_.nodes[leaf].position));
    std::vector<std::string> fresh;
    for (const auto& r : moves)
      if (!r.finished && !book_.index.count(r.position) &&
          std::find(fresh.begin(), fresh.end(), r.position) == fresh.end())
        fresh.push_back(r.position);
    const auto scored = score_positions(game_, spec, fresh, threads);
    for (std::size_t k = 0; k < fresh.size(); ++k)
      book_.add(
          {fresh[k], false, {scored[k].move}, scored[k].value, scored[k].value, scored[k].move});
    book_.nodes[leaf].inner = true;
    moves_[leaf] = std::move(moves);
    back_up();
  }

 private:
  int value_of(std::size_t i) {
    BookNode& n = book_.nodes[i];
    if (state_[i] == 2) return n.value;
    if (state_[i] == 1 || !n.inner) return state_[i] == 1 ? n.search : n.value;
    state_[i] = 1;
    int best = std::numeric_limits<int>::min();
    std::vector<std::string> best_moves;
    for (const auto& r : moves_.at(i)) {
      int v = r.finished_value;
      if (!r.finished) {
        const int child = value_of(book_.index.at(r.position));
        v = r.same_mover ? child : -child;
      }
      if (v > best) best_moves.clear();
      if (v >= best) {
        best = v;
        best_moves.push_back(r.move);
      }
    }
    n.value = best;
    n.best = std::move(best_moves);
    state_[i] = 2;
    return best;
  }

  const AnyGame& game_;
  OpeningBook& book_;
  std::map<std::size_t, std::vector<MoveResult>> moves_;
  std::vector<char> state_;  // back_up: 0 not seen, 1 on the line being valued, 2 done
};

std::string weight_text(double w) {
  std::ostringstream t;
  t << w;
  return t.str();
}

}  // namespace

OpeningBook build_book(const AnyGame& game, const BookBuildOptions& o) {
  const std::string spec = book_search_spec(o.engine);
  if (!(o.weight >= 0 && o.weight <= 1000)) throw Error("the drop-out weight must be 0 to 1000");
  OpeningBook book;
  if (!o.out.empty() && std::filesystem::exists(o.out)) {
    book = load_book(o.out);
    check_book(game, book, o.out);
    if (book.engine != o.engine || weight_text(book.weight) != weight_text(o.weight) ||
        book.seed != o.seed)
      throw Error(o.out + " was built with --engine " + book.engine + " --weight " +
                  weight_text(book.weight) + " --seed " + std::to_string(book.seed) +
                  "; resume it with the same, or give another --out");
  } else {
    book.variant = game.spec();
    book.engine = o.engine;
    book.weight = o.weight;
    book.seed = o.seed;
    const auto start = game.new_game();
    if (start->is_over()) throw Error(game.spec() + " is over at the start: no book to build");
    const auto s = score_positions(game, spec, {start->position()}, 1).front();
    book.add({start->position(), false, {s.move}, s.value, s.value, s.move});
  }
  book.made_by = "naqala book build " + game.spec() + " --positions " +
                 std::to_string(std::max(o.positions, book.nodes.size())) + " --engine " +
                 o.engine + " --weight " + weight_text(o.weight) + " --seed " +
                 std::to_string(o.seed);
  BookTree tree(game, book);
  tree.back_up();
  auto saved = std::chrono::steady_clock::now();
  while (book.nodes.size() < o.positions) {
    const long leaf = tree.next_leaf();
    if (leaf < 0) break;
    tree.expand(static_cast<std::size_t>(leaf), spec, o.threads);
    if (o.progress) o.progress(book);
    const auto now = std::chrono::steady_clock::now();
    if (!o.out.empty() &&
        std::chrono::duration<double>(now - saved).count() >= o.checkpoint_seconds) {
      play::write_atomically(o.out, book_text(book));
      saved = now;
    }
  }
  if (!o.out.empty()) play::write_atomically(o.out, book_text(book));
  return book;
}

}  // namespace naqala::engine
