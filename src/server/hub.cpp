#include "server/hub.h"

#include <SQLiteCpp/Exception.h>
#include <sys/random.h>

#include <algorithm>
#include <array>
#include <boost/asio/post.hpp>
#include <boost/uuid/detail/sha1.hpp>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <limits>

#include "core/error.h"
#include "core/json_text.h"
#include "engine/backgammon_resign.h"
#include "engine/backgammon_review.h"
#include "games/registry.h"
#include "games/sow_trace.h"
#include "play/clocks.h"
#include "play/level_ratings.h"
#include "play/match_rules.h"
#include "play/match_scoring.h"
#include "play/record.h"
#include "server/fields.h"
#include "server/passwords.h"
#include "server/perfect_play.h"
#include "server/ratings.h"

namespace naqala::server {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

// A stored ply played on the state: a move, or a chance outcome (side '*', dice).
void apply_ply(AnyState& state, const MoveRow& m) {
  if (m.side == '*')
    state.apply_chance(m.text);
  else
    state.play(m.text);
}

}  // namespace

struct Hub::Live {
  GameRow row;
  std::unique_ptr<AnyGame> game;
  std::unique_ptr<AnyState> state;
  std::vector<MoveRow> plies;
  Clock::time_point turn_started = Clock::now();
  std::unique_ptr<asio::steady_timer> timer;
  std::array<std::shared_ptr<engine::Engine>, 2> engines;
  std::uint64_t generation = 0;  // bumped by every ply: a late engine answer is dropped
  bool thinking = false;
  // Congklak's simultaneous start: each player's secret half of the joint first move.
  std::array<std::optional<std::string>, 2> joint;
  bool simultaneous = false;  // in that joint phase: both clocks run until each has chosen
  std::set<Client*> watchers;
  Rng dice;
  std::optional<MatchRow> match;
  play::MatchRules rules;  // the variant's match rules (draw offers), read once at opening
  bool reported = false;   // the extension has heard that the game is over
  // How the last ply was sown, lap by lap, for the browser's animation (null when the game
  // does not trace its sowing, or after a reload).
  json path;
};

namespace {

// The longest sowing animation of the browser app (web/src/boards/board.ts, ANIMATION_MS).
constexpr auto kAnimationAllowance = std::chrono::milliseconds(3000);
// The longest backgammon move animation, checker by checker (web/src/boards/backgammon.ts,
// CHECKER_ANIMATION_MS).
constexpr auto kCheckerAnimationAllowance = std::chrono::milliseconds(1500);
// How soon a flag fall or a computer move that the database refused is tried again.
constexpr auto kStorageRetry = std::chrono::seconds(1);

// Milliseconds from now until t (negative once t is past); used as max(0, ...) where it counts.
std::int64_t ms_until(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count();
}

constexpr const char* kMessageTypes =
    "hello, watch, unwatch, join, move, resign, offer_draw, accept_draw, decline_draw, "
    "offer_resign, accept_resign, decline_resign, rematch, ping";

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", std::gmtime(&t));
  return buf;
}

const char* result_tag(std::optional<Player> winner) {
  if (!winner) return "1/2-1/2";
  return *winner == Player::South ? "1-0" : "0-1";
}

std::optional<Player> player_from(const json& v) {
  if (v.is_string() && v == "south") return Player::South;
  if (v.is_string() && v == "north") return Player::North;
  return std::nullopt;
}

json public_seat(const json& seat) {
  json s = seat;
  s.erase("player");
  return s;
}

// A simultaneous ply (Congklak's start): both players choose, the server plays "south+north".
bool in_joint_phase(const AnyState& state) {
  return !state.is_over() && state.joint_pending();
}

// The sowing of ply `ply` for the view: its laps without what the board already says
// elsewhere. A sowing too long to watch (over 200 laps) is not sent.
json path_view(json laps, std::size_t ply) {
  if (laps.empty() || laps.size() > 200) return nullptr;
  for (auto& lap : laps) {
    lap["board"].erase("position");
    lap["board"].erase("to_move");
  }
  return {{"ply", ply}, {"laps", std::move(laps)}};
}

}  // namespace

std::string token_hash(const std::string& token) {
  boost::uuids::detail::sha1 sha;
  sha.process_bytes(token.data(), token.size());
  unsigned int digest[5];
  sha.get_digest(digest);
  char hex[41];
  for (int i = 0; i < 5; ++i) std::snprintf(hex + 8 * i, 9, "%08x", digest[i]);
  return std::string(hex, 40);
}

Hub::Hub(asio::io_context& io, Store& store, int engine_threads)
    : io_(io),
      store_(store),
      engines_(static_cast<std::size_t>(std::max(1, engine_threads))),
      rng_(static_cast<std::uint64_t>(Clock::now().time_since_epoch().count()) ^
           reinterpret_cast<std::uintptr_t>(this)) {}

Hub::~Hub() {
  shutdown();
}

void Hub::shutdown() {
  if (stopping_) return;
  stopping_ = true;
  for (auto& [id, g] : games_)
    if (g->timer) g->timer->cancel();
  engines_.join();
}

std::string Hub::fresh_id() {
  static constexpr char kAlphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
  while (true) {
    std::string id;
    for (int i = 0; i < 10; ++i) id += kAlphabet[rng_.below(sizeof kAlphabet - 1)];
    if (!games_.count(id) && !store_.game(id)) return id;
  }
}

// ---------------------------------------------------------------- loading

