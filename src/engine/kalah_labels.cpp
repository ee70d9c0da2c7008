#include "engine/kalah_labels.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "core/error.h"
#include "core/rng.h"
#include "solve/kalah_solver.h"

namespace naqala::engine {

namespace {

int label_seeds_in_pits(const sowing::State& s) {
  return s.rules().total_seeds - s.store(Player::South) - s.store(Player::North);
}

bool ends_root(const std::string& line) {
  return line == "root";
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
  std::vector<std::string> roots;
  std::unordered_set<std::string> seen;
  for (const auto& r : records) {
    const auto s = sowing::State::from_position(rules, r.position);
    const int n = label_seeds_in_pits(s);
    if (s.is_over() || n < o.min_seeds || n > o.max_seeds) continue;
    if (seen.insert(r.position).second) roots.push_back(r.position);
  }
  Rng rng(o.seed);
  for (std::size_t i = roots.size(); i > 1; --i)
    std::swap(roots[i - 1], roots[rng.below(static_cast<std::uint32_t>(i))]);
  return roots;
}

int extend_exact_labels(const sowing::Rules& rules, const std::vector<SelfPlayPosition>& records,
                        const solve::EndgameDb* db, const std::string& path,
                        const ExactLabelOptions& o) {
  const solve::KalahRules kalah = solve::kalah_rules(rules);  // refuses other rulesets
  const auto roots = exact_label_roots(rules, records, o);
  const int want = std::min<int>(o.roots, static_cast<int>(roots.size()));
  int done = 0;
  std::ofstream out = resume_blocks(path, ends_root, done, "exact labels");
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
  std::ifstream in(path);
  if (!in) throw Error("cannot read exact labels " + path);
  std::vector<ExactLabel> out, pending;
  std::string line;
  int complete = 0;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string kind, rest;
    words >> kind;
    ExactLabel l;
    if (kind == "exact" && words >> l.position >> l.low && !(words >> rest)) {
      l.high = l.low;
      pending.push_back(std::move(l));
      continue;
    }
    if (kind == "open" && words >> l.position >> l.low >> l.high && l.low <= l.high &&
        !(words >> rest)) {
      pending.push_back(std::move(l));
      continue;
    }
    if (kind == "root" && !(words >> rest)) {
      for (auto& p : pending) out.push_back(std::move(p));
      pending.clear();
      ++complete;
      continue;
    }
    throw Error(path + ":" + std::to_string(number) +
                ": not an exact label (expected 'exact POSITION MARGIN', 'open POSITION LOW "
                "HIGH' or 'root')");
  }
  if (roots) *roots = complete;
  return out;
}

}  // namespace naqala::engine
