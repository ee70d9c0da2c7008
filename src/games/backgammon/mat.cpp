// .mat export and import (layout as gnubg's ExportGameJF writes it).
#include "games/backgammon/mat.h"

#include <cctype>
#include <cstdio>
#include <memory>

#include "core/error.h"

namespace naqala::backgammon {

namespace {

// The longest match naqala plays (its option match=N allows as much).
constexpr int kMaxMatchLength = 32767;

// A checker move as the .mat format writes it: every step, 25 = bar, 0 = off, '*' on the
// first landing on a point that held an opponent's blot.
std::string plain_move(const State& s, const Move& m) {
  const Side& opp = s.side(opponent(s.on_roll()));
  std::string out;
  for (int i = 0; i < m.count; ++i) {
    const int from = m.steps[i].from + 1, to = m.steps[i].to + 1;
    out += std::to_string(from) + "/" + std::to_string(to);
    if (to > 0 && opp[24 - to]) {
      bool earlier = false;
      for (int j = 0; j < i; ++j)
        if (m.steps[j].to == m.steps[i].to) earlier = true;
      if (!earlier) out += '*';
    }
    if (i < 3) out += ' ';
  }
  return out;
}

std::string points_text(int n) {
  return std::to_string(n) + (n == 1 ? " point" : " points");
}

void check_legal(const State& s, const Move& m, const char* what) {
  auto moves = std::make_unique<MoveList>();
  s.legal_moves(*moves);
  if (!moves->contains(m))
    throw IllegalMoveError(std::string("match record: ") + what + " is not legal at " +
                           s.gnubg_id());
}

}  // namespace

State replay(const MatchRecord& r) {
  State s(r.rules);
  for (const auto& e : r.events) {
    if (e.resign) {
      s.resign(e.resigner, e.resign);
    } else if (e.is_roll) {
      if (!s.is_chance_node())
        throw IllegalMoveError("match record: a roll where " + std::string(name(s.to_move())) +
                               " must decide");
      s.apply_chance(e.roll);
    } else {
      if (s.is_chance_node() || s.is_over())
        throw IllegalMoveError("match record: a move where no decision is due");
      check_legal(s, e.move, "a move");
      s.play(e.move);
    }
  }
  return s;
}

std::string export_mat(const MatchRecord& r) {
  State s(r.rules);
  std::string out = "; [Site \"naqala\"]\n\n";
  out += ' ';
  out += std::to_string(r.rules.match);
  out += " point match\n";
  int game = 0;
  int i = 0;  // entries in this game: even = left column (player 0), odd = right
  char buf[256];
  auto header = [&] {
    ++game;
    i = 0;
    out += "\n Game " + std::to_string(game) + "\n";
    const std::string left = r.names[0] + " : " + std::to_string(s.score(Player::South));
    std::snprintf(buf, sizeof buf, " %-31s%s : %d\n", left.c_str(), r.names[1].c_str(),
                  s.score(Player::North));
    out += buf;
  };
  auto entry = [&](Player who, const std::string& text, bool dropped) {
    if (i == 0 && who == Player::North) {
      out += "  1)                             ";
      i = 1;
    }
    if (i & 1) {
      out += text + "\n";
    } else {
      std::snprintf(buf, sizeof buf, "%3d) %-27s ", (i >> 1) + 1, text.c_str());
      out += buf;
    }
    if (dropped) {
      out += "\n";
      if (!(i & 1)) out += "\n";
    }
  };
  auto game_over = [&](int points) {
    out += std::string(i & 1 ? "                                  " : "\n      ") + "Wins " +
           points_text(points) + "\n";
  };

  header();
  Chance pending{};
  bool have_roll = false;
  for (const auto& e : r.events) {
    if (e.resign) {
      if (have_roll) {  // rolled, then resigned instead of moving
        entry(s.to_move(), std::to_string(pending.a) + std::to_string(pending.b) + ": ", false);
        ++i;
        have_roll = false;
      }
      if (i & 1) out += "\n";
      s.resign(e.resigner, e.resign);
      out += std::string(opponent(e.resigner) == Player::South
                             ? "      "
                             : "                                  ") +
             "Wins " + points_text(s.last_result().points) + "\n";
      if (!s.is_over()) header();
      continue;
    }
    if (e.is_roll) {
      if (!s.is_chance_node())
        throw IllegalMoveError("match record: a roll where a decision is due");
      s.apply_chance(e.roll);
      pending = {static_cast<std::uint8_t>(s.die(0)), static_cast<std::uint8_t>(s.die(1))};
      have_roll = true;
      continue;
    }
    check_legal(s, e.move, "a move");
    const Player who = s.to_move();
    const int games_before = s.games_played();
    std::string text;
    bool dropped = false;
    switch (e.move.kind) {
      case Move::Kind::Roll:
        s.play(e.move);
        continue;  // the roll shows with the move it led to
      case Move::Kind::Double:
        text = " Doubles => " + std::to_string(2 * s.cube());
        break;
      case Move::Kind::Take:
        text = " Takes";
        break;
      case Move::Kind::Drop: {
        dropped = true;
        text = std::string(" Drops") + ((i & 1) ? "\n      " : "                       ") +
               "Wins " + points_text(s.cube());
        break;
      }
      case Move::Kind::Accept:
      case Move::Kind::Decline:
        // Events hold an accepted resignation as `resign`; a declined one leaves no trace.
        throw IllegalMoveError("match record: a resignation's answer without its offer");
      case Move::Kind::Pass:
      case Move::Kind::Checkers:
        if (!have_roll) throw IllegalMoveError("match record: a move without a roll");
        text = std::to_string(pending.a) + std::to_string(pending.b) + ": ";
        if (e.move.kind == Move::Kind::Checkers) text += plain_move(s, e.move);
        have_roll = false;
        break;
    }
    s.play(e.move);
    entry(who, text, dropped);
    const bool ended = s.games_played() != games_before;
    if (ended && !dropped) game_over(s.last_result().points);
    ++i;
    if (ended && !s.is_over()) header();
  }
  if (have_roll) {  // an unfinished record that ends on a roll not yet played
    entry(s.to_move(), std::to_string(pending.a) + std::to_string(pending.b) + ":", false);
    if (!(i & 1)) out += "\n";  // a right-column entry ended its line already
  }
  return out;
}

// --- import ---

namespace {

struct Entry {
  Player who;
  std::string text;  // e.g. "53: 8/3 6/3", "Doubles => 2", "Takes", "Drops", "Wins 2 points"
};

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

bool starts_entry(std::string_view line, std::size_t k) {
  if (k > 0 && !std::isspace(static_cast<unsigned char>(line[k - 1]))) return false;
  auto rest = line.substr(k);
  if (rest.size() >= 3 && std::isdigit(static_cast<unsigned char>(rest[0])) &&
      std::isdigit(static_cast<unsigned char>(rest[1])) && rest[2] == ':')
    return true;
  for (std::string_view w : {"Doubles", "Takes", "Drops", "Wins", "Beavers", "Raccoons", "Resigns",
                             "Accepts", "Rejects"})
    if (rest.starts_with(w)) return true;
  return false;
}

// Splits one row into entries; an entry starting before column 20 is player 0's.
std::vector<Entry> split_row(std::string_view line) {
  std::vector<Entry> out;
  std::vector<std::size_t> starts;
  for (std::size_t k = 0; k < line.size(); ++k)
    if (starts_entry(line, k)) {
      starts.push_back(k);
      // Skip the rest of this token so "53:" is not found again at its second digit.
      while (k < line.size() && !std::isspace(static_cast<unsigned char>(line[k]))) ++k;
    }
  for (std::size_t j = 0; j < starts.size(); ++j) {
    const std::size_t end = j + 1 < starts.size() ? starts[j + 1] : line.size();
    out.push_back({starts[j] < 20 ? Player::South : Player::North,
                   trim(line.substr(starts[j], end - starts[j]))});
  }
  return out;
}

[[noreturn]] void fail(int line, const std::string& what) {
  throw ParseError(".mat line " + std::to_string(line) + ": " + what);
}

}  // namespace

MatchRecord import_mat(std::string_view text) {
  // First pass: lines, the match length and the number of games.
  std::vector<std::string> lines;
  {
    std::size_t p = 0;
    while (p <= text.size()) {
      auto e = text.find('\n', p);
      if (e == std::string_view::npos) e = text.size();
      std::string l(text.substr(p, e - p));
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines.push_back(l);
      p = e + 1;
    }
  }
  int match_to = -1, games = 0;
  for (const auto& l : lines) {
    const std::string t = trim(l);
    if (match_to < 0 && t.find("point match") != std::string::npos) {
      // "N point match": N read with a bound, so that 10^20 is an error, not an overflow.
      std::size_t digits = 0;
      while (digits < t.size() && std::isdigit(static_cast<unsigned char>(t[digits]))) ++digits;
      if (digits > 0 && t.substr(digits).starts_with(" point match")) {
        if (digits > 5 || std::stoi(t.substr(0, digits)) > kMaxMatchLength)
          throw ParseError(".mat file: a match to " + t.substr(0, digits) + " points; at most " +
                           std::to_string(kMaxMatchLength) + " are allowed");
        match_to = std::stoi(t.substr(0, digits));
      }
    }
    if (t.rfind("Game ", 0) == 0) ++games;
  }
  if (match_to < 0) throw ParseError(".mat file has no 'N point match' line");
  if (games == 0) throw ParseError(".mat file has no 'Game N' section");

  MatchRecord r;
  r.rules.match = match_to;
  if (match_to == 0 && games > 1) r.rules.series = games;
  State s(r.rules);
  int game = 0;
  bool names_read = false;
  auto add_roll = [&](Chance c) {
    r.events.push_back({true, c, {}});
    s.apply_chance(c);
  };
  auto add_move = [&](const Move& m, int ln, const std::string& what) {
    auto moves = std::make_unique<MoveList>();
    s.legal_moves(*moves);
    if (!moves->contains(m))
      fail(
          ln, what + " is not legal here (" + s.gnubg_id() + "); legal: " + [&] {
            std::string all;
            for (const auto& x : *moves) all += (all.empty() ? "" : ", ") + s.format_move(x);
            return all;
          }());
    r.events.push_back({false, {}, m});
    s.play(m);
  };
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const int ln = static_cast<int>(n) + 1;
    const std::string& line = lines[n];
    const std::string t = trim(line);
    if (t.empty() || t[0] == ';' || t.find("point match") != std::string::npos) continue;
    if (t.rfind("Game ", 0) == 0) {
      if (game > 0 && s.games_played() != game)
        fail(ln, "game " + std::to_string(game) +
                     " did not end by a bear-off or a dropped double before 'Game'");
      ++game;
      // The score line follows: "name : score   name : score".
      std::size_t m = n + 1;
      while (m < lines.size() && trim(lines[m]).empty()) ++m;
      if (m >= lines.size()) fail(ln, "a game without a score line");
      const std::string& sl = lines[m];
      const auto c1 = sl.find(" : ");
      const auto c2 = c1 == std::string::npos ? c1 : sl.find(" : ", c1 + 3);
      if (c2 == std::string::npos)
        fail(static_cast<int>(m) + 1,
             "expected 'name : score   name : score', got '" + trim(sl) + "'");
      int s0 = 0, s1 = 0;
      std::size_t used = 0;
      const std::string mid = sl.substr(c1 + 3, c2 - c1 - 3);
      try {
        s0 = std::stoi(mid, &used);
        s1 = std::stoi(sl.substr(c2 + 3));
      } catch (const std::exception&) {
        fail(static_cast<int>(m) + 1, "the scores are not numbers in '" + trim(sl) + "'");
      }
      if (!names_read) {
        r.names = {trim(sl.substr(0, c1)), trim(mid.substr(used))};
        names_read = true;
      }
      if (s0 != s.score(Player::South) || s1 != s.score(Player::North))
        fail(static_cast<int>(m) + 1, "the score " + std::to_string(s0) + "-" + std::to_string(s1) +
                                          " does not follow from the games before (" +
                                          std::to_string(s.score(Player::South)) + "-" +
                                          std::to_string(s.score(Player::North)) + ")");
      n = m;
      continue;
    }
    if (game == 0) continue;  // text before the first game (comments, headers)
    for (const Entry& e : split_row(line)) {
      const std::string& x = e.text;
      if (x.rfind("Wins", 0) == 0) {
        int pts = 0;
        if (std::sscanf(x.c_str(), "Wins %6d", &pts) != 1) fail(ln, "cannot read '" + x + "'");
        if (s.games_played() != game) {
          // The game is not over: the other player resigned (the format writes only "Wins").
          if (s.phase() == Phase::Opening || s.is_over())
            fail(ln, "'" + x + "' but no game is in play");
          if (pts % s.cube() || pts / s.cube() < 1 || pts / s.cube() > 3)
            fail(ln,
                 "'" + x + "' is not 1, 2 or 3 times the cube (" + std::to_string(s.cube()) + ")");
          MatchRecord::Event ev;
          ev.resign = pts / s.cube();
          ev.resigner = opponent(e.who);
          r.events.push_back(ev);
          s.resign(ev.resigner, ev.resign);
          continue;
        }
        if (s.last_result().winner != e.who || s.last_result().points != pts)
          fail(ln, "'" + x + "' for " + std::string(name(e.who)) + " but naqala scores the game " +
                       std::to_string(s.last_result().points) + " for " +
                       std::string(name(s.last_result().winner)));
        continue;
      }
      if (s.is_over() || (game > 0 && s.games_played() == game))
        fail(ln, "'" + x + "' after the game ended");
      if (x.rfind("Doubles", 0) == 0) {
        if (s.phase() != Phase::TurnStart || s.to_move() != e.who)
          fail(ln, std::string(name(e.who)) + " cannot double now");
        add_move(Move::of(Move::Kind::Double), ln, "the double");
      } else if (x.rfind("Takes", 0) == 0 || x.rfind("Accepts", 0) == 0) {
        if (s.phase() != Phase::Doubled || s.to_move() != e.who)
          fail(ln, "no double for " + std::string(name(e.who)) + " to take");
        add_move(Move::of(Move::Kind::Take), ln, "the take");
      } else if (x.rfind("Drops", 0) == 0 || x.rfind("Rejects", 0) == 0) {
        if (s.phase() != Phase::Doubled || s.to_move() != e.who)
          fail(ln, "no double for " + std::string(name(e.who)) + " to drop");
        add_move(Move::of(Move::Kind::Drop), ln, "the drop");
      } else if (std::isdigit(static_cast<unsigned char>(x[0]))) {
        const int d0 = x[0] - '0', d1 = x[1] - '0';
        if (d0 < 1 || d0 > 6 || d1 < 1 || d1 > 6)
          fail(ln, "'" + x.substr(0, 3) + "' is not a roll of two dice 1-6");
        if (s.phase() == Phase::Opening) {
          if (d0 == d1) fail(ln, "an opening roll cannot be a double");
          const auto hi = static_cast<std::uint8_t>(std::max(d0, d1)),
                     lo = static_cast<std::uint8_t>(std::min(d0, d1));
          add_roll(e.who == Player::South ? Chance{hi, lo} : Chance{lo, hi});
        } else {
          if (s.to_move() != e.who)
            fail(ln, "it is " + std::string(name(s.to_move())) + "'s turn, not " +
                         std::string(name(e.who)) + "'s");
          if (s.phase() == Phase::TurnStart) add_move(Move::of(Move::Kind::Roll), ln, "rolling");
          if (s.phase() != Phase::Rolling)
            fail(ln, "a roll where " + std::string(name(s.to_move())) + " must decide");
          add_roll({static_cast<std::uint8_t>(std::max(d0, d1)),
                    static_cast<std::uint8_t>(std::min(d0, d1))});
        }
        const std::string move_text = trim(std::string_view(x).substr(3));
        std::optional<Move> m;
        if (move_text.empty()) {
          m = Move::of(Move::Kind::Pass);
          auto legal = std::make_unique<MoveList>();
          s.legal_moves(*legal);
          if (!legal->contains(*m)) continue;  // rolled, then resigned: "Wins" follows
        } else {
          m = s.parse_move(move_text);
          if (!m) fail(ln, "'" + move_text + "' is not move notation");
        }
        add_move(*m, ln, "'" + x + "'");
      } else {
        fail(ln, "'" + x + "' (beavers, raccoons and resignations are not supported)");
      }
    }
  }
  if (s.games_played() < game) {
    // The last game is unfinished: keep what was played.
  }
  return r;
}

}  // namespace naqala::backgammon
