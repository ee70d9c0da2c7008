#pragma once
// A learned value for every pit and seed count of a two-row sowing board, from the view of the
// player to move: what a pit of c seeds in this place is worth, own or the opponent's. A
// linear seed count values a pit of 15 like 15 pits of one; the table can value it by the
// capture it builds towards (Oware's kroo). Fitted from self-play (eval/pit_table_fit.h);
// Oware's is shipped in data/oware/eval.txt (docs/engines.md, "The pit table").
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace naqala::eval {

inline constexpr int kTableCounts = 25;  // seed counts 0..23, and 24 or more
inline constexpr int kPairCounts = 10;   // a pair table's counts: 0..8, and 9 or more

struct PitTable {
  int pits = 0;
  // value[(side * pits + pit) * kTableCounts + count], hundredths of a seed; side 0 is the
  // mover's row, 1 the opponent's; a pit is its move label, from its owner's left.
  std::vector<std::int16_t> value;
  // Optional (empty: none). `late`: the same entries at the game's end; the evaluation blends
  // `value` (no seed in a store) into `late` (all seeds in the stores) by the stores' share,
  // because a pit's seeds mean more (a row's seeds are its owner's when a row empties) as the
  // board empties. `pair`: a value for each column's two counts (Kalah's captures take the pit
  // opposite an empty one): pair_index(pit, mover's count, the count of the opponent's pit
  // opposite it).
  std::vector<std::int16_t> late;
  std::vector<std::int16_t> pair;

  static int index(int side, int pit, int pits, int count) {
    return (side * pits + pit) * kTableCounts + (count < kTableCounts ? count : kTableCounts - 1);
  }
  static int pair_index(int pit, int mine, int opposite) {
    return (pit * kPairCounts + (mine < kPairCounts ? mine : kPairCounts - 1)) * kPairCounts +
           (opposite < kPairCounts ? opposite : kPairCounts - 1);
  }
};

// What a trained evaluation file holds: the weights of the sowing features (SowingFeature
// order; hundredths of a point per unit) and the pit table.
struct TrainedSowingEval {
  std::vector<int> weights;
  PitTable table;
  std::string made_by;  // the command that made it (the file's `made-by` line)
};

// The file is text:
//   # comments
//   made-by COMMAND
//   weights W0 W1 ...            (one per feature, feature order)
//   table PITS
//   2 x PITS lines of kTableCounts values (the mover's pits from his left, then the opponent's)
//   late                         (optional) 2 x PITS lines as above: the table at the game's end
//   pairs                        (optional) PITS x kPairCounts lines of kPairCounts values: the
//                                mover's pit, his count, then each count of the pit opposite
// A malformed file is refused with naqala::Error naming the line and what was expected.
TrainedSowingEval load_trained_eval(const std::string& path);
// The same, each file read once a process (engines are made per game, in threads).
std::shared_ptr<const TrainedSowingEval> read_trained_eval_once(const std::string& path);
// A preset's environment variable NAQALA_<PRESET>_<WHAT> (the preset in upper case, '-' as
// '_'): the evaluation's (EVAL), the opening book's (BOOK), the endgame database's (DB).
std::string preset_variable(const std::string& preset, const std::string& what);
// The variable naming another file for a preset's evaluation: NAQALA_<PRESET>_EVAL; its value
// `none` plays the preset's linear weights.
std::string eval_variable(const std::string& preset);
void save_trained_eval(const std::string& path, const TrainedSowingEval& e);

}  // namespace naqala::eval
