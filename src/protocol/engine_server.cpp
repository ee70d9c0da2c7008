#include "protocol/engine_server.h"

#include <charconv>
#include <chrono>
#include <cmath>

#include "core/error.h"
#include "games/registry.h"
#include "protocol/notation.h"

namespace naqala::protocol {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::uint64_t count(const std::string& word, const std::string& value) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size())
    throw ParseError("go " + word + " '" + value + "' is not a whole number");
  return v;
}

constexpr const char* kGoWords =
    "movetime MS, depth D, nodes N, wtime MS, btime MS, winc MS, binc MS, movestogo N, infinite";

}  // namespace

EngineServer::EngineServer(ServerOptions options, std::ostream& out)
    : options_(std::move(options)), out_(out) {
  build(options_.variant, options_.engine);
  if (options_.auale && !has_auale_form(*game_))
    throw Error("the Aualé notation is for 2x6 boards (Oware, Kalah, ...), not " + game_->spec());
  answer_auale_ = options_.auale;
}

EngineServer::~EngineServer() {
  finish();
}

void EngineServer::build(const std::string& variant, const std::string& spec) {
  auto game = make_game(variant);
  auto eng = engine::make_engine(*game, spec);
  game_ = std::move(game);
  engine_ = std::move(eng);
  options_.variant = variant;
  options_.engine = spec;
  start_.clear();
  moves_.clear();
  state_ = game_->new_game();
}

void EngineServer::emit(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << '\n' << std::flush;
}

bool EngineServer::handle(const std::string& line) {
  const auto words = split_words(line);
  if (words.empty()) return true;
  const std::string& command = words[0];
  try {
    if (command == "quit") {
      stop();
      return false;
    }
    if (command == "isready") {
      emit("readyok");
      return true;
    }
    if (command == "stop") {
      stop();
      return true;
    }
    {
      std::lock_guard lock(done_mutex_);
      const bool busy = searching_;
      if (busy && (command == "uci" || command == "setoption" || command == "ucinewgame" ||
                   command == "position" || command == "go"))
        throw Error("'" + command + "' while a search is running; send stop first");
    }
    join_finished();
    if (command == "uci") {
      uci();
    } else if (command == "setoption") {
      setoption(words);
    } else if (command == "ucinewgame") {
      new_game();
    } else if (command == "position") {
      position(words);
    } else if (command == "go") {
      go(words);
    } else {
      throw Error("unknown command '" + command +
                  "'; commands: uci, setoption, isready, ucinewgame, position, go, stop, quit");
    }
  } catch (const std::exception& e) {
    emit(std::string("info string error ") + e.what());
  }
  return true;
}

void EngineServer::uci() {
  emit("id name naqala " + options_.engine);
  emit("id author the naqala authors");
  emit("option name Variant type string default " + options_.variant);
  emit("option name Engine type string default " + options_.engine);
  if (has_auale_form(*game_))
    emit(std::string("option name Notation type combo default ") +
         (options_.auale ? "auale" : "naqala") + " var naqala var auale");
  emit("uciok");
}

void EngineServer::setoption(const std::vector<std::string>& words) {
  // setoption name NAME [value VALUE]
  std::size_t value_at = words.size();
  for (std::size_t i = 2; i < words.size(); ++i)
    if (words[i] == "value") {
      value_at = i;
      break;
    }
  if (words.size() < 3 || words[1] != "name")
    throw ParseError("setoption: write 'setoption name NAME value VALUE'");
  const std::string name = lower(join_words(words, 2, value_at));
  const std::string value = join_words(words, value_at + 1, words.size());
  if (value_at == words.size() || value.empty())
    throw ParseError("setoption name " + name + ": no value given");
  if (name == "variant") {
    build(value, options_.engine);
    if (!has_auale_form(*game_)) options_.auale = false;
    answer_auale_ = options_.auale;
  } else if (name == "engine") {
    build(options_.variant, value);
  } else if (name == "notation") {
    if (value != "naqala" && value != "auale")
      throw ParseError("setoption name Notation: '" + value + "' is not allowed (naqala, auale)");
    if (value == "auale" && !has_auale_form(*game_))
      throw Error("the Aualé notation is for 2x6 boards, not " + game_->spec());
    options_.auale = value == "auale";
    answer_auale_ = options_.auale;
  } else {
    throw ParseError("setoption: unknown option '" + name +
                     "' (options: Variant, Engine, Notation)");
  }
}

