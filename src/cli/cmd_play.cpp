// naqala play VARIANT [--south human|computer[:LEVEL]] [--north ...] [--save FILE]
// Terminal play: the board, the legal moves, undo, hint, help; bad input never loses the game.
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/play_help.h"
#include "cli/terminal.h"
#include "core/error.h"
#include "core/text_file.h"
#include "engine/backgammon_resign.h"
#include "engine/engine.h"

namespace naqala::cli {

namespace {

struct Seat {
  bool computer = false;
  int level = 5;
  std::string text;
  std::unique_ptr<engine::Engine> engine;
};

Seat parse_seat(const std::string& text, const char* flag) {
  Seat seat;
  seat.text = text;
  if (text == "human") return seat;
  if (text == "computer" || text.starts_with("computer:")) {
    seat.computer = true;
    if (text.size() > 9) {
      try {
        std::size_t used = 0;
        seat.level = std::stoi(text.substr(9), &used);
        if (used != text.size() - 9) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        seat.level = 0;
      }
      if (seat.level < 1 || seat.level > 10)
        throw Error(std::string(flag) + " " + text +
                    ": the level must be a whole number from 1 to 10");
    }
    return seat;
  }
  throw Error(std::string(flag) + " " + text +
              ": allowed values are human, computer, computer:LEVEL (1-10)");
}

std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", std::localtime(&t));
  return buf;
}

// A computer's half of a simultaneous move, chosen without the other's: the half whose worst
// outcome over every half the opponent may choose is best (the engine scores every joint move).
std::string computer_half(engine::Engine& engine, const AnyState& state, Player side) {
  const auto analysis = engine.analyze(state, engine::Limits{});
  const Player mover = state.to_move();  // the scores are from its view
  std::vector<std::pair<std::string, double>> worst;
  for (const auto& score : analysis.scores) {
    const std::string& move = score.move;
    const double value = score.value;  // exact: a joint root scores every pair
    const auto plus = move.find('+');
    if (plus == std::string::npos) continue;
    const std::string half = side == Player::South ? move.substr(0, plus) : move.substr(plus + 1);
    const double mine = side == mover ? value : -value;
    auto it =
        std::find_if(worst.begin(), worst.end(), [&](const auto& w) { return w.first == half; });
    if (it == worst.end())
      worst.emplace_back(half, mine);
    else
      it->second = std::min(it->second, mine);
  }
  if (worst.empty()) throw Error("the engine scored no joint move");
  return std::max_element(worst.begin(), worst.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

// Reads a line without echoing it when the input is a terminal (a half another player at the
// same keyboard must not see).
bool read_hidden(std::string& line) {
  termios saved{};
  const bool tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
  if (tty) {
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
  }
  const bool ok = read_bounded_line(std::cin, line, "standard input");
  if (tty) {
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    std::cout << "\n";
  }
  return ok;
}

std::string trimmed(const std::string& line) {
  const auto b = line.find_first_not_of(" \t\r");
  return b == std::string::npos ? "" : line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
}

// A setup typed in one line ("a1=4 b1=4 ..." or just "4 4 4 ..."), as the setup moves it
// makes, when every legal move now is a setup move ("<pit>=<count>"); empty otherwise. A bare
// count goes to the pit being filled at that point of the setup.
std::vector<std::string> setup_line(const AnyState& state, const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words{std::istream_iterator<std::string>(in), {}};
  const auto legal = state.legal_moves();
  const bool setting_up = !legal.empty() && std::all_of(legal.begin(), legal.end(), [](auto& m) {
    return m.find('=') != std::string::npos;
  });
  if (words.size() < 2 || !setting_up) return {};
  std::vector<std::string> moves;
  auto probe = state.clone();
  for (const auto& w : words) {
    std::string move = w;
    if (w.find_first_not_of("0123456789") == std::string::npos) {
      const auto now = probe->legal_moves();
      if (now.empty() || now[0].find('=') == std::string::npos)
        throw IllegalMoveError("'" + w + "': the setup is complete before this count");
      move = now[0].substr(0, now[0].find('=') + 1) + w;
    }
    probe->play(move);  // a refused count stops the whole line: nothing is played
    moves.push_back(move);
    if (probe->is_over()) break;
  }
  return moves;
}

}  // namespace

void add_play_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("play", "Play a game in the terminal, against the computer or a person");
  struct Args {
    std::string variant, south = "human", north = "computer", save, position, record;
    std::uint64_t seed = 0;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("variant", a->variant, "Variant, e.g. kalah or oware:grand_slam=forbidden")
      ->required();
  cmd->add_option("--south", a->south, "human | computer[:LEVEL] (default human)");
  cmd->add_option("--north", a->north, "human | computer[:LEVEL] (default computer)");
  cmd->add_option("--save", a->save, "Write the game record to FILE after every move");
  cmd->add_option("--position", a->position, "Start from this position")->check(kNotEmpty);
  cmd->add_option("--record", a->record, "Resume the game in this record");
  cmd->add_option("--seed", a->seed, "Seed for dice (chance games)");
  cmd->callback([a] {
    std::array<Seat, 2> seats{parse_seat(a->south, "--south"), parse_seat(a->north, "--north")};
    if (std::filesystem::is_directory(a->save))
      throw Error("--save " + a->save + ": that is a directory; name a file");
    Loaded l = load_state(a->variant, a->position, a->record, "");
    for (auto& seat : seats)
      if (seat.computer)
        seat.engine = engine::make_engine(*l.game, "level:" + std::to_string(seat.level));
    std::unique_ptr<engine::Engine> hinter;
    Rng dice(a->seed ? a->seed
                     : static_cast<std::uint64_t>(
                           std::chrono::steady_clock::now().time_since_epoch().count()));

    // History for undo: the state before each ply.
    std::vector<std::unique_ptr<AnyState>> before;
    std::vector<GameRecord::Ply> plies = l.plies;
    std::unique_ptr<AnyState> state = std::move(l.state);
    const std::vector<std::pair<std::string, std::string>> tags = {
        {"Event", "naqala play"}, {"Date", today()}, {"South", a->south}, {"North", a->north}};
    auto save = [&](const std::string& file) {
      if (file.empty()) return;
      const std::string tmp = file + ".tmp";
      {
        std::ofstream out(tmp);
        out << format_record(make_record(*l.game, l.start_position, plies, *state, tags));
        if (!out) throw Error("cannot write '" + tmp + "'");
      }
      if (std::rename(tmp.c_str(), file.c_str()) != 0)  // e.g. FILE is a directory
        throw Error("cannot write the record to '" + file + "' (" + std::strerror(errno) +
                    "); it is kept in '" + tmp + "'");
    };
    auto apply = [&](char side, const std::string& text, bool chance) {
      // Play on a copy first: a refused move leaves the game and its history untouched.
      auto next = state->clone();
      if (chance) {
        next->apply_chance(text);
      } else {
        next->play(text);
      }
      before.push_back(std::move(state));
      state = std::move(next);
      plies.push_back({side, text});
      save(a->save);
    };

    std::map<std::size_t, std::string> rolls;  // the dice of each chance ply, by ply number
    std::cout << l.game->info().title << " (" << l.game->spec() << "). Type help for commands.\n";
    bool show = true;
    while (true) {
      if (show) std::cout << "\n" << state->render();
      show = true;
      if (state->is_over()) {
        const Outcome o = state->outcome();
        std::cout << "Game over (" << to_string(o.reason) << "): "
                  << (o.winner ? std::string(name(*o.winner)) + " wins" : std::string("a draw"))
                  << ", " << o.scores[0] << "-" << o.scores[1] << ".\n";
        if (!a->save.empty()) std::cout << "Record saved to " << a->save << ".\n";
        return;
      }
      if (state->is_chance_node()) {
        const std::string roll = state->sample_chance(dice);
        // A roll taken back by undo comes again: undo never buys new dice. The board
        // announces the roll ("South rolled 5-3").
        apply('*', rolls.try_emplace(plies.size(), roll).first->second, true);
        continue;
      }
      if (state->joint_pending()) {
        // Both choose at once (Congklak's start): each half is chosen blind, then played as
        // one lock-step move "south+north".
        std::array<std::string, 2> halves;
        for (Player side : {Player::South, Player::North}) {  // computers first: nothing to see
          Seat& seat = seats[index(side)];
          if (!seat.computer) continue;
          halves[index(side)] = computer_half(*seat.engine, *state, side);
          std::cout << name(side) << " (computer, level " << seat.level << ") has chosen\n";
        }
        bool closed = false;
        for (Player side : {Player::South, Player::North}) {
          if (seats[index(side)].computer) continue;
          const auto options = state->joint_halves(side);
          while (halves[index(side)].empty()) {
            std::cout << name(side) << ", choose your pit in secret [" << join_moves(options)
                      << "]> " << std::flush;
            std::string line;
            if (!read_hidden(line)) {
              closed = true;
              break;
            }
            line = trimmed(line);
            if (line == "quit" || line == "exit") {
              closed = true;
              break;
            }
            if (std::find(options.begin(), options.end(), line) != options.end())
              halves[index(side)] = line;
            else if (!line.empty())
              std::cout << "'" << line << "' is not one of your pits here; choose one of "
                        << join_moves(options) << " (or quit)\n";
          }
          if (closed) break;
        }
        if (closed) {
          save(a->save);
          std::cout << "Game left unfinished" << (a->save.empty() ? "" : "; record in " + a->save)
                    << ".\n";
          return;
        }
        const std::string move = halves[0] + "+" + halves[1];
        std::cout << "Both sow at once: " << move << "\n";
        apply(letter(state->to_move()), move, false);
        continue;
      }
      const Player p = state->to_move();
      Seat& seat = seats[index(p)];
      if (seat.computer) {
        // A hopeless backgammon position: the computer offers to resign before it plays on.
        const auto offer = engine::resignation_offer(*state);
        const std::string move = offer ? *offer : seat.engine->choose_move(*state);
        const bool answer = move == "accept" || move == "decline";  // a resignation offer's
        std::cout << name(p) << " (computer, level " << seat.level << ") "
                  << (offer    ? "offers to " + move
                      : answer ? move + "s the resignation"
                               : "plays " + move)
                  << "\n";
        apply(letter(p), move, false);
        continue;
      }
      const auto typed =
          read_line(std::string(name(p)) + " to move [" + join_moves(state->legal_moves()) + "]> ");
      std::string line = typed.value_or("");
      if (!typed) {
        save(a->save);
        std::cout << "\nInput closed; the game is left unfinished"
                  << (a->save.empty() ? "" : " in " + a->save) << ".\n";
        return;
      }
      const auto b = line.find_first_not_of(" \t\r");
      line = b == std::string::npos ? "" : line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
      show = false;
      if (line.empty()) continue;
      if (line == "help" || line == "?") {
        std::cout << wrap(play_help(*l.game), terminal_width());
      } else if (line == "quit" || line == "exit") {
        save(a->save);
        std::cout << "Game left unfinished" << (a->save.empty() ? "" : "; record in " + a->save)
                  << ".\n";
        return;
      } else if (line == "moves") {
        std::cout << "legal moves: " << join_moves(state->legal_moves()) << "\n";
      } else if (line == "board") {
        show = true;
      } else if (line == "rules") {
        std::cout << wrap(l.game->rules_text(), terminal_width());
      } else if (line.starts_with("save")) {
        const std::string file = line.size() > 5 ? line.substr(5) : a->save;
        if (file.empty()) {
          std::cout << "save FILE: name the file (or start with --save FILE)\n";
        } else {
          try {
            save(file);
            std::cout << "saved to " << file << "\n";
          } catch (const Error& e) {
            std::cout << e.what() << "\n";
          }
        }
      } else if (line == "undo") {
        // Back to the previous time a human was to move (past the computer's replies).
        std::optional<std::size_t> target;
        for (std::size_t k = before.size(); k-- > 0;) {
          const AnyState& s = *before[k];
          if (!s.is_chance_node() && !seats[index(s.to_move())].computer) {
            target = k;
            break;
          }
        }
        if (!target) {
          std::cout << "nothing to undo\n";
        } else {
          state = std::move(before[*target]);
          before.resize(*target);
          plies.resize(l.plies.size() + *target);
          save(a->save);
          show = true;
        }
      } else if (line == "hint") {
        if (!hinter) hinter = engine::make_engine(*l.game, "level:8");
        const auto analysis = hinter->analyze(*state, engine::Limits{.seconds = 1.0});
        std::cout << "hint: " << analysis.best_move << " (value " << analysis.value << ", depth "
                  << analysis.depth << ")\n";
      } else {
        try {
          const auto setup = setup_line(*state, line);
          if (setup.empty()) apply(letter(p), line, false);
          for (const auto& move : setup) apply(letter(state->to_move()), move, false);
          show = true;
        } catch (const ParseError& e) {
          std::cout << e.what() << "\n";
        } catch (const IllegalMoveError& e) {
          std::cout << e.what() << "\n";
        }
      }
    }
  });
}

}  // namespace naqala::cli
