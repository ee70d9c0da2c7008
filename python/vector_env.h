#pragma once
// A batch of games stepped together for reinforcement learning, in Gymnasium's vector shape
// (docs/python.md): step(actions) plays one action in every game, rolls backgammon's dice,
// ends and restarts finished games, and writes observations, rewards for both players,
// terminated/truncated flags, legal-action masks and the players to move into flat buffers.
// Typed on the game's own state: no allocation and no virtual call in the loop. Plain sowing
// rulesets (Kalah, Oware, ...) keep each game's legal actions as a bit mask beside its state.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/any_game.h"

namespace naqala::python {

struct StepBuffers {
  float* observations;           // n * observation_size
  float* rewards;                // n * 2 (South, North)
  bool* terminated;              // n
  bool* truncated;               // n
  bool* legal_mask;              // n * num_actions
  std::int32_t* current_player;  // n
};

class VectorEnvCore {
 public:
  virtual ~VectorEnvCore() = default;
  virtual int size() const = 0;
  virtual int num_actions() const = 0;
  virtual std::vector<int> observation_shape() const = 0;
  int observation_size() const {
    int n = 1;
    for (int d : observation_shape()) n *= d;
    return n;
  }
  // Starts every game afresh (a new seed when given) and fills observations, masks and players.
  virtual void reset(std::uint64_t seed, bool reseed, const StepBuffers& out) = 0;
  // Checks every action first: an illegal one throws IllegalMoveError naming the game and
  // its legal actions, and no game moves.
  virtual void step(const std::int64_t* actions, const StepBuffers& out) = 0;
  // A uniformly random legal action for every game.
  virtual void sample_legal(std::int64_t* out) = 0;
  // The position text of game i (for checks against single states).
  virtual std::string position(int i) const = 0;
};

// max_plies: a game still running after this many plies is truncated and restarted.
std::unique_ptr<VectorEnvCore> make_vector_env(const AnyGame& game, int n, std::uint64_t seed,
                                               int max_plies);

}  // namespace naqala::python