void EngineServer::new_game() {
  // A fresh engine: nothing of the last game stays in its tables.
  build(options_.variant, options_.engine);
  answer_auale_ = options_.auale;
}

void EngineServer::position(const std::vector<std::string>& words) {
  if (words.size() < 2)
    throw ParseError(
        "position: write 'position startpos [moves ...]' or 'position text "
        "POSITION [moves ...]'");
  std::size_t moves_at = words.size();
  for (std::size_t i = 1; i < words.size(); ++i)
    if (words[i] == "moves") {
      moves_at = i;
      break;
    }
  bool auale = false;
  std::string start;
  std::unique_ptr<AnyState> state;
  const std::string& kind = words[1];
  if (kind == "startpos") {
    if (moves_at != 2) throw ParseError("position startpos: only 'moves ...' may follow");
    state = game_->new_game();
  } else if (kind == "text" || kind == "fen") {
    const std::string text = join_words(words, 2, moves_at);
    if (text.empty()) throw ParseError("position " + kind + ": the position is missing");
    if (kind == "fen") {
      if (!has_auale_form(*game_))
        throw ParseError("position fen: the Aualé form is for 2x6 boards; use position text");
      start = position_from_auale(text);
      auale = true;
    } else {
      start = text;
    }
    state = game_->from_position(start);
  } else {
    throw ParseError("position: '" + kind + "' is not startpos, text or fen");
  }
  std::vector<std::string> moves;
  const bool letters = has_auale_form(*game_);
  for (std::size_t i = moves_at + 1; i < words.size(); ++i) {
    const std::string& token = words[i];
    try {
      if (state->is_over()) throw IllegalMoveError("the game is already over");
      if (state->is_chance_node()) {
        state->apply_chance(token);
        moves.push_back(token);
      } else if (letters && is_auale_moves(token)) {
        for (auto& m : play_auale_moves(*state, token)) moves.push_back(m);
        auale = true;
      } else {
        const std::string move = from_token(token);
        state->play(move);
        moves.push_back(move);
      }
    } catch (const Error& e) {
      throw ParseError("position: move " + std::to_string(i - moves_at) + " '" + token +
                       "': " + e.what());
    }
  }
  start_ = start;
  moves_ = std::move(moves);
  state_ = std::move(state);
  answer_auale_ = options_.auale || auale;
}

void EngineServer::go(const std::vector<std::string>& words) {
  engine::SearchRequest request;
  std::array<double, 2> time{-1, -1}, inc{0, 0};
  try {
    for (std::size_t i = 1; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w == "infinite") {
        request.infinite = true;
        continue;
      }
      const bool takes_number = w == "movetime" || w == "depth" || w == "nodes" || w == "wtime" ||
                                w == "btime" || w == "winc" || w == "binc" || w == "movestogo";
      if (!takes_number)
        throw ParseError("go: unknown parameter '" + w + "'; parameters: " + std::string(kGoWords));
      if (i + 1 >= words.size()) throw ParseError("go " + w + ": the number is missing");
      const std::uint64_t v = count(w, words[++i]);
      if (w == "movetime") request.limits.seconds = static_cast<double>(v) / 1000;
      if (w == "depth") request.limits.depth = static_cast<int>(std::min<std::uint64_t>(v, 1000));
      if (w == "nodes") request.limits.nodes = v;
      if (w == "wtime") time[0] = static_cast<double>(v) / 1000;
      if (w == "btime") time[1] = static_cast<double>(v) / 1000;
      if (w == "winc") inc[0] = static_cast<double>(v) / 1000;
      if (w == "binc") inc[1] = static_cast<double>(v) / 1000;
      if (w == "movestogo")
        request.clock.moves_to_go = static_cast<int>(std::min<std::uint64_t>(v, 1000));
    }
    if (request.infinite && options_.synchronous)
      throw ParseError(
          "go infinite: this engine searches synchronously (its input is read whole), so no "
          "stop could end the search; give movetime, depth or nodes");
    if (state_->is_over()) {
      emit("info string the game is over");
      emit("bestmove 0000");
      return;
    }
    if (state_->is_chance_node())
      throw IllegalMoveError(
          "a dice roll is due, not a move: send it among the moves (e.g. "
          "'position startpos moves 3-1')");
  } catch (const std::exception& e) {
    emit(std::string("info string error ") + e.what());
    emit("bestmove 0000");
    return;
  }
  const int mover = index(state_->to_move());
  if (time[mover] >= 0) {
    request.on_clock = true;
    request.clock.remaining = time[mover];
    request.clock.increment = inc[mover];
  }
  search(std::move(request));
}

