#include "eval/pit_table.h"

#include <cctype>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/error.h"
#include "core/read_once.h"
#include "core/text_file.h"

namespace naqala::eval {

TrainedSowingEval load_trained_eval(const std::string& path) {
  std::istringstream in(read_text_file(path, "the evaluation file"));
  TrainedSowingEval e;
  std::string line;
  int number = 0;
  auto bad = [&](const std::string& expected) {
    return Error(path + ":" + std::to_string(number) + ": expected " + expected);
  };
  // The section whose rows are being read (the table, `late` or `pairs`), its row length and
  // the rows still to come; `rows` is -1 before the `table` line.
  std::vector<std::int16_t>* section = &e.table.value;
  int width = kTableCounts;
  int rows = -1;
  const auto begin_section = [&](std::vector<std::int16_t>& into, int n, int w) {
    section = &into;
    width = w;
    rows = n;
  };
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    if (rows > 0) {
      for (int c = 0; c < width; ++c) {
        int v;
        if (!(words >> v) || v < std::numeric_limits<std::int16_t>::min() ||
            v > std::numeric_limits<std::int16_t>::max())
          throw bad(std::to_string(width) + " table values (integers of 16 bits)");
        section->push_back(static_cast<std::int16_t>(v));
      }
      --rows;
      continue;
    }
    std::string key;
    words >> key;
    if (key == "made-by") {
      std::getline(words >> std::ws, e.made_by);
    } else if (key == "weights") {
      for (int w; words >> w;) e.weights.push_back(w);
      if (e.weights.empty()) throw bad("'weights' followed by integers");
    } else if (key == "table" && rows < 0) {
      if (!(words >> e.table.pits) || e.table.pits < 1 || e.table.pits > 16)
        throw bad("'table PITS' with 1 to 16 pits");
      begin_section(e.table.value, 2 * e.table.pits, kTableCounts);
    } else if (key == "late" && rows == 0 && e.table.late.empty()) {
      begin_section(e.table.late, 2 * e.table.pits, kTableCounts);
    } else if (key == "pairs" && rows == 0 && e.table.pair.empty()) {
      begin_section(e.table.pair, e.table.pits * kPairCounts, kPairCounts);
    } else {
      throw bad(rows == 0 ? "'late' or 'pairs' (once each), 'made-by', 'weights' or a comment"
                          : "'made-by', 'weights', 'table' or a comment");
    }
  }
  if (rows != 0) throw bad("all the rows of the section begun ('table', 'late' or 'pairs')");
  if (e.weights.empty()) throw bad("a 'weights' line");
  return e;
}

std::shared_ptr<const TrainedSowingEval> read_trained_eval_once(const std::string& path) {
  return read_once<TrainedSowingEval, load_trained_eval>(path);
}

std::string preset_variable(const std::string& preset, const std::string& what) {
  std::string name = "NAQALA_";
  for (char c : preset) name += c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return name + "_" + what;
}

std::string eval_variable(const std::string& preset) {
  return preset_variable(preset, "EVAL");
}

void save_trained_eval(const std::string& path, const TrainedSowingEval& e) {
  std::ofstream out(path, std::ios::trunc);
  out << "# naqala evaluation: feature weights and a pit table (docs/engines.md)\n";
  out << "made-by " << e.made_by << "\nweights";
  for (int w : e.weights) out << " " << w;
  out << "\ntable " << e.table.pits << "\n";
  const auto rows = [&](const std::vector<std::int16_t>& v, int width, auto name) {
    for (std::size_t row = 0; row * width < v.size(); ++row) {
      out << "# " << name(static_cast<int>(row)) << "\n";
      for (int c = 0; c < width; ++c) out << (c ? " " : "") << v[row * width + c];
      out << "\n";
    }
  };
  const int pits = e.table.pits;
  const auto pit_name = [pits](int row) {
    return (row < pits ? "mover's pit " : "opponent's pit ") + std::to_string(row % pits + 1);
  };
  rows(e.table.value, kTableCounts, pit_name);
  if (!e.table.late.empty()) {
    out << "late\n";
    rows(e.table.late, kTableCounts, pit_name);
  }
  if (!e.table.pair.empty()) {
    out << "pairs\n";
    rows(e.table.pair, kPairCounts, [](int row) {
      return "mover's pit " + std::to_string(row / kPairCounts + 1) + " holding " +
             std::to_string(row % kPairCounts) + ", by the count of the pit opposite";
    });
  }
  if (!out) throw Error("cannot write the evaluation file " + path);
}

}  // namespace naqala::eval
