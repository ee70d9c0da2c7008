#pragma once
// Supervised training of the backgammon contact and crashed networks on positions of our own
// self-play labelled by our own deeper search (docs/games/backgammon.md, "Supervised
// training"), as the field trained its nets after TD(lambda).
//
// Labelling: game g of a seed is played cubeless by the net at 0 ply, a move in `explore`
// of the plies picked at random among the best `explore_top` instead of the best (so the
// positions are varied); each contact or crashed position on roll is kept with chance
// 1/`every` and labelled with the n-ply expectation of its five probabilities
// (bgsearch::evaluate_on_roll: the 21 rolls, each roll's best move chosen at 0 ply). A game
// ends where its contact ends. Everything about game g comes from the seed and g alone.
//
// The dataset file: a header (magic NQBGSUP1, format version, the settings above, a hash of
// the labelling net's weights, an FNV-1a checksum of the header), then one block a game in
// game order: the game's number, its record count, the records (the side on roll's 25
// points, the opponent's, the five probabilities as little-endian floats) and an FNV-1a
// checksum of the block. A block is written whole and flushed, so a killed run leaves at
// most a partial last block, which the next run cuts off and plays again: the file it ends
// with has the bytes of a run never stopped. A complete block whose checksum fails, or a
// header that does not match, is refused with a message saying which.
//
// Fitting: minibatch training of the contact and crashed networks (the race network and the
// bear-off databases are left alone) towards the labels, cross-entropy on the five sigmoid
// outputs, Adam or SGD with momentum, at a constant rate or one falling linearly; game g is held
// out when g % holdout == holdout - 1, and its loss printed after every epoch. Deterministic given
// the seed. Several datasets fit together: each file's games keep the numbers it gives them (so
// a game is held out by the same rule whichever files join it), and two files that hold the same
// games (the same seed, settings and labelling net) are refused.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "eval/backgammon_net.h"

namespace naqala::bgsuper {

using backgammon::Board;
using bgnet::Net;
using bgnet::Probs;

struct LabelConfig {
  std::uint64_t seed = 1;
  std::uint64_t games = 1000;  // total games (a resumed file counts those it holds)
  int every = 4;               // keep a contact position with chance 1/every
  float explore = 0.1f;        // chance that a ply plays a random one of the best moves
  int explore_top = 4;         // ... of this many
  int plies = 1;               // the search depth of the labels
  double seconds = 0;          // stop after this wall time at a game's end (0: no limit)
  std::string path;            // the dataset file (created, or resumed when it exists)
};

struct Record {
  Board board;  // board[0] on roll
  Probs label;  // its probabilities at LabelConfig::plies
};

struct LabelProgress {
  std::uint64_t games = 0;          // games in the file
  std::uint64_t positions = 0;      // records in the file
  std::uint64_t new_positions = 0;  // labelled by this run
  double seconds = 0;               // wall time of this run
  double cpu_seconds = 0;           // process CPU time of this run
};

// The records of game `game` (played and labelled), in the order the game reached them.
std::vector<Record> label_game(const Net& net, const LabelConfig& config, std::uint64_t game);

// Creates or resumes config.path and appends games until config.games (or config.seconds).
// `report` is called every `report_every` games and at the end.
LabelProgress label(const Net& net, const LabelConfig& config,
                    const std::function<void(const LabelProgress&)>& report,
                    std::uint64_t report_every = 100);

struct Dataset {
  LabelConfig config;  // as the header records it, and the path read (games and seconds unset)
  std::uint64_t net_hash = 0;
  std::vector<std::uint64_t> game;  // the game of each record
  std::vector<Record> records;
  std::uint64_t games = 0;    // complete game blocks
  bool partial_tail = false;  // a last block cut short (a run killed while writing)
};

// Reads a dataset file; throws naqala::Error for a foreign or damaged file.
Dataset read_dataset(const std::string& path);

// Reads the dataset files of one fit, each checked as read_dataset does; throws naqala::Error
// for an empty list or for two files that hold the same games (check_distinct).
std::vector<Dataset> read_datasets(const std::vector<std::string>& paths);

// Throws naqala::Error when two of the datasets were labelled with the same seed, --every,
// --explore, --explore-top, label plies and net: their games are the same (one file's games
// the first of the other's), so fitting both would count them twice.
void check_distinct(std::span<const Dataset> data);

// A hash of the networks' weights (what the header records of the labelling net).
std::uint64_t weights_hash(const Net& net);

enum class Optimizer { Adam, Momentum };

struct FitConfig {
  std::uint64_t seed = 1;  // the order of the examples
  int epochs = 4;
  int batch = 128;
  float rate = 0.0005f;
  // When positive, the rate falls linearly from `rate` to this over the run's batches (the
  // late, small steps settle the weights the early ones move).
  float final_rate = 0;
  Optimizer optimizer = Optimizer::Adam;
  float momentum = 0.9f;
  int holdout = 20;  // game g is held out when g % holdout == holdout - 1
  std::string out;   // the weights after every epoch (empty: none written)
};

struct FitProgress {
  int epoch = 0;            // 0: before training
  double train_loss = 0;    // mean cross-entropy (five outputs summed) over the epoch
  double holdout_loss = 0;  // ... over the held-out positions, after the epoch
  double holdout_rmse = 0;  // root-mean-square error of the cubeless equity, held out
  std::size_t train_positions = 0, holdout_positions = 0;
  double seconds = 0;
};

// The held-out (or any) loss of `net` on `records`: mean cross-entropy and equity RMSE.
std::pair<double, double> loss(const Net& net, const std::vector<Record>& records);

// Trains the contact and crashed networks of `net` on the dataset.
void fit(Net& net, const Dataset& data, const FitConfig& config,
         const std::function<void(const FitProgress&)>& report);

// Trains on several datasets (check_distinct first): the examples of the files in the order
// given, then shuffled by the seed; a game is held out by its number in its own file.
void fit(Net& net, std::span<const Dataset> data, const FitConfig& config,
         const std::function<void(const FitProgress&)>& report);

}  // namespace naqala::bgsuper