void EngineServer::search(engine::SearchRequest request) {
  const Player mover = state_->to_move();
  request.progress = [this](const engine::Analysis& a) { emit(info_line(a)); };
  {
    std::lock_guard lock(done_mutex_);
    searching_ = true;
    infinite_ = request.infinite;
  }
  if (options_.synchronous) return run_search(request, mover);
  thread_ =
      std::thread([this, request = std::move(request), mover] { run_search(request, mover); });
}

void EngineServer::run_search(const engine::SearchRequest& request, Player mover) {
  std::string best = "0000";
  try {
    const auto a = engine_->think(*state_, request);
    best = move_text(a.best_move, mover);
  } catch (const std::exception& e) {
    emit(std::string("info string error ") + e.what());
  }
  // `bestmove` and the end of the search are one step: a `go` sent on reading it finds
  // the engine idle.
  {
    std::lock_guard lock(done_mutex_);
    searching_ = false;
    emit("bestmove " + best);
  }
  done_cv_.notify_all();
}

void EngineServer::stop() {
  std::unique_lock lock(done_mutex_);
  // The search may not have started listening yet: ask again until it has answered.
  while (searching_) {
    lock.unlock();
    engine_->stop();
    lock.lock();
    done_cv_.wait_for(lock, std::chrono::milliseconds(10), [this] { return !searching_; });
  }
  lock.unlock();
  join_finished();
}

void EngineServer::finish() {
  // At the end of the input a bounded search finishes; an infinite one is stopped.
  std::unique_lock lock(done_mutex_);
  const bool infinite = searching_ && infinite_;
  lock.unlock();
  if (infinite) {
    stop();
    return;
  }
  lock.lock();
  done_cv_.wait(lock, [this] { return !searching_; });
  lock.unlock();
  join_finished();
}

void EngineServer::join_finished() {
  if (thread_.joinable()) thread_.join();
}

std::string EngineServer::move_text(const std::string& move, Player mover) const {
  if (answer_auale_) return auale_letter(move, mover);
  return to_token(move);
}

std::string EngineServer::info_line(const engine::Analysis& a) const {
  std::string line = "info depth " + std::to_string(a.depth);
  line += " score cp " + std::to_string(static_cast<long long>(std::llround(a.value * 100)));
  line += " nodes " + std::to_string(a.nodes);
  const double seconds = std::max(a.seconds, 1e-6);
  line += " nps " + std::to_string(static_cast<std::uint64_t>(a.nodes / seconds));
  line += " time " + std::to_string(static_cast<std::uint64_t>(a.seconds * 1000));
  // The pv's movers come from playing it out (an extra turn keeps the same mover).
  std::string pv;
  auto walk = state_->clone();
  for (const auto& m : a.pv) {
    if (walk->is_over() || walk->is_chance_node()) break;
    try {
      const std::string text = move_text(m, walk->to_move());
      walk->play(m);
      pv += answer_auale_ ? text : (pv.empty() ? "" : " ") + text;
    } catch (const Error&) {
      break;
    }
  }
  if (!pv.empty()) line += " pv " + pv;
  return line;
}

}  // namespace naqala::protocol
