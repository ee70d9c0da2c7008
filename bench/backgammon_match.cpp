// naqala_bg_match: money games or matches between naqala's neural engine and an opponent, to
// measure strength (docs/games/backgammon.md, "Strength"). Not a test: it runs for minutes to
// hours, under nice, in the background.
//
//   naqala_bg_match --opponent gnubg|pubeval|FILE --games N [--plies P] [--seed S] [--net FILE]
//                   [--cube] [--match N] [--cubeless-play] [--cube-life C,R]
//                   [--rival-cube-life C,R] [--rival-cubeless-play] [--log FILE]
//
// Without --cube and --match the games are cubeless money games. --cube plays money games with
// the cube; --match N plays N-point matches (with the cube and the Crawford rule), and N
// counts matches. naqala's cube decisions are the engine's (bgcube::cube_action on the net's
// chances at --plies, at most 1), and in money play with the cube its checker play is
// cubeful (--cubeless-play: cubeless, as before; --rival-cubeless-play for a rival weight
// file); --cube-life sets the cube life (Janowski's x)
// in contact and in a race, --rival-cube-life the rival weight file's; against pubeval the
// cube is not available. gnubg plays without the Jacoby rule and beavers, as these games do.
// --net names naqala's weight file (default: the shipped weights); an opponent FILE is another
// weight file played by the same 0-ply (or --plies) search: a new net against the previous one.
// Games come in pairs with the same dice (the same seed for the roll sequence), naqala South
// in the first and North in the second, which cuts the luck. gnubg runs as an engine behind
// `external localhost:PORT` at 0 ply (its own network, no noise) and gets FIBS boards. Prints
// naqala's points per game (or share of matches won) with a 95% margin, every 100 pairs and
// at the end. gnubg ranks its checker plays cubeless in cubeless games (bgbench::engine_commands).
// --log FILE writes a line per game: the pair, 0 (naqala South) or 1, naqala's points, and
// each checker decision as mover (n naqala, o the opponent), the position ID from the mover's
// side and the dice; the players are deterministic, so two builds' logs compare game by game.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "backgammon_gnubg_engine.h"
#include "core/rng.h"
#include "eval/backgammon_cube.h"
#include "eval/backgammon_pubeval.h"
#include "games/backgammon/formats.h"
#include "search/backgammon_ply.h"

using namespace naqala;
using namespace naqala::backgammon;

