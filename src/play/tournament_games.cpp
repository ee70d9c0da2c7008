#include "play/tournament_games.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/rng.h"
#include "core/text_file.h"
#include "games/registry.h"
#include "play/atomic_write.h"
#include "play/record.h"

namespace naqala::play {

namespace fs = std::filesystem;
using nlohmann::json;

std::string game_record_path(const std::string& out_dir, const GameSlot& s) {
  char name[64];
  std::snprintf(name, sizeof name, "round%02d-pairing%02d-game%02d.txt", s.round, s.pairing,
                s.game);
  return (fs::path(out_dir) / name).string();
}

namespace {

json settings_json(const EngineTournament& t, const AnyGame& game, const TournamentSettings& s) {
  json settings = {{"variant", game.spec()},
                   {"format", to_string(s.format)},
                   {"engines", t.engines},
                   {"rounds", s.rounds},
                   {"games_per_pairing", s.games_per_pairing},
                   {"opening_plies", t.opening_plies},
                   {"seed", t.seed},
                   {"movetime", t.game.movetime},
                   {"clock", {t.game.clock_base, t.game.clock_increment}}};
  // Only a cap other than the default is kept, so directories written before it resume.
  if (t.game.max_plies != engine::EngineGameOptions{}.max_plies)
    settings["max_plies"] = t.game.max_plies;
  if (t.setup_plies >= 0) settings["setup_plies"] = t.setup_plies;
  return settings;
}

// The directory's settings must be this run's: its records are this tournament's games.
void claim_directory(const std::string& dir, const json& settings) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("--out " + dir + ": cannot create the directory: " + ec.message());
  const std::string path = (fs::path(dir) / "tournament.json").string();
  if (fs::exists(path)) {
    json old;
    try {
      old = json::parse(read_text_file(path, "tournament settings"));
    } catch (const json::exception& e) {
      throw Error(path + ": not valid JSON (" + e.what() + "); give another --out");
    }
    for (auto it = settings.begin(); it != settings.end(); ++it)
      if (!old.contains(it.key()) || old[it.key()] != it.value())
        throw Error("--out " + dir + " holds another tournament: its " + it.key() + " is " +
                    (old.contains(it.key()) ? old[it.key()].dump() : "missing") + ", this one's " +
                    it.value().dump() +
                    "; rerun with the same settings to resume it, or give "
                    "another --out");
    return;
  }
  write_atomically(path, settings.dump(2) + "\n");
}

double south_points_of(const std::string& result) {
  return result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5;
}

}  // namespace

EngineTournamentResult run_engine_tournament(const EngineTournament& t) {
  auto game = make_game(t.variant);
  TournamentSettings settings = t.settings;
  settings.players = static_cast<int>(t.engines.size());
  settings.rules = match_rules(game->info());
  settings = resolve(settings);
  const auto build = [&t](const AnyGame& g, const std::string& spec) {
    return t.make_engine ? t.make_engine(g, spec) : engine::make_engine(g, spec);
  };
  // Fail early if a spec is wrong.
  std::vector<std::unique_ptr<engine::Engine>> engines;
  for (const auto& spec : t.engines) engines.push_back(build(*game, spec));
  if (!t.out_dir.empty()) claim_directory(t.out_dir, settings_json(t, *game, settings));

  EngineTournamentResult result;
  const PlayGame play = [&](const GameSlot& slot) -> double {
    const std::string& south = t.engines[slot.south];
    const std::string& north = t.engines[slot.north];
    const std::string path = t.out_dir.empty() ? "" : game_record_path(t.out_dir, slot);
    if (!path.empty() && fs::exists(path)) {
      // Played by an earlier run: its record says how it ended.
      GameRecord rec;
      try {
        rec = parse_record(read_text_file(path, "game record"));
      } catch (const Error& e) {
        throw Error(path + ": " + e.what() + " (delete the file to play that game again)");
      }
      const std::string r = rec.tag("Result");
      if (rec.tag("South") != south || rec.tag("North") != north ||
          (r != "1-0" && r != "0-1" && r != "1/2-1/2"))
        throw Error(path + ": holds " + rec.tag("South") + " vs " + rec.tag("North") + ", " + r +
                    "; this tournament's game is " + south + " vs " + north +
                    " with a result (delete the file to play that game again)");
      ++result.read_back;
      if (t.progress) t.progress(slot, r, true);
      return south_points_of(r);
    }
    // Both games of a colour-swapped pair start from the same opening.
    const std::uint64_t key = t.seed * 1000003 + static_cast<std::uint64_t>(slot.round) * 10007 +
                              static_cast<std::uint64_t>(slot.pairing) * 101 +
                              static_cast<std::uint64_t>((slot.game + 1) / 2);
    const std::string start =
        engine::make_openings(*game, 1, t.opening_plies, key, t.setup_plies)[0];
    Rng dice(key * 2 + static_cast<std::uint64_t>(slot.game));
    const engine::EngineGame played = engine::play_engine_game(
        *game, start, {engines[slot.south].get(), engines[slot.north].get()}, {south, north},
        t.game, dice);
    ++result.played_now;
    if (!path.empty()) {
      auto state = game->from_position(start);
      std::vector<GameRecord::Ply> plies;
      for (const auto& [side, text] : played.moves) {
        if (side == '*')
          state->apply_chance(text);
        else
          state->play(text);
        plies.push_back({side, text});
      }
      GameRecord rec =
          make_record(*game, start, plies, *state,
                      {{"Event", "naqala tournament"},
                       {"Round", std::to_string(slot.round) + "." + std::to_string(slot.pairing)},
                       {"Game", std::to_string(slot.game)},
                       {"South", south},
                       {"North", north}});
      if (!state->is_over()) {
        // Lost by an engine's failure, or adjudicated: the record says so.
        rec.result = played.result;
        rec.set_tag("Result", played.result);
        rec.set_tag("Termination", played.end);
        if (!played.failure.empty()) rec.set_tag("Failure", played.failure);
      }
      write_atomically(path, format_record(rec));
    }
    if (t.progress) t.progress(slot, played.result, false);
    return played.south_points;
  };
  result.tournament = run_tournament(settings, play);
  return result;
}

}  // namespace naqala::play
