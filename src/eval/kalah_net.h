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
// (min(max(x, 0), 1)), summed from the weight rows of the active inputs; one linear output
// (eval/sparse_net.h).
// The network is only asked about boards with at most `max_seeds` seeds in the pits (what it was
// trained on); the evaluation plays its table above that.
#include <cstdint>
#include <memory>
#include <string>

#include "eval/sparse_net.h"

namespace naqala::eval {

inline constexpr int kNetCounts = 25;      // a pit's counts: 0..23, and 24 or more
inline constexpr int kNetSeedInputs = 64;  // seeds in the pits: 0..62, and 63 or more

// The layers and their forward pass are eval/sparse_net.h's.
struct KalahNet : SparseNet {
  int pits = 6;
  int max_seeds = 0;    // boards with more seeds in the pits are not the network's
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
  // forward(active, n): what the pits will add to the mover's store difference by the game's
  // end, in seeds.
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
