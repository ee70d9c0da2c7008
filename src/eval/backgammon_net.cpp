// Backgammon networks: encoding, classes, inference kernels, training step, weight files.
#include "eval/backgammon_net.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "core/error.h"
#include "core/fnv1a.h"
#include "core/rng.h"
#include "core/text_file.h"

namespace naqala::bgnet {

using backgammon::kBar;

const char* class_name(PositionClass c) {
  switch (c) {
    case PositionClass::Contact:
      return "contact";
    case PositionClass::Crashed:
      return "crashed";
    case PositionClass::Race:
      return "race";
  }
  return "?";
}

namespace {

int rearmost(const Side& s) {
  for (int i = kBar; i >= 0; --i)
    if (s[i]) return i;
  return -1;
}

// A side is crashed when at most five of its checkers still work: the others are off or
// buried on its 1-, 2- and 3-points.
bool crashed(const Side& s) {
  int dead = s[0] + s[1] + s[2];
  int on_board = 0;
  for (int i = 0; i <= kBar; ++i) on_board += s[i];
  dead += backgammon::kCheckers - on_board;
  return dead >= 10;
}

}  // namespace

bool in_contact(const Side& me, const Side& opp) {
  const int a = rearmost(me), b = rearmost(opp);
  return a >= 0 && b >= 0 && a + b > 23;
}

PositionClass classify(const Side& me, const Side& opp) {
  if (!in_contact(me, opp)) return PositionClass::Race;
  if (crashed(me) || crashed(opp)) return PositionClass::Crashed;
  return PositionClass::Contact;
}

namespace {

int encode_side(const Side& s, int base, SparseInput* out) {
  int n = 0;
  int pips = 0, on_board = 0;
  for (int i = 0; i < 24; ++i) {
    const int c = s[i];
    if (!c) continue;
    pips += c * (i + 1);
    on_board += c;
    const int u = base + 4 * i;
    out[n++] = {static_cast<std::uint16_t>(u), 1.0f};
    if (c >= 2) out[n++] = {static_cast<std::uint16_t>(u + 1), 1.0f};
    if (c >= 3) out[n++] = {static_cast<std::uint16_t>(u + 2), 1.0f};
    if (c >= 4) out[n++] = {static_cast<std::uint16_t>(u + 3), (c - 3) * 0.5f};
  }
  if (s[kBar]) {
    out[n++] = {static_cast<std::uint16_t>(base + 96), s[kBar] * 0.5f};
    pips += 25 * s[kBar];
    on_board += s[kBar];
  }
  if (on_board < backgammon::kCheckers)
    out[n++] = {static_cast<std::uint16_t>(base + 97),
                (backgammon::kCheckers - on_board) / float(backgammon::kCheckers)};
  if (pips) out[n++] = {static_cast<std::uint16_t>(base + 98), pips / 100.0f};
  return n;
}

}  // namespace

int encode(const Side& me, const Side& opp, InputList& out) {
  const int n = encode_side(me, 0, out.data());
  int k = n + encode_side(opp, kSideInputs, out.data() + n);
  int unit = kRawInputs;
  for (const float v : bgfeatures::both_sides(me, opp)) {
    if (v != 0) out[k++] = {static_cast<std::uint16_t>(unit), v};
    ++unit;
  }
  return k;
}

// ---------------------------------------------------------------------------------------------
// Kernels. The exponential is a polynomial (2^f on [-0.5, 0.5], degree 5, relative error
// below 2e-7) in both paths, so the AVX2 and scalar results agree to rounding.

namespace {

constexpr float kLog2e = 1.44269504088896341f;
constexpr float kP[6] = {1.0f,          0.693147182f,   0.240226507f,
                         0.0555041086f, 0.00961812911f, 0.00133335581f};

inline float fast_sigmoid(float x) {
  // 1 / (1 + e^-x), with e^-x = 2^(-x log2 e).
  float t = std::clamp(-x * kLog2e, -60.0f, 60.0f);
  const float n = std::nearbyint(t);
  const float f = t - n;
  float p = kP[5];
  for (int k = 4; k >= 0; --k) p = p * f + kP[k];
  std::int32_t bits;
  std::memcpy(&bits, &p, 4);
  bits += static_cast<std::int32_t>(n) << 23;
  float e;
  std::memcpy(&e, &bits, 4);
  return 1.0f / (1.0f + e);
}

void hidden_scalar(const Mlp& m, const SparseInput* in, int n, float* h) {
  const int hidden = m.hidden;
  std::memcpy(h, m.b1.data(), hidden * sizeof(float));
  for (int k = 0; k < n; ++k) {
    const float* row = m.w1.data() + in[k].index * hidden;
    const float v = in[k].value;
    for (int j = 0; j < hidden; ++j) h[j] += v * row[j];
  }
  for (int j = 0; j < hidden; ++j) h[j] = fast_sigmoid(h[j]);
}

void output_scalar(const Mlp& m, const float* h, float* out) {
  const int hidden = m.hidden;
  for (int o = 0; o < kOutputs; ++o) {
    const float* row = m.w2.data() + o * hidden;
    float s = 0;
    for (int j = 0; j < hidden; ++j) s += row[j] * h[j];
    out[o] = fast_sigmoid(s + m.b2[o]);
  }
}

__attribute__((target("avx2,fma"))) inline __m256 sigmoid8(__m256 x) {
  __m256 t = _mm256_mul_ps(x, _mm256_set1_ps(-kLog2e));
  t = _mm256_min_ps(_mm256_max_ps(t, _mm256_set1_ps(-60.0f)), _mm256_set1_ps(60.0f));
  const __m256 n = _mm256_round_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m256 f = _mm256_sub_ps(t, n);
  __m256 p = _mm256_set1_ps(kP[5]);
  for (int k = 4; k >= 0; --k) p = _mm256_fmadd_ps(p, f, _mm256_set1_ps(kP[k]));
  const __m256i bits =
      _mm256_add_epi32(_mm256_castps_si256(p), _mm256_slli_epi32(_mm256_cvtps_epi32(n), 23));
  const __m256 e = _mm256_castsi256_ps(bits);
  return _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(_mm256_set1_ps(1.0f), e));
}

// Hidden units [first, first + 8 R) summed in R registers over the sparse inputs: a chunk of
// 16 registers (128 units) keeps the accumulators in registers; wider nets take several.
template <int R>
__attribute__((target("avx2,fma"))) inline void hidden_chunk_avx2(const Mlp& m,
                                                                  const SparseInput* in, int n,
                                                                  int first, float* h) {
  __m256 acc[R];
  for (int r = 0; r < R; ++r) acc[r] = _mm256_loadu_ps(m.b1.data() + first + 8 * r);
  for (int k = 0; k < n; ++k) {
    const float* row = m.w1.data() + in[k].index * m.hidden + first;
    const __m256 v = _mm256_set1_ps(in[k].value);
    for (int r = 0; r < R; ++r) acc[r] = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 8 * r), acc[r]);
  }
  for (int r = 0; r < R; ++r) _mm256_storeu_ps(h + first + 8 * r, sigmoid8(acc[r]));
}

