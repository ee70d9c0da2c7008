// naqala mat import FILE.mat [--save RECORD] [--json]: read a .mat match file (gnubg,
// Jellyfish), replay it with naqala's rules, and optionally keep it as a naqala game record.
// naqala mat export RECORD [-o FILE.mat]: write a backgammon game record as a .mat file.
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/common.h"
#include "core/error.h"
#include "core/json_text.h"
#include "games/backgammon/family.h"
#include "games/backgammon/mat.h"
#include "games/registry.h"

namespace naqala::cli {

namespace {

using backgammon::MatchRecord;
using backgammon::State;

GameRecord to_record(const MatchRecord& m) {
  GameRecord r;
  State s(m.rules);
  for (const auto& e : m.events) {
    if (e.resign) {
      // Kept as the offer and its acceptance, which only the player on roll can make.
      const bool on_roll = e.resigner == s.to_move() && !s.is_chance_node() &&
                           s.phase() != backgammon::Phase::Doubled;
      if (!on_roll)
        throw Error(
            "a naqala record keeps a resignation only as an offer of the player on roll; in this "
            "match " +
            std::string(name(e.resigner)) + " resigned " +
            (s.is_chance_node() ? std::string("before a roll")
                                : "in " + std::string(name(s.to_move())) + "'s decision") +
            " (the .mat file itself imports; only --save cannot keep it)");
      r.plies.push_back({letter(e.resigner), backgammon::format_resignation(e.resign)});
      s.offer_resignation(e.resigner, e.resign);
      const backgammon::Move accept = backgammon::Move::of(backgammon::Move::Kind::Accept);
      r.plies.push_back({letter(s.to_move()), s.format_move(accept)});
      s.play(accept);
    } else if (e.is_roll) {
      r.plies.push_back({'*', s.format_chance(e.roll)});
      s.apply_chance(e.roll);
    } else {
      r.plies.push_back({letter(s.to_move()), s.format_move(e.move)});
      s.play(e.move);
    }
  }
  return r;
}

MatchRecord from_record(const GameRecord& rec) {
  auto [game, final_state] = replay_record(rec);  // checks every ply with the rules
  if (game->info().family != "backgammon")
    throw Error("a .mat file holds backgammon; this record's variant is " + game->spec());
  if (!rec.tag("Position").empty())
    throw Error("a .mat file starts from the opening; this record has a Position tag");
  const auto probe = game->new_game();
  const auto* start = dynamic_cast<const backgammon::BackgammonState*>(probe.get());
  MatchRecord m;
  m.rules = start->typed().rules();
  m.names = {rec.tag("South", "south"), rec.tag("North", "north")};
  State s = start->typed();
  for (const auto& p : rec.plies) {
    MatchRecord::Event e;
    if (auto k = backgammon::parse_resignation(p.text)) {
      s.offer_resignation(s.to_move(), *k);  // an offer alone leaves nothing in a .mat file
      continue;
    } else if (const int offered = s.resignation_offered()) {
      const backgammon::Move answer = *s.parse_move(p.text);  // replay_record checked it
      if (answer.kind == backgammon::Move::Kind::Accept) {
        // .mat files score a resignation by its points: the level the game counted.
        e.resign = s.resignation_value(offered);
        e.resigner = s.on_roll();
        m.events.push_back(e);
      }
      s.play(answer);
      continue;
    } else if (p.side == '*') {
      e.is_roll = true;
      e.roll = *s.parse_chance(p.text);
      s.apply_chance(e.roll);
    } else {
      e.move = *s.parse_move(p.text);
      s.play(e.move);
    }
    m.events.push_back(e);
  }
  return m;
}

}  // namespace

void add_mat_command(CLI::App& app) {
  auto* mat = app.add_subcommand(
      "mat", "Backgammon .mat match files (gnubg, Jellyfish): import, export, analyze");
  mat->require_subcommand(1);
  add_mat_analyze_command(*mat);

  auto* imp = mat->add_subcommand("import", "Read a .mat file and replay it with naqala's rules");
  struct ImportArgs {
    std::string file, save;
    bool json = false;
  };
  auto ia = std::make_shared<ImportArgs>();
  imp->add_option("file", ia->file, "The .mat file")->required();
  imp->add_option("--save", ia->save, "Write the match as a naqala game record (docs/records.md)");
  imp->add_flag("--json", ia->json, "Print JSON");
  imp->callback([ia] {
    const MatchRecord m = backgammon::import_mat(read_file(ia->file, ".mat file"));
    const State end = backgammon::replay(m);
    const std::string spec = backgammon::spec_of(m.rules);
    if (!ia->save.empty()) {
      GameRecord rec = to_record(m);
      auto game = make_game(spec);
      backgammon::BackgammonState final_state(end);
      rec = make_record(
          *game, "", rec.plies, final_state,
          {{"Event", "imported from " + ia->file}, {"South", m.names[0]}, {"North", m.names[1]}});
      std::ofstream out(ia->save);
      out << format_record(rec);
      if (!out) throw Error("cannot write '" + ia->save + "'");
    }
    int rolls = 0, decisions = 0;
    for (const auto& e : m.events) (e.is_roll ? rolls : decisions) += 1;
    if (ia->json) {
      std::cout << json_text(nlohmann::json{{"variant", spec},
                                            {"players", {m.names[0], m.names[1]}},
                                            {"games", end.games_played()},
                                            {"rolls", rolls},
                                            {"decisions", decisions},
                                            {"score",
                                             {end.score(Player::South), end.score(Player::North)}},
                                            {"finished", end.is_over()},
                                            {"position", end.position()}},
                             2)
                << "\n";
      return;
    }
    std::cout << ia->file << ": " << spec << ", " << m.names[0] << " (south) v " << m.names[1]
              << " (north), " << end.games_played() << " game(s), " << rolls << " rolls and "
              << decisions << " decisions, all legal; score " << end.score(Player::South) << "-"
              << end.score(Player::North) << (end.is_over() ? "" : " (unfinished)") << "\n";
    if (!ia->save.empty()) std::cout << "Record written to " << ia->save << ".\n";
  });

  auto* exp = mat->add_subcommand("export", "Write a backgammon game record as a .mat file");
  struct ExportArgs {
    std::string record, output;
  };
  auto ea = std::make_shared<ExportArgs>();
  exp->add_option("record", ea->record, "A naqala game record of a backgammon game or match")
      ->required();
  exp->add_option("-o,--output", ea->output, "The .mat file to write (default: standard output)");
  exp->callback([ea] {
    const std::string text =
        backgammon::export_mat(from_record(parse_record(read_file(ea->record, "record"))));
    if (ea->output.empty()) {
      std::cout << text;
      return;
    }
    std::ofstream out(ea->output);
    out << text;
    if (!out) throw Error("cannot write '" + ea->output + "'");
  });
}

}  // namespace naqala::cli