int main(int argc, char** argv) {
  std::string rival = "gnubg", net_file, log_file;
  int pairs = 100, plies = 0, match = 0;
  bool cube = false, cubeless_play = false, rival_cubeless_play = false;
  // Cube lives (contact, race) of naqala and of a rival weight file; negative: the defaults.
  std::array<float, 2> life{-1, -1}, rival_life{-1, -1};
  const auto read_life = [](const std::string& v, std::array<float, 2>& out) {
    return std::sscanf(v.c_str(), "%f,%f", &out[0], &out[1]) == 2 && out[0] >= 0 && out[0] <= 1 &&
           out[1] >= 0 && out[1] <= 1;
  };
  std::uint64_t seed = 1;
  for (int i = 1; i < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--cube" || k == "--cubeless-play" || k == "--rival-cubeless-play") {
      (k == "--cube" ? cube : k == "--cubeless-play" ? cubeless_play : rival_cubeless_play) = true;
      --i;
      continue;
    }
    const std::string v = i + 1 < argc ? argv[i + 1] : "";
    if (k == "--opponent")
      rival = v;
    else if (k == "--games")
      pairs = std::max(1, std::atoi(v.c_str()) / 2);
    else if (k == "--plies")
      plies = std::atoi(v.c_str());
    else if (k == "--seed")
      seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (k == "--net")
      net_file = v;
    else if (k == "--log" && !v.empty())
      log_file = v;
    else if (k == "--match" && std::atoi(v.c_str()) > 0)
      match = std::atoi(v.c_str());
    else if (k == "--cube-life" && read_life(v, life))
      continue;
    else if (k == "--rival-cube-life" && read_life(v, rival_life))
      continue;
    else {
      std::fprintf(
          stderr,
          "bad option %s (allowed: --opponent gnubg|pubeval|FILE, --games N, --plies P, --seed "
          "S, --net FILE, --cube, --match N with N >= 1, --cubeless-play, --rival-cubeless-play, "
          "--cube-life C,R and "
          "--rival-cube-life C,R with C and R in [0, 1], --log FILE)\n",
          k.c_str());
      return 2;
    }
  }
  std::unique_ptr<bgnet::Net> own, rival_net;
  try {
    if (!net_file.empty()) own = std::make_unique<bgnet::Net>(bgnet::Net::load(net_file));
    if (rival != "gnubg" && rival != "pubeval")
      rival_net = std::make_unique<bgnet::Net>(bgnet::Net::load(rival));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s (--opponent is gnubg, pubeval or a weight file)\n", e.what());
    return 2;
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> game_log(
      log_file.empty() ? nullptr : std::fopen(log_file.c_str(), "w"), &std::fclose);
  if (!log_file.empty() && !game_log) {
    std::fprintf(stderr, "cannot write the log file %s\n", log_file.c_str());
    return 2;
  }
  std::string record;  // this game's decisions, for the log
  if ((cube || match) && rival == "pubeval") {
    std::fprintf(stderr, "pubeval has no cube: --cube and --match need gnubg or a weight file\n");
    return 2;
  }
  bgbench::GnubgEngine gnubg;
  if (rival == "gnubg" && !gnubg.start("/usr/games/gnubg", !cube && !match)) {
    std::fprintf(stderr, "could not start gnubg as an external engine\n");
    return 1;
  }
  const bgnet::Net& net = own ? *own : bgeval::shipped_net();
  bgsearch::Config config;
  config.plies = plies;
  config.threads = 1;
  auto moves = std::make_unique<MoveList>();
  Rules rules;
  rules.cube = cube || match > 0;
  rules.match = match;
  // The engine's cube rules on a net's chances, for the player to decide.
  const auto cube_move = [&](const bgnet::Net& n, const State& s, const Board& b) {
    return bgcube::cube_action(s, bgsearch::evaluate_on_roll(n, b, std::min(plies, 1)));
  };
  // The engine's checker play: cubeful in money play with the cube (unless --cubeless-play).
  const auto best_move = [&](const bgnet::Net& n, const State& s, const Board& b, bool cubeless) {
    bgsearch::Config c = config;
    if (!cubeless) c.cube = bgsearch::cube_of(s);
    return bgsearch::rank_moves(n, b, s.die(0), s.die(1), c).moves[0].move;
  };
  // Each net decides with its own cube life (one thread: the setting is the process's).
  const auto use_life = [](const std::array<float, 2>& l) {
    bgcube::set_cube_life(l[0] >= 0 ? l[0] : 0.68f, l[1] >= 0 ? l[1] : 0.85f);
  };
  double sum = 0, sum_sq_pairs = 0;
  int games = 0, played = 0, wins = 0, gammons = 0, lost_gammons = 0;
  // Cube actions (double, take, drop) of naqala [0] and its opponent [1].
  int cube_actions[2][3] = {};
  const auto start = std::chrono::steady_clock::now();
  for (int pair = 0; pair < pairs; ++pair) {
    double pair_points = 0;
    for (int g = 0; g < 2; ++g) {
      const Player naqala_side = g == 0 ? Player::South : Player::North;
      Rng dice(seed * 1000003 + pair);
      State s(rules);
      while (!s.is_over()) {
        if (s.is_chance_node()) {
          Chance c = throw_dice(s, dice);
          // The same rolls for the same player whatever the colours: swap the opening dice.
          if (g == 1 && s.phase() == Phase::Opening) std::swap(c.a, c.b);
          s.apply_chance(c);
          continue;
        }
        s.legal_moves(*moves);
        if (moves->size() == 1) {
          s.play((*moves)[0]);
          continue;
        }
        const Player me = s.on_roll();
        const Board b{s.side(me), s.side(opponent(me))};
        const bool cube_turn = s.phase() != Phase::Moving;
        if (game_log && !cube_turn)
          record += std::string(s.to_move() == naqala_side ? " n" : " o") +
                    encode_position_id(b, me) + ":" + std::to_string(s.die(0)) +
                    std::to_string(s.die(1));
        const auto play_counting_cube = [&](const Move& m) {
          const int who = s.to_move() == naqala_side ? 0 : 1;
          if (m.kind == Move::Kind::Double) ++cube_actions[who][0];
          if (m.kind == Move::Kind::Take) ++cube_actions[who][1];
          if (m.kind == Move::Kind::Drop) ++cube_actions[who][2];
          s.play(m);
        };
        use_life(s.to_move() == naqala_side ? life : rival_life);
        if (cube_turn && s.to_move() == naqala_side) {
          play_counting_cube(cube_move(net, s, b));
        } else if (cube_turn && rival_net) {
          play_counting_cube(cube_move(*rival_net, s, b));
        } else if (s.to_move() == naqala_side) {
          s.play(best_move(net, s, b, cubeless_play));
        } else if (rival_net) {
          s.play(best_move(*rival_net, s, b, rival_cubeless_play));
        } else if (rival == "pubeval") {
          backgammon::generate_moves(b, Player::South, s.die(0), s.die(1), *moves);
          s.play((*moves)[pubeval::choose(b, *moves)]);
        } else {
          const std::string board = write_fibs_board(fibs_board_of(s, "naqala", "gnubg"));
          const std::string answer = gnubg.ask(board);
          // naqala has no beavers: a beaver is at least a take.
          const bool beaver = s.phase() == Phase::Doubled && answer == "beaver";
          const auto move = beaver ? Move::of(Move::Kind::Take) : s.parse_move(answer);
          if (!move || !moves->contains(*move)) {
            std::fprintf(stderr, "gnubg answered '%s' to %s\n", answer.c_str(), board.c_str());
            return 1;
          }
          play_counting_cube(*move);
        }
      }
      const auto& res = s.last_result();
      const Player winner = match ? s.outcome().winner.value_or(res.winner) : res.winner;
      // A match counts +1 won, -1 lost; a money game its points.
      const double points = (winner == naqala_side ? 1 : -1) * (match ? 1 : res.points);
      if (game_log) {
        std::fprintf(game_log.get(), "%d %d %+g%s\n", pair, g, points, record.c_str());
        std::fflush(game_log.get());
        record.clear();
      }
      pair_points += points;
      sum += points;
      ++games;
      played += s.games_played();
      if (winner == naqala_side) {
        ++wins;
        gammons += res.multiplier >= 2;
      } else {
        lost_gammons += res.multiplier >= 2;
      }
    }
    sum_sq_pairs += pair_points * pair_points / 4;
    const int n = pair + 1;
    if (n % 100 == 0 || n == pairs) {
      // The margin from the spread of the pairs' averages (the pairs are independent).
      const double mean = sum / games;
      const double var = sum_sq_pairs / n - mean * mean;
      const double margin = 1.96 * std::sqrt(std::max(0.0, var) / n);
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (match)
        std::printf(
            "naqala %d-ply vs %s, %d-point matches: %d matches (%d games), naqala won %.3f +- "
            "%.3f (95%%); %.0f s\n",
            plies, rival.c_str(), match, games, played, (mean + 1) / 2, margin / 2, secs);
      else
        std::printf(
            "naqala %d-ply vs %s%s: %d games, naqala %+.3f ppg +- %.3f (95%%), won %d (%d "
            "gammons), lost %d gammons; %.0f s\n",
            plies, rival.c_str(), cube ? " with the cube" : "", games, mean, margin, wins, gammons,
            lost_gammons, secs);
      if (cube || match)
        std::printf("  doubles / takes / drops: naqala %d / %d / %d, %s %d / %d / %d\n",
                    cube_actions[0][0], cube_actions[0][1], cube_actions[0][2], rival.c_str(),
                    cube_actions[1][0], cube_actions[1][1], cube_actions[1][2]);
      std::fflush(stdout);
    }
  }
  return 0;
}
