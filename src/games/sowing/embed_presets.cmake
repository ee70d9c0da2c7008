# Writes OUT: a C++ file holding every preset TOML of PRESET_DIR as a string, so the presets
# ship inside the binary.
file(GLOB files "${PRESET_DIR}/*.toml")
list(SORT files)
set(body "// Generated from src/games/sowing/presets/*.toml by embed_presets.cmake.\n#include \"games/sowing/rules_toml.h\"\n\nnamespace naqala::sowing {\n\nconst std::vector<Preset>& presets() {\n  static const std::vector<Preset> list = {\n")
foreach(f ${files})
  get_filename_component(name "${f}" NAME_WE)
  file(READ "${f}" text)
  string(APPEND body "      {\"${name}\", R\"naqala_toml(${text})naqala_toml\"},\n")
endforeach()
string(APPEND body "  };\n  return list;\n}\n\n}  // namespace naqala::sowing\n")
file(WRITE "${OUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
