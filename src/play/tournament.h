#pragma once
// A tournament between numbered players (docs/tournaments.md): the rounds of its format, the
// matches of a knockout with the rules' tie rule, and the standings. How a game is played is
// the caller's: engines (tournament_games.h), or anything that returns a result.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "play/match_rules.h"
#include "play/pairing.h"
#include "play/standings.h"

namespace naqala::play {

enum class Format { RoundRobin, Swiss, Knockout };
// "roundrobin", "swiss", "knockout"; throws Error listing them.
Format parse_format(const std::string& text);
const char* to_string(Format format);

struct TournamentSettings {
  Format format = Format::RoundRobin;
  int players = 0;
  // Round robin: cycles (1 single, 2 double); Swiss: rounds; knockout: unused. 0 = default.
  int rounds = 0;
  // Games each pairing plays, colours alternating; a knockout match is best of this many.
  // 0 = default (1; a knockout the smallest best-of the rules name).
  int games_per_pairing = 0;
  MatchRules rules;  // the knockout tie rule and how a drawn game scores in a match
};

// The settings with their defaults filled in; throws Error saying what is allowed.
TournamentSettings resolve(TournamentSettings settings);

struct GameSlot {
  int round = 0, pairing = 0, game = 0;  // 1-based
  int south = 0, north = 0;
};
// Plays one game and returns South's points: 1, 0.5 or 0.
using PlayGame = std::function<double(const GameSlot&)>;

struct TournamentResult {
  TournamentSettings settings;
  std::vector<std::vector<Pairing>> rounds;
  std::vector<PlayedGame> games;
  std::vector<Bye> byes;
  std::vector<std::string> notes;  // how each tied knockout match was decided
  double draw_points = 0.5;        // a drawn game's worth in the standings
  int champion = -1;               // knockout only
  Standings standings;
};

// Plays the whole tournament through `play`, round after round (each round's pairings depend
// on the results before it).
TournamentResult run_tournament(const TournamentSettings& settings, const PlayGame& play);

// A tournament played over time (the server's): South's points of a game already played, or
// nullopt when it is not.
using KnownResult = std::function<std::optional<double>(const GameSlot&)>;

struct TournamentProgress {
  // The rounds published so far (the last one may be under way), the games played, and the
  // standings after them (champion set once a knockout is over).
  TournamentResult result;
  // The games to play now: each unfinished pairing's next game in the round under way (the
  // games of a pairing are played one after the other). Empty once the tournament is over.
  std::vector<GameSlot> ready;
  bool over = false;
};

// Replays the tournament from the results known so far: the same pairings, colours and
// knockout tie decisions as run_tournament, stopping at the round still being played.
TournamentProgress tournament_progress(const TournamentSettings& settings,
                                       const KnownResult& known);

}  // namespace naqala::play
