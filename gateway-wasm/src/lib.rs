//! The `holaryn gateway` config check (`holaryn_core::parse_gateway_config`)
//! as a third WebAssembly module. Only the Node gateway
//! (`js/gateway/config.mjs`) loads it, so the default (browser) download
//! carries neither the checker nor its messages.
//!
//! One export, `parseGatewayConfig(file, text)`, returns JSON text:
//! `{"config": GatewayConfig}` or `{"error": Error}` (the core's typed error:
//! code, message, file, pointer, line, column). The rules are the core's; this
//! crate only converts.

use wasm_bindgen::prelude::*;

/// Check a gateway config; `{"config": …}` or `{"error": …}` as JSON text.
#[wasm_bindgen(js_name = parseGatewayConfig)]
pub fn parse_gateway_config(file: &str, text: &str) -> String {
    let answer = match holaryn_core::parse_gateway_config(file, text) {
        Ok(config) => serde_json::to_value(config).map(|c| serde_json::json!({ "config": c })),
        Err(error) => serde_json::to_value(error).map(|e| serde_json::json!({ "error": e })),
    };
    match answer {
        Ok(v) => v.to_string(),
        Err(e) => {
            serde_json::json!({ "error": { "code": "runtime.failed", "message": e.to_string() } })
                .to_string()
        }
    }
}