__attribute__((target("avx2,fma"))) void forward_avx2(const Mlp& m, const SparseInput* in, int n,
                                                      float* h, float* out) {
  const int hidden = m.hidden;  // a multiple of 32 (valid_hidden)
  int first = 0;
  for (; first + 128 <= hidden; first += 128) hidden_chunk_avx2<16>(m, in, n, first, h);
  for (; first < hidden; first += 32) hidden_chunk_avx2<4>(m, in, n, first, h);
  for (int o = 0; o < kOutputs; ++o) {
    const float* row = m.w2.data() + o * hidden;
    __m256 s = _mm256_setzero_ps();
    for (int j = 0; j < hidden; j += 8)
      s = _mm256_fmadd_ps(_mm256_loadu_ps(row + j), _mm256_loadu_ps(h + j), s);
    // Horizontal sum of the eight lanes.
    __m128 lo = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
    lo = _mm_add_ps(lo, _mm_movehl_ps(lo, lo));
    lo = _mm_add_ss(lo, _mm_shuffle_ps(lo, lo, 1));
    out[o] = fast_sigmoid(_mm_cvtss_f32(lo) + m.b2[o]);
  }
}

const bool kHasAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
bool kAvx2 = kHasAvx2;

}  // namespace

bool uses_avx2() {
  return kAvx2;
}

