// Reading YAML input with errors that name the file, the line and the field.
//
// Every loader (workload, hardware, mapping) goes through this so that a bad file always yields
// one InputError line such as "bert-base.yaml:41: layers[7].macs: expected a non-negative integer,
// got 'nan'".
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.hpp"

namespace memplace {

class YamlInput {
 public:
  // Parses `text`; throws InputError for syntax errors, empty documents and binary data.
  YamlInput(std::string_view text, std::string origin);
  // Reads a whole file (InputError if it cannot be read).
  static std::string read_file(const std::filesystem::path& path);

  const YAML::Node& root() const { return root_; }
  const std::string& origin() const { return origin_; }

  // The child `key` of a map node; throws if `node` is not a map or the key is missing.
  YAML::Node require(const YAML::Node& node, const std::string& key,
                     const std::string& field) const;
  // The child `key` if present (an undefined node otherwise); throws if `node` is not a map.
  YAML::Node optional(const YAML::Node& node, const std::string& key,
                      const std::string& field) const;
  void require_map(const YAML::Node& node, const std::string& field) const;
  void require_sequence(const YAML::Node& node, const std::string& field) const;
  // Rejects keys of `node` not in `allowed` (catches typos such as "weigth_bytes").
  void reject_unknown_keys(const YAML::Node& node, std::initializer_list<std::string_view> allowed,
                           const std::string& field) const;

  std::string string(const YAML::Node& node, const std::string& field) const;
  // A map's key as a name (a complex or null key, e.g. "? [a]" or "? :", is refused).
  std::string key(const YAML::Node& key, const std::string& field) const;
  // true or false (YAML 1.2's spellings; not yes/no/on/off).
  bool boolean(const YAML::Node& node, const std::string& field) const;
  // A non-negative integer; accepts "1024", "4.09e9" (if integral); rejects NaN, inf, fractions.
  std::int64_t count(const YAML::Node& node, const std::string& field) const;
  // A finite number > 0.
  double positive(const YAML::Node& node, const std::string& field) const;
  // A finite number >= 0.
  double non_negative(const YAML::Node& node, const std::string& field) const;

  // Throws InputError "<origin>:<line of node>: <field>: <message>".
  [[noreturn]] void fail(const YAML::Node& node, const std::string& field,
                         const std::string& message) const;

 private:
  double number(const YAML::Node& node, const std::string& field) const;
  std::string origin_;
  YAML::Node root_;
};

// `text` as a double-quoted YAML scalar (quotes and backslashes escaped), for files we write.
std::string yaml_quoted(std::string_view text);
// A flow list of quoted strings: ["a", "b"].
std::string yaml_quoted_list(const std::vector<std::string>& items);

// "<origin>:<line>: <field>: <message>" (line omitted when unknown).
std::string input_error_message(std::string_view origin, int line, std::string_view field,
                                std::string_view message);

}  // namespace memplace
