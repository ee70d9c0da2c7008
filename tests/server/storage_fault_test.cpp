// A database that cannot grow, as on a full disk: what the players asked is refused with a clear
// error (503), the game stays as stored, play goes on once the disk has room, and nothing that
// was acknowledged is lost (docs/server.md, "Load and faults").
#include <sys/resource.h>

#include <csignal>
#include <string>

#include "server/store.h"
#include "server/test_client.h"

namespace {

using namespace naqala::testing;

// While it lives, no file of this process may grow: a write past a file's end fails (EFBIG), as
// on a full disk. The database's write-ahead log grows with every commit, so its next commit
// fails; reads still work.
class DiskFull {
 public:
  DiskFull() {
    getrlimit(RLIMIT_FSIZE, &saved_);
    handler_ = std::signal(SIGXFSZ, SIG_IGN);  // else the kernel kills the process
    rlimit none = saved_;
    none.rlim_cur = 0;
    setrlimit(RLIMIT_FSIZE, &none);
  }
  ~DiskFull() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, handler_);
  }
  DiskFull(const DiskFull&) = delete;
  DiskFull& operator=(const DiskFull&) = delete;

 private:
  rlimit saved_{};
  void (*handler_)(int) = nullptr;
};

json game_view(unsigned short port, const std::string& id) {
  return request(port, http::verb::get, "/api/games/" + id).json_body();
}

TEST_F(ServerTest, AFullDiskRefusesWhatCannotBeStoredAndLosesNothing) {
  const std::string ann = new_player(port_, "ann"), bob = new_player(port_, "bob");
  const std::string id = post(port_, "/api/games",
                              {{"token", ann}, {"variant", "kalah"}, {"opponent", "human"}})["id"];
  json last;
  {
    Ws a(port_), b(port_);
    take_seats(a, ann, b, bob, id);
    ASSERT_FALSE(playing_view(a).is_null());
    a.send({{"type", "move"}, {"game", id}, {"move", "1"}});
    const json stored = a.game_with_plies(id, 1);
    ASSERT_FALSE(stored.is_null());
    ASSERT_EQ(stored["to_move"], "north");

    {
      DiskFull full;
      b.send({{"type", "move"}, {"game", id}, {"move", "2"}});
      const json refused = b.error_reply();
      EXPECT_EQ(refused["status"], 503) << refused;
      EXPECT_NE(refused["message"].get<std::string>().find("could not store"), std::string::npos)
          << refused;
      b.send({{"type", "resign"}, {"game", id}});
      EXPECT_EQ(b.error_reply()["status"], 503);
      // The game is as stored: the refused move and resignation are not in it.
      const json now = game_view(port_, id);
      EXPECT_EQ(now["plies"], stored["plies"]);
      EXPECT_EQ(now["board"], stored["board"]);
      EXPECT_EQ(now["status"], "playing");
      EXPECT_EQ(now["to_move"], "north");
      // So is a new game over HTTP.
      const Reply created =
          request(port_, http::verb::post, "/api/games",
                  json{{"token", ann}, {"variant", "oware"}, {"opponent", "human"}}.dump());
      EXPECT_EQ(created.status, 503) << created.body;
    }

    // The disk has room again: the same move is played, and play goes on.
    b.send({{"type", "move"}, {"game", id}, {"move", "2"}});
    ASSERT_FALSE(a.game_with_plies(id, 2).is_null());
    a.send({{"type", "move"}, {"game", id}, {"move", "2"}});
    last = a.game_with_plies(id, 3);
    ASSERT_FALSE(last.is_null());
  }

  restart();
  const json after = game_view(port_, id);
  EXPECT_EQ(after["plies"], last["plies"]);
  EXPECT_EQ(after["board"], last["board"]);
  EXPECT_EQ(after["status"], "playing");
  naqala::server::Store store(db_.string());
  EXPECT_EQ(store.moves(id).size(), 3u);
}

}  // namespace
