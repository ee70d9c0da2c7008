#pragma once
// A server tournament read back from the store: its rows, and its draw replayed from the
// results of its games (play::tournament_progress), which is what the rounds, pairings and
// standings are.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "play/tournament.h"
#include "server/store.h"

namespace naqala::server {

struct TournamentState {
  TournamentRow row;
  std::vector<EntrantRow> entrants;                  // by seed
  std::vector<TournamentGameRow> slots;              // the games started, in draw order
  std::map<std::string, GameRow> games;              // those games, by id
  std::optional<play::TournamentProgress> progress;  // once started

  const TournamentGameRow* slot(int round, int pairing, int game) const;
  const GameRow* game_of(const TournamentGameRow& slot) const;
};

// The settings of the draw with `players` entrants (defaults filled in); throws naqala::Error
// saying what is not allowed.
play::TournamentSettings tournament_settings(const TournamentRow& t, int players);

// South's points in a finished game (1, 0.5, 0); nullopt while it is played.
std::optional<double> south_points(const GameRow& game);

TournamentState load_tournament(Store& store, const TournamentRow& t);

}  // namespace naqala::server