void use_avx2(bool on) {
  kAvx2 = on && kHasAvx2;
}

Mlp::Mlp(int hidden)
    : hidden(hidden), w1(kInputs * hidden), b1(hidden), w2(kOutputs * hidden), b2(kOutputs) {}

void Mlp::forward(const SparseInput* in, int n, float* out, float* hidden) const {
  alignas(32) float h[kMaxHidden];
  float* hp = hidden ? hidden : h;
  if (kAvx2) {
    forward_avx2(*this, in, n, hp, out);
  } else {
    hidden_scalar(*this, in, n, hp);
    output_scalar(*this, hp, out);
  }
}

float Mlp::backward(const SparseInput* in, int n, const float* target, float scale,
                    Mlp& into) const {
  if (into.hidden != hidden) throw Error("Mlp::backward: the accumulator's width differs");
  alignas(32) float h[kMaxHidden];
  float out[kOutputs];
  forward(in, n, out, h);
  // Cross-entropy with sigmoid outputs: the gradient at each output's logit is target - out.
  // Everything is read from this net before `into` (which may be this net) changes.
  float loss = 0;
  float d_out[kOutputs];
  for (int o = 0; o < kOutputs; ++o) {
    d_out[o] = target[o] - out[o];
    const float y = std::clamp(out[o], 1e-7f, 1 - 1e-7f);
    loss -= target[o] * std::log(y) + (1 - target[o]) * std::log(1 - y);
  }
  const int H = hidden;
  alignas(32) float d_h[kMaxHidden];
  for (int j = 0; j < H; ++j) {
    float s = 0;
    for (int o = 0; o < kOutputs; ++o) s += d_out[o] * w2[o * H + j];
    d_h[j] = scale * s * h[j] * (1 - h[j]);
  }
  for (int o = 0; o < kOutputs; ++o) {
    const float g = scale * d_out[o];
    float* row = into.w2.data() + o * H;
    for (int j = 0; j < H; ++j) row[j] += g * h[j];
    into.b2[o] += g;
  }
  for (int j = 0; j < H; ++j) into.b1[j] += d_h[j];
  for (int k = 0; k < n; ++k) {
    float* row = into.w1.data() + in[k].index * H;
    const float v = in[k].value;
    for (int j = 0; j < H; ++j) row[j] += v * d_h[j];
  }
  return loss;
}

Net::Net() {
  randomize(1);
}

void Net::randomize(std::uint64_t seed) {
  Rng rng(seed);
  auto fill = [&](std::vector<float>& w, float scale) {
    for (float& x : w) x = static_cast<float>((rng.uniform() * 2 - 1) * scale);
  };
  for (Mlp& m : nets_) {
    fill(m.w1, 0.1f);
    std::fill(m.b1.begin(), m.b1.end(), 0.0f);
    fill(m.w2, 0.1f);
    std::fill(m.b2.begin(), m.b2.end(), 0.0f);
  }
}

