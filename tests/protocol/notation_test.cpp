// The protocol's move and position forms: commas for spaces, Aualé's letters and positions.
#include "protocol/notation.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "games/registry.h"

namespace naqala::protocol {
namespace {

TEST(ProtocolNotation, SpacedMovesAreOneToken) {
  EXPECT_EQ(to_token("24/18 13/11"), "24/18,13/11");
  EXPECT_EQ(from_token("24/18,13/11"), "24/18 13/11");
  EXPECT_EQ(to_token("3"), "3");
}

TEST(ProtocolNotation, AualeFormIsForTwoBySixBoards) {
  EXPECT_TRUE(has_auale_form(*make_game("oware")));
  EXPECT_TRUE(has_auale_form(*make_game("kalah")));
  EXPECT_FALSE(has_auale_form(*make_game("toguz")));
  EXPECT_FALSE(has_auale_form(*make_game("backgammon")));
  EXPECT_FALSE(has_auale_form(*make_game("gabata")));
}

TEST(ProtocolNotation, AualeLettersAreEachSidesPits) {
  auto game = make_game("oware");
  auto state = game->new_game();
  EXPECT_EQ(play_auale_moves(*state, "Cf"), (std::vector<std::string>{"3", "6"}));
  EXPECT_EQ(state->to_move(), Player::South);
  // A letter of the side not to move is refused, naming it.
  try {
    play_auale_moves(*state, "a");
    FAIL() << "North's pit accepted with South to move";
  } catch (const IllegalMoveError& e) {
    EXPECT_NE(std::string(e.what()).find("North's pit 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(auale_letter("3", Player::South), "C");
  EXPECT_EQ(auale_letter("6", Player::North), "f");
  EXPECT_THROW(auale_letter("g3", Player::North), ParseError);
}

TEST(ProtocolNotation, AualePositionsRoundTrip) {
  const std::string start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
  EXPECT_EQ(position_from_auale(start), "4,4,4,4,4,4/4,4,4,4,4,4/0,0/S");
  EXPECT_EQ(position_to_auale("4,4,4,4,4,4/4,4,4,4,4,4/0,0/S"), start);
  EXPECT_EQ(position_to_auale("0,5,5,5,5,4/4,4,4,4,4,4/0,0/N"), "0-5-5-5-5-4-4-4-4-4-4-4-0-0-N");
  EXPECT_THROW(position_from_auale("4-4-4-S"), ParseError);
  EXPECT_THROW(position_from_auale("4-4-4-4-4-4-4-4-4-4-4-x-0-0-S"), ParseError);
  EXPECT_THROW(position_to_auale("4,4,4,4,4,4/4,4,4,4,4,4/0,0/S/round:2"), ParseError);
}

}  // namespace
}  // namespace naqala::protocol
