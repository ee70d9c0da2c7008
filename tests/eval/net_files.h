#pragma once
// For the networks of eval/sparse_net.h (Kalah's, Bao's): random layers for a test, and the check
// that each damage of a good file is refused with an error naming the file's line.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "engine/line_files.h"
#include "eval/sparse_net.h"

namespace naqala::eval {

// Random layers of `hidden` units for `inputs` inputs, large enough that every input and unit
// shows in the output: first-layer weights in +-w1_scale.
inline void random_layers(SparseNet& net, int inputs, int hidden, double w1_scale,
                          std::uint64_t seed) {
  net.hidden = hidden;
  Rng rng(seed);
  auto draw = [&] { return static_cast<float>(rng.uniform() * 2 - 1); };
  for (int i = 0; i < inputs * hidden; ++i) net.w1.push_back(static_cast<float>(w1_scale) * draw());
  for (int j = 0; j < hidden; ++j) net.b1.push_back(0.5f + 0.2f * draw());
  for (int j = 0; j < hidden; ++j) net.w2.push_back(10 * draw());
  net.b2 = draw();
}

// The text of the good file at `good_path` and its first w1 row, for writing damages.
struct GoodNetFile {
  std::string text, first_row;
  explicit GoodNetFile(const std::string& good_path) : text(engine::text_of(good_path)) {
    const auto row_start = text.find("w1\n") + 3;
    first_row = text.substr(row_start, text.find('\n', row_start) - row_start);
  }
  std::string replace(const std::string& from, const std::string& to) const {
    std::string t = text;
    t.replace(t.find(from), from.size(), to);
    return t;
  }
};

// A network read back from its file has the layers written.
inline void expect_same_layers(const SparseNet& back, const SparseNet& net) {
  EXPECT_EQ(back.hidden, net.hidden);
  EXPECT_EQ(back.w1, net.w1);  // %.9g: every float reads back as itself
  EXPECT_EQ(back.b1, net.b1);
  EXPECT_EQ(back.w2, net.w2);
  EXPECT_EQ(back.b2, net.b2);
}

// The damages of the layers' part that every network file refuses, each with the line it is
// named on (the first w1 row is line 5; a file cut before b1 is named on `cut_line`): a number
// not finite, short and long w1 rows, no b1, no `end`, a long b2.
inline std::vector<std::pair<std::string, std::string>> layer_damages(const GoodNetFile& good,
                                                                      const std::string& cut_line) {
  const std::string& row = good.first_row;
  return {
      {good.replace(row, "nan " + row.substr(row.find(' ') + 1)), ":5:"},
      {good.replace(row, "1 2"), ":5:"},
      {good.replace(row, row + " 3"), ":5:"},
      {good.text.substr(0, good.text.find("b1 ")), cut_line},
      {good.replace("\nend\n", "\n"), ":"},
      {good.replace("b2 ", "b2 1 "), ":"},
  };
}

// Each damaged text (with the ":LINE:" it must be named on) written to `bad_path` and refused by
// `load`; a missing file too.
template <class Load>
void expect_damaged_refused(const std::string& bad_path,
                            const std::vector<std::pair<std::string, std::string>>& damaged,
                            Load load) {
  const std::string name = bad_path.substr(bad_path.rfind('/') + 1);
  for (const auto& [text, line] : damaged) {
    std::ofstream(bad_path) << text;
    try {
      load(bad_path);
      ADD_FAILURE() << "a damaged file was accepted:\n" << text.substr(0, 200);
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(name + line), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(load(bad_path + ".missing"), Error);
}

}  // namespace naqala::eval
