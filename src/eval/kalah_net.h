#pragma once
// A small network evaluating the pits of a Kalah-like board (two rows, opposite captures), from
// the view of the player to move; trained on exact values (engine/kalah_labels.h) by
// eval/kalah_net_train.h. The stores never change a move, so the final margin of a position is
// its store difference plus what the pits will add; the network gives that second part, in
// seeds, and the evaluation adds the store difference (SowingEval, docs/engines.md "A network
// for Kalah").
//
// Inputs (all 0 or 1, 2 x PITS + 1 of them 1): each pit's count (the mover's pits from his left,
// then the opponent's from his left; counts 0..23 and 24 or more, as the pit table's), and the
// seeds in the pits (0..62, and 63 or more). One hidden layer of clipped ReLU units
// (min(max(x, 0), 1)), summed from the weight rows of the active inputs; one linear output.
// The network is only asked about boards with at most `max_seeds` seeds in the pits (what it was
// trained on); the evaluation plays its table above that.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace naqala::eval {

inline constexpr int kNetCounts = 25;      // a pit's counts: 0..23, and 24 or more
inline constexpr int kNetSeedInputs = 64;  // seeds in the pits: 0..62, and 63 or more
inline constexpr int kNetMaxHidden = 128;

struct KalahNet;
// Whether this machine runs the AVX2 forward pass (read once), and that pass (32 units).
bool kalah_net_avx2();
float forward32_avx2(const KalahNet& net, const int* active, int n);

struct KalahNet {
  int pits = 6;
  int hidden = 32;
  int max_seeds = 0;      // boards with more seeds in the pits are not the network's
  std::vector<float> w1;  // inputs() rows of `hidden`
  std::vector<float> b1;  // hidden
  std::vector<float> w2;  // hidden
  float b2 = 0;
  std::string made_by;  // the command that made it (the file's `made-by` line)

  int inputs() const { return 2 * pits * kNetCounts + kNetSeedInputs; }
  static int count_input(int side, int pit, int pits, int count) {
    return (side * pits + pit) * kNetCounts + (count < kNetCounts ? count : kNetCounts - 1);
  }
  int seeds_input(int seeds) const {
    return 2 * pits * kNetCounts + (seeds < kNetSeedInputs ? seeds : kNetSeedInputs - 1);
  }
  // The active inputs of a board: `mine` and `theirs` are each row's counts from its owner's
  // left; writes 2 x pits + 1 indices.
  int active(const std::uint8_t* mine, const std::uint8_t* theirs, int* out) const {
    int seeds = 0;
    for (int i = 0; i < pits; ++i) {
      out[i] = count_input(0, i, pits, mine[i]);
      out[pits + i] = count_input(1, i, pits, theirs[i]);
      seeds += mine[i] + theirs[i];
    }
    out[2 * pits] = seeds_input(seeds);
    return 2 * pits + 1;
  }
  // What the pits will add to the mover's store difference by the game's end, in seeds.
  float forward(const int* active, int n) const {
    // A width known when compiled lets the compiler unroll and vectorise the sums; 32 units
    // take AVX2 where the machine has it (kalah_net.cpp).
    if (hidden == 32)
      return kalah_net_avx2() ? forward32_avx2(*this, active, n) : forward_of<32>(active, n);
    if (hidden == 16) return forward_of<16>(active, n);
    if (hidden == 64) return forward_of<64>(active, n);
    return forward_of<0>(active, n);
  }

 private:
  friend float forward32_avx2(const KalahNet& net, const int* active, int n);
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

// The file is text:
//   naqala-kalah-net 1
//   made-by COMMAND
//   shape PITS HIDDEN MAX_SEEDS
//   w1                  then inputs() lines of HIDDEN numbers
//   b1 HIDDEN numbers
//   w2 HIDDEN numbers
//   b2 NUMBER
//   end
// Anything else (another header or version, a short row, a number that is not finite, a
// missing `end`) is refused with naqala::Error naming the line and what was expected.
KalahNet load_kalah_net(const std::string& path);
// The same, each file read once a process.
std::shared_ptr<const KalahNet> read_kalah_net_once(const std::string& path);
void save_kalah_net(const std::string& path, const KalahNet& net);

}  // namespace naqala::eval
