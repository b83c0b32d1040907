#include "recipe_files.h"

#include <boost/json.hpp>

#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>

std::string source_path(const std::string& relative) { return std::string(XQ_SOURCE_DIR) + "/" + relative; }

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::vector<std::string> json_strings(const std::string& text) {
  boost::json::value v = boost::json::parse(text);
  std::vector<std::string> out;
  for (const auto& e : v.as_array()) out.emplace_back(e.as_string());
  return out;
}

std::vector<std::string> all_matches(const std::string& text, const std::string& pattern, size_t group) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[static_cast<int>(group)].str());
  return out;
}

static std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Dockerfile lines with their `\` continuations joined.
static std::vector<std::string> instructions(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (const auto& l : lines_of(text)) {
    if (cur.empty() && (l.empty() || l[0] == '#')) continue;
    if (!l.empty() && l.back() == '\\') {
      cur += l.substr(0, l.size() - 1) + " ";
      continue;
    }
    out.push_back(cur + l);
    cur.clear();
  }
  return out;
}

ImageRecipe read_image_recipe(const std::string& dockerfile_text) {
  ImageRecipe r;
  bool runtime = false;
  for (const auto& ins : instructions(dockerfile_text)) {
    if (ins.rfind("FROM ", 0) == 0) {  // a new stage: only the last one is the image
      r = ImageRecipe{};
      r.base = all_matches(ins, R"(^FROM\s+(\S+))").at(0);
      runtime = true;
    } else if (!runtime) {
      continue;
    } else if (ins.rfind("RUN ", 0) == 0 && ins.find("apt-get install") != std::string::npos) {
      std::smatch m;
      if (!std::regex_search(ins, m, std::regex(R"(apt-get install((?:\s+-\S+)*)\s+([^&]+))")))
        throw std::runtime_error("no package list in: " + ins);
      std::istringstream pk(m[2].str());
      for (std::string p; pk >> p;) r.runtime_packages.push_back(p);
    } else if (ins.rfind("ENV ", 0) == 0) {
      for (const auto& kv : all_matches(ins.substr(4), R"((\w+)=(\S+))", 0)) {
        auto eq = kv.find('=');
        r.env[kv.substr(0, eq)] = kv.substr(eq + 1);
      }
    } else if (ins.rfind("EXPOSE ", 0) == 0) {
      r.exposed = all_matches(ins, R"((\d+))");
    } else if (ins.rfind("CMD ", 0) == 0) {
      auto argv = json_strings(ins.substr(4));
      if (argv.size() != 3 || argv[0] != "sh" || argv[1] != "-c") throw std::runtime_error("CMD is not sh -c: " + ins);
      r.command = argv[2];
    }
  }
  if (r.base.empty() || r.command.empty() || r.runtime_packages.empty())
    throw std::runtime_error("Dockerfile: no runtime stage with packages and a CMD");
  return r;
}

static size_t indent_of(const std::string& l) { return l.find_first_not_of(' '); }

ComposeService compose_service(const std::string& compose_text, const std::string& name) {
  const auto lines = lines_of(compose_text);
  size_t i = 0;
  while (i < lines.size() && lines[i].rfind("  " + name + ":", 0) != 0) ++i;
  if (i == lines.size()) throw std::runtime_error("compose: no service " + name);
  ComposeService s;
  bool in_env = false;
  for (++i; i < lines.size(); ++i) {
    const auto& l = lines[i];
    if (l.empty() || l[0] == '#') continue;
    if (indent_of(l) <= 2) break;  // the next service (or top-level key)
    std::smatch m;
    if (std::regex_match(l, m, std::regex(R"(\s{4}command:\s*(\[.*\])\s*)"))) s.command = json_strings(m[1].str());
    if (std::regex_search(l, m, std::regex(R"(ipv4_address:\s*([\d.]+))"))) s.ipv4_address = m[1];
    if (indent_of(l) == 4) in_env = l.find("environment:") != std::string::npos;
    else if (in_env && std::regex_match(l, m, std::regex(R"(\s{6}(\w+):\s*(.*?)\s*)"))) s.environment[m[1]] = m[2];
  }
  return s;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("'" + from + "' not found");
  for (; at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}
