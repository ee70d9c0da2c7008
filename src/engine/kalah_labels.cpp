#include "engine/kalah_labels.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "solve/kalah_solver.h"

namespace naqala::engine {

namespace {

int label_seeds_in_pits(const sowing::State& s) {
  return s.rules().total_seeds - s.store(Player::South) - s.store(Player::North);
}

void write_label(std::ostream& out, const sowing::State& s, solve::Solver& solver,
                 std::uint64_t node_limit) {
  solver.set_node_limit(node_limit);
  const solve::MarginProof p = solve::prove_margin(s, solver, 0);
  if (p.exact())
    out << "exact " << s.position() << " " << p.low << "\n";
  else
    out << "open " << s.position() << " " << p.low << " " << p.high << "\n";
}

}  // namespace

std::vector<std::string> exact_label_roots(const sowing::Rules& rules,
                                           const std::vector<SelfPlayPosition>& records,
                                           const ExactLabelOptions& o) {
  return shuffled_positions(
      records,
      [&](const std::string& position) {
        const auto s = sowing::State::from_position(rules, position);
        const int n = label_seeds_in_pits(s);
        return !s.is_over() && n >= o.min_seeds && n <= o.max_seeds;
      },
      o.seed);
}

int extend_exact_labels(const sowing::Rules& rules, const std::vector<SelfPlayPosition>& records,
                        const solve::EndgameDb* db, const std::string& path,
                        const ExactLabelOptions& o) {
  const solve::KalahRules kalah = solve::kalah_rules(rules);  // refuses other rulesets
  const auto roots = exact_label_roots(rules, records, o);
  const int want = std::min<int>(o.roots, static_cast<int>(roots.size()));
  int done = 0;
  std::ofstream out = resume_blocks(path, ends_label_root, done, "exact labels");
  for (int i = done; i < want; ++i) {
    // A fresh table for every root: its labels depend on the root alone.
    solve::Solver solver(kalah, rules.total_seeds, db, o.table_mb);
    const auto root = sowing::State::from_position(rules, roots[i]);
    std::ostringstream lines;
    write_label(lines, root, solver, o.node_limit);
    if (o.children) {
      sowing::State::MoveList moves;
      root.legal_moves(moves);
      for (const auto m : moves) {
        sowing::State child = root;
        child.play(m);
        if (!child.is_over()) write_label(lines, child, solver, o.node_limit);
      }
    }
    lines << "root\n";
    out << lines.str() << std::flush;
    if (!out) throw Error("cannot write exact labels to " + path);
    if (o.progress) o.progress(i + 1, want);
  }
  return std::max(done, want);
}

std::vector<ExactLabel> read_exact_labels(const std::string& path, int* roots) {
  return read_root_blocks<ExactLabel>(
      path, "exact labels",
      "not an exact label (expected 'exact POSITION MARGIN', 'open POSITION LOW HIGH' or 'root')",
      [](const std::string& kind, std::istringstream& words, ExactLabel& l) {
        if (kind == "exact" && words >> l.position >> l.low) {
          l.high = l.low;
          return true;
        }
        return kind == "open" && words >> l.position >> l.low >> l.high && l.low <= l.high;
      },
      roots);
}

}  // namespace naqala::engine