Hub::Live& Hub::open_game(const GameRow& row, const std::vector<MoveRow>& moves) {
  auto g = std::make_unique<Live>();
  g->row = row;
  g->game = make_game(row.variant);
  g->rules = play::match_rules(g->game->info());
  // The usual start needs no parsing; other starts round-trip through the position text.
  auto fresh = g->game->new_game();
  g->state = fresh->position() == row.start_position ? std::move(fresh)
                                                     : g->game->from_position(row.start_position);
  for (const auto& m : moves) apply_ply(*g->state, m);
  g->plies = moves;
  g->simultaneous = in_joint_phase(*g->state);
  g->timer = std::make_unique<asio::steady_timer>(io_);
  g->dice.reseed(rng_.next());
  if (row.match_id) g->match = store_.match(*row.match_id);
  for (Player p : {Player::South, Player::North}) {
    const json& seat = row.seats[index(p)];
    if (seat.value("kind", "") == "computer" && row.status != "over")
      g->engines[index(p)] =
          engine::make_engine(*g->game, "level:" + std::to_string(seat.value("level", 5)));
  }
  Live& ref = *g;
  games_[row.id] = std::move(g);
  return ref;
}

void Hub::load_unfinished() {
  for (const auto& id : store_.unfinished_games()) {
    try {
      auto row = store_.game(id);
      Live& g = open_game(*row, store_.moves(id));
      // The clock restarts where the last committed move left it: the downtime is nobody's.
      g.turn_started = Clock::now();
      after_change(g);
    } catch (const std::exception& e) {
      std::cerr << "naqala serve: cannot reload game " << id << ": " << e.what() << "\n";
    }
  }
}

Hub::Live& Hub::live(const std::string& id) {
  if (auto it = games_.find(id); it != games_.end()) return *it->second;
  auto row = store_.game(id);
  if (!row) throw ApiError(404, "no game '" + id + "'");
  return open_game(*row, store_.moves(id));
}

// ---------------------------------------------------------------- players

std::optional<PlayerRow> Hub::player_of(const std::string& token) {
  if (token.empty() || token.size() > 128) return std::nullopt;
  return store_.player_by_token_hash(token_hash(token));
}

PlayerRow Hub::require_player(const json& body) {
  auto p = player_of(text_field(body, "token"));
  if (!p)
    throw ApiError(401,
                   "unknown token; create a player first with POST /api/players {\"name\": ...}");
  return *p;
}

void Hub::signed_out(const std::vector<std::string>& token_hashes) {
  signed_out_.insert(token_hashes.begin(), token_hashes.end());
}

json Hub::create_player(const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object {\"name\": \"...\"}");
  const std::string name = display_name_field(body);
  const std::string token = fresh_token();
  const PlayerRow p = store_.add_player(name, token_hash(token));
  return {{"id", p.id}, {"name", p.name}, {"token", token}};
}

// ---------------------------------------------------------------- variants

namespace {

// The computer levels' measured ratings (data/level-ratings.json, docs/tournaments.md), read
// once: an object keyed by variant, empty when the file is missing or unreadable.
const json& level_ratings() {
  static const json ratings = [] {
    try {
      return play::read_level_ratings(play::shipped_level_ratings_path());
    } catch (const Error& e) {
      std::fprintf(stderr, "naqala serve: the levels are shown without ratings: %s\n", e.what());
      return json::object();
    }
  }();
  return ratings;
}

}  // namespace

json Hub::variants() {
  json out = json::array();
  for (const auto& v : list_variants()) {
    // Whether a computer opponent exists: make_engine finds the engines registered for the family,
    // so the family's first variant answers for all of it (asked once per build).
    auto known = computer_plays_.find(v.family);
    if (known == computer_plays_.end()) {
      bool plays = false;
      try {
        plays = engine::make_engine(*make_game(v.name), "level:1") != nullptr;
      } catch (const Error&) {
      }
      known = computer_plays_.emplace(v.family, plays).first;
    }
    json entry = naqala::to_json(v);
    entry["computer"] = known->second;
    entry["tournament"] = play::to_json(play::match_rules(v));
    out.push_back(std::move(entry));
    // The levels' ratings where they were measured (the lobby shows them beside the levels).
    if (const auto m = level_ratings().find(v.name);
        m != level_ratings().end() && m->is_object() && m->contains("levels"))
      out.back()["levels"] = (*m)["levels"];
  }
  return out;
}

json Hub::rules(const std::string& spec) const {
  const auto game = preset_game(spec);
  return {{"spec", game->spec()}, {"title", game->info().title}, {"rules", game->rules_text()}};
}

// ---------------------------------------------------------------- games

json Hub::create_game(const json& body) {
  if (!body.is_object()) throw ApiError(400, "the body must be a JSON object");
  const PlayerRow me = require_player(body);
  const std::unique_ptr<AnyGame> game = preset_game(text_field(body, "variant"));

  const std::string opponent_kind =
      body.contains("opponent") ? text_field(body, "opponent") : "computer";
  json other;
  if (opponent_kind == "computer") {
    const int level = static_cast<int>(number_field(body, "level", 5, 1, 10));
    if (body.contains("level") && body["level"].get<double>() != level)
      throw ApiError(400, "field \"level\" must be a whole number from 1 to 10");
    other = {{"kind", "computer"},
             {"level", level},
             {"name", "Computer (level " + std::to_string(level) + ")"}};
    // Fail now, not at the computer's first move, when no engine plays this game.
    try {
      engine::make_engine(*game, "level:" + std::to_string(level));
    } catch (const Error& e) {
      throw ApiError(400, std::string("no computer opponent for this game: ") + e.what());
    }
  } else if (opponent_kind == "human") {
    other = {{"kind", "open"}, {"name", "(open seat)"}};
  } else {
    throw ApiError(400, "field \"opponent\" must be \"computer\" or \"human\"");
  }

  // Rated games count for both players' ratings (docs/server.md, "Ratings"); casual by default.
  const bool rated = bool_field(body, "rated", false);
  if (rated && opponent_kind != "human")
    throw ApiError(400, "games against the computer are unrated: rated games are between people");
  const std::string side = body.contains("side") ? text_field(body, "side") : "south";
  Player mine;
  if (side == "south") {
    mine = Player::South;
  } else if (side == "north") {
    mine = Player::North;
  } else if (side == "random") {
    mine = rng_.below(2) ? Player::North : Player::South;
  } else {
    throw ApiError(400, "field \"side\" must be \"south\", \"north\" or \"random\"");
  }
  json seats = json::array({json(), json()});
  seats[index(mine)] = {{"kind", "human"}, {"player", me.id}, {"name", me.name}};
  seats[index(opponent(mine))] = other;

  // Clocks (docs/server.md): presets or minutes + increment.
  const json clock = clock_field(body);

  const int best_of = static_cast<int>(number_field(body, "best_of", 1, 1, 9));
  if (!play::valid_best_of(best_of) ||
      (body.contains("best_of") && body["best_of"].get<double>() != best_of))
    throw ApiError(400, "field \"best_of\" must be 1, 3, 5, 7 or 9");
  std::optional<std::int64_t> match_id;
  if (best_of > 1) {
    MatchRow m;
    m.best_of = best_of;
    m.draw_rule = play::to_string(play::match_rules(game->info()).match_draw);
    m.players = json::array({seats[index(mine)], other});
    match_id = store_.add_match(m);
  }

  GameRow row;
  row.id = fresh_id();
  row.variant = game->spec();
  row.start_position = game->new_game()->position();
  row.seats = seats;
  row.status = other["kind"] == "open" ? "waiting" : "playing";
  row.outcome = nullptr;
  row.clock = clock;
  row.south_ms = row.north_ms = clock.is_null() ? 0 : clock["initial_ms"].get<std::int64_t>();
  row.match_id = match_id;
  row.match_game = match_id ? 1 : 0;
  row.extra = {{"draw_offers", {0, 0}},
               {"used_ms", 0},
               {"a_side", std::string(name(mine))},
               {"rated", rated}};
  store_.add_game(row);
  Live& g = open_game(row, {});
  {
    std::vector<MoveRow> plies;
    roll_dice(g, plies);
    if (!plies.empty()) store_.commit_plies(g.row, plies);
  }
  after_change(g);
  json v = view(g);
  v["you"] = name(mine);
  return v;
}

