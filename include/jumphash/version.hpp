// The version of the jumphash core, CLI and wasm package (kept equal to
// package.json's "version").
#pragma once

namespace jumphash {
inline constexpr const char* kVersion = "0.1.0";
}
