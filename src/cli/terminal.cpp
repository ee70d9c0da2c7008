// Terminal width, wrapping and line editing for the interactive commands (see terminal.h).
#include "cli/terminal.h"

#include <editline/readline.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <vector>

#include "core/text_file.h"

namespace naqala::cli {

int terminal_width() {
  winsize ws{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
    return ws.ws_col;
  if (const char* c = std::getenv("COLUMNS"); c && std::atoi(c) >= 20) return std::atoi(c);
  return 80;
}

namespace {

// A line drawn rather than written (a board, a table, a rule of dashes): not re-flowed.
bool preformatted(const std::string& line) {
  return line.find("  ", line.find_first_not_of(' ')) != std::string::npos ||
         line.find('|') != std::string::npos || line.find("--") != std::string::npos;
}

// The indentation a continued line takes: the line's own, plus a list marker's width.
std::size_t hanging_indent(const std::string& line) {
  const std::size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return 0;
  if (line.compare(lead, 2, "- ") == 0 || line.compare(lead, 2, "* ") == 0) return lead + 2;
  std::size_t k = lead;
  while (k < line.size() && std::isdigit(static_cast<unsigned char>(line[k]))) ++k;
  if (k > lead && k + 1 < line.size() && (line[k] == '.' || line[k] == ')') && line[k + 1] == ' ')
    return k + 2;
  return lead;
}

}  // namespace

std::string wrap(const std::string& text, int width) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    if (static_cast<int>(line.size()) <= width || preformatted(line)) {
      out += line + "\n";
      continue;
    }
    const std::size_t lead = line.find_first_not_of(' ');
    const std::string first_indent(lead, ' '), next_indent(hanging_indent(line), ' ');
    std::istringstream words(line.substr(lead));
    std::string word, current = first_indent;
    bool empty = true;
    while (words >> word) {
      if (!empty && static_cast<int>(current.size() + 1 + word.size()) > width) {
        out += current + "\n";
        current = next_indent;
        empty = true;
      }
      current += (empty ? "" : " ") + word;
      empty = false;
    }
    out += current + "\n";
  }
  return out;
}

std::optional<std::string> read_line(const std::string& prompt) {
  if (!isatty(STDIN_FILENO)) {
    std::cout << prompt << std::flush;
    std::string line;
    if (!read_bounded_line(std::cin, line, "standard input")) return std::nullopt;
    return line;
  }
  std::cout << std::flush;
  char* raw = readline(prompt.c_str());
  if (!raw) return std::nullopt;
  std::string line(raw);
  std::free(raw);
  if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
  return line;
}

bool stderr_is_terminal() {
  return isatty(STDERR_FILENO);
}

}  // namespace naqala::cli
