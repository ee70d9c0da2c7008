// Registry glue: the `backgammon` preset, its options, and the type-erased state.
#include "games/backgammon/family.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <memory>

#include "core/alarm.h"
#include "core/error.h"
#include "games/backgammon/formats.h"
#include "games/typed_state_json.h"

namespace naqala::backgammon {

namespace {

bool parse_bool(const std::string& key, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  throw VariantError("option " + key + "=" + v + " is not valid; allowed: true, false");
}

int parse_count(const std::string& key, const std::string& v, int max) {
  int n = -1;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || p != v.data() + v.size() || n < 0 || n > max)
    throw VariantError("option " + key + "=" + v + " is not valid; allowed: an integer 0-" +
                       std::to_string(max) + " (0 = off)");
  return n;
}

VariantInfo variant_info() {
  VariantInfo v;
  v.name = "backgammon";
  v.title = "Backgammon";
  v.family = "backgammon";
  v.summary =
      "Backgammon with the doubling cube; money game, match to N points or a series of N games";
  v.aliases = {"gamao", "bg"};
  v.options = {
      {"scoring",
       "standard: single 1, gammon 2, backgammon 3; seed: S3's 3/2/1 reading",
       "enum",
       "standard",
       {"standard", "seed"}},
      {"cube", "play with the doubling cube", "bool", "true", {"true", "false"}},
      {"jacoby",
       "money play: gammons count only after the cube was turned",
       "bool",
       "false",
       {"true", "false"}},
      {"match", "match to N points (0 = a single money game)", "int", "0", {"0", "1..32767"}},
      {"crawford", "Crawford rule in matches", "bool", "true", {"true", "false"}},
      {"series",
       "S3's series of N games, most points wins (0 = off)",
       "int",
       "0",
       {"0", "1..10000"}},
  };
  // S3:45-55, "o comum são 10": a series of 10 games or a match to 10 points; games count
  // 1, 2 or 3 (times the cube).
  v.tournament = std::make_shared<const nlohmann::json>(
      nlohmann::json{{"match_to", {10}},
                     {"series", {10}},
                     {"source", "S3:45-55: a series of 10 games or a match to 10 points"}});
  return v;
}

class BackgammonGame : public AnyGame {
 public:
  explicit BackgammonGame(const Rules& rules) : rules_(rules), info_(variant_info()) {}
  const VariantInfo& info() const override { return info_; }
  std::string spec() const override { return spec_of(rules_); }
  std::unique_ptr<AnyState> new_game() const override {
    return std::make_unique<BackgammonState>(State(rules_));
  }
  std::unique_ptr<AnyState> from_position(std::string_view position) const override {
    std::string_view id = position;
    while (!id.empty() && std::isspace(static_cast<unsigned char>(id.front()))) id.remove_prefix(1);
    while (!id.empty() && std::isspace(static_cast<unsigned char>(id.back()))) id.remove_suffix(1);
    if (id.starts_with("gnubgid:") || id.starts_with("GNUbgID:")) id.remove_prefix(8);
    if (id.size() == 14 && id.find(':') == std::string_view::npos) {
      // A position ID alone: South on roll, nothing else known.
      MatchKey money;
      money.match_to = rules_.match;
      State s = State::from_gnubg_id(std::string(id) + ":" + encode_match_id(money), rules_);
      return std::make_unique<BackgammonState>(s);
    }
    return std::make_unique<BackgammonState>(State::from_gnubg_id(id, rules_));
  }
  std::string rules_text() const override { return backgammon::rules_text(rules_); }

 private:
  Rules rules_;
  VariantInfo info_;
};

}  // namespace

Rules parse_rules(const OptionValues& options) {
  Rules r;
  for (const auto& [key, value] : options) {
    if (key == "scoring") {
      if (value == "standard")
        r.scoring = Scoring::Standard;
      else if (value == "seed")
        r.scoring = Scoring::Seed;
      else
        throw VariantError("option scoring=" + value + " is not valid; allowed: standard, seed");
    } else if (key == "cube") {
      r.cube = parse_bool(key, value);
    } else if (key == "jacoby") {
      r.jacoby = parse_bool(key, value);
    } else if (key == "match") {
      r.match = parse_count(key, value, 32767);
    } else if (key == "crawford") {
      r.crawford = parse_bool(key, value);
    } else if (key == "series") {
      r.series = parse_count(key, value, 10000);
    } else {
      throw VariantError(
          "backgammon has no option '" + key +
          "'; options: scoring=standard|seed, cube=true|false, jacoby=true|false, match=N, "
          "crawford=true|false, series=N");
    }
  }
  if (r.match > 0 && r.series > 0)
    throw VariantError(
        "options match and series exclude each other: a match is to N points, a series is N games");
  if (r.jacoby && !r.is_money())
    throw VariantError("option jacoby=true applies to money play only (no match, no series)");
  return r;
}

std::string spec_of(const Rules& r) {
  std::string opts;
  auto add = [&opts](const std::string& kv) { opts += (opts.empty() ? "" : ",") + kv; };
  if (r.scoring == Scoring::Seed) add("scoring=seed");
  if (!r.cube) add("cube=false");
  if (r.jacoby) add("jacoby=true");
  if (r.match) add("match=" + std::to_string(r.match));
  if (!r.crawford) add("crawford=false");
  if (r.series) add("series=" + std::to_string(r.series));
  return opts.empty() ? "backgammon" : "backgammon:" + opts;
}

