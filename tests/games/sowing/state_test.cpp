// Positions, records and random-game invariants for every sowing preset.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/rng.h"
#include "games/registry.h"
#include "games/typed_state.h"
#include "play/record.h"
#include "sowing_test_util.h"

namespace naqala::sowing {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kVariants = {"kalah",
                                            "kalah:seeds=6",
                                            "kalah:empty_capture=true",
                                            "bantumi",
                                            "bantumi:counting=nokia",
                                            "oware",
                                            "oware:grand_slam=forbidden",
                                            "oware:grand_slam=capture_all",
                                            "oware:skip_12=true",
                                            "oware:cycle=draw"};

int total_seeds(const State& s) {
  int sum = 0;
  for (int h = 0; h < s.rules().holes; ++h) sum += s.seeds(h);
  return sum;
}

TEST(SowingState, RandomGamesKeepEverySeedAndEnd) {
  for (const auto& v : kVariants) {
    auto game = make_game(v);
    auto any = game->new_game();
    auto& typed = dynamic_cast<TypedState<State>&>(*any);
    Rng rng(99);
    for (int g = 0; g < 300; ++g) {
      TypedState<State> s = typed;
      int plies = 0;
      while (!s.is_over()) {
        State::MoveList moves;
        s.typed().legal_moves(moves);
        ASSERT_FALSE(moves.empty()) << v << " " << s.position();
        for (auto m : moves)
          ASSERT_GT(s.typed().pit(s.to_move(), m), 0) << v;  // never an empty pit
        s.play_typed(moves[rng.below(moves.size())]);
        ASSERT_EQ(total_seeds(s.typed()), s.typed().rules().total_seeds) << v;
        ASSERT_LT(++plies, 5000) << v << ": the game did not end";
      }
      const Outcome o = s.outcome();
      EXPECT_NE(o.reason, EndReason::None);
      if (o.winner) {
        EXPECT_GE(o.scores[index(*o.winner)], o.scores[index(opponent(*o.winner))]) << v;
      }
    }
  }
}

TEST(SowingState, PositionsRoundTrip) {
  for (const auto& v : kVariants) {
    auto game = make_game(v);
    auto s = game->new_game();
    Rng rng(5);
    while (!s->is_over()) {
      auto back = game->from_position(s->position());
      EXPECT_EQ(back->position(), s->position());
      EXPECT_EQ(back->hash(), s->hash());
      EXPECT_EQ(back->legal_moves(), s->legal_moves());
      auto moves = s->legal_moves();
      s->play(moves[rng.below(moves.size())]);
    }
  }
}

TEST(SowingState, BadPositionsAreRefusedWithTheReason) {
  auto game = make_game("kalah");
  auto err = [&](const std::string& p) {
    try {
      game->from_position(p);
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_THAT(err("4,4,4/4,4,4/0,0/S"), HasSubstr("3 pits"));
  EXPECT_THAT(err("4,4,4,4,4,4/4,4,4,4,4,4/0,0"), HasSubstr("not 4"));
  EXPECT_THAT(err("4,4,4,4,4,4/4,4,4,4,4,4/0,0/X"), HasSubstr("S or N"));
  EXPECT_THAT(err("4,4,4,4,4,x/4,4,4,4,4,4/0,0/S"), HasSubstr("'x' is not a seed count"));
  EXPECT_THAT(err("4,4,4,4,4,5/4,4,4,4,4,4/0,0/S"), HasSubstr("holds 49 seeds"));
}

TEST(SowingState, BadMovesAreRefusedWithTheLegalMoves) {
  auto s = make_game("kalah")->from_position("0,4,4,4,4,4/4,4,4,4,4,4/4,0/S");
  try {
    s->play("1");
    FAIL();
  } catch (const IllegalMoveError& e) {
    EXPECT_THAT(e.what(), HasSubstr("legal moves: 2 3 4 5 6"));
  }
  EXPECT_THROW(s->play("7"), ParseError);
  EXPECT_THROW(s->play("two"), ParseError);
  EXPECT_EQ(s->position(), "0,4,4,4,4,4/4,4,4,4,4,4/4,0/S");  // nothing changed
}

TEST(Record, WriteReadReplayRoundTrip) {
  auto game = make_game("kalah:seeds=5");
  auto s = game->new_game();
  const std::string start = s->position();
  std::vector<GameRecord::Ply> plies;
  Rng rng(3);
  while (!s->is_over()) {
    auto moves = s->legal_moves();
    const auto m = moves[rng.below(moves.size())];
    plies.push_back({letter(s->to_move()), m});
    s->play(m);
  }
  GameRecord rec = make_record(*game, start, plies, *s, {{"South", "alice"}, {"North", "bob"}});
  const std::string text = format_record(rec);
  EXPECT_THAT(text, HasSubstr("[Variant \"kalah:seeds=5\"]"));
  EXPECT_THAT(text, HasSubstr("[South \"alice\"]"));
  GameRecord back = parse_record(text);
  EXPECT_EQ(format_record(back), text);
  auto [g2, final_state] = replay_record(back);
  EXPECT_EQ(final_state->position(), s->position());
  EXPECT_EQ(back.result, s->outcome().result_tag());
}

TEST(Record, ErrorsNameTheLineOrPly) {
  EXPECT_THROW(parse_record("[Variant kalah]\n"), ParseError);
  try {
    parse_record("[Variant \"kalah\"]\n\n1. S 3\n3. S 6\n");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr("line 4"));
  }
  try {
    replay_record(parse_record("[Variant \"kalah\"]\n\n1. S 3\n2. N 6\n"));
    FAIL();
  } catch (const IllegalMoveError& e) {
    EXPECT_THAT(e.what(), HasSubstr("ply 2"));  // after 3 South moves again (extra turn)
  }
}

}  // namespace
}  // namespace naqala::sowing
