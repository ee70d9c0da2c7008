#include "vector_env.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#include "codecs.h"
#include "core/error.h"
#include "core/rng.h"
#include "games/typed_state.h"

namespace naqala::python {

namespace {

// A codec whose action is the move itself, with at most 16 actions (a sowing row has at most
// 11 pits): a game's legal actions are a 16-bit mask, checked with one test and sampled with
// one draw and a table lookup, so the check and the draw of 1024 games read 2 KB.
template <class Codec>
concept DirectCodec = requires(const Codec c, int a) {
  c.decode(a);
};

constexpr int kMaxDirectActions = 16;

// By byte: the k-th set bit (from the lowest), the set bits, and the byte's bits as eight
// bytes 0/1 (little-endian): the k-th legal action of a mask without a loop whose length a
// random game makes unpredictable, and the mask as numpy's bools.
struct BitSelect {
  std::array<std::array<std::uint8_t, 8>, 256> nth{};
  std::array<std::uint8_t, 256> count{};
  std::array<std::uint64_t, 256> bytes{};
  constexpr BitSelect() {
    static_assert(std::endian::native == std::endian::little);
    for (int b = 0; b < 256; ++b)
      for (int bit = 0; bit < 8; ++bit)
        if ((b >> bit) & 1) {
          nth[b][count[b]++] = static_cast<std::uint8_t>(bit);
          bytes[b] |= std::uint64_t{1} << (8 * bit);
        }
  }
  int count_of(std::uint32_t bits) const { return count[bits & 0xff] + count[bits >> 8]; }
  // The k-th set bit of a 16-bit mask, k below its number of set bits.
  int select(std::uint32_t bits, std::uint32_t k) const {
    const std::uint32_t low = bits & 0xff, in_low = count[low];
    return k < in_low ? nth[low][k] : 8 + nth[bits >> 8][k - in_low];
  }
};
constexpr BitSelect kBitSelect;

template <class Codec>
class TypedVectorEnv : public VectorEnvCore {
 public:
  using S = typename Codec::State;
  static constexpr bool kDirect = DirectCodec<Codec>;
  // What a game keeps of its legal moves between steps: the mask of actions, or the list.
  using Legal = std::conditional_t<kDirect, std::uint16_t, typename S::MoveList>;

  // One game's state and plies side by side, a small value; its legal actions apart (the
  // check and the draw of every game read only those), and its repetition history apart too
  // (only games that end on a cycle keep one).
  struct Slot {
    S state;
    int plies = 0;
  };

  TypedVectorEnv(std::unique_ptr<AnyState> probe, int n, std::uint64_t seed, int max_plies)
      : probe_(std::move(probe)),  // owns what the states point into (a ruleset)
        initial_(static_cast<const TypedState<S>&>(*probe_).typed()),
        codec_(initial_),
        n_(n),
        max_plies_(max_plies),
        obs_size_(observation_size()),
        rng_(seed),
        slots_(n, Slot{initial_, 0}),
        repetition_(ends_on_cycle(initial_) ? n : 0),
        legal_(n),
        chosen_(kDirect ? 0 : n) {
    if (kDirect && codec_.num_actions() > kMaxDirectActions)
      throw Error("VectorEnv: " + std::to_string(codec_.num_actions()) + " actions; at most " +
                  std::to_string(kMaxDirectActions) + " on the direct path");
  }

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
    for (int i = 0; i < n_; ++i)
      if (!check(i, actions[i])) illegal(i, actions[i]);
    for (int i = 0; i < n_; ++i) {
      Slot& slot = slots_[i];
      S& s = slot.state;
      if constexpr (kDirect)
        s.play(codec_.decode(static_cast<int>(actions[i])));
      else
        s.play(legal_[i][chosen_[i]]);
      if (!repetition_.empty()) repetition_[i].after(s);
      ++slot.plies;
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
      } else if (max_plies_ > 0 && slot.plies >= max_plies_) {
        out.truncated[i] = true;
        restart(i);
      }
      write(i, out);
    }
  }

  void sample_legal(std::int64_t* out) override {
    for (int i = 0; i < n_; ++i) {
      const Slot& slot = slots_[i];
      if constexpr (kDirect) {
        const std::uint32_t bits = legal_[i];
        out[i] = bits == 0
                     ? -1
                     : kBitSelect.select(
                           bits, rng_.below(static_cast<std::uint32_t>(kBitSelect.count_of(bits))));
      } else {
        const auto& moves = legal_[i];
        out[i] = moves.size() == 0
                     ? -1
                     : codec_.encode(slot.state,
                                     moves[rng_.below(static_cast<std::uint32_t>(moves.size()))]);
      }
    }
  }

  std::string position(int i) const override {
    if (i < 0 || i >= n_)
      throw Error("game " + std::to_string(i) + " does not exist; games are 0 to " +
                  std::to_string(n_ - 1));
    return slots_[i].state.position();
  }

 private:
  // Whether action a is legal in game i (and, for lists, which move it is).
  bool check(int i, std::int64_t a) {
    if (a < 0 || a >= codec_.num_actions()) return false;
    const Slot& slot = slots_[i];
    if constexpr (kDirect) {
      return (legal_[i] >> a) & 1;
    } else {
      const auto& moves = legal_[i];
      for (std::size_t k = 0; k < moves.size(); ++k)
        if (codec_.encode(slot.state, moves[k]) == a) {
          chosen_[i] = static_cast<int>(k);
          return true;
        }
      return false;
    }
  }

