#include "engine/search_labels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "engine/engine.h"

namespace naqala::engine {

namespace {

void write_search_label(std::ostream& out, Engine& engine, const AnyState& s) {
  const Analysis a = engine.think(s, {});
  // A search stopped by its node limit before its first iteration ended has no value.
  if (std::abs(a.value) >= 2000) return;
  char value[32];
  std::snprintf(value, sizeof value, "%.2f", record_value(a.value));
  out << "value " << s.position() << " " << value << "\n";
}

}  // namespace

int extend_search_labels(const AnyGame& game, const std::vector<SelfPlayPosition>& records,
                         const std::string& path, const SearchLabelOptions& o) {
  make_engine(game, o.engine);  // a bad spec is refused before anything is written
  const auto roots = shuffled_positions(
      records, [&](const std::string& p) { return !game.from_position(p)->is_over(); }, o.seed);
  const int want = std::min<int>(o.roots, static_cast<int>(roots.size()));
  int done = 0;
  std::ofstream out = resume_blocks(path, ends_label_root, done, "search labels");
  for (int i = done; i < want; ++i) {
    // A fresh engine for every root: its labels depend on the root alone.
    const auto engine = make_engine(game, o.engine);
    const auto root = game.from_position(roots[i]);
    std::ostringstream lines;
    write_search_label(lines, *engine, *root);
    if (o.children) {
      for (const auto& m : root->legal_moves()) {
        auto child = root->clone();
        child->play(m);
        if (!child->is_over()) write_search_label(lines, *engine, *child);
      }
    }
    lines << "root\n";
    out << lines.str() << std::flush;
    if (!out) throw Error("cannot write search labels to " + path);
    if (o.progress) o.progress(i + 1, want);
  }
  return std::max(done, want);
}

std::vector<SearchLabel> read_search_labels(const std::string& path, int* roots) {
  return read_root_blocks<SearchLabel>(
      path, "search labels", "not a search label (expected 'value POSITION VALUE' or 'root')",
      [](const std::string& kind, std::istringstream& words, SearchLabel& l) {
        return kind == "value" && words >> l.position >> l.value && std::isfinite(l.value);
      },
      roots);
}

}  // namespace naqala::engine
