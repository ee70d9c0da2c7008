#include "game_actions.h"

#include "codecs.h"
#include "core/error.h"
#include "games/typed_state.h"

namespace naqala::python {

namespace {

template <class Codec>
class TypedGameActions : public GameActions {
 public:
  using S = typename Codec::State;
  using Typed = TypedState<S>;
  explicit TypedGameActions(const S& probe) : codec_(probe) {}

  int num_distinct_actions() const override { return codec_.num_actions(); }
  int max_chance_outcomes() const override {
    if constexpr (requires { Codec::kChanceOutcomes; })
      return Codec::kChanceOutcomes;
    else
      return 0;
  }

  std::vector<int> legal_actions(const AnyState& state) const override {
    std::vector<int> out;
    const S& s = typed(state).typed();
    if (s.is_over() || chance_node(s)) return out;
    typename S::MoveList moves;
    s.legal_moves(moves);
    for (const auto& m : moves) out.push_back(codec_.encode(s, m));
    std::sort(out.begin(), out.end());
    if (std::adjacent_find(out.begin(), out.end()) != out.end())
      throw Error("two legal moves share an action number in " + state.position() +
                  " (a bug in naqala's action codec)");
    return out;
  }

  void apply(AnyState& state, int action) const override {
    auto& t = typed(state);
    S& s = t.typed();
    if (s.is_over()) throw IllegalMoveError("the game is over; no action can be applied");
    if constexpr (requires { Codec::kChanceOutcomes; }) {
      if (s.is_chance_node()) {
        s.apply_chance(chance(s, action));
        return;
      }
    }
    t.play_typed(move(s, action));
  }

  std::string action_to_string(const AnyState& state, int action) const override {
    const S& s = typed(state).typed();
    if constexpr (requires { Codec::kChanceOutcomes; }) {
      if (s.is_chance_node()) return s.format_chance(chance(s, action));
    }
    return s.format_move(move(s, action));
  }

  int string_to_action(const AnyState& state, std::string_view text) const override {
    const S& s = typed(state).typed();
    if constexpr (requires { Codec::kChanceOutcomes; }) {
      if (s.is_chance_node()) {
        // The CLI's own check first, for its message.
        state.clone()->apply_chance(text);
        return Codec::encode_chance(*s.parse_chance(text));
      }
    }
    // Played on a copy: a text that is not a legal move raises the CLI's message.
    auto probe = state.clone();
    probe->play(text);
    const auto m = s.parse_move(text);
    typename S::MoveList moves;
    s.legal_moves(moves);
    if (moves.contains(*m)) return codec_.encode(s, *m);
    // Another writing of a legal move (backgammon: a move is the position it makes).
    for (const auto& legal : moves) {
      S next = s;
      next.play(legal);
      if (next.position() == probe->position()) return codec_.encode(s, legal);
    }
    return codec_.encode(s, *m);
  }

  std::vector<std::pair<int, double>> chance_outcomes(const AnyState& state) const override {
    std::vector<std::pair<int, double>> out;
    if constexpr (requires { Codec::kChanceOutcomes; }) {
      const S& s = typed(state).typed();
      if (!s.is_chance_node() || s.is_over()) return out;
      typename S::ChanceList list;
      s.chance_outcomes(list);
      for (const auto& c : list) out.emplace_back(Codec::encode_chance(c.chance), c.probability);
      std::sort(out.begin(), out.end());
    }
    return out;
  }

  std::vector<int> observation_shape() const override { return codec_.observation_shape(); }
  void observe(const AnyState& state, float* out) const override {
    codec_.observe(typed(state).typed(), out);
  }

 private:
  static bool chance_node(const S& s) {
    if constexpr (ChanceGameState<S>)
      return s.is_chance_node();
    else
      return false;
  }
  static const Typed& typed(const AnyState& state) {
    const auto* t = dynamic_cast<const Typed*>(&state);
    if (!t) throw Error("this state belongs to another game");
    return *t;
  }
  static Typed& typed(AnyState& state) {
    auto* t = dynamic_cast<Typed*>(&state);
    if (!t) throw Error("this state belongs to another game");
    return *t;
  }

  typename S::Move move(const S& s, int action) const {
    typename S::MoveList moves;
    s.legal_moves(moves);
    std::vector<int> legal;
    for (const auto& m : moves) {
      const int code = codec_.encode(s, m);
      if (code == action) return m;
      legal.push_back(code);
    }
    std::sort(legal.begin(), legal.end());
    std::string list;
    for (int a : legal) list += (list.empty() ? "" : " ") + std::to_string(a);
    throw IllegalMoveError(
        "action " + std::to_string(action) +
        " is not legal here; legal actions: " + (list.empty() ? "(none)" : list));
  }

  template <class T = S>
  static typename T::Chance chance(const T& s, int outcome) {
    typename T::ChanceList list;
    s.chance_outcomes(list);
    std::string known;
    for (const auto& c : list) {
      if (Codec::encode_chance(c.chance) == outcome) return c.chance;
      known += (known.empty() ? "" : " ") + std::to_string(Codec::encode_chance(c.chance));
    }
    throw IllegalMoveError("chance outcome " + std::to_string(outcome) +
                           " is not possible here; outcomes: " + known);
  }

  Codec codec_;
};

}  // namespace

std::shared_ptr<const GameActions> make_game_actions(const AnyGame& game) {
  const auto probe = game.new_game();
  if (const auto* s = dynamic_cast<const TypedState<sowing::State>*>(probe.get()))
    return std::make_shared<TypedGameActions<SowingCodec>>(s->typed());
  if (const auto* s = dynamic_cast<const TypedState<backgammon::State>*>(probe.get()))
    return std::make_shared<TypedGameActions<BackgammonCodec>>(s->typed());
  if (const auto* s = dynamic_cast<const TypedState<bao::State>*>(probe.get()))
    return std::make_shared<TypedGameActions<BaoCodec>>(s->typed());
  if (const auto* s = dynamic_cast<const TypedState<omweso::State>*>(probe.get()))
    return std::make_shared<TypedGameActions<OmwesoCodec>>(s->typed());
  throw Error("the Python module does not know the " + game.info().family + " family yet");
}

}  // namespace naqala::python
