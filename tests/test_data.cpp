#include "test_data.hpp"

#include <gtest/gtest.h>

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

}  // namespace jumphash::testing
