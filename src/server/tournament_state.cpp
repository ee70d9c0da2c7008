#include "server/tournament_state.h"

#include "games/registry.h"
#include "play/match_rules.h"

namespace naqala::server {

const TournamentGameRow* TournamentState::slot(int round, int pairing, int game) const {
  for (const auto& s : slots)
    if (s.round == round && s.pairing == pairing && s.game == game) return &s;
  return nullptr;
}

const GameRow* TournamentState::game_of(const TournamentGameRow& s) const {
  auto it = games.find(s.game_id);
  return it == games.end() ? nullptr : &it->second;
}

play::TournamentSettings tournament_settings(const TournamentRow& t, int players) {
  play::TournamentSettings s;
  s.format = play::parse_format(t.format);
  s.players = players;
  s.rounds = t.rounds;
  s.games_per_pairing = t.games_per_pairing;
  s.rules = play::match_rules(make_game(t.variant)->info());
  return play::resolve(s);
}

std::optional<double> south_points(const GameRow& game) {
  if (game.status != "over") return std::nullopt;
  const auto& winner = game.outcome["winner"];
  if (winner == "south") return 1.0;
  if (winner == "north") return 0.0;
  return 0.5;
}

TournamentState load_tournament(Store& store, const TournamentRow& t) {
  TournamentState st;
  st.row = t;
  st.entrants = store.entrants(t.id);
  st.slots = store.tournament_games(t.id);
  for (const auto& s : st.slots)
    if (auto g = store.game(s.game_id)) st.games.emplace(s.game_id, std::move(*g));
  if (t.status == "open") return st;
  const auto settings = tournament_settings(t, static_cast<int>(st.entrants.size()));
  st.progress =
      play::tournament_progress(settings, [&](const play::GameSlot& slot) -> std::optional<double> {
        const auto* s = st.slot(slot.round, slot.pairing, slot.game);
        const auto* g = s ? st.game_of(*s) : nullptr;
        return g ? south_points(*g) : std::nullopt;
      });
  return st;
}

}  // namespace naqala::server
