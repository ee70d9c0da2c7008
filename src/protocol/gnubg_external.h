#pragma once
// gnubg's external-player socket, served: gnubg (`set player 1 external localhost:PORT`)
// connects, sends each decision of its external player as a FIBS board string seen from that
// player's side, and reads back one line: a checker move in gnubg's notation, `double`,
// `roll`, `take`, `drop`, or an empty line when the dice cannot be played. What `naqala
// external --port N` runs, so that gnubg's own interface can play naqala's backgammon engine.
#include <functional>
#include <string>

#include "engine/engine.h"
#include "games/backgammon/backgammon.h"
#include "games/backgammon/formats.h"

namespace naqala::protocol {

// The state a board describes, the player to decide (You) being North; while a double is
// pending (gnubg writes the board from the doubler's side) the decision is You's take or
// drop. Throws ParseError for a board that is not a position.
backgammon::State state_from_fibs_board(const backgammon::FibsBoard& board);

// The answer to one board line, by `engine` (a backgammon engine of make_engine). Throws
// naqala::Error for a line that is not a board or a position with nothing to decide.
std::string answer_fibs_board(const std::string& line, engine::Engine& engine);

struct ExternalServerOptions {
  int port = 0;                    // 0: any free port (announced through `listening`)
  std::string engine = "level:8";  // the engine spec
  int connections = 0;             // serve this many connections, then return (0: forever)
  std::function<void(int port)> listening;
  std::function<void(const std::string& message)> log;  // errors and connections
};

// Listens on 127.0.0.1 and answers boards, one connection at a time. A line that cannot be
// answered is logged and answered with an empty line; the connection goes on. Throws
// naqala::Error when the port cannot be opened.
void serve_gnubg_external(const ExternalServerOptions& options);

}  // namespace naqala::protocol