std::string Hub::new_game_from(const Live& g, json seats, std::optional<std::int64_t> match_id,
                               int match_game) {
  const std::string a_side = g.row.extra.value("a_side", "south") == "south" ? "north" : "south";
  GameRow row;
  row.id = fresh_id();
  row.match_id = match_id;
  row.match_game = match_game;
  start_seated(row, g.row.variant, std::move(seats), g.row.clock,
               {{"a_side", a_side}, {"rated", g.row.extra.value("rated", false)}});
  return row.id;
}

void Hub::start_seated_game(const std::string& id, const std::string& variant, json seats,
                            json clock, json extra) {
  GameRow row;
  row.id = id;
  start_seated(row, variant, std::move(seats), std::move(clock), std::move(extra));
}

void Hub::start_seated(GameRow& row, const std::string& variant, json seats, json clock,
                       json extra) {
  row.variant = variant;
  row.start_position = make_game(variant)->new_game()->position();
  row.seats = std::move(seats);
  row.status = "playing";
  row.outcome = nullptr;
  row.south_ms = row.north_ms = clock.is_null() ? 0 : clock["initial_ms"].get<std::int64_t>();
  row.clock = std::move(clock);
  row.extra = std::move(extra);
  row.extra["draw_offers"] = {0, 0};
  row.extra["used_ms"] = 0;
  store_.add_game(row);
  Live& next = open_game(row, {});
  std::vector<MoveRow> plies;
  roll_dice(next, plies);
  if (!plies.empty()) store_.commit_plies(next.row, plies);
  after_change(next);
}

json Hub::list_games() {
  json open = json::array(), live = json::array();
  for (const auto& [id, gp] : games_) {
    const Live& g = *gp;
    if (g.row.status == "over") continue;
    json item = {{"id", id},
                 {"variant", g.row.variant},
                 {"title", g.game->info().title},
                 {"family", g.game->info().family},
                 {"south", g.row.seats[0].value("name", "")},
                 {"north", g.row.seats[1].value("name", "")},
                 {"plies", g.plies.size()},
                 {"clock", g.row.clock},
                 {"best_of", g.match ? g.match->best_of : 1},
                 {"created", g.row.created}};
    (g.row.status == "waiting" ? open : live).push_back(item);
  }
  return {{"open", open}, {"live", live}};
}

json Hub::game(const std::string& id, const std::string& token) {
  Live& g = live(id);
  json v = view(g);
  v["you"] = nullptr;
  if (auto p = player_of(token))
    for (Player side : {Player::South, Player::North})
      if (g.row.seats[index(side)].value("player", std::int64_t{-1}) == p->id)
        v["you"] = name(side);
  release_if_idle(id);
  return v;
}

std::string Hub::record(const std::string& id) {
  Live& g = live(id);
  std::vector<GameRecord::Ply> plies;
  for (const auto& m : g.plies) plies.push_back({m.side, m.text});
  std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", "naqala serve"},
      {"Date", today()},
      {"South", g.row.seats[0].value("name", "")},
      {"North", g.row.seats[1].value("name", "")},
      {"Game", g.row.id}};
  GameRecord rec = make_record(*g.game, g.row.start_position, plies, *g.state, tags);
  if (!g.row.outcome.is_null() && !g.state->is_over()) {
    // Ended off the board (resignation, flag fall, agreement, time cap).
    rec.result = g.row.outcome["result"].get<std::string>();
    rec.set_tag("Result", rec.result);
    rec.set_tag("Termination", g.row.outcome["reason"].get<std::string>());
  }
  release_if_idle(id);
  return format_record(rec);
}

json Hub::review(const std::string& id) {
  Live& g = live(id);
  auto state = g.game->new_game();
  if (state->position() != g.row.start_position)
    state = g.game->from_position(g.row.start_position);
  json boards = json::array({state->board_json()});
  json plies = json::array();
  for (const auto& m : g.plies) {
    apply_ply(*state, m);
    boards.push_back(state->board_json());
    plies.push_back({{"side", std::string(1, m.side)}, {"text", m.text}});
  }
  release_if_idle(id);
  return {{"id", id}, {"plies", plies}, {"boards", boards}};
}

