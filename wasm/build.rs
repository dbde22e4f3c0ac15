//! Lets one set of wasm-bindgen tests run under Node *and* in a browser.
//!
//! `wasm-pack test --chrome|--firefox|--safari` sets `WASM_BINDGEN_TEST_ONLY_WEB`
//! for the whole `cargo test` run; when it is set we compile the tests with
//! `run_in_browser`, otherwise they stay Node tests (`wasm-pack test --node`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(holaryn_browser_tests)");
    println!("cargo::rerun-if-env-changed=WASM_BINDGEN_TEST_ONLY_WEB");
    println!("cargo::rerun-if-env-changed=WASM_BINDGEN_USE_BROWSER");
    if std::env::var_os("WASM_BINDGEN_TEST_ONLY_WEB").is_some()
        || std::env::var_os("WASM_BINDGEN_USE_BROWSER").is_some()
    {
        println!("cargo::rustc-cfg=holaryn_browser_tests");
    }
}
