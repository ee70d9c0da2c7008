// The opening book (engine/book.h): its file, its build by drop-out expansion (deterministic,
// resumable), the shipped books against the search, and the engine playing from it.
#include "engine/book.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "games/registry.h"
#include "scratch_dir.h"

namespace naqala::engine {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

BookBuildOptions small_build(const std::string& out, std::size_t positions) {
  BookBuildOptions o;
  o.engine = "alphabeta:depth=3,hash=1";
  o.positions = positions;
  o.weight = 1;
  o.seed = 7;
  o.out = out;
  return o;
}

// What the book's search gives for a position: its value in hundredths and its move.
std::pair<int, std::string> search(const AnyGame& game, const std::string& spec,
                                   const std::string& position) {
  auto engine = make_engine(game, spec + ",book=none");
  const auto state = game.from_position(position);
  const auto a = engine->analyze(*state, Limits{});
  EXPECT_FALSE(a.from_book);
  return {static_cast<int>(std::llround(a.value * 100)), a.best_move};
}

void expect_legal_moves(const AnyGame& game, const OpeningBook& book) {
  for (const auto& n : book.nodes) {
    const auto legal = game.from_position(n.position)->legal_moves();
    for (const auto& m : n.best)
      EXPECT_NE(std::find(legal.begin(), legal.end(), m), legal.end()) << n.position << " " << m;
    EXPECT_NE(std::find(legal.begin(), legal.end(), n.search_move), legal.end()) << n.position;
  }
}

TEST(Book, BuildIsDeterministicWhateverTheThreadsAndResumesToTheSameFile) {
  testing::ScratchDir dir;
  for (const char* variant : {"kalah", "oware"}) {
    const auto game = make_game(variant);
    const std::string whole = dir.path().string() + "/" + variant + "-whole.txt";
    const std::string parallel = dir.path().string() + "/" + variant + "-parallel.txt";
    const std::string resumed = dir.path().string() + "/" + variant + "-resumed.txt";
    const auto book = build_book(*game, small_build(whole, 60));
    EXPECT_GE(book.nodes.size(), 60u);
    auto two = small_build(parallel, 60);
    two.threads = 2;
    build_book(*game, two);
    EXPECT_EQ(read(whole), read(parallel)) << variant;
    // A build stopped at 25 positions (as a checkpoint leaves it) and resumed.
    build_book(*game, small_build(resumed, 25));
    EXPECT_LT(load_book(resumed).nodes.size(), book.nodes.size());
    build_book(*game, small_build(resumed, 60));
    EXPECT_EQ(read(whole), read(resumed)) << variant;
    // Another seed only reorders leaves of equal priority; another engine is refused.
    auto other = small_build(resumed, 60);
    other.engine = "alphabeta:depth=4";
    EXPECT_THROW(build_book(*game, other), Error);
  }
}

TEST(Book, EveryMoveIsLegalAndEveryValueTheSearchsOrItsMovesBest) {
  testing::ScratchDir dir;
  const auto game = make_game("kalah");
  const std::string path = dir.path().string() + "/kalah.txt";
  const auto book = build_book(*game, small_build(path, 80));
  expect_legal_moves(*game, book);
  const auto loaded = load_book(path);
  EXPECT_NO_THROW(check_book(*game, loaded, path));
  // Every position's own value is its search's, re-searched from the position alone.
  for (const auto& n : loaded.nodes) {
    const auto [value, move] = search(*game, loaded.engine, n.position);
    EXPECT_EQ(n.search, value) << n.position;
    EXPECT_EQ(n.search_move, move) << n.position;
  }
  // Drop-out expansion: the start has every move scored, and its main line goes deepest.
  EXPECT_TRUE(loaded.nodes.front().inner);
  const auto start = game->new_game();
  const auto a = book_analysis(loaded, *start);
  ASSERT_TRUE(a);
  EXPECT_GE(a->depth, 3);
  EXPECT_EQ(a->scores.size(), start->legal_moves().size());
  EXPECT_EQ(a->best_move, loaded.nodes.front().best.front());
  EXPECT_DOUBLE_EQ(a->scores.front().value, loaded.nodes.front().value / 100.0);
}

// The moves that lead from the start to each position of the book, through inner positions
// (the shortest such line).
std::map<std::string, std::vector<std::string>> lines_of(const AnyGame& game,
                                                         const OpeningBook& book) {
  std::map<std::string, std::vector<std::string>> line;
  std::deque<std::string> queue{book.nodes.front().position};
  line[queue.front()] = {};
  while (!queue.empty()) {
    const std::string at = queue.front();
    queue.pop_front();
    const BookNode* n = book.find(at);
    if (!n || !n->inner) continue;
    const auto state = game.from_position(at);
    for (const auto& m : state->legal_moves()) {
      auto next = state->clone();
      next->play(m);
      if (next->is_over() || line.count(next->position())) continue;
      auto moves = line[at];
      moves.push_back(m);
      line[next->position()] = moves;
      queue.push_back(next->position());
    }
  }
  return line;
}

// The shipped books: checked whole (legal moves, negamaxed values), and a sample of their
// positions re-searched at the book's own search gives the same value and move. The sample is
// searched in the game that reaches it from the start (its history, for Oware's cycle rule), as
// the engine meets it: the book's searches were of the position alone.
TEST(Book, ShippedBooksMatchTheSearch) {
  for (const char* variant : {"oware", "kalah"}) {
    const auto game = make_game(variant);
    // Shipped beside the default path: a depth-8 book is shallower than a game's search, so
    // the engine does not play it unless `book=` names it (docs/engines.md).
    const std::string default_path = shipped_book_path(variant);
    const std::string path =
        std::filesystem::path(default_path).replace_filename("book-depth8.txt").string();
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    const auto book = load_book(path);
    ASSERT_NO_THROW(check_book(*game, book, path));
    if (std::filesystem::exists(default_path))
      EXPECT_EQ(shipped_book(*game).get(), read_book_once(*game, default_path).get());
    else
      EXPECT_EQ(shipped_book(*game), nullptr);
    expect_legal_moves(*game, book);
    const auto lines = lines_of(*game, book);
    EXPECT_EQ(lines.size(), book.nodes.size()) << "every position is reached from the start";
    auto engine = make_engine(*game, book.engine + ",book=none");
    const std::size_t step = std::max<std::size_t>(1, book.nodes.size() / 12);
    for (std::size_t i = 0; i < book.nodes.size(); i += step) {
      const auto& n = book.nodes[i];
      auto state = game->new_game();
      for (const auto& m : lines.at(n.position)) state->play(m);
      ASSERT_EQ(state->position(), n.position);
      engine->new_game();
      const auto a = engine->analyze(*state, Limits{});
      EXPECT_EQ(n.search, std::llround(a.value * 100)) << variant << " line " << n.line;
      EXPECT_EQ(n.search_move, a.best_move) << variant << " line " << n.line;
    }
  }
}

TEST(Book, DamagedFilesAreRefusedWithTheLine) {
  testing::ScratchDir dir;
  const auto game = make_game("kalah");
  const std::string path = dir.path().string() + "/kalah.txt";
  build_book(*game, small_build(path, 30));
  const std::string good = read(path);
  const auto lines = [&] {
    std::vector<std::string> out;
    std::istringstream in(good);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }();
  const std::size_t first =
      std::find_if(lines.begin(), lines.end(),
                   [](const std::string& l) { return l.find('\t') != std::string::npos; }) -
      lines.begin();
  ASSERT_LT(first, lines.size());
  const std::size_t last = lines.size() - 1;
  auto damaged = [&](std::size_t at, const std::string& replacement) {
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (i != at || !replacement.empty()) text += (i == at ? replacement : lines[i]) + "\n";
    return text;
  };
  auto expect_refused = [&](const std::string& text, const std::string& where,
                            const std::string& what) {
    try {
      const auto book = parse_book(text, "b.txt");
      check_book(*game, book, "b.txt");
      ADD_FAILURE() << "accepted: " << what;
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("b.txt:" + where), std::string::npos) << message;
      EXPECT_NE(message.find(what), std::string::npos) << message;
    }
  };
  const std::string n = std::to_string(first + 1);
  expect_refused("naqala-book 9\n" + good.substr(good.find('\n') + 1), "1:", "naqala-book 1");
  expect_refused(damaged(first, lines[first].substr(0, lines[first].rfind('\t'))), n + ":",
                 "six fields");
  auto fields = lines[first];
  expect_refused(damaged(first, fields.replace(fields.find("\t"), 1, "\tleaf\t")), n + ":",
                 "six fields");
  std::string bad_value = lines[first];
  {
    // The value field (the fourth) made a word.
    std::size_t at = 0;
    for (int k = 0; k < 3; ++k) at = bad_value.find('\t', at) + 1;
    bad_value.replace(at, bad_value.find('\t', at) - at, "much");
  }
  expect_refused(damaged(first, bad_value), n + ":", "the value and the search value");
  expect_refused(damaged(last, ""), std::to_string(last) + ":", "positions the header announces");
  expect_refused("naqala-book 1\nvariant kalah\n", "2:", "a header with");
  expect_refused(damaged(last, lines[first]), std::to_string(last + 1) + ":", "repeated");
  // Lines that read well but do not hold: an illegal best move, a value not its moves' best.
  std::string illegal = lines[first];
  {
    std::size_t at = 0;
    for (int k = 0; k < 2; ++k) at = illegal.find('\t', at) + 1;
    illegal.replace(at, illegal.find('\t', at) - at, "9");
  }
  expect_refused(damaged(first, illegal), n + ":", "'9' is not legal");
  std::string wrong = lines[first];
  {
    std::size_t at = 0;
    for (int k = 0; k < 3; ++k) at = wrong.find('\t', at) + 1;
    wrong.replace(at, wrong.find('\t', at) - at, "123.45");
  }
  expect_refused(damaged(first, wrong), n + ":", "not those of the moves' positions");
  EXPECT_THROW(load_book(dir.path().string() + "/none.txt"), Error);
  EXPECT_THROW(check_book(*make_game("oware"), parse_book(good, "b.txt"), "b.txt"), Error);
}

