#pragma once
// Backgammon neural evaluation: three multi-layer perceptrons (contact, crashed, race), each
// giving the five cubeless probabilities of the side on roll: win, win a gammon (or more),
// win a backgammon, lose a gammon (or more), lose a backgammon. The input encoding and the
// position classes are described in docs/games/backgammon.md ("The neural evaluation").
//
// Inference allocates nothing: the inputs are a short sparse list (most units are zero) and
// the hidden layer is summed from the weight rows of the non-zero inputs, with AVX2 and FMA
// when the processor has them (chosen at run time) and a scalar loop otherwise.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eval/backgammon_features.h"
#include "games/backgammon/backgammon.h"

namespace naqala::bgnet {

using backgammon::Side;

// Cubeless probabilities for the side on roll, cumulative as gnubg gives them.
struct Probs {
  enum : int { Win, WinGammon, WinBackgammon, LoseGammon, LoseBackgammon };
  std::array<float, 5> p{0.5f, 0, 0, 0, 0};
  float operator[](int i) const { return p[i]; }
  // Money equity of one cubeless game: 2 win - 1 + gammons + backgammons, won minus lost.
  float equity() const {
    return 2 * p[Win] - 1 + p[WinGammon] - p[LoseGammon] + p[WinBackgammon] - p[LoseBackgammon];
  }
  // The same game seen by the opponent.
  Probs inverted() const {
    return {{1 - p[Win], p[LoseGammon], p[LoseBackgammon], p[WinGammon], p[WinBackgammon]}};
  }
};

enum class PositionClass : std::uint8_t { Contact, Crashed, Race };
constexpr int kNetClasses = 3;
const char* class_name(PositionClass c);

// `me` is on roll; both sides from their own view (index 24 = bar).
PositionClass classify(const Side& me, const Side& opp);
bool in_contact(const Side& me, const Side& opp);

constexpr int kSideInputs = 99;  // 24 points x 4 units, bar, off, pips
constexpr int kRawInputs = 2 * kSideInputs;
// Then the hand-made inputs of eval/backgammon_features.h, the side on roll's then the
// opponent's.
constexpr int kInputs = kRawInputs + 2 * bgfeatures::kFeatures;
// The hidden layer's width: 128 units unless a weight file says otherwise (a multiple of 32, at
// most kMaxHidden; Net::widen makes a wider net from a narrower one).
constexpr int kHidden = 128;
constexpr int kMaxHidden = 512;
constexpr int kOutputs = 5;
// Whether `hidden` is a width the kernels take.
constexpr bool valid_hidden(int hidden) {
  return hidden >= 32 && hidden <= kMaxHidden && hidden % 32 == 0;
}

struct SparseInput {
  std::uint16_t index;
  float value;
};
// At most 24 x 4 + 3 raw and kFeatures hand-made non-zero units a side.
using InputList = std::array<SparseInput, kInputs>;
// Fills `out` with the non-zero inputs of the position; returns how many.
int encode(const Side& me, const Side& opp, InputList& out);

// One perceptron: kInputs -> hidden (sigmoid) -> kOutputs (sigmoid).
struct Mlp {
  int hidden = kHidden;
  std::vector<float> w1;  // [kInputs][hidden]: input-major, so a sparse input adds one row
  std::vector<float> b1;  // [hidden]
  std::vector<float> w2;  // [kOutputs][hidden]
  std::vector<float> b2;  // [kOutputs]
  explicit Mlp(int hidden = kHidden);
  // Raw sigmoid outputs; `hidden` receives the hidden activations when not null.
  void forward(const SparseInput* in, int n, float* out, float* hidden = nullptr) const;
  // Adds `scale` times the gradient of the cross-entropy towards `target` (each output in
  // [0, 1]), taken in the direction that lowers it, to the weights of `into` (an Mlp of the
  // same sizes: a gradient accumulator, or this net itself for a stochastic step). Returns
  // the cross-entropy summed over the outputs, before the step.
  float backward(const SparseInput* in, int n, const float* target, float scale, Mlp& into) const;
  // One stochastic gradient step of cross-entropy towards `target`.
  void train(const SparseInput* in, int n, const float* target, float rate) {
    backward(in, n, target, rate, *this);
  }
};

class Net {
 public:
  Net();  // small random weights (seed 1): a net to train, not to play with
  void randomize(std::uint64_t seed);

  // The five probabilities for `me` on roll (made consistent: a gammon is at most a win).
  Probs evaluate(const Side& me, const Side& opp) const;
  // The same for n positions given as (me on roll, opponent) pairs.
  void evaluate_batch(const backgammon::Board* positions, int n, Probs* out) const;
  void train(const Side& me, const Side& opp, const Probs& target, float rate);

  // The hidden layer's width (the same in the three networks).
  int hidden() const { return nets_[0].hidden; }
  // Widens every network to `hidden` units (at least the present width, valid_hidden): the new
  // units get small random input weights (from `seed`) and zero output weights, so the net
  // evaluates every position exactly as before and training can put the new units to use.
  void widen(int hidden, std::uint64_t seed);
  // The two nets side by side as one: each network's hidden layer is a's units then b's, and
  // its output logits are the mean of a's and b's (a two-net ensemble in one net of both
  // widths). Throws naqala::Error when the sum is not a width valid_hidden takes.
  static Net averaged(const Net& a, const Net& b);

  Mlp& mlp(PositionClass c) { return nets_[static_cast<int>(c)]; }
  const Mlp& mlp(PositionClass c) const { return nets_[static_cast<int>(c)]; }

  // What the training run recorded: games played so far, its seed and learning settings.
  struct Meta {
    std::uint64_t games = 0;
    std::uint64_t seed = 0;
    float rate = 0, lambda = 0;
  };
  Meta meta;

  // Binary file: magic, sizes, meta, the weights, and an FNV-1a checksum of all of it.
  // load() throws naqala::Error naming the file and what is wrong with it. A file of an
  // earlier encoding (the raw inputs alone, or fewer generations of hand-made inputs) loads
  // with zero weights on the inputs it lacks: the same evaluations, ready to train on. The
  // hidden width is the file's (valid_hidden).
  void save(const std::string& path) const;
  static Net load(const std::string& path);

 private:
  std::array<Mlp, kNetClasses> nets_;
};

// Whether inference runs the AVX2/FMA kernels on this machine.
bool uses_avx2();
// Turns the AVX2 kernels off (or back on, where the processor has them): for benchmarks.
void use_avx2(bool on);

}  // namespace naqala::bgnet
