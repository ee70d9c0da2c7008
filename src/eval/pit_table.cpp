#include "eval/pit_table.h"

#include <cctype>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

#include "core/error.h"

namespace naqala::eval {

TrainedSowingEval load_trained_eval(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read the evaluation file " + path);
  TrainedSowingEval e;
  std::string line;
  int number = 0;
  auto bad = [&](const std::string& expected) {
    return Error(path + ":" + std::to_string(number) + ": expected " + expected);
  };
  int rows = -1;  // table rows still to read; -1 before the `table` line
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    if (rows > 0) {
      for (int c = 0; c < kTableCounts; ++c) {
        int v;
        if (!(words >> v) || v < std::numeric_limits<std::int16_t>::min() ||
            v > std::numeric_limits<std::int16_t>::max())
          throw bad(std::to_string(kTableCounts) + " table values (integers of 16 bits)");
        e.table.value.push_back(static_cast<std::int16_t>(v));
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
      rows = 2 * e.table.pits;
    } else {
      throw bad("'made-by', 'weights', 'table' or a comment");
    }
  }
  if (rows != 0) throw bad("a table of 2 x PITS rows after 'table PITS'");
  if (e.weights.empty()) throw bad("a 'weights' line");
  return e;
}

std::shared_ptr<const TrainedSowingEval> read_trained_eval_once(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const TrainedSowingEval>> read;
  const std::lock_guard lock(mutex);
  auto& e = read[path];
  if (!e) e = std::make_shared<const TrainedSowingEval>(load_trained_eval(path));
  return e;
}

std::string eval_variable(const std::string& preset) {
  std::string name = "NAQALA_";
  for (char c : preset) name += c == '-' ? '_' : static_cast<char>(std::toupper(c));
  return name + "_EVAL";
}

void save_trained_eval(const std::string& path, const TrainedSowingEval& e) {
  std::ofstream out(path, std::ios::trunc);
  out << "# naqala evaluation: feature weights and a pit table (docs/engines.md)\n";
  out << "made-by " << e.made_by << "\nweights";
  for (int w : e.weights) out << " " << w;
  out << "\ntable " << e.table.pits << "\n";
  for (int row = 0; row < 2 * e.table.pits; ++row) {
    out << (row < e.table.pits ? "# mover's pit " : "# opponent's pit ") << row % e.table.pits + 1
        << "\n";
    for (int c = 0; c < kTableCounts; ++c)
      out << (c ? " " : "") << e.table.value[row * kTableCounts + c];
    out << "\n";
  }
  if (!out) throw Error("cannot write the evaluation file " + path);
}

}  // namespace naqala::eval
