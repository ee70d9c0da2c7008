#include "engine/selfplay_records.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "core/error.h"
#include "core/rng.h"
#include "core/text_file.h"
#include "engine/arena.h"
#include "engine/engine.h"

namespace naqala::engine {

namespace {

// The file's complete blocks as text, and how many there are.
std::string complete_blocks(const std::string& path, bool (*ends_block)(const std::string&),
                            int& blocks) {
  blocks = 0;
  std::ifstream in(path);
  std::string kept, pending, line;
  while (read_bounded_line(in, line, path)) {
    pending += line + "\n";
    if (ends_block(line)) {
      kept += pending;
      pending.clear();
      ++blocks;
    }
  }
  return kept;
}

bool ends_game(const std::string& line) {
  return line.rfind("game ", 0) == 0;
}

}  // namespace

double record_value(double value) {
  if (std::abs(value) < 1000) return value;
  return value > 0 ? value - 1000 : value + 1000;
}

std::vector<std::string> shuffled_positions(const std::vector<SelfPlayPosition>& records,
                                            const std::function<bool(const std::string&)>& keep,
                                            std::uint64_t seed) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const auto& r : records) {
    if (seen.count(r.position) || !keep(r.position)) continue;
    seen.insert(r.position);
    out.push_back(r.position);
  }
  Rng rng(seed);
  for (std::size_t i = out.size(); i > 1; --i)
    std::swap(out[i - 1], out[rng.below(static_cast<std::uint32_t>(i))]);
  return out;
}

std::ofstream resume_blocks(const std::string& path, bool (*ends_block)(const std::string& line),
                            int& blocks, const std::string& what) {
  const std::string kept = complete_blocks(path, ends_block, blocks);
  {
    // Rewritten only when a cut-off block's lines must go; a complete file is appended to.
    std::ifstream probe(path, std::ios::ate);
    if (!probe || static_cast<std::size_t>(probe.tellg()) != kept.size()) {
      std::ofstream rewrite(path, std::ios::trunc);
      rewrite << kept;
      if (!rewrite) throw Error("cannot write " + what + " to " + path);
    }
  }
  std::ofstream out(path, std::ios::app);
  if (!out) throw Error("cannot write " + what + " to " + path);
  return out;
}

int extend_self_play(const AnyGame& game, const std::string& path, const SelfPlayOptions& o) {
  int games = 0;
  std::ofstream out = resume_blocks(path, ends_game, games, "self-play records");
  make_engine(game, o.engine);  // a bad spec is refused before anything is played
  for (int g = games; g < o.games; ++g) {
    // A fresh engine (and table) for every game: a game depends on its number alone, so a
    // resumed run writes what an unbroken one would.
    const auto engine = make_engine(game, o.engine);
    Rng rng(o.seed * 1000003 + static_cast<std::uint64_t>(g));
    auto s = game.new_game();
    play_random_opening(*s, o.opening_plies, rng);
    std::ostringstream lines;
    for (int ply = 0; ply < o.max_plies && !s->is_over(); ++ply) {
      const Analysis a = engine->think(*s, {});
      // A search stopped by its node limit before its first iteration ended has no value.
      if (std::abs(a.value) < 2000) {
        char value[32];
        std::snprintf(value, sizeof value, "%.2f", record_value(a.value));
        lines << "pos " << s->position() << " " << (s->to_move() == Player::South ? 'S' : 'N')
              << " " << value << "\n";
      }
      s->play(a.best_move);
    }
    const Outcome end = s->outcome();
    lines << "game " << end.scores[0] - end.scores[1] << "\n";
    out << lines.str() << std::flush;
    if (!out) throw Error("cannot write self-play records to " + path);
    if (o.progress) o.progress(g + 1, o.games);
  }
  return std::max(games, o.games);
}

std::vector<SelfPlayPosition> read_self_play(const std::string& path, int* games) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read self-play records " + path);
  std::vector<SelfPlayPosition> out, pending;
  std::string line;
  int complete = 0;
  for (int number = 1; read_bounded_line(in, line, path); ++number) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "pos") {
      SelfPlayPosition p;
      char mover = 0;
      if (words >> p.position >> mover >> p.value && (mover == 'S' || mover == 'N')) {
        p.mover = mover == 'S' ? Player::South : Player::North;
        pending.push_back(std::move(p));
        continue;
      }
    } else if (kind == "game") {
      double south_margin;
      if (words >> south_margin) {
        for (auto& p : pending) {
          p.margin = p.mover == Player::South ? south_margin : -south_margin;
          out.push_back(std::move(p));
        }
        pending.clear();
        ++complete;
        continue;
      }
    }
    throw Error(path + ":" + std::to_string(number) +
                ": not a self-play record (expected 'pos POSITION S|N VALUE' or 'game MARGIN')");
  }
  if (games) *games = complete;
  return out;
}

}  // namespace naqala::engine
