#pragma once
// The match and tournament rules a variant declares beside its rules (a sowing preset's
// [tournament] table, the same fields in the Bao, Omweso and backgammon families), read into
// one typed value that the server, the CLI and tournaments share (docs/tournaments.md).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "games/any_game.h"

namespace naqala::play {

// How a drawn game scores in a match: half a point each, or a win for each (Oware, S0:17).
enum class MatchDraw { Half, BothWin };
// A knockout match still tied after its games: more games, or (Toguz, S0:37) the two
// players' results in the whole tournament so far.
enum class KnockoutTie { Replay, AllResults };

struct MatchRules {
  // The rules' tournament clock, per player; 0 = the rules name none.
  std::int64_t clock_ms = 0, increment_ms = 0;
  std::int64_t game_cap_ms = 0;  // the game stops there and the current result is final
  // What a fallen flag means. The seeds give one answer everywhere: the game is lost.
  std::string flag = "loss";
  int draw_offers = 0;       // per player per game; 0 = no limit
  std::vector<int> best_of;  // match formats the rules name; empty = none named
  MatchDraw match_draw = MatchDraw::Half;
  KnockoutTie knockout_tie = KnockoutTie::Replay;
  std::vector<int> match_to;  // match lengths in points the rules name (backgammon)
  std::vector<int> series;    // series lengths in games the rules name (backgammon)
  std::string resignation;    // the rules' word on resigning, for players
  std::string source;         // where the rules come from
};

// Reads `info.tournament`; throws VariantError naming the variant, the field and what is
// allowed when the declared data is wrong.
MatchRules match_rules(const VariantInfo& info);

// The rules as the API shows them (GET /api/variants: `tournament`).
nlohmann::json to_json(const MatchRules& rules);

// The rules in plain English for `naqala rules` ("Tournament play: ..."); "" when the rules
// declare none.
std::string match_rules_text(const MatchRules& rules);

const char* to_string(MatchDraw draw);   // "half", "both_win"
const char* to_string(KnockoutTie tie);  // "replay", "all_results"

}  // namespace naqala::play
