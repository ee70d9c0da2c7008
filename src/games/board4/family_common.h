#pragma once
// What the four-row families (bao, omweso) share in the registry: reading options with errors
// that say what is allowed, the canonical spec, the AnyGame of a ruleset, and the text helpers
// of their position formats.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "games/any_game.h"
#include "games/typed_state.h"

namespace naqala::board4 {

using OptionList = std::vector<std::pair<std::string, std::string>>;

// The description of option `key`; throws VariantError naming the options there are.
inline const OptionInfo& find_option(const std::vector<OptionInfo>& infos,
                                     const std::string& preset, const std::string& key) {
  for (const auto& i : infos)
    if (i.name == key) return i;
  std::string known;
  for (const auto& i : infos) known += (known.empty() ? "" : ", ") + i.name;
  throw VariantError("unknown option '" + key + "' for " + preset + "; " +
                     (known.empty() ? "it has no options" : "options: " + known));
}

inline bool parse_bool(const std::string& key, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  throw VariantError("option " + key + "=" + v + " is not a boolean; allowed: true, false");
}

// An enum option's value, checked against its allowed values.
inline const std::string& enum_value(const OptionInfo& info, const std::string& v) {
  std::string allowed;
  for (const auto& a : info.allowed) {
    if (a == v) return v;
    allowed += (allowed.empty() ? "" : ", ") + a;
  }
  throw VariantError(info.name + "=" + v + " is not allowed; allowed: " + allowed);
}

inline int int_value(const OptionInfo& info, const std::string& v, int lo, int hi) {
  int n = -1;
  bool digits = !v.empty() && v.size() <= 6;
  for (char c : v) digits = digits && c >= '0' && c <= '9';
  if (digits) n = std::stoi(v);
  if (n < lo || n > hi)
    throw VariantError(info.name + "=" + v + " is not allowed; allowed: " + std::to_string(lo) +
                       " to " + std::to_string(hi));
  return n;
}

// Records a chosen value (canonical text) in spec order; the defaults are left out.
inline void note_choice(OptionList& chosen, const OptionInfo& info, const std::string& value) {
  std::erase_if(chosen, [&](const auto& kv) { return kv.first == info.name; });
  if (value != info.default_value) chosen.emplace_back(info.name, value);
}

inline std::string spec_text(const std::string& name, const OptionList& chosen) {
  std::string s = name;
  char sep = ':';
  for (const auto& [k, v] : chosen) {
    s += sep + k + "=" + v;
    sep = ',';
  }
  return s;
}

// The AnyGame of one ruleset of a four-row family.
template <class State, class Rules>
class FourRowGame : public AnyGame {
 public:
  FourRowGame(std::shared_ptr<const Rules> rules, VariantInfo info, std::string rules_text)
      : rules_(std::move(rules)), info_(std::move(info)), text_(std::move(rules_text)) {}
  const VariantInfo& info() const override { return info_; }
  std::string spec() const override { return spec_text(rules_->name, rules_->chosen); }
  std::unique_ptr<AnyState> new_game() const override {
    return std::make_unique<TypedState<State>>(State::initial(*rules_), rules_);
  }
  std::unique_ptr<AnyState> from_position(std::string_view text) const override {
    return std::make_unique<TypedState<State>>(State::from_position(*rules_, text), rules_);
  }
  std::string rules_text() const override { return text_; }

 private:
  std::shared_ptr<const Rules> rules_;
  VariantInfo info_;
  std::string text_;
};

// Does a preset name or alias name this variant?
inline bool names(const VariantInfo& v, const std::string& name) {
  if (name == v.name) return true;
  for (const auto& a : v.aliases)
    if (name == a) return true;
  return false;
}

}  // namespace naqala::board4
