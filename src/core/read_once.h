#pragma once
// A data file read once per process: every engine built from it shares the one copy, however
// many games or threads ask for it. Keyed by path; a file that fails to load throws and is
// tried again when next asked.

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace naqala {

template <class T, T (*Load)(const std::string&)>
std::shared_ptr<const T> read_once(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const T>> read;
  const std::lock_guard lock(mutex);
  auto& loaded = read[path];
  if (!loaded) loaded = std::make_shared<const T>(Load(path));
  return loaded;
}

}  // namespace naqala
