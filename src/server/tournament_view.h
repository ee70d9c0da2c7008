#pragma once
// A server tournament as the API shows it (docs/server.md): settings, entrants, the rounds with
// their pairings and games, the standings and the crosstable; and the standings as CSV.
#include <nlohmann/json.hpp>
#include <string>

#include "server/tournament_state.h"

namespace naqala::server {

// The short form of GET /api/tournaments.
nlohmann::json tournament_summary(const TournamentState& st);
// Everything (GET /api/tournaments/ID and the WebSocket's "tournament" message).
nlohmann::json tournament_view(const TournamentState& st);
// The standings and crosstable alone (GET /api/tournaments/ID/standings).
nlohmann::json standings_view(const TournamentState& st);
// One line per player in rank order, with a header line.
std::string standings_csv_text(const TournamentState& st);

// "2026-11-26T01:00:00Z" from ms since 1970, and back (nullopt when not of that form).
std::string iso_time(std::int64_t ms);
std::optional<std::int64_t> parse_iso_time(const std::string& text);

}  // namespace naqala::server
