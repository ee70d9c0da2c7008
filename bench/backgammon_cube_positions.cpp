// naqala_bg_cube_positions: contact positions where doubling is a question, with naqala's
// money cube decision at 0, 1 and 2 plies, for scripts/yardstick/bg_cube_compare.py to set
// beside gnubg's (docs/games/backgammon.md, "Contact doubling against gnubg"). Not a test.
//
//   naqala_bg_cube_positions [--positions N] [--seed S] [--net FILE]
//
// Positions come from the net's cubeless 0-ply self-play (dice from the seed): before a roll,
// contact (or crashed), the side on roll with a cubeless equity of 0.15 or more at 0 ply,
// one in four of them kept. One line each: the gnubg ID (centred cube of 1, money, no
// Jacoby, not rolled), the class, the pip counts, then for each of 0, 1, 2 plies the
// cubeless win and gammon chances and the no double / double take / double pass equities
// and verdict, tab-separated.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "core/rng.h"
#include "eval/backgammon_cube.h"
#include "games/backgammon/formats.h"
#include "search/backgammon_ply.h"

using namespace naqala;
using namespace naqala::backgammon;

int main(int argc, char** argv) {
  int positions = 200;
  std::uint64_t seed = 5;
  std::string net_file;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s needs a value\n", a.c_str());
      return 2;
    }
    const std::string v = argv[++i];
    if (a == "--positions")
      positions = std::atoi(v.c_str());
    else if (a == "--seed")
      seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--net")
      net_file = v;
    else {
      std::fprintf(stderr, "unknown flag %s (--positions N, --seed S, --net FILE)\n", a.c_str());
      return 2;
    }
  }
  std::unique_ptr<bgnet::Net> own;
  if (!net_file.empty()) own = std::make_unique<bgnet::Net>(bgnet::Net::load(net_file));
  const bgnet::Net& net = own ? *own : bgeval::shipped_net();
  Rng rng(seed);
  auto moves = std::make_unique<MoveList>();
  int found = 0;
  while (found < positions) {
    Board b = start_board();
    for (int ply = 0; ply < 400 && found < positions; ++ply) {
      if (ply > 0 && bgnet::classify(b[0], b[1]) != bgnet::PositionClass::Race &&
          bgeval::on_roll(net, b[0], b[1]).equity() >= 0.15f && rng.below(4) == 0) {
        MatchKey key;
        key.on_roll = key.turn = 0;
        std::printf("%s:%s\t%s\t%d\t%d", encode_position_id(b, Player::South).c_str(),
                    encode_match_id(key).c_str(), bgnet::class_name(bgnet::classify(b[0], b[1])),
                    pip_count(b[0]), pip_count(b[1]));
        for (int plies = 0; plies <= 2; ++plies) {
          const bgnet::Probs p = bgsearch::evaluate_on_roll(net, b, plies);
          const auto d = bgcube::money_decision(p, bgcube::Access::Centred, bgcube::stage_of(b));
          std::printf("\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%s", p[0], p[1], d.no_double, d.double_take,
                      d.double_pass, d.verdict.c_str());
        }
        std::printf("\n");
        std::fflush(stdout);
        ++found;
      }
      int d0 = 1 + static_cast<int>(rng.below(6)), d1 = 1 + static_cast<int>(rng.below(6));
      if (ply == 0)
        while (d0 == d1) d0 = 1 + static_cast<int>(rng.below(6));
      generate_moves(b, Player::South, d0, d1, *moves);
      Board best_board = b;
      float best = -10;
      for (const auto& m : *moves) {
        Board after = b;
        apply_steps(after, Player::South, m);
        const float eq = bgeval::after_move(net, after[0], after[1]).equity();
        if (eq > best) best = eq, best_board = after;
      }
      if (checkers_off(best_board[0]) == kCheckers) break;
      b = {best_board[1], best_board[0]};
    }
  }
  return 0;
}
