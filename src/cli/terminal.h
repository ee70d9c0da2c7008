#pragma once
// The terminal as the commands see it: its width, text wrapped to it, a line editor with
// history (libedit) when the input is a terminal, and whether stderr is one (progress lines).
#include <optional>
#include <string>

namespace naqala::cli {

// Columns of the terminal on stdout (COLUMNS, else 80 when it is not a terminal).
int terminal_width();

// Text wrapped at `width` columns: paragraphs re-flowed, a line's indentation (and a list
// item's hanging indent) kept, lines that look like tables or boards left as they are.
std::string wrap(const std::string& text, int width);

// A line read after `prompt`, with editing and history (arrow keys, Ctrl-R) on a terminal and
// plain reading otherwise; nullopt at the end of the input.
std::optional<std::string> read_line(const std::string& prompt);

// Progress that redraws itself ("\r") only on a terminal; elsewhere (a log file) one line
// now and then.
bool stderr_is_terminal();

}  // namespace naqala::cli