  [[noreturn]] void illegal(int i, std::int64_t a) const {
    const Slot& slot = slots_[i];
    std::vector<int> codes;
    if constexpr (kDirect) {
      for (int a = 0; a < kMaxDirectActions; ++a)
        if ((legal_[i] >> a) & 1) codes.push_back(a);
    } else {
      for (const auto& m : legal_[i]) codes.push_back(codec_.encode(slot.state, m));
      std::sort(codes.begin(), codes.end());
    }
    std::string list;
    for (int c : codes) list += (list.empty() ? "" : " ") + std::to_string(c);
    throw IllegalMoveError(
        "game " + std::to_string(i) + ": action " + std::to_string(a) +
        " is not legal there; legal actions: " + (list.empty() ? "(none)" : list));
  }

  // The legal actions as a mask straight from the board, where the codec can read it.
  bool legal_mask(const S& s, std::uint32_t& bits) const {
    if constexpr (requires { codec_.legal_mask(s, bits); })
      return codec_.legal_mask(s, bits);
    else
      return false;
  }

  static bool ends_on_cycle(const S& s) {
    if constexpr (CycleEndingState<S>)
      return s.ends_on_cycle();
    else
      return false;
  }

  void restart(int i) {
    Slot& slot = slots_[i];
    slot.state = initial_;
    if (!repetition_.empty()) {
      repetition_[i].clear();
      repetition_[i].after(slot.state);
    }
    slot.plies = 0;
    roll(slot.state);
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

  // The bytes 0/1 of a mask of legal actions, eight at a time (kBitSelect.bytes).
  static void write_mask(std::uint32_t bits, int actions, bool* mask) {
    for (int a = 0; a < actions; a += 8) {
      std::uint64_t x = kBitSelect.bytes[(bits >> a) & 0xff];
      const int bytes = std::min(8, actions - a);
      if (bytes == 8) {
        std::memcpy(mask + a, &x, 8);
        continue;
      }
      // Pieces of constant sizes (no call to memcpy); the same branches for every game.
      int at = a;
      if (bytes & 4) {
        std::memcpy(mask + at, &x, 4);
        x >>= 32;
        at += 4;
      }
      if (bytes & 2) {
        std::memcpy(mask + at, &x, 2);
        x >>= 16;
        at += 2;
      }
      if (bytes & 1) std::memcpy(mask + at, &x, 1);
    }
  }

  // Observation, legal moves and mask, player to move of game i, in one pass over its slot.
  // Inlined into the loops over the games (a call per game cost about 20 instructions).
  [[gnu::always_inline]] void write(int i, const StepBuffers& out) {
    Slot& slot = slots_[i];
    const S& s = slot.state;
    codec_.observe(s, out.observations + static_cast<std::size_t>(i) * obs_size_);
    const int actions = codec_.num_actions();
    bool* mask = out.legal_mask + static_cast<std::size_t>(i) * actions;
    if constexpr (kDirect) {
      // The mask read off the board where the rules allow; else from the list, in a loop of a
      // fixed count (the actions), not of the legal moves: how many moves a random game has is
      // unpredictable, and a mispredicted loop exit costs as much as a ply.
      std::uint32_t bits = 0;
      if (!s.is_over() && !legal_mask(s, bits)) {
        typename S::MoveList moves;
        std::fill_n(moves.data(), kMaxDirectActions, 0);  // a constant count: no call
        s.legal_moves(moves);
        const auto count = static_cast<int>(moves.size());
        for (int k = 0; k < actions; ++k)
          bits |= (k < count ? 1u : 0u) << (codec_.encode(s, moves.data()[k]) & 15);
      }
      legal_[i] = static_cast<std::uint16_t>(bits);
      write_mask(bits, actions, mask);
    } else {
      std::memset(mask, 0, actions);
      auto& moves = legal_[i];
      moves.clear();
      if (!s.is_over()) s.legal_moves(moves);
      for (const auto& m : moves) mask[codec_.encode(s, m)] = true;
    }
    out.current_player[i] = s.is_over() ? -4 : index(s.to_move());
  }

  std::unique_ptr<AnyState> probe_;
  S initial_;
  Codec codec_;
  int n_, max_plies_;
  int obs_size_;
  Rng rng_;
  std::vector<Slot> slots_;
  std::vector<RepetitionTracker<S>> repetition_;  // per game, when the rules end on a cycle
  std::vector<Legal> legal_;
  std::vector<int> chosen_;  // list mode: the move each checked action names
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
  if (const auto* s = dynamic_cast<const TypedState<sowing::State>*>(probe.get()))
    return s->typed().rules().general
               ? make_typed<SowingCodec>(std::move(probe), n, seed, max_plies)
               : make_typed<PlainSowingCodec>(std::move(probe), n, seed, max_plies);
  if (dynamic_cast<const TypedState<backgammon::State>*>(probe.get()))
    return make_typed<BackgammonCodec>(std::move(probe), n, seed, max_plies);
  if (dynamic_cast<const TypedState<bao::State>*>(probe.get()))
    return make_typed<BaoCodec>(std::move(probe), n, seed, max_plies);
  if (dynamic_cast<const TypedState<omweso::State>*>(probe.get()))
    return make_typed<OmwesoCodec>(std::move(probe), n, seed, max_plies);
  throw Error("VectorEnv does not know the " + game.info().family + " family yet");
}

}  // namespace naqala::python
