#include "test_data.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace jumphash::testing {

std::string data_path(const std::string& relative) {
  return std::string(JUMPHASH_TEST_DATA_DIR) + "/" + relative;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<VectorRow> read_vectors(const std::string& relative) {
  std::istringstream in(read_file(data_path(relative)));
  std::vector<VectorRow> rows;
  std::string line;
  std::vector<std::string> columns;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    if (columns.empty()) {
      columns = fields;
      continue;
    }
    VectorRow row{};
    for (std::size_t i = 0; i < columns.size() && i < fields.size(); ++i) {
      if (columns[i] == "algo") row.algorithm = fields[i];
      if (columns[i] == "key") row.key = std::stoull(fields[i]);
      if (columns[i] == "n") row.n = std::stoll(fields[i]);
      if (columns[i] == "bucket") row.bucket = std::stoi(fields[i]);
    }
    rows.push_back(row);
  }
  return rows;
}

std::vector<TsvRow> read_tsv(const std::string& relative) {
  std::istringstream in(read_file(data_path(relative)));
  std::vector<TsvRow> rows;
  std::vector<std::string> columns;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    if (columns.empty()) {
      columns = fields;
      continue;
    }
    TsvRow row;
    for (std::size_t i = 0; i < columns.size() && i < fields.size(); ++i)
      row[columns[i]] = fields[i];
    rows.push_back(std::move(row));
  }
  EXPECT_FALSE(rows.empty()) << relative << " has no rows";
  return rows;
}

NodeList system_config(const std::string& config) {
  static const std::vector<TsvRow> rows = read_tsv("vectors/systems/configs.tsv");
  std::vector<std::pair<int, Node>> indexed;
  for (const TsvRow& row : rows) {
    if (row.at("config") != config) continue;
    indexed.emplace_back(
        std::stoi(row.at("index")),
        Node{row.at("node"), static_cast<std::uint32_t>(std::stoul(row.at("weight")))});
  }
  EXPECT_FALSE(indexed.empty()) << "unknown config " << config;
  std::sort(indexed.begin(), indexed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  NodeList nodes;
  for (auto& [index, node] : indexed) nodes.push_back(std::move(node));
  return nodes;
}

namespace {
std::string trim_newline(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}
}  // namespace

std::vector<std::string> transcript_names(const std::string& directory) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(data_path(directory))) {
    if (entry.path().extension() == ".stdout") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

void expect_transcript(const std::string& cli, const std::string& directory,
                       const std::string& name) {
  namespace fs = std::filesystem;
  SCOPED_TRACE("transcript " + directory + "/" + name);
  const fs::path dir = data_path(directory);
  const std::string base = (dir / name).string();
  ASSERT_TRUE(fs::exists(base + ".stdout")) << "no transcript " << directory << "/" << name;
  const fs::path scratch =
      fs::temp_directory_path() / ("jumphash_transcript_" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const fs::path out = scratch / (name + ".out"), err = scratch / (name + ".err");

  std::string command = "cd '" + dir.string() + "' && '" + cli + "' ";
  command += fs::exists(base + ".args") ? trim_newline(read_file(base + ".args"))
                                        : "'" + name + ".script'";
  command += fs::exists(base + ".stdin") ? " < '" + name + ".stdin'" : " < /dev/null";
  command += " > '" + out.string() + "' 2> '" + err.string() + "'";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << command;

  EXPECT_EQ(read_file(out.string()), read_file(base + ".stdout")) << "stdout";
  EXPECT_EQ(read_file(err.string()), read_file(base + ".stderr")) << "stderr";
  EXPECT_EQ(std::to_string(WEXITSTATUS(status)), trim_newline(read_file(base + ".exit")))
      << "exit status";
  fs::remove_all(scratch);
}

std::string transcript_argument(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--transcript=", 0) == 0) return arg.substr(13);
  }
  return "";
}

}  // namespace jumphash::testing
