
#include "games/sowing/family.h"

#include "core/error.h"
#include "core/text_file.h"
#include "games/sowing/rules_toml.h"
#include "games/sowing/state.h"
#include "games/typed_state.h"
#include "games/typed_state_json.h"

namespace naqala::sowing {

namespace {

// A sowing game as the CLI and the server hold it: the typed state, plus the result of every
// round finished since the start (multi-round games; the state itself keeps only the last,
// so the searches copy a small value).
class SowingAnyState : public TypedState<State> {
 public:
  using TypedState::TypedState;
  std::unique_ptr<AnyState> clone() const override {
    return std::make_unique<SowingAnyState>(*this);
  }
  void play(std::string_view move) override {
    const int before = typed().round();
    TypedState::play(move);
    // A ply ends at most one round; a new round number means the last one just ended.
    if (typed().round() != before)
      rounds_.push_back(
          {typed().last_round_score(Player::South), typed().last_round_score(Player::North)});
  }
  nlohmann::json board_json() const override {
    nlohmann::json out = TypedState::board_json();
    if (typed().rules().rounds == RoundKind::None) return out;
    nlohmann::json rounds = nlohmann::json::array();
    for (std::size_t i = 0; i < rounds_.size(); ++i) {
      const auto [s, n] = rounds_[i];
      nlohmann::json winner = nullptr;
      if (s != n) winner = std::string(name(s > n ? Player::South : Player::North));
      rounds.push_back(
          {{"round", static_cast<int>(i) + first_round_}, {"scores", {s, n}}, {"winner", winner}});
    }
    out["rounds"] = rounds;
    return out;
  }

 private:
  std::vector<std::pair<int, int>> rounds_;  // South's and North's captures in each round
  int first_round_ = typed().round();
};

class SowingGame : public AnyGame {
 public:
  // `file`: the variant file it was loaded from, if any, which its spec names instead of the
  // variant's name so that make_game(spec()) (a saved record, most of all) finds it again.
  explicit SowingGame(std::shared_ptr<const Rules> rules, std::string file = {})
      : rules_(std::move(rules)), file_(std::move(file)) {
    info_.name = rules_->name;
    info_.title = rules_->title;
    info_.family = "sowing";
    info_.summary = rules_->summary;
    info_.aliases = rules_->aliases;
    info_.options = rules_->options;
    info_.tournament = rules_->tournament;
  }
  const VariantInfo& info() const override { return info_; }
  std::string spec() const override {
    std::string s = file_.empty() ? rules_->name : file_;
    char sep = ':';
    for (const auto& [k, v] : rules_->chosen) {
      s += sep + k + "=" + v;
      sep = ',';
    }
    return s;
  }
  std::unique_ptr<AnyState> new_game() const override {
    return std::make_unique<SowingAnyState>(State::initial(*rules_), rules_);
  }
  std::unique_ptr<AnyState> from_position(std::string_view text) const override {
    return std::make_unique<SowingAnyState>(State::from_position(*rules_, text), rules_);
  }
  std::string rules_text() const override { return sowing::rules_text(*rules_); }

 private:
  std::shared_ptr<const Rules> rules_;
  std::string file_;
  VariantInfo info_;
};

const Preset* find_preset(const std::string& name) {
  for (const auto& p : presets())
    if (p.name == name) return &p;
  return nullptr;
}

// The presets' rules without options, read once: an unknown name searched every preset's aliases
// and listed them all in its error, reading each preset's TOML twice (a few ms of every bad spec).
const std::vector<std::shared_ptr<const Rules>>& preset_rules() {
  static const auto rules = [] {
    std::vector<std::shared_ptr<const Rules>> out;
    for (const auto& p : presets())
      out.push_back(load_rules(p.toml, "preset " + std::string(p.name), {}));
    return out;
  }();
  return rules;
}

}  // namespace

std::unique_ptr<AnyGame> make_sowing_game(std::shared_ptr<const Rules> rules, std::string file) {
  return std::make_unique<SowingGame>(std::move(rules), std::move(file));
}

GameFamily family() {
  GameFamily f;
  f.name = "sowing";
  f.variants = [] {
    // Built once: reading a record looks its Variant tag up here.
    static const auto list = [] {
      std::vector<VariantInfo> out;
      for (const auto& rules : preset_rules()) out.push_back(SowingGame(rules).info());
      return out;
    }();
    return list;
  };
  f.make = [](const VariantSpec& spec) -> std::unique_ptr<AnyGame> {
    const Preset* preset = find_preset(spec.name);
    if (!preset) {
      // Aliases live in the presets themselves.
      for (std::size_t i = 0; i < presets().size() && !preset; ++i)
        for (const auto& a : preset_rules()[i]->aliases)
          if (a == spec.name) preset = &presets()[i];
    }
    if (!preset) return nullptr;
    // A preset as shipped shares the rules read once (they are immutable): reading its TOML and
    // filling a Zobrist table for every game was most of the time of `naqala engine` starting a
    // game, and of a server's new game.
    if (spec.options.empty())
      return make_sowing_game(preset_rules()[static_cast<std::size_t>(preset - presets().data())]);
    return make_sowing_game(load_rules(preset->toml, std::string(preset->name), spec.options));
  };
  f.load_file = [](const std::string& path, const OptionValues& options) {
    std::string text;
    try {
      text = read_text_file(path, "variant file");
    } catch (const Error& e) {
      throw VariantError(e.what());
    }
    return make_sowing_game(load_rules(text, path, options), path);
  };
  return f;
}

}  // namespace naqala::sowing

// The board for the browser, instantiated here once (games/typed_state_json.h).
template nlohmann::json naqala::TypedState<naqala::sowing::State>::board_json() const;