json Hub::decisions_review(const std::string& id) {
  Live& g = live(id);
  if (g.game->info().family != "backgammon") {
    release_if_idle(id);
    throw ApiError(400,
                   "a review of every decision is backgammon's; for this game ask "
                   "/api/games/" +
                       id + "/analysis?ply=K");
  }
  std::vector<std::pair<char, std::string>> plies;
  for (const auto& m : g.plies) plies.emplace_back(m.side, m.text);
  auto start = g.game->from_position(g.row.start_position);
  release_if_idle(id);
  json out = engine::backgammon_game_review(*start, plies);
  out["id"] = id;
  return out;
}

void Hub::add_endgame_db(const std::string& path) {
  endgame_dbs_.push_back(std::make_shared<const solve::SowingDb>(solve::SowingDb::load(path)));
}

json Hub::analysis(const std::string& id, int ply) {
  Live& g = live(id);
  if (ply < 0 || ply > static_cast<int>(g.plies.size()))
    throw ApiError(400, "ply " + std::to_string(ply) + " is not in this game (0 to " +
                            std::to_string(g.plies.size()) + ")");
  auto state = g.game->from_position(g.row.start_position);
  for (int k = 0; k < ply; ++k) apply_ply(*state, g.plies[static_cast<std::size_t>(k)]);
  release_if_idle(id);
  json out = perfect_play(*state, endgame_dbs_);
  out["id"] = id;
  out["ply"] = ply;
  return out;
}

// ---------------------------------------------------------------- views

bool Hub::clock_runs(const Live& g, Player side) const {
  if (g.row.status != "playing" || g.row.clock.is_null() || g.state->is_chance_node()) return false;
  // A simultaneous start: each clock runs until its player has chosen.
  if (g.simultaneous) return !g.joint[index(side)];
  return g.state->to_move() == side;
}

std::int64_t Hub::remaining_ms(const Live& g, Player side) const {
  std::int64_t ms = side == Player::South ? g.row.south_ms : g.row.north_ms;
  if (clock_runs(g, side)) ms -= turn_elapsed_ms(g);
  return ms;
}

// Time on the running clock since the turn began; 0 during the animation allowance.
std::int64_t Hub::turn_elapsed_ms(const Live& g) const {
  return std::max<std::int64_t>(0, -ms_until(g.turn_started));
}

json Hub::view(const Live& g) const {
  json plies = json::array();
  for (const auto& m : g.plies)
    plies.push_back({{"side", std::string(1, m.side)}, {"text", m.text}});
  json v = {{"type", "game"},
            {"id", g.row.id},
            {"variant", g.row.variant},
            {"title", g.game->info().title},
            {"family", g.game->info().family},
            {"status", g.row.status},
            {"seats", {public_seat(g.row.seats[0]), public_seat(g.row.seats[1])}},
            {"board", g.state->board_json()},
            {"to_move", g.row.status == "over" ? json(nullptr) : json(name(g.state->to_move()))},
            {"legal", g.row.status == "playing" ? json(g.state->legal_moves()) : json::array()},
            {"plies", plies},
            {"outcome", g.row.outcome},
            {"thinking", g.thinking},
            {"draw_offer", g.row.extra.value("draw_offer", json(nullptr))},
            {"next_game", g.row.extra.value("next_game", json(nullptr))},
            {"rematch", g.row.extra.value("rematch", json::array())},
            {"path", g.path},
            {"tournament", g.row.extra.value("tournament", json(nullptr))},
            {"rated", g.row.extra.value("rated", false)}};
  if (g.row.status == "playing" && in_joint_phase(*g.state)) {
    json joint = json::object();
    for (Player p : {Player::South, Player::North})
      joint[std::string(name(p))] = {{"chosen", g.joint[index(p)].has_value()},
                                     {"options", g.state->joint_halves(p)}};
    v["joint"] = joint;
  } else {
    v["joint"] = nullptr;
  }
  if (const int limit = g.rules.draw_offers) {
    const auto& used = g.row.extra["draw_offers"];
    v["draw_offers_left"] = {limit - used[0].get<int>(), limit - used[1].get<int>()};
  } else {
    v["draw_offers_left"] = nullptr;
  }
  if (g.row.clock.is_null()) {
    v["clock"] = nullptr;
  } else {
    json running = json::array();
    for (Player p : {Player::South, Player::North})
      if (clock_runs(g, p)) running.push_back(name(p));
    v["clock"] = {{"south_ms", remaining_ms(g, Player::South)},
                  {"north_ms", remaining_ms(g, Player::North)},
                  {"running", running.size() == 1 ? running[0] : json(nullptr)},
                  {"running_sides", running},
                  {"initial_ms", g.row.clock["initial_ms"]},
                  {"increment_ms", g.row.clock["increment_ms"]},
                  {"cap_ms", g.row.clock["cap_ms"]},
                  {"used_ms", g.row.extra.value("used_ms", 0)},
                  {"starts_in_ms", std::max<std::int64_t>(0, ms_until(g.turn_started))}};
  }
  if (g.match) {
    const bool a_south = g.row.extra.value("a_side", "south") == "south";
    const double south = a_south ? g.match->points_a : g.match->points_b;
    const double north = a_south ? g.match->points_b : g.match->points_a;
    v["match"] = {{"id", g.match->id},
                  {"best_of", g.match->best_of},
                  {"game", g.row.match_game},
                  {"draw_rule", g.match->draw_rule},
                  {"points", {{"south", south}, {"north", north}}},
                  {"over", g.match->over}};
  } else {
    v["match"] = nullptr;
  }
  return v;
}

void Hub::send_view(Client& c, Live& g) {
  json v = view(g);
  v["you"] = nullptr;
  if (auto side = seat_of(g, c)) v["you"] = name(*side);
  c.send(std::make_shared<const std::string>(json_text(v)));
}

