// Reads what the deploy recipes say (deploy/Dockerfile, compose.yaml, k8s/*.yaml, the systemd
// unit) without Docker or a YAML library. The parts the tests need sit on single lines (JSON-style
// flow sequences, `KEY: value` pairs); a reader that does not find its part throws, so a recipe
// whose shape changed fails the test instead of passing unchecked.
#pragma once
#include <map>
#include <string>
#include <vector>

std::string source_path(const std::string& relative);  // in the source tree
std::string read_file(const std::string& path);

// ["a", "b"] -> {a, b}; throws if `text` is not a JSON array of strings.
std::vector<std::string> json_strings(const std::string& text);
// Every match of `pattern`'s group `group` in `text`, in order.
std::vector<std::string> all_matches(const std::string& text, const std::string& pattern, size_t group = 1);

// The runtime stage of deploy/Dockerfile (the last FROM).
struct ImageRecipe {
  std::string base;                           // e.g. debian:12-slim
  std::vector<std::string> runtime_packages;  // what its apt-get installs
  std::map<std::string, std::string> env;     // ENV defaults
  std::string command;                        // CMD ["sh", "-c", command]
  std::vector<std::string> exposed;           // EXPOSE ports
};
ImageRecipe read_image_recipe(const std::string& dockerfile_text);

// One service of deploy/compose.yaml: its `command:` (if any), `environment:` entries and fixed
// address (`ipv4_address:` on its network, if any).
struct ComposeService {
  std::vector<std::string> command;
  std::map<std::string, std::string> environment;
  std::string ipv4_address;
};
ComposeService compose_service(const std::string& compose_text, const std::string& name);

// Replaces every occurrence of `from` in `text` by `to`; throws if there is none.
std::string replace_all(std::string text, const std::string& from, const std::string& to);
