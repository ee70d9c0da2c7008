#include "vector_env.h"

#include <algorithm>
#include <cstring>

#include "codecs.h"
#include "core/error.h"
#include "core/rng.h"
#include "games/typed_state.h"

namespace naqala::python {

namespace {

template <class Codec>
class TypedVectorEnv : public VectorEnvCore {
 public:
  using S = typename Codec::State;

  TypedVectorEnv(std::unique_ptr<AnyState> probe, int n, std::uint64_t seed, int max_plies)
      : probe_(std::move(probe)),  // owns what the states point into (a ruleset)
        initial_(static_cast<const TypedState<S>&>(*probe_).typed()),
        codec_(initial_),
        n_(n),
        max_plies_(max_plies),
        rng_(seed),
        states_(n, initial_),
        repetition_(n),
        plies_(n, 0),
        legal_(n),
        chosen_(n) {}

  int size() const override { return n_; }
  int num_actions() const override { return codec_.num_actions(); }
  std::vector<int> observation_shape() const override { return codec_.observation_shape(); }

  void reset(std::uint64_t seed, bool reseed, const StepBuffers& out) override {
    if (reseed) rng_ = Rng(seed);
    for (int i = 0; i < n_; ++i) {
      restart(i);
      out.rewards[2 * i] = out.rewards[2 * i + 1] = 0;
      out.terminated[i] = out.truncated[i] = false;
      write(i, out);
    }
  }

  void step(const std::int64_t* actions, const StepBuffers& out) override {
    // Every action is checked before any game moves.
    for (int i = 0; i < n_; ++i) {
      chosen_[i] = -1;
      const auto& moves = legal_[i];
      for (std::size_t k = 0; k < moves.size(); ++k)
        if (codec_.encode(states_[i], moves[k]) == actions[i]) {
          chosen_[i] = static_cast<int>(k);
          break;
        }
      if (chosen_[i] < 0) {
        std::vector<int> codes;
        for (const auto& m : moves) codes.push_back(codec_.encode(states_[i], m));
        std::sort(codes.begin(), codes.end());
        std::string list;
        for (int c : codes) list += (list.empty() ? "" : " ") + std::to_string(c);
        throw IllegalMoveError(
            "game " + std::to_string(i) + ": action " + std::to_string(actions[i]) +
            " is not legal there; legal actions: " + (list.empty() ? "(none)" : list));
      }
    }
    for (int i = 0; i < n_; ++i) {
      S& s = states_[i];
      s.play(legal_[i][chosen_[i]]);
      repetition_[i].after(s);
      ++plies_[i];
      roll(s);
      float& south = out.rewards[2 * i];
      float& north = out.rewards[2 * i + 1];
      south = north = 0;
      out.terminated[i] = out.truncated[i] = false;
      if (s.is_over()) {
        // Returns as OpenSpiel gives them: +1 win, -1 loss, 0 draw (or an annulled game).
        const double points = s.outcome().south_points();
        south = static_cast<float>(2 * points - 1);
        north = -south;
        out.terminated[i] = true;
        restart(i);
      } else if (max_plies_ > 0 && plies_[i] >= max_plies_) {
        out.truncated[i] = true;
        restart(i);
      }
      write(i, out);
    }
  }

  void sample_legal(std::int64_t* out) override {
    for (int i = 0; i < n_; ++i) {
      const auto& moves = legal_[i];
      out[i] = moves.size() == 0
                   ? -1
                   : codec_.encode(states_[i],
                                   moves[rng_.below(static_cast<std::uint32_t>(moves.size()))]);
    }
  }

  std::string position(int i) const override {
    if (i < 0 || i >= n_)
      throw Error("game " + std::to_string(i) + " does not exist; games are 0 to " +
                  std::to_string(n_ - 1));
    return states_[i].position();
  }

 private:
  void restart(int i) {
    states_[i] = initial_;
    repetition_[i].clear();
    repetition_[i].after(states_[i]);
    plies_[i] = 0;
    roll(states_[i]);
  }

  // Chance events (backgammon's dice) are rolled at once: the agents see decisions only.
  void roll(S& s) {
    if constexpr (ChanceGameState<S>) {
      while (!s.is_over() && s.is_chance_node()) {
        typename S::ChanceList list;
        s.chance_outcomes(list);
        double u = rng_.uniform();
        auto pick = list[list.size() - 1].chance;
        for (const auto& c : list) {
          if (u < c.probability) {
            pick = c.chance;
            break;
          }
          u -= c.probability;
        }
        s.apply_chance(pick);
      }
    }
  }

  // Observation, legal moves and mask, player to move of game i.
  void write(int i, const StepBuffers& out) {
    const S& s = states_[i];
    codec_.observe(s, out.observations + static_cast<std::size_t>(i) * obs_size_);
    auto& moves = legal_[i];
    moves.clear();
    if (!s.is_over()) s.legal_moves(moves);
    std::uint8_t* mask = out.legal_mask + static_cast<std::size_t>(i) * codec_.num_actions();
    std::memset(mask, 0, codec_.num_actions());
    for (const auto& m : moves) mask[codec_.encode(s, m)] = 1;
    out.current_player[i] = s.is_over() ? -4 : index(s.to_move());
  }

  std::unique_ptr<AnyState> probe_;
  S initial_;
  Codec codec_;
  int n_, max_plies_;
  int obs_size_ = observation_size();
  Rng rng_;
  std::vector<S> states_;
  std::vector<RepetitionTracker<S>> repetition_;
  std::vector<int> plies_;
  std::vector<typename S::MoveList> legal_;
  std::vector<int> chosen_;
};

template <class Codec>
std::unique_ptr<VectorEnvCore> make_typed(std::unique_ptr<AnyState> probe, int n,
                                          std::uint64_t seed, int max_plies) {
  return std::make_unique<TypedVectorEnv<Codec>>(std::move(probe), n, seed, max_plies);
}

}  // namespace

std::unique_ptr<VectorEnvCore> make_vector_env(const AnyGame& game, int n, std::uint64_t seed,
                                               int max_plies) {
  if (n < 1 || n > (1 << 20))
    throw Error("VectorEnv: n = " + std::to_string(n) + " games; allowed 1 to 1048576");
  auto probe = game.new_game();
  if (dynamic_cast<const TypedState<sowing::State>*>(probe.get()))
    return make_typed<SowingCodec>(std::move(probe), n, seed, max_plies);
  if (dynamic_cast<const TypedState<backgammon::State>*>(probe.get()))
    return make_typed<BackgammonCodec>(std::move(probe), n, seed, max_plies);
  if (dynamic_cast<const TypedState<bao::State>*>(probe.get()))
    return make_typed<BaoCodec>(std::move(probe), n, seed, max_plies);
  if (dynamic_cast<const TypedState<omweso::State>*>(probe.get()))
    return make_typed<OmwesoCodec>(std::move(probe), n, seed, max_plies);
  throw Error("VectorEnv does not know the " + game.info().family + " family yet");
}

}  // namespace naqala::python
