#pragma once
// A small network over sparse 0/1 inputs, the layers that Kalah's network (eval/kalah_net.h)
// and Bao's (eval/bao_net.h) share: one hidden layer of clipped ReLU units (min(max(x, 0), 1)),
// each summed from the weight rows of the active inputs, and one linear output. What the
// inputs mean, and what the output is added to, is the game's network's; the count of inputs
// is the game's too (the rows of w1). Trained by eval/sparse_net_train.h.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"

namespace naqala::eval {

inline constexpr int kNetMaxHidden = 128;

struct SparseNet;
// Whether this machine runs the AVX2 forward pass (read once), and that pass (32 units).
bool sparse_net_avx2();
float forward32_avx2(const SparseNet& net, const int* active, int n);

struct SparseNet {
  int hidden = 32;
  std::vector<float> w1;  // one row of `hidden` for each input
  std::vector<float> b1;  // hidden
  std::vector<float> w2;  // hidden
  float b2 = 0;

  // The output for the inputs `active[0..n)` (each 1; every other input 0).
  float forward(const int* active, int n) const {
    // A width known when compiled lets the compiler unroll and vectorise the sums; 32 units
    // take AVX2 where the machine has it (sparse_net.cpp).
    if (hidden == 32)
      return sparse_net_avx2() ? forward32_avx2(*this, active, n) : forward_of<32>(active, n);
    if (hidden == 16) return forward_of<16>(active, n);
    if (hidden == 64) return forward_of<64>(active, n);
    return forward_of<0>(active, n);
  }

 private:
  template <int kHidden>
  float forward_of(const int* active, int n) const {
    const int width = kHidden ? kHidden : hidden;
    alignas(32) float h[kHidden ? kHidden : kNetMaxHidden];
    const float* b = b1.data();
    for (int j = 0; j < width; ++j) h[j] = b[j];
    for (int k = 0; k < n; ++k) {
      const float* row = w1.data() + static_cast<std::size_t>(active[k]) * width;
      for (int j = 0; j < width; ++j) h[j] += row[j];
    }
    const float* w = w2.data();
    if constexpr (kHidden % 8 == 0 && kHidden > 0) {
      // Eight partial sums, lane by lane: a vector's worth of them.
      float part[8] = {};
      for (int j = 0; j < kHidden; j += 8)
        for (int l = 0; l < 8; ++l) part[l] += w[j + l] * std::min(std::max(h[j + l], 0.0f), 1.0f);
      return b2 + ((part[0] + part[1]) + (part[2] + part[3])) +
             ((part[4] + part[5]) + (part[6] + part[7]));
    }
    float out = b2;
    for (int j = 0; j < width; ++j) out += w[j] * std::min(std::max(h[j], 0.0f), 1.0f);
    return out;
  }
};

// Reading a network's text file a line at a time: comments (#) and empty lines skipped, each
// error naming the file, the line and what was expected.
class NetFileReader {
 public:
  NetFileReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {}
  // The next line that is not a comment, split into words; false at the file's end.
  bool next();
  std::istringstream& words() { return words_; }
  Error bad(const std::string& expected) const;
  // The line's next `n` numbers (all finite, nothing after them) appended to `into`.
  void numbers(std::vector<float>& into, int n, const std::string& what);
  // The next line, which must start with `key`.
  void key_line(const char* key, const std::string& what);
  // The header line `MAGIC VERSION`, then `made-by COMMAND` (returned).
  std::string header(const std::string& magic, int version, const std::string& what);

 private:
  std::istream& in_;
  std::string path_, line_;
  std::istringstream words_;
  int number_ = 0;
};

// The layers' part of a file (w1 of `inputs` rows, b1, w2, b2 and `end`), after its shape;
// `net.hidden` is the shape's.
void read_net_layers(NetFileReader& r, SparseNet& net, int inputs);
// A network's whole file: `head` (its header, made-by and shape lines), then the layers.
void save_net_file(const std::string& path, const std::string& head, const SparseNet& net,
                   int inputs);

}  // namespace naqala::eval
