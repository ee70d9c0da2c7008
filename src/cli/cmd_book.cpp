// naqala book build VARIANT --out FILE [--positions N] [--engine SPEC] [--weight W] [--seed S]
//                          [--threads T]
// naqala book probe VARIANT [--book FILE] [--position P] [--record F] [--moves ...] [--json]
// The opening book (src/engine/book.h): grown by drop-out expansion and our own search, and
// what it knows of a position.
#include <chrono>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "core/json_text.h"
#include "engine/book.h"

namespace naqala::cli {

namespace {

std::string points(int hundredths) {
  return (hundredths >= 0 ? "+" : "") + fixed(hundredths / 100.0, 2);
}

// The plies from the start of the book's main line (its best moves while inner).
int main_line_plies(const AnyGame& game, const engine::OpeningBook& book) {
  const auto start = game.new_game();
  const auto a = engine::book_analysis(book, *start);
  return a ? a->depth : 0;
}

void add_build(CLI::App& book_cmd) {
  auto* cmd = book_cmd.add_subcommand(
      "build",
      "Grow an opening book by drop-out expansion (the leaf of lowest plies + weight x points "
      "lost on its line is expanded next), every position scored by a fixed search; resumes "
      "from --out");
  struct Args {
    std::string variant;
    engine::BookBuildOptions o;
  };
  auto a = std::make_shared<Args>();
  a->o.engine = "alphabeta:depth=8";
  cmd->add_option("variant", a->variant, "A sowing variant, e.g. oware or kalah")->required();
  cmd->add_option("--out", a->o.out,
                  "The book file: written atomically every --checkpoint seconds and at the end; "
                  "a build resumes from it when it is there")
      ->required()
      ->check(kNotEmpty);
  cmd->add_option("--positions", a->o.positions,
                  "Stop when the book holds this many positions (default 1000)")
      ->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--engine", a->o.engine,
                  "The search that scores each position: alphabeta with depth= or nodes= and one "
                  "thread, so the book replays exactly (default alphabeta:depth=8)");
  cmd->add_option("--weight", a->o.weight,
                  "Drop-out weight: plies of depth that one point lost against the best move "
                  "costs a line (default 1; 0 grows the book breadth-first)")
      ->check(CLI::Range(0.0, 1000.0));
  cmd->add_option("--seed", a->o.seed,
                  "Seed that orders leaves of equal priority (default 1): the same seed, engine "
                  "and weight give the same file");
  cmd->add_option("--threads", a->o.threads,
                  "Positions searched at once (default 1); the book does not depend on it")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--checkpoint", a->o.checkpoint_seconds,
                  "Seconds between saves of --out (default 60)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->callback([a] {
    Loaded l = load_state(a->variant, "", "", "");
    if (l.game->info().family != "sowing")
      throw Error("book works on sowing variants (Oware, Kalah, ...); " + l.game->spec() +
                  " is a " + l.game->info().family + " game");
    const auto start = std::chrono::steady_clock::now();
    a->o.progress = [](const engine::OpeningBook& b) {
      std::fprintf(stderr, "\r%zu positions", b.nodes.size());
    };
    const auto book = engine::build_book(*l.game, a->o);
    std::fprintf(stderr, "\n");
    std::size_t inner = 0;
    for (const auto& n : book.nodes) inner += n.inner;
    const auto& root = book.nodes.front();
    std::cout
        << a->o.out << ": " << book.nodes.size() << " positions (" << inner
        << " with every move scored), main line " << main_line_plies(*l.game, book)
        << " plies; the start's value " << points(root.value) << " by " << join_moves(root.best)
        << "; "
        << fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1)
        << " s\n";
  });
}

void add_probe(CLI::App& book_cmd) {
  auto* cmd = book_cmd.add_subcommand("probe", "What the opening book knows of a position");
  struct Args {
    std::string variant, book;
    StartFlags start;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "A sowing variant, e.g. oware or kalah")->required();
  cmd->add_option("--book", a->book,
                  "The book file (default: the variant's shipped book, data/PRESET/book.txt, or "
                  "NAQALA_<PRESET>_BOOK)")
      ->check(kNotEmpty);
  add_start_flags(cmd, a->start, "Probe this position");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    Loaded l = load_state(a->variant, a->start);
    std::string path = a->book;
    std::shared_ptr<const engine::OpeningBook> book;
    if (!path.empty()) {
      book = engine::read_book_once(*l.game, path);
    } else {
      book = engine::shipped_book(*l.game);
      path = engine::shipped_book_path(l.game->info().name);
      if (!book)
        throw Error("no opening book for " + l.game->spec() + " (" + path +
                    " is not there or is for another variant); give --book FILE");
    }
    const auto* node = book->find(l.state->position());
    const auto analysis = engine::book_analysis(*book, *l.state);
    if (a->json) {
      nlohmann::json j{{"variant", l.game->spec()},
                       {"position", l.state->position()},
                       {"book", path},
                       {"engine", book->engine},
                       {"in_book", node != nullptr}};
      if (node) {
        j["kind"] = node->inner ? "tree" : "search";
        j["best_moves"] = node->best;
        j["value"] = node->value / 100.0;
        j["search_value"] = node->search / 100.0;
        j["search_move"] = node->search_move;
        j["engine_plays_book"] = analysis.has_value();
      }
      if (analysis) {
        nlohmann::json scores = nlohmann::json::array();
        for (const auto& s : analysis->scores)
          scores.push_back({{"move", s.move}, {"value", s.value}});
        j["scores"] = scores;
        j["line"] = analysis->pv;
      }
      std::cout << json_text(j) << "\n";
      return;
    }
    std::cout << l.game->spec() << " " << l.state->position() << " (" << path << "):\n";
    if (!node) {
      std::cout << "  not in the book; the engine searches here\n";
      return;
    }
    if (!node->inner) {
      std::cout << "  a leaf of the book: its search (" << book->engine << ") gives "
                << points(node->search) << " by " << node->search_move
                << "; the engine searches here\n";
      return;
    }
    std::cout << "  every move scored; the engine plays " << node->best.front() << ", value "
              << points(node->value) << " (best: " << join_moves(node->best)
              << "; this position's own search: " << points(node->search) << " by "
              << node->search_move << ")\n";
    for (const auto& s : analysis->scores)
      std::cout << "    " << s.move << "  " << points(static_cast<int>(std::lround(s.value * 100)))
                << "\n";
    std::cout << "  the book's line: " << join_moves(analysis->pv) << "\n";
    std::cout << "values are in points (seeds) for the player to move\n";
  });
}

}  // namespace

void add_book_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("book", "Opening books: build one by our own search, probe one");
  cmd->require_subcommand(1);
  add_build(*cmd);
  add_probe(*cmd);
}

}  // namespace naqala::cli