std::string rules_text(const Rules& r) {
  std::string t =
      "Backgammon. Each player has 15 checkers and moves them from his 24-point towards his home "
      "board "
      "(points 1-6), then bears them off; the first to bear off all 15 wins.\n"
      "Opening: each player rolls one die (ties are re-rolled); the higher die moves first, "
      "playing both "
      "dice.\n"
      "A roll gives two moves, one per die; doubles give four. A checker may not land on a point "
      "held by "
      "two or more enemy checkers; landing on a single enemy checker hits it to the bar. A player "
      "with a "
      "checker on the bar must enter it in the opponent's home board before any other move. Both "
      "dice must "
      "be played if possible; if only one can be, the higher one must be played when possible. "
      "Bearing off "
      "needs all checkers home; a higher die bears off from the highest point when no checker is "
      "higher.\n"
      "Moves are written as gnubg writes them: 24/18 13/11, bar/22*, 6/off, 8/4(2).\n";
  if (r.scoring == Scoring::Standard)
    t += "A game is worth 1 point, 2 (gammon) if the loser bore off no checker, 3 (backgammon) if "
         "he also "
         "has a checker on the bar or in the winner's home board.\n";
  else
    t += "Scoring as in the seed (S3): 3 points if the loser has checkers outside his home board, "
         "2 if all "
         "are home but none borne off, 1 otherwise.\n";
  if (r.cube) {
    t +=
        "Doubling cube: before rolling, a player who owns the cube (or when it is in the middle) "
        "may double "
        "the stake. The opponent takes (and owns the cube) or drops and loses the current stake.\n";
    if (r.jacoby)
      t += "Jacoby rule: gammons and backgammons count only once the cube has been turned.\n";
  } else {
    t += "No doubling cube.\n";
  }
  if (r.match > 0) {
    t += "Match to " + std::to_string(r.match) + " points.";
    t += r.crawford ? " Crawford rule: no doubling in the game after a player first reaches " +
                          std::to_string(r.match - 1) + " points.\n"
                    : " No Crawford rule.\n";
  } else if (r.series > 0) {
    t += "Series of " + std::to_string(r.series) +
         " games; most points wins (equal points: a draw).\n";
  } else {
    t += "A single game for money: the result is the points won.\n";
  }
  return t;
}

std::optional<int> parse_resignation(std::string_view text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.erase(t.begin());
  if (!t.starts_with("resign")) return std::nullopt;
  std::string what = t.substr(6);
  while (!what.empty() && std::isspace(static_cast<unsigned char>(what.front())))
    what.erase(what.begin());
  if (what.empty() || what == "single" || what == "1" || what == "normal") return 1;
  if (what == "gammon" || what == "2") return 2;
  if (what == "backgammon" || what == "3") return 3;
  throw ParseError("'" + std::string(text) +
                   "': write resign single, resign gammon or resign backgammon");
}

std::string format_resignation(int multiplier) {
  return multiplier == 3   ? "resign backgammon"
         : multiplier == 2 ? "resign gammon"
                           : "resign single";
}

void BackgammonState::play(std::string_view move) {
  if (auto k = parse_resignation(move)) {
    if (is_over()) throw IllegalMoveError("the game is over; there is nothing to resign");
    if (typed().phase() == Phase::Opening)
      throw IllegalMoveError("no game is in play yet; the opening roll comes first");
    typed().offer_resignation(to_move(), *k);
    return;
  }
  TypedState<State>::play(move);
}

std::vector<ChanceText> BackgammonState::chance_outcomes() const {
  std::vector<ChanceText> out;
  ChanceList list;
  typed().chance_outcomes(list);
  for (const auto& c : list) out.push_back({typed().format_chance(c.chance), c.probability});
  return out;
}

void BackgammonState::apply_chance(std::string_view text) {
  if (!typed().is_chance_node())
    throw IllegalMoveError("no dice are to be rolled now; the player to move decides");
  auto c = typed().parse_chance(text);
  if (!c) {
    const bool opening = typed().phase() == Phase::Opening;
    throw ParseError("'" + std::string(text) + "' is not a roll; write two dice 1-6 like 6-3" +
                     (opening ? std::string(" (South's die first; an opening roll cannot be a tie)")
                              : std::string()));
  }
  typed().apply_chance(*c);
}

std::string BackgammonState::sample_chance(Rng& rng) const {
  Chance c = throw_dice(typed(), rng);
  if (typed().phase() != Phase::Opening && c.a < c.b) std::swap(c.a, c.b);
  return typed().format_chance(c);
}

RandomPlayStats BackgammonState::play_random(std::uint64_t seed, double seconds) const {
  Rng rng(seed);
  RandomPlayStats stats;
  auto moves = std::make_unique<MoveList>();
  const Alarm alarm(seconds);
  do {
    State s = typed();
    while (!s.is_over()) {
      if (s.is_chance_node()) {
        s.apply_chance(throw_dice(s, rng));
        continue;
      }
      s.legal_moves(*moves);
      s.play((*moves)[rng.below(static_cast<std::uint32_t>(moves->size()))]);
      ++stats.plies;
      if (alarm.rang()) {
        stats.unfinished = !s.is_over();
        stats.games += s.is_over();
        return stats;
      }
    }
    ++stats.games;
  } while (!alarm.rang());
  return stats;
}

GameFamily family() {
  GameFamily f;
  f.name = "backgammon";
  f.variants = [] { return std::vector<VariantInfo>{variant_info()}; };
  f.make = [](const VariantSpec& spec) -> std::unique_ptr<AnyGame> {
    const auto v = variant_info();
    if (spec.name != v.name &&
        std::find(v.aliases.begin(), v.aliases.end(), spec.name) == v.aliases.end())
      return nullptr;
    return std::make_unique<BackgammonGame>(parse_rules(spec.options));
  };
  return f;
}

}  // namespace naqala::backgammon

// The board for the browser, instantiated here once (games/typed_state_json.h).
template nlohmann::json naqala::TypedState<naqala::backgammon::State>::board_json() const;