void Hub::broadcast(Live& g) {
  if (g.watchers.empty()) return;
  json v = view(g);
  v["you"] = nullptr;
  const auto anonymous = std::make_shared<const std::string>(json_text(v));
  std::array<std::shared_ptr<const std::string>, 2> seated;
  for (Player p : {Player::South, Player::North}) {
    v["you"] = name(p);
    seated[index(p)] = std::make_shared<const std::string>(json_text(v));
  }
  for (Client* c : g.watchers) {
    auto side = seat_of(g, *c);
    c->send(side ? seated[index(*side)] : anonymous);
  }
}

std::optional<Player> Hub::seat_of(const Live& g, const Client& c) const {
  if (!c.player) return std::nullopt;
  for (Player p : {Player::South, Player::North}) {
    const json& seat = g.row.seats[index(p)];
    if (seat.value("kind", "") == "human" && seat.value("player", std::int64_t{-1}) == *c.player)
      return p;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- playing

void Hub::roll_dice(Live& g, std::vector<MoveRow>& plies) {
  while (!g.state->is_over() && g.state->is_chance_node()) {
    const std::string roll = g.state->sample_chance(g.dice);
    g.state->apply_chance(roll);
    plies.push_back(
        {static_cast<int>(g.plies.size()) + 1, '*', roll, g.row.south_ms, g.row.north_ms});
    g.plies.push_back(plies.back());
  }
}

void Hub::play_move(Live& g, Player side, const std::string& move, bool charge_clock) {
  if (g.row.status == "waiting")
    throw ApiError(409, "the game has not started: a seat is still open");
  if (g.row.status == "over") throw ApiError(409, "the game is over");
  if (g.state->to_move() != side)
    throw ApiError(409, "it is " + std::string(name(g.state->to_move())) + "'s turn, not yours");
  const auto now = Clock::now();
  const auto elapsed = turn_elapsed_ms(g);
  // A simultaneous ply is nobody's time: both players thought at once.
  const bool clocked = !g.row.clock.is_null() && charge_clock;  // a joint ply was charged by halves
  if (clocked && remaining_ms(g, side) <= 0) {
    finish(g, opponent(side), "timeout");
    after_change(g);
    throw ApiError(409, "your flag fell before the move arrived: the game is lost on time");
  }
  auto next = g.state->clone();
  SowTrace trace;
  try {
    SowTraceScope tracing(&trace);
    next->play(move);
  } catch (const Error& e) {
    throw ApiError(400, e.what());
  }
  // Kept to take the ply back if the database refuses it: the game stays as stored.
  std::unique_ptr<AnyState> before = std::exchange(g.state, std::move(next));
  const GameRow row_before = g.row;
  const std::size_t plies_before = g.plies.size();
  const Rng dice_before = g.dice;
  const bool simultaneous_before = g.simultaneous;
  if (clocked) {
    std::int64_t& mine = side == Player::South ? g.row.south_ms : g.row.north_ms;
    mine = mine - elapsed + g.row.clock["increment_ms"].get<std::int64_t>();
  }
  if (!g.row.clock.is_null())
    g.row.extra["used_ms"] = g.row.extra.value("used_ms", std::int64_t{0}) + elapsed;
  g.plies.push_back(
      {static_cast<int>(g.plies.size()) + 1, letter(side), move, g.row.south_ms, g.row.north_ms});
  std::vector<MoveRow> fresh{g.plies.back()};
  roll_dice(g, fresh);
  g.simultaneous = in_joint_phase(*g.state);
  // A pending offer by the opponent is declined by playing on.
  if (player_from(g.row.extra.value("draw_offer", json(nullptr))) == opponent(side))
    g.row.extra.erase("draw_offer");
  if (g.state->is_over()) {
    const Outcome o = g.state->outcome();
    g.row.status = "over";
    g.row.outcome = {{"winner", o.winner ? json(name(*o.winner)) : json(nullptr)},
                     {"reason", std::string(to_string(o.reason))},
                     {"scores", o.scores},
                     {"result", o.result_tag()}};
  }
  // Committed before anyone hears of it: a crash after this line loses nothing.
  try {
    store_.commit_plies(g.row, fresh);
  } catch (const SQLite::Exception& e) {
    g.state = std::move(before);
    g.row = row_before;
    g.plies.resize(plies_before);
    g.dice = dice_before;
    g.simultaneous = simultaneous_before;
    throw storage_refused(e);
  }
  g.path = path_view(std::move(trace.laps()), plies_before + 1);
  ++g.generation;
  // The browser shows a sowing seed by seed, a backgammon move checker by checker: the next
  // player's clock starts after it, so the animation is nobody's time (docs/server.md).
  g.turn_started = now + (g.game->info().family == "backgammon" ? kCheckerAnimationAllowance
                                                                : kAnimationAllowance);
  after_change(g);
}

void Hub::finish(Live& g, std::optional<Player> winner, const std::string& reason) {
  const GameRow row_before = g.row;
  const Outcome o = g.state->outcome();
  if (reason == "time_cap" && !winner && o.scores[0] != o.scores[1])
    winner = o.scores[0] > o.scores[1] ? Player::South : Player::North;
  // Freeze the running clocks where they stand.
  for (Player p : {Player::South, Player::North})
    if (clock_runs(g, p))
      (p == Player::South ? g.row.south_ms : g.row.north_ms) =
          std::max<std::int64_t>(0, remaining_ms(g, p));
  g.row.status = "over";
  g.row.outcome = {{"winner", winner ? json(name(*winner)) : json(nullptr)},
                   {"reason", reason},
                   {"scores", o.scores},
                   {"result", result_tag(winner)}};
  g.row.extra.erase("draw_offer");
  try {
    store_.update_game(g.row);
  } catch (const SQLite::Exception& e) {
    g.row = row_before;
    throw storage_refused(e);
  }
  ++g.generation;
}

void Hub::after_change(Live& g) {
  if (g.row.status == "over") {
    g.timer->cancel();
    g.engines = {};
    g.thinking = false;
    rate_game(store_, g.row);  // once: the store refuses to rate a game twice
    if (extension_ && !g.reported) {
      // Posted: the extension may start games, which must not happen inside this change.
      g.reported = true;
      asio::post(io_, [this, row = g.row] {
        if (stopping_) return;
        extension_->game_over(row);
        release_if_idle(row.id);
      });
    }
    if (g.match && !g.row.extra.value("counted", false)) {
      g.row.extra["counted"] = true;
      const auto winner = player_from(g.row.outcome["winner"]);
      const bool a_south = g.row.extra.value("a_side", "south") == "south";
      MatchRow& m = *g.match;
      play::MatchScore score{
          m.best_of, m.draw_rule == "both_win" ? play::MatchDraw::BothWin : play::MatchDraw::Half,
          m.points_a, m.points_b, g.row.match_game - 1};
      play::score_game(
          score, winner ? std::optional<int>((*winner == Player::South) != a_south) : std::nullopt);
      m.points_a = score.points_a;
      m.points_b = score.points_b;
      m.over = score.over;
      store_.update_match(m);
      if (!m.over) start_next_game(g);
      store_.update_game(g.row);
    }
    broadcast(g);
    return;
  }
  if (g.row.status == "playing") {
    arm_timer(g);
    if (in_joint_phase(*g.state)) {
      for (Player p : {Player::South, Player::North})
        if (g.engines[index(p)] && !g.joint[index(p)] && !g.thinking) think(g, p);
    } else if (const Player mover = g.state->to_move(); g.engines[index(mover)] && !g.thinking) {
      think(g, mover);
    }
  }
  broadcast(g);
}

void Hub::start_next_game(Live& g) {
  json seats = json::array({g.row.seats[1], g.row.seats[0]});  // colours alternate
  const std::string id = new_game_from(g, seats, g.row.match_id, g.row.match_game + 1);
  g.row.extra["next_game"] = id;
  // The new game shares the match's score.
  games_[id]->match = g.match;
}

void Hub::arm_timer(Live& g) {
  if (g.row.clock.is_null() || g.row.status != "playing") {
    g.timer->cancel();
    return;
  }
  std::int64_t wait = std::numeric_limits<std::int64_t>::max();
  for (Player p : {Player::South, Player::North})
    if (clock_runs(g, p)) wait = std::min(wait, remaining_ms(g, p));
  // A clock waiting out the animation allowance starts later.
  if (wait != std::numeric_limits<std::int64_t>::max())
    wait += std::max<std::int64_t>(0, ms_until(g.turn_started));
  if (const auto cap = g.row.clock.value("cap_ms", std::int64_t{0}); cap > 0) {
    wait = std::min(wait, cap - g.row.extra.value("used_ms", std::int64_t{0}) - turn_elapsed_ms(g));
  }
  g.timer->expires_after(std::chrono::milliseconds(std::max<std::int64_t>(0, wait) + 2));
  g.timer->async_wait([this, id = g.row.id](const boost::system::error_code& ec) {
    if (!ec && !stopping_) on_timer(id);
  });
}

void Hub::on_timer(const std::string& id) {
  auto it = games_.find(id);
  if (it == games_.end()) return;
  Live& g = *it->second;
  if (g.row.status != "playing") return;
  if (!g.row.clock.is_null()) {
    const auto elapsed = turn_elapsed_ms(g);
    const auto cap = g.row.clock.value("cap_ms", std::int64_t{0});
    std::optional<Player> fallen;
    for (Player p : {Player::South, Player::North})
      if (clock_runs(g, p) && remaining_ms(g, p) <= 0 &&
          (!fallen || remaining_ms(g, p) < remaining_ms(g, *fallen)))
        fallen = p;
    try {
      if (fallen) {
        finish(g, opponent(*fallen), "timeout");  // docs/server.md: flag = loss
      } else if (cap > 0 && g.row.extra.value("used_ms", std::int64_t{0}) + elapsed >= cap) {
        // Toguz: after two hours the game stops and the current result is final.
        const json extra_before = g.row.extra;
        g.row.extra["used_ms"] = cap;
        try {
          finish(g, std::nullopt, "time_cap");
        } catch (const ApiError&) {
          g.row.extra = extra_before;
          throw;
        }
      }
    } catch (const ApiError& e) {
      std::cerr << "naqala serve: game " << id << ": " << e.what() << "\n";
      retry_soon(g);
      return;
    }
  }
  // Also the retry of a computer move the database refused: after_change asks it again.
  after_change(g);
}

void Hub::retry_soon(Live& g) {
  g.timer->expires_after(kStorageRetry);
  g.timer->async_wait([this, id = g.row.id](const boost::system::error_code& ec) {
    if (!ec && !stopping_) on_timer(id);
  });
}

void Hub::think(Live& g, Player mover) {
  g.thinking = true;
  auto engine = g.engines[index(mover)];
  std::shared_ptr<AnyState> state = g.state->clone();
  const bool clocked = !g.row.clock.is_null();
  engine::Clock clock{static_cast<double>(remaining_ms(g, mover)) / 1000.0,
                      clocked ? g.row.clock["increment_ms"].get<double>() / 1000.0 : 0.0};
  asio::post(engines_, [this, engine, state, clocked, clock, id = g.row.id, gen = g.generation,
                        mover] {
    std::string move, error;
    try {
      // A hopeless backgammon position: the computer offers to resign before it plays on.
      if (auto offer = engine::resignation_offer(*state))
        move = *offer;
      else
        move = clocked ? engine->choose_move_on_clock(*state, clock) : engine->choose_move(*state);
    } catch (const std::exception& e) {
      error = e.what();
    }
    asio::post(io_, [this, id, gen, mover, move, error] {
      auto it = games_.find(id);
      if (it == games_.end() || stopping_) return;
      Live& g = *it->second;
      if (g.generation != gen || g.row.status != "playing") return;
      g.thinking = false;
      try {
        if (!error.empty()) {
          std::cerr << "naqala serve: the computer failed in game " << id << ": " << error << "\n";
          finish(g, opponent(mover), "other");
          after_change(g);
          return;
        }
        if (in_joint_phase(*g.state)) {
          // The engine chose both halves; only its own counts.
          const auto plus = move.find('+');
          choose_joint(g, mover,
                       mover == Player::South ? move.substr(0, plus) : move.substr(plus + 1));
        } else {
          play_move(g, mover, move);
        }
      } catch (const ApiError& e) {
        std::cerr << "naqala serve: computer move '" << move << "' refused in game " << id << ": "
                  << e.what() << "\n";
        if (e.status == kStorageRefused) retry_soon(g);  // the computer thinks again then
      }
    });
  });
}

// ---------------------------------------------------------------- WebSocket messages

void Hub::send_error(Client& c, const ApiError& e, const std::string& request) {
  json err = {{"type", "error"}, {"status", e.status}, {"message", e.what()}};
  if (!request.empty()) err["request"] = request;
  c.send(std::make_shared<const std::string>(json_text(err)));
}

void Hub::handle(Client& c, std::string_view message) {
  std::string type;
  try {
    json m;
    try {
      m = json::parse(message);
    } catch (const json::exception&) {
      throw ApiError(400, "malformed message: not JSON");
    }
    if (!m.is_object() || !m.contains("type") || !m["type"].is_string())
      throw ApiError(400,
                     std::string("a message is a JSON object with a string \"type\"; types: ") +
                         kMessageTypes);
    type = m["type"].get<std::string>();
    if (type == "ping") {
      c.send(std::make_shared<const std::string>(R"({"type":"pong"})"));
      return;
    }
    if (type == "hello") {
      auto p = player_of(text_field(m, "token"));
      if (!p) throw ApiError(401, "unknown token; create a player with POST /api/players");
      c.player = p->id;
      c.player_name = p->name;
      c.token_hash = token_hash(text_field(m, "token"));
      c.send(std::make_shared<const std::string>(
          json_text(json{{"type", "hello"}, {"player", {{"id", p->id}, {"name", p->name}}}})));
      // Seats may have changed meaning for games already watched.
      for (const auto& id : c.watching)
        if (auto it = games_.find(id); it != games_.end()) send_view(c, *it->second);
      return;
    }
    if (c.player && signed_out_.count(c.token_hash)) {
      c.player.reset();
      c.player_name.clear();
      throw ApiError(401, "this browser was signed out of its player; sign in again");
    }
    if (type != "watch" && type != "unwatch" && type != "join" && type != "move" &&
        type != "resign" && type != "offer_draw" && type != "accept_draw" &&
        type != "decline_draw" && type != "offer_resign" && type != "accept_resign" &&
        type != "decline_resign" && type != "rematch") {
      if (extension_ && extension_->handle(c, type, m)) return;
      throw ApiError(400, "unknown message type '" + type + "'; types: " + kMessageTypes +
                              (extension_ ? extension_->message_types() : ""));
    }
    const std::string id = text_field(m, "game");
    if (id.size() > 32) throw ApiError(400, "field \"game\" is not a game id");
    if (type == "watch") {
      Live& g = live(id);
      if (c.watching.size() >= 64 && !c.watching.count(id))
        throw ApiError(429, "a connection may watch at most 64 games");
      g.watchers.insert(&c);
      c.watching.insert(id);
      send_view(c, g);
      return;
    }
    if (type == "unwatch") {
      forget(id, c);
      c.watching.erase(id);
      return;
    }
    if (!c.player) throw ApiError(401, "say hello with your token first");
    Live& g = live(id);
    if (!g.watchers.count(&c)) {
      g.watchers.insert(&c);
      c.watching.insert(id);
    }
    if (type == "join") return on_join(c, g);
    const auto side = seat_of(g, c);
    if (!side) throw ApiError(403, "you are watching this game, not playing in it");
    if (type == "move") {
      const std::string move = text_field(m, "move");
      if (move.size() > 64) throw ApiError(400, "a move has at most 64 characters");
      if (g.row.status == "playing" && in_joint_phase(*g.state))
        return choose_joint(g, *side, move);
      if (auto it = m.find("ply");
          it != m.end() && it->is_number_integer() &&
          it->get<std::int64_t>() != static_cast<std::int64_t>(g.plies.size()))
        throw ApiError(409, "the position changed before your move arrived (ply " +
                                std::to_string(g.plies.size()) + " now); look again");
      play_move(g, *side, move);
      return;
    }
    if (type == "resign") {
      if (g.row.status == "over") throw ApiError(409, "the game is over");
      finish(g, opponent(*side), "resignation");
      after_change(g);
      return;
    }
    if (type == "rematch") return on_rematch(c, g);
    if (type.ends_with("_resign")) return on_resignation_offer(g, *side, type, m);
    on_draw(c, g, type);
  } catch (const SQLite::Exception& e) {
    send_error(c, storage_refused(e), type);
  } catch (const ApiError& e) {
    send_error(c, e, type);
  } catch (const std::exception& e) {
    // Anything else is the server's fault: say so, keep serving.
    std::cerr << "naqala serve: internal error on '" << type << "': " << e.what() << "\n";
    c.send(std::make_shared<const std::string>(
        json_text(json{{"type", "error"},
                       {"status", 500},
                       {"message", std::string("internal error: ") + e.what()}})));
  }
}

void Hub::choose_joint(Live& g, Player side, const std::string& half) {
  const GameRow row_before = g.row;
  const auto joint_before = g.joint;
  const auto options = g.state->joint_halves(side);
  if (std::find(options.begin(), options.end(), half) == options.end())
    throw ApiError(400, "both players choose their first pit at the same time; yours is one of: " +
                            join_moves(options));
  if (g.joint[index(side)])
    throw ApiError(409, "you have chosen already; waiting for your opponent");
  if (!g.row.clock.is_null()) {
    // Both clocks ran since the start; this one stops now.
    const std::int64_t left = remaining_ms(g, side);
    if (left <= 0) {
      finish(g, opponent(side), "timeout");
      after_change(g);
      throw ApiError(409, "your flag fell before your choice arrived: the game is lost on time");
    }
    (side == Player::South ? g.row.south_ms : g.row.north_ms) =
        left + g.row.clock["increment_ms"].get<std::int64_t>();
  }
  g.joint[index(side)] = half;
  if (!g.joint[0] || !g.joint[1]) {
    arm_timer(g);
    broadcast(g);
    return;
  }
  const std::string move = *g.joint[0] + "+" + *g.joint[1];
  g.joint = {};
  try {
    play_move(g, g.state->to_move(), move, /*charge_clock=*/false);
  } catch (const ApiError& e) {
    if (e.status == kStorageRefused) {  // this choice is taken back with the ply
      g.row = row_before;
      g.joint = joint_before;
    }
    throw;
  }
}

void Hub::on_join(Client& c, Live& g) {
  if (seat_of(g, c)) {
    send_view(c, g);
    return;
  }
  if (g.row.status != "waiting") throw ApiError(409, "both seats are taken; you can watch");
  for (Player p : {Player::South, Player::North}) {
    if (g.row.seats[index(p)].value("kind", "") != "open") continue;
    g.row.seats[index(p)] = {{"kind", "human"}, {"player", *c.player}, {"name", c.player_name}};
    if (g.match) {
      g.match->players[1] = g.row.seats[index(p)];
      store_.update_match(*g.match);
    }
    g.row.status = "playing";
    g.turn_started = Clock::now();
    store_.update_game(g.row);
    after_change(g);
    return;
  }
}

void Hub::on_resignation_offer(Live& g, Player me, const std::string& what, const json& m) {
  if (g.game->info().family != "backgammon")
    throw ApiError(400,
                   "resignation offers of a single game, a gammon or a backgammon are "
                   "backgammon's; in this game send resign");
  if (g.row.status != "playing") throw ApiError(409, "the game is not being played");
  if (what == "offer_resign") {
    const std::string level = text_field(m, "level");
    if (level != "single" && level != "gammon" && level != "backgammon")
      throw ApiError(400, "\"level\" '" + level.substr(0, 32) +
                              "' is not a resignation; allowed: single, gammon, backgammon");
    if (g.state->to_move() != me)
      throw ApiError(409, "only the player to move may offer to resign; it is " +
                              std::string(name(g.state->to_move())) + "'s turn");
    return play_move(g, me, "resign " + level);
  }
  const json offer = g.state->board_json().value("resignation", json(nullptr));
  if (offer.is_null() || g.state->to_move() != me)
    throw ApiError(409, "no resignation offer is waiting for your answer");
  play_move(g, me, what == "accept_resign" ? "accept" : "decline");
}

void Hub::on_draw(Client& c, Live& g, const std::string& what) {
  const Player me = *seat_of(g, c);
  if (g.row.status != "playing")
    throw ApiError(409, "draws are offered while the game is being played");
  const auto offer = player_from(g.row.extra.value("draw_offer", json(nullptr)));
  if (what == "offer_draw") {
    if (offer == me) throw ApiError(409, "your draw offer is already on the table");
    if (offer == opponent(me))
      throw ApiError(409, "your opponent offers a draw: accept_draw or decline_draw");
    if (g.row.seats[index(opponent(me))].value("kind", "") == "computer")
      throw ApiError(409, "the computer plays every game to the end; resign instead");
    auto& used = g.row.extra["draw_offers"][index(me)];
    if (g.rules.draw_offers && used.get<int>() >= g.rules.draw_offers)
      throw ApiError(409, "each player may offer a draw at most " +
                              std::to_string(g.rules.draw_offers) +
                              " times per game (docs/server.md)");
    used = used.get<int>() + 1;
    g.row.extra["draw_offer"] = name(me);
    store_.update_game(g.row);
  } else if (what == "accept_draw") {
    if (offer != opponent(me)) throw ApiError(409, "there is no draw offer from your opponent");
    finish(g, std::nullopt, "agreement");
  } else {  // decline_draw
    if (offer != opponent(me)) throw ApiError(409, "there is no draw offer from your opponent");
    g.row.extra.erase("draw_offer");
    store_.update_game(g.row);
  }
  after_change(g);
}

void Hub::on_rematch(Client& c, Live& g) {
  const Player me = *seat_of(g, c);
  if (g.row.status != "over") throw ApiError(409, "a rematch is asked for once the game is over");
  if (g.match && !g.match->over)
    throw ApiError(409, "the match goes on: the next game is " +
                            g.row.extra.value("next_game", std::string("coming")));
  if (g.row.extra.contains("next_game")) {
    send_view(c, g);
    return;
  }
  json& asked = g.row.extra["rematch"];
  if (!asked.is_array()) asked = json::array();
  if (std::find(asked.begin(), asked.end(), json(name(me))) == asked.end())
    asked.push_back(name(me));
  const bool computer = g.row.seats[index(opponent(me))].value("kind", "") == "computer";
  if (computer || asked.size() == 2) {
    json seats = json::array({g.row.seats[1], g.row.seats[0]});
    g.row.extra["next_game"] = new_game_from(g, seats, std::nullopt, 0);
  }
  store_.update_game(g.row);
  broadcast(g);
}

void Hub::disconnect(Client& c) {
  if (extension_) extension_->disconnect(c);
  for (const auto& id : c.watching) forget(id, c);
  c.watching.clear();
}

void Hub::forget(const std::string& id, Client& c) {
  auto it = games_.find(id);
  if (it == games_.end()) return;
  it->second->watchers.erase(&c);
  release_if_idle(id);
}

void Hub::release_if_idle(const std::string& id) {
  // A finished game nobody watches leaves memory; the store keeps it and live() reloads it.
  auto it = games_.find(id);
  if (it != games_.end() && it->second->row.status == "over" && it->second->watchers.empty())
    games_.erase(it);
}

}  // namespace naqala::server
