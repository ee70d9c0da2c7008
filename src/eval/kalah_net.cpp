#include "eval/kalah_net.h"

#include <immintrin.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/read_once.h"

namespace naqala::eval {

namespace {
const bool kHasAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");

__attribute__((target("avx2,fma"))) inline __m256 clip01(__m256 x) {
  return _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
}
}  // namespace

bool kalah_net_avx2() {
  return kHasAvx2;
}

__attribute__((target("avx2,fma"))) float forward32_avx2(const KalahNet& net, const int* active,
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

KalahNet load_kalah_net(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read the network file " + path);
  KalahNet net;
  std::string line;
  int number = 0;
  auto bad = [&](const std::string& expected) {
    return Error(path + ":" + std::to_string(number) + ": expected " + expected);
  };
  // The next line that is not a comment, split into words; false at the file's end.
  std::istringstream words;
  auto next = [&] {
    while (std::getline(in, line)) {
      ++number;
      if (line.empty() || line[0] == '#') continue;
      words.clear();
      words.str(line);
      return true;
    }
    ++number;
    return false;
  };
  auto numbers = [&](std::vector<float>& into, int n, const std::string& what) {
    for (int i = 0; i < n; ++i) {
      double v;
      if (!(words >> v) || !std::isfinite(v)) throw bad(what);
      into.push_back(static_cast<float>(v));
    }
    std::string rest;
    if (words >> rest) throw bad(what);
  };
  auto key_line = [&](const char* key, const std::string& what) {
    std::string k;
    if (!next() || !(words >> k) || k != key) throw bad(what);
  };
  std::string magic;
  int version = 0;
  if (!next() || !(words >> magic >> version) || magic != "naqala-kalah-net" || version != 1)
    throw bad("'naqala-kalah-net 1' (a Kalah network file of version 1)");
  key_line("made-by", "'made-by COMMAND'");
  std::getline(words >> std::ws, net.made_by);
  key_line("shape", "'shape PITS HIDDEN MAX_SEEDS'");
  if (!(words >> net.pits >> net.hidden >> net.max_seeds) || net.pits < 1 || net.pits > 8 ||
      net.hidden < 1 || net.hidden > kNetMaxHidden || net.max_seeds < 0)
    throw bad("'shape PITS HIDDEN MAX_SEEDS' with 1-8 pits and 1-" + std::to_string(kNetMaxHidden) +
              " hidden units");
  const std::string row = std::to_string(net.hidden) + " finite numbers";
  key_line("w1", "'w1'");
  for (int i = 0; i < net.inputs(); ++i) {
    if (!next()) throw bad("a w1 row of " + row + " (" + std::to_string(net.inputs()) + " rows)");
    numbers(net.w1, net.hidden, "a w1 row of " + row);
  }
  key_line("b1", "'b1' and " + row);
  numbers(net.b1, net.hidden, "'b1' and " + row);
  key_line("w2", "'w2' and " + row);
  numbers(net.w2, net.hidden, "'w2' and " + row);
  key_line("b2", "'b2 NUMBER'");
  std::vector<float> b2;
  numbers(b2, 1, "'b2 NUMBER'");
  net.b2 = b2[0];
  key_line("end", "'end'");
  return net;
}

std::shared_ptr<const KalahNet> read_kalah_net_once(const std::string& path) {
  return read_once<KalahNet, load_kalah_net>(path);
}

void save_kalah_net(const std::string& path, const KalahNet& net) {
  std::ofstream out(path);
  if (!out) throw Error("cannot write the network file " + path);
  auto row = [&](const float* v, int n) {
    char number[32];
    for (int i = 0; i < n; ++i) {
      std::snprintf(number, sizeof number, "%s%.9g", i ? " " : "", static_cast<double>(v[i]));
      out << number;
    }
    out << "\n";
  };
  out << "naqala-kalah-net 1\n";
  out << "made-by " << net.made_by << "\n";
  out << "shape " << net.pits << " " << net.hidden << " " << net.max_seeds << "\n";
  out << "w1\n";
  for (int i = 0; i < net.inputs(); ++i)
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
