#include "eval/sparse_net.h"

#include <immintrin.h>

#include <cmath>
#include <cstdio>
#include <fstream>

namespace naqala::eval {

namespace {
const bool kHasAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");

__attribute__((target("avx2,fma"))) inline __m256 clip01(__m256 x) {
  return _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
}
}  // namespace

bool sparse_net_avx2() {
  return kHasAvx2;
}

__attribute__((target("avx2,fma"))) float forward32_avx2(const SparseNet& net, const int* active,
                                                         int n) {
  const float* b = net.b1.data();
  __m256 h0 = _mm256_loadu_ps(b), h1 = _mm256_loadu_ps(b + 8), h2 = _mm256_loadu_ps(b + 16),
         h3 = _mm256_loadu_ps(b + 24);
  for (int k = 0; k < n; ++k) {
    const float* row = net.w1.data() + static_cast<std::size_t>(active[k]) * 32;
    h0 = _mm256_add_ps(h0, _mm256_loadu_ps(row));
    h1 = _mm256_add_ps(h1, _mm256_loadu_ps(row + 8));
    h2 = _mm256_add_ps(h2, _mm256_loadu_ps(row + 16));
    h3 = _mm256_add_ps(h3, _mm256_loadu_ps(row + 24));
  }
  const float* w = net.w2.data();
  __m256 sum = _mm256_mul_ps(clip01(h0), _mm256_loadu_ps(w));
  sum = _mm256_fmadd_ps(clip01(h1), _mm256_loadu_ps(w + 8), sum);
  sum = _mm256_fmadd_ps(clip01(h2), _mm256_loadu_ps(w + 16), sum);
  sum = _mm256_fmadd_ps(clip01(h3), _mm256_loadu_ps(w + 24), sum);
  const __m128 half = _mm_add_ps(_mm256_castps256_ps128(sum), _mm256_extractf128_ps(sum, 1));
  const __m128 quarter = _mm_add_ps(half, _mm_movehl_ps(half, half));
  const __m128 one_lane = _mm_add_ss(quarter, _mm_shuffle_ps(quarter, quarter, 1));
  return net.b2 + _mm_cvtss_f32(one_lane);
}

bool NetFileReader::next() {
  while (std::getline(in_, line_)) {
    ++number_;
    if (line_.empty() || line_[0] == '#') continue;
    words_.clear();
    words_.str(line_);
    return true;
  }
  ++number_;
  return false;
}

Error NetFileReader::bad(const std::string& expected) const {
  return Error(path_ + ":" + std::to_string(number_) + ": expected " + expected);
}

void NetFileReader::numbers(std::vector<float>& into, int n, const std::string& what) {
  for (int i = 0; i < n; ++i) {
    double v;
    if (!(words_ >> v) || !std::isfinite(v)) throw bad(what);
    into.push_back(static_cast<float>(v));
  }
  std::string rest;
  if (words_ >> rest) throw bad(what);
}

void NetFileReader::key_line(const char* key, const std::string& what) {
  std::string k;
  if (!next() || !(words_ >> k) || k != key) throw bad(what);
}

std::string NetFileReader::header(const std::string& magic, int version, const std::string& what) {
  std::string m;
  int v = 0;
  if (!next() || !(words_ >> m >> v) || m != magic || v != version) throw bad(what);
  key_line("made-by", "'made-by COMMAND'");
  std::string made_by;
  std::getline(words_ >> std::ws, made_by);
  return made_by;
}

void read_net_layers(NetFileReader& r, SparseNet& net, int inputs) {
  const std::string row = std::to_string(net.hidden) + " finite numbers";
  r.key_line("w1", "'w1'");
  for (int i = 0; i < inputs; ++i) {
    if (!r.next()) throw r.bad("a w1 row of " + row + " (" + std::to_string(inputs) + " rows)");
    r.numbers(net.w1, net.hidden, "a w1 row of " + row);
  }
  r.key_line("b1", "'b1' and " + row);
  r.numbers(net.b1, net.hidden, "'b1' and " + row);
  r.key_line("w2", "'w2' and " + row);
  r.numbers(net.w2, net.hidden, "'w2' and " + row);
  r.key_line("b2", "'b2 NUMBER'");
  std::vector<float> b2;
  r.numbers(b2, 1, "'b2 NUMBER'");
  net.b2 = b2[0];
  r.key_line("end", "'end'");
}

void save_net_file(const std::string& path, const std::string& head, const SparseNet& net,
                   int inputs) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write the network file " + path);
  out << head;
  auto row = [&](const float* v, int n) {
    char number[32];
    for (int i = 0; i < n; ++i) {
      std::snprintf(number, sizeof number, "%s%.9g", i ? " " : "", static_cast<double>(v[i]));
      out << number;
    }
    out << "\n";
  };
  out << "w1\n";
  for (int i = 0; i < inputs; ++i)
    row(net.w1.data() + static_cast<std::size_t>(i) * net.hidden, net.hidden);
  out << "b1 ";
  row(net.b1.data(), net.hidden);
  out << "w2 ";
  row(net.w2.data(), net.hidden);
  out << "b2 ";
  row(&net.b2, 1);
  out << "end\n";
  if (!out) throw Error("cannot write the network file " + path);
}

}  // namespace naqala::eval
