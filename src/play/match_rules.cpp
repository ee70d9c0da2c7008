#include "play/match_rules.h"

#include <algorithm>
#include <cctype>

#include "core/error.h"

namespace naqala::play {

namespace {

using nlohmann::json;

class Fields {
 public:
  Fields(const VariantInfo& info)
      : info_(info), data_(info.tournament ? *info.tournament : empty()) {
    if (!data_.is_object()) fail("tournament", "must be a table of match rules");
    for (auto it = data_.begin(); it != data_.end(); ++it)
      if (!known(it.key()))
        fail(it.key(),
             "unknown field; allowed: clock_seconds, increment_seconds, game_cap_seconds, flag, "
             "draw_offers, best_of, match_draw, knockout_tie, match_to, series, resignation, "
             "source");
  }

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw VariantError(info_.name + ": tournament." + field + ": " + what);
  }

  std::int64_t integer(const std::string& field, std::int64_t lo, std::int64_t hi) const {
    auto it = data_.find(field);
    if (it == data_.end()) return 0;
    if (!it->is_number_integer() || it->get<std::int64_t>() < lo || it->get<std::int64_t>() > hi)
      fail(field, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    return it->get<std::int64_t>();
  }

  std::vector<int> integers(const std::string& field, int lo, int hi, bool odd) const {
    auto it = data_.find(field);
    if (it == data_.end()) return {};
    const std::string what = std::string("must be a list of ") + (odd ? "odd " : "") +
                             "integers from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!it->is_array() || it->empty()) fail(field, what);
    std::vector<int> out;
    for (const auto& e : *it) {
      if (!e.is_number_integer() || e.get<int>() < lo || e.get<int>() > hi ||
          (odd && e.get<int>() % 2 == 0))
        fail(field, what);
      out.push_back(e.get<int>());
    }
    return out;
  }

  std::string text(const std::string& field, std::vector<std::string> allowed = {}) const {
    auto it = data_.find(field);
    if (it == data_.end()) return allowed.empty() ? "" : allowed.front();
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    if (!it->is_string()) fail(field, allowed.empty() ? "must be text" : "must be one of: " + list);
    const std::string v = it->get<std::string>();
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end())
      fail(field, "'" + v + "' is not allowed; allowed: " + list);
    return v;
  }

 private:
  static const json& empty() {
    static const json none = json::object();
    return none;
  }
  static bool known(const std::string& key) {
    for (const char* k :
         {"clock_seconds", "increment_seconds", "game_cap_seconds", "flag", "draw_offers",
          "best_of", "match_draw", "knockout_tie", "match_to", "series", "resignation", "source"})
      if (key == k) return true;
    return false;
  }
  const VariantInfo& info_;
  const json& data_;
};

}  // namespace

MatchRules match_rules(const VariantInfo& info) {
  const Fields f(info);
  MatchRules r;
  r.clock_ms = f.integer("clock_seconds", 1, 86400) * 1000;
  r.increment_ms = f.integer("increment_seconds", 0, 3600) * 1000;
  r.game_cap_ms = f.integer("game_cap_seconds", 0, 86400) * 1000;
  if ((r.increment_ms || r.game_cap_ms) && !r.clock_ms)
    f.fail("clock_seconds", "is missing: an increment or a game cap needs the clock itself");
  r.flag = f.text("flag", {"loss"});
  r.draw_offers = static_cast<int>(f.integer("draw_offers", 0, 99));
  r.best_of = f.integers("best_of", 1, 99, /*odd=*/true);
  r.match_draw = f.text("match_draw", {"half", "both_win"}) == "both_win" ? MatchDraw::BothWin
                                                                          : MatchDraw::Half;
  r.knockout_tie = f.text("knockout_tie", {"replay", "all_results"}) == "all_results"
                       ? KnockoutTie::AllResults
                       : KnockoutTie::Replay;
  r.match_to = f.integers("match_to", 1, 32767, false);
  r.series = f.integers("series", 1, 10000, false);
  r.resignation = f.text("resignation");
  r.source = f.text("source");
  return r;
}

namespace {

std::string list_text(const std::vector<int>& values, const char* last) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += i + 1 == values.size() ? std::string(" ") + last + " " : ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

}  // namespace

std::string match_rules_text(const MatchRules& r) {
  std::string t;
  if (r.clock_ms) {
    t += "a chess clock of " + std::to_string(r.clock_ms / 60000) + " minutes per player";
    if (r.increment_ms) t += " plus " + std::to_string(r.increment_ms / 1000) + " s a move";
    t += "; a fallen flag loses the game";
    if (r.game_cap_ms)
      t += "; a game is stopped after " + std::to_string(r.game_cap_ms / 60000) +
           " minutes and its result as it stands is final";
    t += ". ";
  }
  if (r.draw_offers)
    t +=
        "Each player may offer a draw at most " + std::to_string(r.draw_offers) + " times a game. ";
  if (!r.best_of.empty()) t += "Matches are best of " + list_text(r.best_of, "or") + " games. ";
  if (r.match_draw == MatchDraw::BothWin)
    t += "In a match a drawn game counts as a win for each player. ";
  if (r.knockout_tie == KnockoutTie::AllResults)
    t += "A tied knockout match is decided by the two players' results in the whole tournament "
         "so far. ";
  if (!r.match_to.empty()) t += "Matches to " + list_text(r.match_to, "or") + " points. ";
  if (!r.series.empty()) t += "Series of " + list_text(r.series, "or") + " games. ";
  if (!r.resignation.empty()) t += "Etiquette: " + r.resignation + ". ";
  if (t.empty()) return "";
  t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
  while (!t.empty() && t.back() == ' ') t.pop_back();
  return "Tournament play: " + t;
}

const char* to_string(MatchDraw draw) {
  return draw == MatchDraw::BothWin ? "both_win" : "half";
}

const char* to_string(KnockoutTie tie) {
  return tie == KnockoutTie::AllResults ? "all_results" : "replay";
}

nlohmann::json to_json(const MatchRules& r) {
  json clock = nullptr;
  if (r.clock_ms)
    clock = {
        {"initial_ms", r.clock_ms}, {"increment_ms", r.increment_ms}, {"cap_ms", r.game_cap_ms}};
  return {{"clock", clock},
          {"flag", r.flag},
          {"draw_offers", r.draw_offers ? json(r.draw_offers) : json(nullptr)},
          {"best_of", r.best_of},
          {"match_draw", to_string(r.match_draw)},
          {"knockout_tie", to_string(r.knockout_tie)},
          {"match_to", r.match_to},
          {"series", r.series},
          {"resignation", r.resignation},
          {"source", r.source}};
}

}  // namespace naqala::play
