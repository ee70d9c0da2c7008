#pragma once
// An opening book built by our own search (docs/engines.md, "Opening book"): a tree of
// positions grown from the start by drop-out expansion (Lincke 2000), each position scored by
// a fixed-depth or fixed-node alpha-beta search, the values negamaxed back up the tree. The
// alpha-beta engine plays the book's move where the book has searched every move (an inner
// position); a preset's default book is data/PRESET/book.txt (none shipped yet: the depth-8 books
// are book-depth8.txt, played only when named).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/engine.h"
#include "games/any_game.h"

namespace naqala::engine {

inline constexpr int kBookVersion = 1;

// Book values are hundredths of a point (seeds), from the view of the player to move; a
// proven result is +-(1000 + margin) points, as the engine API reports it.
struct BookNode {
  std::string position;  // the variant's position text
  // Inner: every move was played and its position scored (in the book, or a finished game),
  // and `value` is the best of them, negamaxed; a leaf's value is its own search's.
  bool inner = false;
  std::vector<std::string> best;  // the moves that reach `value` (a leaf: the search's move)
  int value = 0;
  int search = 0;           // this position's own search value
  std::string search_move;  // and its move
  int line = 0;             // the file's line (0: not read from a file)
};

struct OpeningBook {
  std::string variant;  // the game's canonical spec
  std::string made_by;  // the command that builds this file
  std::string engine;   // the search that scored each position (deterministic: depth or nodes)
  double weight = 1;    // drop-out weight: plies of depth one point lost is worth
  std::uint64_t seed = 1;
  std::vector<BookNode> nodes;  // in the order they were added; nodes[0] is the start
  std::unordered_map<std::string, std::size_t> index;  // position text -> nodes[i]

  const BookNode* find(const std::string& position) const;
  void add(BookNode node);
};

// The file (text, one position a line, fields separated by tabs):
//   naqala-book 1
//   variant VARIANT
//   made-by COMMAND
//   engine SPEC
//   weight W
//   seed S
//   positions N
//   POSITION <tab> tree|search <tab> BEST MOVES (space-separated) <tab> VALUE <tab> SEARCH VALUE
//     <tab> SEARCH MOVE          (values in points with two decimals)
// `#` lines are comments. A malformed file is refused with naqala::Error naming the line.
OpeningBook parse_book(const std::string& text, const std::string& path);
OpeningBook load_book(const std::string& path);
std::string book_text(const OpeningBook& book);

// Checks the book against the game: the variant, every position's text, every best move legal,
// and each inner position's value and best moves those of its moves' positions. Throws Error
// naming the file's line and what is wrong.
void check_book(const AnyGame& game, const OpeningBook& book, const std::string& path);

// The book file, read and checked once a process (engines are made per game, in threads).
std::shared_ptr<const OpeningBook> read_book_once(const AnyGame& game, const std::string& path);

// The book a spec without book= plays: NAQALA_<PRESET>_BOOK when set (`none`: no book),
// else data/PRESET/book.txt when it is there and was built for this very variant; null: none.
std::shared_ptr<const OpeningBook> shipped_book(const AnyGame& game);
std::string book_variable(const std::string& preset);
std::string shipped_book_path(const std::string& preset);

// Every move of an inner book position scored from the book, best first, as the engine's
// analysis (from_book set; depth: the plies the book's line goes on); nullopt when the position
// is not an inner position of the book.
std::optional<Analysis> book_analysis(const OpeningBook& book, const AnyState& state);

struct BookBuildOptions {
  std::string engine = "alphabeta:depth=8";  // alpha-beta with depth= or nodes=, one thread
  std::size_t positions = 1000;              // stop when the book holds this many
  double weight = 1;
  std::uint64_t seed = 1;
  int threads = 1;  // positions searched at once (the book does not depend on it)
  std::string out;  // the file: resumed from when it is there, saved as the build goes
  double checkpoint_seconds = 60;
  std::function<void(const OpeningBook&)> progress;  // after each expansion
};

// Builds (or resumes) the book and saves it to `out` (atomically, every checkpoint_seconds and
// at the end). Deterministic: the same options give the same bytes, whatever the threads and
// however often it was stopped and resumed.
OpeningBook build_book(const AnyGame& game, const BookBuildOptions& options);

}  // namespace naqala::engine
