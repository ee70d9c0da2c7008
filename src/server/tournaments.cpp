#include "server/tournaments.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "core/error.h"
#include "core/json_text.h"
#include "core/rng.h"
#include "engine/engine.h"
#include "games/registry.h"
#include "play/tournament_games.h"
#include "server/fields.h"
#include "server/tournament_state.h"
#include "server/tournament_view.h"

namespace naqala::server {

namespace asio = boost::asio;

namespace {

constexpr int kMostEntrants = 64;

// The most rounds (round robin: cycles) a request may ask for.
int most_rounds(const std::string& format) {
  return format == "roundrobin" ? 10 : format == "swiss" ? 50 : 0;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

Tournaments::Tournaments(asio::io_context& io, Store& store, Hub& hub)
    : io_(io), store_(store), hub_(hub) {}

Tournaments::~Tournaments() {
  shutdown();
}

void Tournaments::shutdown() {
  stopping_ = true;
  for (auto& [id, timer] : start_timers_) timer->cancel();
}

void Tournaments::load() {
  for (const auto& id : store_.tournaments_with_status("playing")) {
    try {
      advance(id);
    } catch (const std::exception& e) {
      std::cerr << "naqala serve: cannot resume tournament " << id << ": " << e.what() << "\n";
    }
  }
  for (const auto& id : store_.tournaments_with_status("open"))
    if (auto t = store_.tournament(id)) arm_start(*t);
}

std::string Tournaments::fresh_id() {
  static constexpr char kAlphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
  static Rng rng(
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  while (true) {
    std::string id = "t";
    for (int i = 0; i < 9; ++i) id += kAlphabet[rng.below(sizeof kAlphabet - 1)];
    if (!store_.tournament(id)) return id;
  }
}

TournamentRow Tournaments::require(const std::string& id) {
  if (id.size() > 32) throw ApiError(400, "\"" + id.substr(0, 32) + "...\" is not a tournament id");
  auto t = store_.tournament(id);
  if (!t) throw ApiError(404, "no tournament '" + id + "'");
  return *t;
}

// ---------------------------------------------------------------- requests

json Tournaments::create(const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  const PlayerRow organiser = hub_.require_player(body);
  const std::unique_ptr<AnyGame> game = preset_game(text_field(body, "variant"));
  TournamentRow t;
  t.format = text_field(body, "format");
  if (t.format != "roundrobin" && t.format != "swiss" && t.format != "knockout")
    throw ApiError(400, "field \"format\" must be \"roundrobin\", \"swiss\" or \"knockout\"");
  if (t.format == "knockout" && body.contains("rounds") && !body["rounds"].is_null())
    throw ApiError(400,
                   "field \"rounds\" does not apply to a knockout: its rounds follow from "
                   "the entrants");
  if (t.format != "knockout") t.rounds = whole_field(body, "rounds", 0, 1, most_rounds(t.format));
  t.games_per_pairing = whole_field(body, "games_per_pairing", 0, 1, 9);
  if (t.format == "knockout" && t.games_per_pairing % 2 == 0 && t.games_per_pairing)
    throw ApiError(400,
                   "field \"games_per_pairing\": a knockout match is best of an odd number "
                   "of games (1, 3, 5, 7 or 9)");
  t.name = trimmed(text_field(body, "name", false));
  if (t.name.empty()) t.name = game->info().title + " " + t.format;
  if (t.name.size() > 60) throw ApiError(400, "a tournament name has 1 to 60 characters");
  for (unsigned char ch : t.name)
    if (ch < 0x20) throw ApiError(400, "a tournament name cannot contain control characters");
  t.clock = clock_field(body);
  if (const std::string at = text_field(body, "starts_at", false); !at.empty()) {
    t.starts_at = parse_iso_time(at);
    if (!t.starts_at)
      throw ApiError(400, "field \"starts_at\" is a UTC time like \"2026-11-26T18:00:00Z\"");
    if (*t.starts_at < now_ms() - 60000)
      throw ApiError(400, "field \"starts_at\" (" + at + ") is in the past");
  }
  t.id = fresh_id();
  t.organiser = organiser.id;
  t.variant = game->spec();
  t.status = "open";
  t.extra = {{"organiser_name", organiser.name}, {"rated", bool_field(body, "rated", false)}};
  t.created = now_ms();
  store_.add_tournament(t);
  arm_start(t);
  return tournament_view(load_tournament(store_, t));
}

json Tournaments::list() {
  json open = json::array(), playing = json::array(), over = json::array();
  for (const auto& t : store_.recent_tournaments(100)) {
    TournamentState st;
    st.row = t;
    st.entrants = store_.entrants(t.id);
    (t.status == "open"      ? open
     : t.status == "playing" ? playing
                             : over)
        .push_back(tournament_summary(st));
  }
  return {{"open", open}, {"playing", playing}, {"over", over}};
}

json Tournaments::get(const std::string& id) {
  return tournament_view(load_tournament(store_, require(id)));
}

json Tournaments::standings(const std::string& id) {
  return standings_view(load_tournament(store_, require(id)));
}

std::string Tournaments::standings_csv(const std::string& id) {
  return standings_csv_text(load_tournament(store_, require(id)));
}

json Tournaments::records(const std::string& id) {
  const auto st = load_tournament(store_, require(id));
  json out = json::array();
  for (const auto& s : st.slots) {
    if (!st.game_of(s)) continue;
    out.push_back({{"round", s.round},
                   {"pairing", s.pairing},
                   {"game", s.game},
                   {"id", s.game_id},
                   {"file", play::game_record_path("", {s.round, s.pairing, s.game, 0, 0})},
                   {"status", st.game_of(s)->status},
                   {"record", hub_.record(s.game_id)}});
  }
  return {{"id", id}, {"name", st.row.name}, {"records", out}};
}

json Tournaments::join(const std::string& id, const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  TournamentRow t = require(id);
  const PlayerRow me = hub_.require_player(body);
  if (t.status != "open") throw ApiError(409, "entries are closed: the tournament has begun");
  const auto entrants = store_.entrants(id);
  if (static_cast<int>(entrants.size()) >= kMostEntrants)
    throw ApiError(409, "the tournament is full (" + std::to_string(kMostEntrants) + " entrants)");
  json seat;
  if (body.contains("computer") && !body["computer"].is_null()) {
    // A computer level takes part: the organiser enters it.
    if (me.id != t.organiser) throw ApiError(403, "only the organiser enters computer players");
    const int level = whole_field(body, "computer", 5, 1, 10);
    try {
      engine::make_engine(*make_game(t.variant), "level:" + std::to_string(level));
    } catch (const Error& e) {
      throw ApiError(400, std::string("no computer player for this game: ") + e.what());
    }
    std::string name = "Computer (level " + std::to_string(level) + ")";
    const auto same = std::count_if(entrants.begin(), entrants.end(), [&](const EntrantRow& e) {
      return e.seat.value("level", 0) == level && e.seat["kind"] == "computer";
    });
    if (same) name += " #" + std::to_string(same + 1);
    seat = {{"kind", "computer"}, {"level", level}, {"name", name}};
  } else {
    for (const auto& e : entrants)
      if (e.seat.value("player", std::int64_t{-1}) == me.id)
        throw ApiError(409, "you have entered this tournament already (seed " +
                                std::to_string(e.seed + 1) + ")");
    seat = {{"kind", "human"}, {"player", me.id}, {"name", me.name}};
  }
  store_.add_entrant(id, seat);
  push(id);
  return get(id);
}

json Tournaments::start(const std::string& id, const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  TournamentRow t = require(id);
  const PlayerRow me = hub_.require_player(body);
  if (me.id != t.organiser) throw ApiError(403, "only the organiser starts the tournament");
  begin(t);
  return get(id);
}

void Tournaments::begin(TournamentRow& t) {
  if (t.status != "open") throw ApiError(409, "the tournament has begun already");
  const int players = static_cast<int>(store_.entrants(t.id).size());
  if (players < 2)
    throw ApiError(409, "a tournament needs at least two entrants to start; it has " +
                            std::to_string(players));
  try {
    tournament_settings(t, players);
  } catch (const Error& e) {
    throw ApiError(409, std::string("cannot start with ") + std::to_string(players) +
                            " entrants: " + e.what());
  }
  t.status = "playing";
  t.extra.erase("note");
  store_.update_tournament(t);
  if (auto it = start_timers_.find(t.id); it != start_timers_.end()) {
    it->second->cancel();
    start_timers_.erase(it);
  }
  advance(t.id);
}

void Tournaments::arm_start(const TournamentRow& t) {
  if (!t.starts_at || t.status != "open") return;
  auto& timer = start_timers_[t.id];
  timer = std::make_unique<asio::steady_timer>(io_);
  timer->expires_after(
      std::chrono::milliseconds(std::max<std::int64_t>(0, *t.starts_at - now_ms())));
  timer->async_wait([this, id = t.id](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    auto t = store_.tournament(id);
    if (!t || t->status != "open") return;
    try {
      begin(*t);
    } catch (const ApiError& e) {
      // Not enough entrants at the start time: it waits for the organiser's start.
      t->extra["note"] = std::string("did not start at its start time: ") + e.what();
      store_.update_tournament(*t);
      push(id);
    }
  });
}

// ---------------------------------------------------------------- the draw

void Tournaments::advance(const std::string& id) {
  auto row = store_.tournament(id);
  if (!row || row->status != "playing") return;
  TournamentState st = load_tournament(store_, *row);
  for (const auto& slot : st.progress->ready) {
    const TournamentGameRow* known = st.slot(slot.round, slot.pairing, slot.game);
    if (known && st.game_of(*known)) continue;  // under way
    // The slot is stored before the game: a crash between the two leaves a slot whose game
    // is started on the next load, never a game outside the draw.
    const std::string game_id = known ? known->game_id : hub_.fresh_id();
    if (!known) store_.add_tournament_game(id, {slot.round, slot.pairing, slot.game, game_id});
    json seats = json::array({st.entrants[slot.south].seat, st.entrants[slot.north].seat});
    json extra = {{"tournament",
                   {{"id", id},
                    {"name", row->name},
                    {"round", slot.round},
                    {"pairing", slot.pairing},
                    {"game", slot.game}}},
                  {"rated", row->extra.value("rated", false)}};
    hub_.start_seated_game(game_id, row->variant, std::move(seats), row->clock, std::move(extra));
  }
  if (st.progress->over) {
    row->status = "over";
    store_.update_tournament(*row);
  }
  push(id);
}

void Tournaments::game_over(const GameRow& row) {
  const auto it = row.extra.find("tournament");
  if (it == row.extra.end() || !it->is_object()) return;
  const std::string id = it->value("id", "");
  try {
    advance(id);
  } catch (const std::exception& e) {
    std::cerr << "naqala serve: tournament " << id << " cannot go on: " << e.what() << "\n";
  }
}

// ---------------------------------------------------------------- live updates

void Tournaments::push(const std::string& id) {
  auto it = watchers_.find(id);
  if (it == watchers_.end() || it->second.empty()) return;
  const auto text = std::make_shared<const std::string>(json_text(get(id)));
  for (Client* c : it->second) c->send(text);
}

bool Tournaments::handle(Client& c, const std::string& type, const json& m) {
  if (type != "watch_tournament" && type != "unwatch_tournament") return false;
  const std::string id = text_field(m, "tournament");
  if (type == "unwatch_tournament") {
    if (auto it = watchers_.find(id); it != watchers_.end()) {
      it->second.erase(&c);
      if (it->second.empty()) watchers_.erase(it);
    }
    c.watching_tournaments.erase(id);
    return true;
  }
  const json view = get(id);  // 404 for no such tournament
  if (c.watching_tournaments.size() >= 16 && !c.watching_tournaments.count(id))
    throw ApiError(429, "a connection may watch at most 16 tournaments");
  watchers_[id].insert(&c);
  c.watching_tournaments.insert(id);
  c.send(std::make_shared<const std::string>(json_text(view)));
  return true;
}

void Tournaments::disconnect(Client& c) {
  for (const auto& id : c.watching_tournaments) {
    if (auto it = watchers_.find(id); it != watchers_.end()) {
      it->second.erase(&c);
      if (it->second.empty()) watchers_.erase(it);
    }
  }
  c.watching_tournaments.clear();
}

}  // namespace naqala::server