void Net::widen(int hidden, std::uint64_t seed) {
  const int old = this->hidden();
  if (!valid_hidden(hidden) || hidden < old)
    throw Error("widen: the hidden layer can grow from " + std::to_string(old) + " units to a " +
                "multiple of 32 up to " + std::to_string(kMaxHidden) + "; got " +
                std::to_string(hidden));
  Rng rng(seed);
  for (Mlp& m : nets_) {
    Mlp w(hidden);
    for (int i = 0; i < kInputs; ++i)
      for (int j = 0; j < hidden; ++j)
        w.w1[i * hidden + j] =
            j < old ? m.w1[i * old + j] : static_cast<float>((rng.uniform() * 2 - 1) * 0.1);
    std::copy(m.b1.begin(), m.b1.end(), w.b1.begin());
    for (int o = 0; o < kOutputs; ++o)
      std::copy_n(m.w2.begin() + o * old, old, w.w2.begin() + o * hidden);
    w.b2 = m.b2;
    m = std::move(w);
  }
}

Net Net::averaged(const Net& a, const Net& b) {
  const int ha = a.hidden(), hb = b.hidden(), hidden = ha + hb;
  if (!valid_hidden(hidden))
    throw Error("averaged: " + std::to_string(ha) + " + " + std::to_string(hb) +
                " hidden units is more than " + std::to_string(kMaxHidden));
  Net net;
  net.meta = a.meta;
  for (int c = 0; c < kNetClasses; ++c) {
    const Mlp &x = a.nets_[c], &y = b.nets_[c];
    Mlp m(hidden);
    for (int i = 0; i < kInputs; ++i) {
      std::copy_n(x.w1.begin() + i * ha, ha, m.w1.begin() + i * hidden);
      std::copy_n(y.w1.begin() + i * hb, hb, m.w1.begin() + i * hidden + ha);
    }
    std::copy(x.b1.begin(), x.b1.end(), m.b1.begin());
    std::copy(y.b1.begin(), y.b1.end(), m.b1.begin() + ha);
    for (int o = 0; o < kOutputs; ++o) {
      for (int j = 0; j < ha; ++j) m.w2[o * hidden + j] = 0.5f * x.w2[o * ha + j];
      for (int j = 0; j < hb; ++j) m.w2[o * hidden + ha + j] = 0.5f * y.w2[o * hb + j];
      m.b2[o] = 0.5f * (x.b2[o] + y.b2[o]);
    }
    net.nets_[c] = std::move(m);
  }
  return net;
}

namespace {

Probs consistent(const float* raw) {
  Probs r;
  const float win = std::clamp(raw[0], 0.0f, 1.0f);
  r.p[Probs::Win] = win;
  r.p[Probs::WinGammon] = std::min(raw[1], win);
  r.p[Probs::WinBackgammon] = std::min(raw[2], r.p[Probs::WinGammon]);
  r.p[Probs::LoseGammon] = std::min(raw[3], 1 - win);
  r.p[Probs::LoseBackgammon] = std::min(raw[4], r.p[Probs::LoseGammon]);
  return r;
}

}  // namespace

Probs Net::evaluate(const Side& me, const Side& opp) const {
  InputList in;
  const int n = encode(me, opp, in);
  float raw[kOutputs];
  mlp(classify(me, opp)).forward(in.data(), n, raw);
  Probs r = consistent(raw);
  if (classify(me, opp) == PositionClass::Race) {
    // No backgammons once the armies have passed unless a side is still deep behind.
    if (rearmost(opp) < 18) r.p[Probs::WinBackgammon] = 0;
    if (rearmost(me) < 18) r.p[Probs::LoseBackgammon] = 0;
  }
  return r;
}

void Net::evaluate_batch(const backgammon::Board* positions, int n, Probs* out) const {
  for (int i = 0; i < n; ++i) out[i] = evaluate(positions[i][0], positions[i][1]);
}

void Net::train(const Side& me, const Side& opp, const Probs& target, float rate) {
  InputList in;
  const int n = encode(me, opp, in);
  mlp(classify(me, opp)).train(in.data(), n, target.p.data(), rate);
}

// ---------------------------------------------------------------------------------------------
// Weight files.

