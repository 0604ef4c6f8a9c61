/**
 * Types of the package's `.wasm` subpaths, `jumphash-wasm/jumphash_wasm.wasm`
 * and `jumphash-wasm/jumphash_checker_wasm.wasm`: the URL of the file, as a
 * bundler's asset import gives it (Vite's `?url` suffix, webpack's
 * `type: 'asset/resource'`, Parcel's `url:` scheme). Pass it on as
 * `loadJumphash({ wasmUrl })` or `loadChecker({ wasmUrl })`.
 * In Node, `import.meta.resolve('jumphash-wasm/jumphash_wasm.wasm')` gives the
 * file's URL without any import.
 *
 * @packageDocumentation
 */

/** The URL of the `.wasm` file. */
declare const wasmUrl: string;
export default wasmUrl;
