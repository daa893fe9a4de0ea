#include "base/yaml_input.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

namespace memplace {

std::string input_error_message(std::string_view origin, int line, std::string_view field,
                                std::string_view message) {
  std::string out(origin);
  if (line > 0) {
    out += ':';
    out += std::to_string(line);
  }
  out += ": ";
  if (!field.empty()) {
    out += field;
    out += ": ";
  }
  out += message;
  return out;
}

namespace {

// yaml-cpp happily parses some binary blobs as a scalar; a text format never has NUL or most
// other C0 control characters, so refuse them up front with a clear message.
void reject_binary(std::string_view text, const std::string& origin) {
  int line = 1;
  for (unsigned char c : text) {
    if (c == '\n') ++line;
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      throw InputError(input_error_message(
          origin, line, "",
          "binary data (control byte " + std::to_string(c) + "); expected a YAML text file"));
    }
  }
}

std::string scalar_preview(const YAML::Node& node) {
  if (node.IsScalar()) {
    std::string s = node.Scalar();
    if (s.size() > 40) s = s.substr(0, 40) + "...";
    return "'" + s + "'";
  }
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return "nothing";
}

}  // namespace

YamlInput::YamlInput(std::string_view text, std::string origin) : origin_(std::move(origin)) {
  reject_binary(text, origin_);
  try {
    root_ = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw InputError(input_error_message(origin_, e.mark.is_null() ? 0 : e.mark.line + 1, "",
                                         "YAML syntax error: " + e.msg));
  }
  if (!root_.IsDefined() || root_.IsNull()) {
    throw InputError(input_error_message(origin_, 0, "", "empty document"));
  }
  require_map(root_, "document");
}

std::string YamlInput::read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path.string() + ": read error");
  return ss.str();
}

void YamlInput::fail(const YAML::Node& node, const std::string& field,
                     const std::string& message) const {
  int line = 0;
  if (node.IsDefined()) {
    const YAML::Mark mark = node.Mark();
    if (!mark.is_null()) line = mark.line + 1;
  }
  throw InputError(input_error_message(origin_, line, field, message));
}

void YamlInput::require_map(const YAML::Node& node, const std::string& field) const {
  if (!node.IsMap()) fail(node, field, "expected a map, got " + scalar_preview(node));
}

void YamlInput::require_sequence(const YAML::Node& node, const std::string& field) const {
  if (!node.IsSequence()) fail(node, field, "expected a list, got " + scalar_preview(node));
}

YAML::Node YamlInput::require(const YAML::Node& node, const std::string& key,
                              const std::string& field) const {
  YAML::Node child = optional(node, key, field);
  if (!child.IsDefined()) {
    fail(node, field.empty() ? key : field + "." + key, "missing required field");
  }
  return child;
}

YAML::Node YamlInput::optional(const YAML::Node& node, const std::string& key,
                               const std::string& field) const {
  require_map(node, field.empty() ? "document" : field);
  // operator[] on a const node does not insert; a missing key gives an undefined node.
  return node[key];
}

void YamlInput::reject_unknown_keys(const YAML::Node& node,
                                    std::initializer_list<std::string_view> allowed,
                                    const std::string& field) const {
  require_map(node, field.empty() ? "document" : field);
  for (const auto& kv : node) {
    const std::string key = this->key(kv.first, field);
    bool known = false;
    for (std::string_view a : allowed)
      known = known || (a == key);
    if (!known) {
      std::string list;
      for (std::string_view a : allowed)
        list += (list.empty() ? "" : ", ") + std::string(a);
      fail(kv.first, field.empty() ? key : field + "." + key,
           "unknown field (expected one of: " + list + ")");
    }
  }
}

std::string YamlInput::string(const YAML::Node& node, const std::string& field) const {
  if (!node.IsScalar()) fail(node, field, "expected a string, got " + scalar_preview(node));
  return node.Scalar();
}

std::string YamlInput::key(const YAML::Node& key, const std::string& field) const {
  if (!key.IsScalar()) fail(key, field, "keys must be plain names");
  return key.Scalar();
}

bool YamlInput::boolean(const YAML::Node& node, const std::string& field) const {
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
  }
  fail(node, field, "expected true or false, got " + scalar_preview(node));
}

double YamlInput::number(const YAML::Node& node, const std::string& field) const {
  if (!node.IsScalar()) fail(node, field, "expected a number, got " + scalar_preview(node));
  const std::string& s = node.Scalar();
  // YAML spells the special floats .nan / .inf; report them as what they are.
  for (const char* special : {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "-.inf", "-.Inf",
                              "-.INF", "+.inf", "+.Inf", "+.INF"}) {
    if (s == special) fail(node, field, "must be finite, got " + scalar_preview(node));
  }
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(s, &used);
  } catch (const std::exception&) {
    fail(node, field, "expected a number, got " + scalar_preview(node));
  }
  while (used < s.size() && std::isspace(static_cast<unsigned char>(s[used])))
    ++used;
  if (used != s.size()) fail(node, field, "expected a number, got " + scalar_preview(node));
  if (!std::isfinite(value)) fail(node, field, "must be finite, got " + scalar_preview(node));
  return value;
}

std::int64_t YamlInput::count(const YAML::Node& node, const std::string& field) const {
  const double value = number(node, field);
  if (value < 0) fail(node, field, "must be non-negative, got " + scalar_preview(node));
  if (value != std::floor(value)) {
    fail(node, field, "must be a whole number, got " + scalar_preview(node));
  }
  // Plain decimal integers are parsed exactly; other spellings (4.09e9, 0x10) go through a double,
  // which is exact only below 2^53.
  const std::string& s = node.Scalar();
  const bool decimal =
      !s.empty() && s.find_first_not_of("0123456789", s[0] == '+' ? 1 : 0) == std::string::npos;
  if (decimal) {
    if (value > 9.0e18) fail(node, field, "too large, got " + scalar_preview(node));
    return std::stoll(s);
  }
  if (value > 9007199254740992.0) {
    fail(node, field, "too large to be exact in this notation; write it as a plain integer");
  }
  return static_cast<std::int64_t>(value);
}

double YamlInput::positive(const YAML::Node& node, const std::string& field) const {
  const double value = number(node, field);
  if (!(value > 0)) fail(node, field, "must be positive, got " + scalar_preview(node));
  return value;
}

double YamlInput::non_negative(const YAML::Node& node, const std::string& field) const {
  const double value = number(node, field);
  if (value < 0) fail(node, field, "must be non-negative, got " + scalar_preview(node));
  return value;
}

std::string yaml_quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string yaml_quoted_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + yaml_quoted(items[i]);
  return out + "]";
}

}  // namespace memplace