namespace {

constexpr char kMagic[8] = {'N', 'Q', 'B', 'G', 'N', 'E', 'T', '1'};

template <class T>
void put(std::string& s, const T& v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

struct Reader {
  const std::string& s;
  std::size_t at = 0;
  const std::string& path;
  template <class T>
  T get() {
    if (at + sizeof(T) > s.size()) throw Error(path + ": the weight file is truncated");
    T v;
    std::memcpy(&v, s.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
};

// This build's input count, or an earlier build's: the raw encoding, then each generation of
// hand-made inputs (eval/backgammon_features.h keeps their rows in that order).
bool known_inputs(std::uint32_t inputs) {
  if (inputs == kRawInputs) return true;
  for (const int end : bgfeatures::kGenerationEnd)
    if (inputs == std::uint32_t(kRawInputs + 2 * end)) return true;
  return false;
}

}  // namespace

void Net::save(const std::string& path) const {
  std::string s(kMagic, 8);
  put(s, std::uint32_t{kNetClasses});
  put(s, std::uint32_t{kInputs});
  put(s, std::uint32_t(hidden()));
  put(s, std::uint32_t{kOutputs});
  put(s, meta.games);
  put(s, meta.seed);
  put(s, meta.rate);
  put(s, meta.lambda);
  for (const Mlp& m : nets_)
    for (const auto* w : {&m.w1, &m.b1, &m.w2, &m.b2})
      s.append(reinterpret_cast<const char*>(w->data()), w->size() * sizeof(float));
  put(s, fnv1a(s.data(), s.size()));
  // Write a new file and rename it over the old one, so a crash never leaves half a file.
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(s.data(), static_cast<std::streamsize>(s.size()));
    if (!f) throw Error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw Error("cannot rename " + tmp + " to " + path);
}

Net Net::load(const std::string& path) {
  // The widest network (kMaxHidden units) takes a few MB; the bound refuses /dev/zero or a wrong
  // file.
  const std::string s =
      read_file_bounded(path, "the backgammon weight file", 64u << 20, "a backgammon weight file");
  if (s.size() < 16 || std::memcmp(s.data(), kMagic, 8) != 0)
    throw Error(path + " is not a naqala backgammon weight file (magic NQBGNET1 missing)");
  std::uint64_t stored;
  std::memcpy(&stored, s.data() + s.size() - 8, 8);
  if (fnv1a(s.data(), s.size() - 8) != stored)
    throw Error(path + ": checksum mismatch (the weight file is damaged)");
  Reader r{s, 8, path};
  const auto classes = r.get<std::uint32_t>(), inputs = r.get<std::uint32_t>();
  const auto hidden = r.get<std::uint32_t>(), outputs = r.get<std::uint32_t>();
  if (classes != kNetClasses || !known_inputs(inputs) || hidden > std::uint32_t(kMaxHidden) ||
      !valid_hidden(int(hidden)) || outputs != kOutputs)
    throw Error(path + ": the network sizes differ from this build's (" + std::to_string(kInputs) +
                " inputs or an earlier encoding's, a hidden layer of a multiple of 32 up to " +
                std::to_string(kMaxHidden) + " units, " + std::to_string(kOutputs) +
                " outputs); the file has " + std::to_string(inputs) + " inputs, " +
                std::to_string(hidden) + " hidden, " + std::to_string(outputs) + " outputs");
  Net net;
  // Fresh, zeroed networks of the file's width: an earlier file's missing rows (the later
  // hand-made inputs) stay zero.
  for (Mlp& m : net.nets_) m = Mlp(int(hidden));
  net.meta.games = r.get<std::uint64_t>();
  net.meta.seed = r.get<std::uint64_t>();
  net.meta.rate = r.get<float>();
  net.meta.lambda = r.get<float>();
  for (Mlp& m : net.nets_) {
    for (std::size_t i = 0; i < std::size_t{inputs} * hidden; ++i) m.w1[i] = r.get<float>();
    for (auto* w : {&m.b1, &m.w2, &m.b2})
      for (float& x : *w) x = r.get<float>();
  }
  if (r.at != s.size() - 8) throw Error(path + ": unexpected bytes after the weights");
  return net;
}

}  // namespace naqala::bgnet
