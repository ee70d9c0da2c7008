// How a move is typed, per family (docs/notation.md, docs/games/bao.md, docs/games/omweso.md,
// docs/games/backgammon.md), then the commands every game has.
#include "cli/play_help.h"

namespace naqala::cli {

namespace {

const char* kSowing =
    "A move is the number of one of your pits, counted from your own left (1, 2, ...). Some games "
    "add a letter or a form, as the list of legal moves shows: Toguz Korgool's 3t (sow pit 3 and "
    "make a tuz), a setup S3=4 (4 seeds into pit S3; several at once: S1=4 S2=4 ..., or just the "
    "counts: 4 4 4 ...), keep or swap (the pie rule), claim:1+3 (Nam-Nam's rounds).\n";

const char* kBao =
    "A move is a pit and a direction: f1< sows toward your own left, f1> toward your right (read "
    "along the pit's row; from a1, < goes round the corner into a2). Your pits are a1-h1 (front "
    "row) and a2-h2 (back row), counted from your left; North's are A1-H2. In the namua stage the "
    "pit is the front pit that takes the seed from your hand; a capture's direction is the way the "
    "captured seeds are sown (< from h1, > from a1). A + after the move (e1<+) sows the nyumba on "
    "when the move stops in it.\n";

const char* kOmweso =
    "Setup: place your 32 seeds pit by pit as a1=4, or a whole row in one line: a1=4 b1=4 c1=4 "
    "d1=4 e1=4 f1=4 g1=4 h1=4, or just the counts: 4 4 4 4 4 4 4 4 (pits in the setup order: front "
    "row a1-h1, then back row a2-h2; the last pit takes what remains). Play: a pit and a "
    "direction, a1< toward your left, a1> toward your right (only the four reverse pits a1, b1, "
    "a2, b2 may go clockwise).\n";

const char* kBackgammon =
    "Moves are written as gnubg writes them, points counted from your side (your home board is "
    "1-6): 24/18 13/11, bar/22* (enter and hit), 6/off (bear off), 8/4(2) (two checkers), "
    "24/20*/16 (one checker hitting on the way). Any way of writing the same play is taken. At the "
    "start of your turn: roll, or double. When doubled: take or drop. With no play for the dice: "
    "pass. To offer to resign, on your turn: resign single, resign gammon or resign backgammon; "
    "the opponent accepts (the game ends, scored at that value times the cube) or declines (play "
    "goes on; offer more or play). Answer an offer with accept or decline. X is South and O is "
    "North throughout; the board is drawn from the side of the player to move, so the point "
    "numbers match his moves.\n";

// The commands, with what undo does to dice only where there are dice.
std::string commands(bool dice) {
  return std::string(
             "Commands: moves (the legal moves), hint (ask the computer), undo (take back "
             "your last move") +
         (dice ? "; dice already rolled stay rolled" : "") +
         "), board (show the board), rules, save [FILE], help, quit. Arrow keys edit the line "
         "and walk through what you typed before.\n";
}

}  // namespace

std::string play_help(const AnyGame& game) {
  const std::string family = game.info().family;
  const char* moves = family == "backgammon" ? kBackgammon
                      : family == "bao"      ? kBao
                      : family == "omweso"   ? kOmweso
                                             : kSowing;
  return std::string(moves) + commands(family == "backgammon");
}

}  // namespace naqala::cli
