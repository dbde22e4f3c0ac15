// `import wasmUrl from "holaryn/wasm"`: the browser build's .wasm file, for bundlers
// that turn a .wasm import into its URL (esbuild `--loader:.wasm=file`); pass it to `init`.
declare const url: string;
export default url;