TEST(Book, EnginePlaysTheBookMoveInTheBookAndSearchesOutside) {
  testing::ScratchDir dir;
  const auto game = make_game("kalah");
  const std::string path = dir.path().string() + "/kalah.txt";
  const auto book = build_book(*game, small_build(path, 60));
  auto engine = make_engine(*game, "alphabeta:depth=2,book=" + path);
  auto start = game->new_game();
  EXPECT_EQ(engine->choose_move(*start), book.nodes.front().best.front());
  const auto a = engine->analyze(*start, Limits{});
  EXPECT_TRUE(a.from_book);
  EXPECT_EQ(a.nodes, 0u);
  SearchRequest request;
  EXPECT_TRUE(engine->think(*start, request).from_book);
  // Out of the book (a leaf, or a position it never reached), the engine searches.
  const auto leaf = std::find_if(book.nodes.begin(), book.nodes.end(),
                                 [](const BookNode& n) { return !n.inner; });
  ASSERT_NE(leaf, book.nodes.end());
  const auto at_leaf = engine->analyze(*game->from_position(leaf->position), Limits{});
  EXPECT_FALSE(at_leaf.from_book);
  EXPECT_GT(at_leaf.nodes, 0u);
  // book=none searches everywhere.
  auto none = make_engine(*game, "alphabeta:depth=2,book=none");
  EXPECT_FALSE(none->analyze(*start, Limits{}).from_book);
  // A book of another variant is refused with its name.
  EXPECT_THROW(make_engine(*make_game("oware"), "alphabeta:depth=2,book=" + path), Error);
  EXPECT_THROW(make_engine(*game, "alphabeta:depth=2,book=" + dir.path().string() + "/missing.txt"),
               Error);
}

TEST(Book, BuildRefusesSearchesThatDoNotReplay) {
  const auto game = make_game("kalah");
  for (const char* spec : {"alphabeta:time=1", "alphabeta", "alphabeta:depth=3,threads=2",
                           "alphabeta:depth=3,noise=1", "mcts:sims=10", "level:3"}) {
    BookBuildOptions o;
    o.engine = spec;
    o.positions = 5;
    EXPECT_THROW(build_book(*game, o), VariantError) << spec;
  }
}

}  // namespace
}  // namespace naqala::engine
