#include "server/tournament_view.h"

#include <cstdio>
#include <ctime>

#include "games/registry.h"
#include "server/fields.h"

namespace naqala::server {

using json = nlohmann::json;

namespace {

json seat_view(const EntrantRow& e) {
  json s = {{"seed", e.seed + 1}, {"name", e.seat.value("name", "")}, {"kind", e.seat["kind"]}};
  if (e.seat.contains("level")) s["level"] = e.seat["level"];
  if (e.seat.contains("player")) s["player"] = e.seat["player"];  // a person's id (his page)
  return s;
}

json rounds_view(const TournamentState& st) {
  json rounds = json::array();
  if (!st.progress) return rounds;
  const auto& r = st.progress->result;
  for (std::size_t i = 0; i < r.rounds.size(); ++i) {
    const int round = static_cast<int>(i) + 1;
    json pairings = json::array();
    for (std::size_t j = 0; j < r.rounds[i].size(); ++j) {
      const auto [a, b] = r.rounds[i][j];
      const int pairing = static_cast<int>(j) + 1;
      json games = json::array();
      double points_a = 0, points_b = 0;
      for (const auto& s : st.slots) {
        if (s.round != round || s.pairing != pairing) continue;
        const GameRow* g = st.game_of(s);
        json item = {{"game", s.game}, {"id", s.game_id}, {"status", g ? g->status : "starting"}};
        item["result"] = g && g->status == "over" ? g->outcome["result"] : json(nullptr);
        if (const auto south = g ? south_points(*g) : std::nullopt) {
          // Player a is South in the pairing's odd games.
          const bool a_south = s.game % 2 == 1;
          const double south_pts = *south == 0.5 ? r.draw_points : *south;
          const double north_pts = *south == 0.5 ? r.draw_points : 1 - *south;
          points_a += a_south ? south_pts : north_pts;
          points_b += a_south ? north_pts : south_pts;
        }
        games.push_back(item);
      }
      json p = {{"pairing", pairing}, {"first", a + 1}, {"games", games}};
      p["second"] = b == play::kBye ? json(nullptr) : json(b + 1);
      p["points"] = b == play::kBye ? json(nullptr) : json::array({points_a, points_b});
      pairings.push_back(p);
    }
    rounds.push_back({{"round", round}, {"pairings", pairings}});
  }
  return rounds;
}

}  // namespace

std::string iso_time(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::optional<std::int64_t> parse_iso_time(const std::string& text) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6 ||
      consumed != static_cast<int>(text.size()))
    return std::nullopt;
  if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
      tm.tm_min > 59 || tm.tm_sec > 60 || tm.tm_year < 1970)
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<std::int64_t>(timegm(&tm)) * 1000;
}

json tournament_summary(const TournamentState& st) {
  const auto& t = st.row;
  return {{"id", t.id},
          {"name", t.name},
          {"variant", t.variant},
          {"title", make_game(t.variant)->info().title},
          {"format", t.format},
          {"status", t.status},
          {"entrants", st.entrants.size()},
          {"organiser", t.extra.value("organiser_name", "")},
          {"starts_at", t.starts_at ? json(iso_time(*t.starts_at)) : json(nullptr)},
          {"created", t.created}};
}

json standings_view(const TournamentState& st) {
  json rows = json::array(), cross = json::array();
  json champion = nullptr;
  if (st.progress) {
    const auto& r = st.progress->result;
    const auto& s = r.standings;
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
      const auto& row = s.rows[i];
      json item =
          play::to_json(row, static_cast<int>(i) + 1, r.settings.format == play::Format::Knockout);
      item["name"] = st.entrants[row.player].seat.value("name", "");
      rows.push_back(item);
    }
    // A cell is null where the two have not played (yet).
    const int n = static_cast<int>(st.entrants.size());
    std::vector<std::vector<bool>> met(n, std::vector<bool>(n, false));
    for (const auto& g : r.games) met[g.south][g.north] = met[g.north][g.south] = true;
    for (int a = 0; a < n; ++a) {
      json line = json::array();
      for (int b = 0; b < n; ++b) line.push_back(met[a][b] ? json(s.cross[a][b]) : json(nullptr));
      cross.push_back(line);
    }
    if (st.progress->over && r.champion >= 0) champion = r.champion + 1;
  }
  return {{"id", st.row.id},         {"name", st.row.name},     {"variant", st.row.variant},
          {"format", st.row.format}, {"status", st.row.status}, {"standings", rows},
          {"crosstable", cross},     {"champion", champion}};
}

json tournament_view(const TournamentState& st) {
  const auto& t = st.row;
  json v = standings_view(st);
  v["type"] = "tournament";
  v["title"] = make_game(t.variant)->info().title;
  v["organiser"] = t.extra.value("organiser_name", "");
  v["organiser_id"] = t.organiser;
  v["clock"] = t.clock;
  v["starts_at"] = t.starts_at ? json(iso_time(*t.starts_at)) : json(nullptr);
  v["created"] = t.created;
  v["note"] = t.extra.value("note", json(nullptr));
  v["rated"] = t.extra.value("rated", false);
  json entrants = json::array();
  for (const auto& e : st.entrants) entrants.push_back(seat_view(e));
  v["entrants"] = entrants;
  v["rounds"] = rounds_view(st);
  if (st.progress) {
    const auto& s = st.progress->result.settings;
    v["rounds_total"] = s.format == play::Format::Knockout ? json(nullptr) : json(s.rounds);
    v["games_per_pairing"] = s.games_per_pairing;
    v["notes"] = st.progress->result.notes;
  } else {
    v["rounds_total"] = t.rounds ? json(t.rounds) : json(nullptr);
    v["games_per_pairing"] = t.games_per_pairing ? json(t.games_per_pairing) : json(nullptr);
    v["notes"] = json::array();
  }
  return v;
}

std::string standings_csv_text(const TournamentState& st) {
  const json s = standings_view(st);
  const bool knockout = st.row.format == "knockout";
  std::string out =
      "rank,seed,name,points,games,wins,draws,losses,sonneborn_berger,buchholz,direct_encounter";
  out += knockout ? ",stage\n" : "\n";
  for (const auto& row : s["standings"]) {
    // A name is quoted, its quotes doubled (RFC 4180).
    std::string name = "\"";
    for (char c : row["name"].get<std::string>())
      name += c == '"' ? std::string("\"\"") : std::string(1, c);
    name += "\"";
    out += std::to_string(row["rank"].get<int>()) + "," + std::to_string(row["seed"].get<int>()) +
           "," + name + "," + fmt_number(row["points"]) + "," +
           std::to_string(row["games"].get<int>()) + "," + std::to_string(row["wins"].get<int>()) +
           "," + std::to_string(row["draws"].get<int>()) + "," +
           std::to_string(row["losses"].get<int>()) + "," + fmt_number(row["sonneborn_berger"]) +
           "," + fmt_number(row["buchholz"]) + "," + fmt_number(row["direct_encounter"]);
    out += knockout ? "," + std::to_string(row["stage"].get<int>()) + "\n" : "\n";
  }
  return out;
}

}  // namespace naqala::server
