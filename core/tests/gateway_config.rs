//! The gateway config (`holaryn gateway --config FILE`): a checked, typed
//! config, or one `config.invalid` naming the file, the JSON pointer and the
//! line:column of the first problem.

use holaryn_core::{parse_gateway_config, ApprovalFallback, Code, Error, ServerTransport};
use serde_json::{json, Value};

fn bad_text(text: &str) -> Error {
    let e = parse_gateway_config("/x/mcp.json", text).expect_err("refused");
    assert_eq!(e.code, Code::ConfigInvalid, "{e}");
    assert_eq!(e.file.as_deref(), Some("/x/mcp.json"));
    assert!(e.line.is_some() && e.column.is_some(), "located: {e}");
    e
}

fn bad(config: Value) -> Error {
    bad_text(&config.to_string())
}

#[test]
fn the_mcp_servers_shape_with_holaryn_settings_beside_it() {
    let text = json!({
        "mcpServers": {
            "fs": {"command": "npx", "args": ["-y", "x"], "env": {"A": "1"}, "cwd": "sub"},
            "web": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer t"}},
            "off": {"disabled": true, "command": 7},
        },
        "holaryn": {
            "boundedCodeMode": true, "approvalFallback": "allow", "activityFile": "a.jsonl",
            "rules": {"deny": ["fs/*"]}, "profileAllowedTools": ["*"], "callTimeoutMs": 1e3,
        },
    })
    .to_string();
    let c = parse_gateway_config("/x/mcp.json", &text).expect("valid");
    let names: Vec<&str> = c.servers.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["fs", "web", "off"], "file order");
    assert!(matches!(
        &c.servers[0].transport,
        Some(ServerTransport::Stdio { command, cwd: Some(cwd), .. }) if command == "npx" && cwd == "sub"
    ));
    assert!(matches!(
        &c.servers[1].transport,
        Some(ServerTransport::Http { .. })
    ));
    assert!(c.servers[2].disabled && c.servers[2].transport.is_none());
    assert_eq!(c.holaryn.approval_fallback, ApprovalFallback::Allow);
    assert_eq!(c.holaryn.call_timeout_ms, Some(1000));
    assert_eq!(
        c.holaryn.activity_file.as_deref(),
        Some("a.jsonl"),
        "paths as written"
    );
    assert!(c.positions.contains_key("/holaryn/activityFile"));
    // What the host gets: the shape the gateway used before the core checked it.
    let js = serde_json::to_value(&c).expect("serialises");
    assert_eq!(
        js["servers"][0],
        json!({"name": "fs", "id": "fs", "kind": "stdio", "command": "npx", "args": ["-y", "x"], "env": {"A": "1"}, "cwd": "sub"})
    );
    assert_eq!(
        js["servers"][2],
        json!({"name": "off", "id": "off", "disabled": true})
    );
    assert_eq!(js["holaryn"]["approvalFallback"], "allow");
    let none = parse_gateway_config("c.json", r#"{"mcpServers": {}}"#).expect("valid");
    assert_eq!(none.holaryn.approval_fallback, ApprovalFallback::Deny);
}

#[test]
fn names_file_pointer_line_column_and_the_problem() {
    let e = bad_text(
        "{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"npx\", \"args\": [\"-y\", 7]}\n  }\n}",
    );
    assert_eq!(e.pointer.as_deref(), Some("/mcpServers/fs/args"));
    assert_eq!((e.line, e.column), (Some(3), Some(38)));
    assert_eq!(e.message, "must be an array of strings");
}

#[test]
fn invalid_json_is_located_where_parsing_stopped() {
    let e = bad_text("{\n  \"mcpServers\": {,}\n}");
    assert_eq!(e.pointer.as_deref(), Some(""));
    assert_eq!(e.line, Some(2));
    assert!(e.message.starts_with("not valid JSON ("), "{}", e.message);
    assert!(!e.message.contains("column"), "{}", e.message);
    // A byte-order mark is no error.
    assert!(parse_gateway_config("c.json", "\u{feff}{\"mcpServers\": {}}").is_ok());
}

#[test]
fn every_rule_refuses_at_its_pointer() {
    for (config, pointer, message) in [
        (json!([]), "", "must be a JSON object"),
        (
            json!({}),
            "/mcpServers",
            "must be an object of named servers",
        ),
        (
            json!({"mcpServers": {}, "extra": 1}),
            "/extra",
            "unknown key",
        ),
        (
            json!({"mcpServers": {"a": {}}}),
            "/mcpServers/a",
            "needs \"command\"",
        ),
        (
            json!({"mcpServers": {"a": 1}}),
            "/mcpServers/a",
            "must be an object",
        ),
        (
            json!({"mcpServers": {"a": {"command": "x", "url": "http://h/"}}}),
            "/mcpServers/a",
            "not both",
        ),
        (
            json!({"mcpServers": {"a": {"url": "file:///etc/passwd"}}}),
            "/mcpServers/a/url",
            "must be an http: or https: URL",
        ),
        (
            json!({"mcpServers": {"a": {"url": "http://h:99999/"}}}),
            "/mcpServers/a/url",
            "not a valid URL",
        ),
        (
            json!({"mcpServers": {"a": {"url": 5}}}),
            "/mcpServers/a/url",
            "must be a string",
        ),
        (
            json!({"mcpServers": {"a": {"command": 5}}}),
            "/mcpServers/a/command",
            "must be a string",
        ),
        (
            json!({"mcpServers": {"a": {"command": " "}}}),
            "/mcpServers/a/command",
            "must not be empty",
        ),
        (
            json!({"mcpServers": {"a": {"command": "x", "cwd": null}}}),
            "/mcpServers/a/cwd",
            "must be a string",
        ),
        (
            json!({"mcpServers": {" ": {"command": "x"}}}),
            "/mcpServers/ ",
            "a server name must not be empty",
        ),
        (
            json!({"mcpServers": {"a b": {"command": "x"}, "a/b": {"command": "y"}}}),
            "/mcpServers/a~1b",
            "servers `a b` and `a/b` would both be provider `a-b`",
        ),
        (
            json!({"mcpServers": {"holaryn": {"command": "x"}}}),
            "/mcpServers/holaryn",
            "provider id `holaryn` is reserved",
        ),
        (
            json!({"mcpServers": {"a": {"command": "x", "env": {"N": 1}}}}),
            "/mcpServers/a/env",
            "must be an object of strings",
        ),
        (
            json!({"mcpServers": {"a": {"url": "http://h/", "headers": []}}}),
            "/mcpServers/a/headers",
            "must be an object of strings",
        ),
        (
            json!({"mcpServers": {}, "holaryn": []}),
            "/holaryn",
            "must be an object",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"bogus": true}}),
            "/holaryn/bogus",
            "unknown setting (known: boundedCodeMode, policyFile,",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"approvalFallback": "ask"}}),
            "/holaryn/approvalFallback",
            "must be one of \"deny\", \"allow\"",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"callTimeoutMs": -1}}),
            "/holaryn/callTimeoutMs",
            "positive whole number",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"boundedCodeMode": "yes"}}),
            "/holaryn/boundedCodeMode",
            "true or false",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"policyFile": ""}}),
            "/holaryn/policyFile",
            "non-empty string",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"hiddenProviders": [1]}}),
            "/holaryn/hiddenProviders",
            "array of strings",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"rules": []}}),
            "/holaryn/rules",
            "must be an object like",
        ),
        // The policy's own rules, at their place in this file.
        (
            json!({"mcpServers": {}, "holaryn": {"rules": {"deny": ["ok", "a b"]}}}),
            "/holaryn/rules/deny/1",
            "whitespace",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"rules": {"block": []}}}),
            "/holaryn/rules/block",
            "unknown key",
        ),
        (
            json!({"mcpServers": {}, "holaryn": {"profileAllowedTools": ["*", "**"]}}),
            "/holaryn/profileAllowedTools/1",
            "",
        ),
    ] {
        let e = bad(config.clone());
        assert_eq!(e.pointer.as_deref(), Some(pointer), "{config}: {e}");
        assert!(e.message.contains(message), "{config}: {}", e.message);
    }
}

#[test]
fn the_first_problem_in_file_order_is_reported() {
    let e = bad_text(r#"{"mcpServers": {"b": {}, "a": {}}, "holaryn": {"bogus": 1}}"#);
    assert_eq!(e.pointer.as_deref(), Some("/mcpServers/b"));
    let e = bad_text(r#"{"zzz": 1, "mcpServers": {"a": {}}}"#);
    assert_eq!(e.pointer.as_deref(), Some("/zzz"));
}

#[test]
fn a_missing_value_is_placed_at_its_parent() {
    let e = bad_text("\n\n  {\"holaryn\": {}}");
    assert_eq!(e.pointer.as_deref(), Some("/mcpServers"));
    assert_eq!((e.line, e.column), (Some(3), Some(3)));
}

#[test]
fn server_names_follow_the_core_provider_id_rule() {
    // The core reserves exactly `holaryn` (ids compare case-sensitively, as policies match them).
    let c = parse_gateway_config("c.json", r#"{"mcpServers": {"Holaryn": {"command": "x"}}}"#);
    assert!(c.is_ok(), "{c:?}");
    let e = bad(json!({"mcpServers": {"holaryn": {"disabled": true}}}));
    assert_eq!(e.pointer.as_deref(), Some("/mcpServers/holaryn"));
}

#[test]
fn names_from_real_configs_become_provider_ids_by_the_one_slug_rule() {
    // Spaces, dots, capitals, slashes and non-ASCII: the key stays the display
    // name, its tools belong to `provider_slug(key)`, the rule catalogs use.
    let keys = [
        "My Weather Server",
        "Acme.Tools",
        "x/y",
        "Café Tools",
        "天气",
    ];
    let servers: serde_json::Map<String, Value> = keys
        .iter()
        .map(|k| (k.to_string(), json!({"command": "x"})))
        .collect();
    let c = parse_gateway_config("c.json", &json!({ "mcpServers": servers }).to_string())
        .expect("every real-world name is taken");
    for (s, key) in c.servers.iter().zip(keys) {
        assert_eq!(s.name, key, "the key is kept as written");
        assert_eq!(s.id, holaryn_model::provider_slug(key), "{key}");
        assert!(holaryn_model::is_provider_slug(&s.id), "{}", s.id);
    }
    assert_eq!(c.servers[0].id, "My-Weather-Server");
    assert_eq!(c.servers[1].id, "Acme.Tools", "a slug stays as it is");
    assert_eq!(c.servers[2].id, "x-y");
    let js = serde_json::to_value(&c).expect("serialises");
    assert_eq!(js["servers"][0]["name"], "My Weather Server");
    assert_eq!(js["servers"][0]["id"], "My-Weather-Server");
    // Two keys, one id: the second is located, whatever order the file has.
    let e = bad_text(
        "{\"mcpServers\": {\n  \"My Server\": {\"command\": \"x\"},\n  \"My  Server\": {\"command\": \"y\"}}}",
    );
    assert_eq!(e.pointer.as_deref(), Some("/mcpServers/My  Server"));
    assert_eq!((e.line, e.column), (Some(3), Some(17)));
    assert!(e.message.contains("`My-Server`"), "{}", e.message);
    // A name whose slug is the runtime's own id is refused like `holaryn` itself.
    let e = bad(json!({"mcpServers": {" holaryn ": {"command": "x"}}}));
    assert!(e.message.contains("reserved"), "{}", e.message);
}

#[test]
fn a_disabled_server_is_not_checked_further() {
    let c = parse_gateway_config(
        "c.json",
        r#"{"mcpServers": {"a": {"disabled": true, "url": "ftp://x"}}}"#,
    )
    .expect("valid");
    assert!(c.servers[0].disabled);
}

#[test]
fn deep_nesting_is_a_located_error_not_a_stack_overflow() {
    // serde_json's recursion limit (128) stops the parse: a syntax-style
    // error at the place it stopped, never a host stack overflow.
    for (what, text) in [
        (
            "args 20,000 deep",
            format!(
                r#"{{"mcpServers": {{"a": {{"command": "x", "args": {}{}}}}}}}"#,
                "[".repeat(20_000),
                "]".repeat(20_000)
            ),
        ),
        (
            "rules 200 deep",
            format!(
                r#"{{"mcpServers": {{}}, "holaryn": {{"rules": {}1{}}}}}"#,
                r#"{"a":"#.repeat(200),
                "}".repeat(200)
            ),
        ),
    ] {
        let e = bad_text(&text);
        assert_eq!(e.pointer.as_deref(), Some(""), "{what}");
        assert!(e.message.contains("recursion limit"), "{what}: {e}");
    }
}

#[test]
fn prototype_keys_under_holaryn_are_unknown_settings() {
    for key in ["constructor", "__proto__", "toString", "hasOwnProperty"] {
        let e = bad_text(&format!(
            r#"{{"mcpServers": {{}}, "holaryn": {{"{key}": {{}}}}}}"#
        ));
        assert_eq!(
            e.pointer.as_deref(),
            Some(format!("/holaryn/{key}").as_str())
        );
        assert!(e.message.starts_with("unknown setting"), "{e}");
    }
}

#[test]
fn server_types_pick_the_transport_and_unknown_ones_are_refused() {
    let c = parse_gateway_config(
        "c.json",
        &json!({"mcpServers": {
            "legacy": {"type": "sse", "url": "http://127.0.0.1:9/sse", "headers": {"A": "1"}},
            "web": {"type": "http", "url": "http://127.0.0.1:9/mcp"},
            "web2": {"type": "streamable-http", "url": "http://127.0.0.1:9/mcp"},
            "local": {"type": "stdio", "command": "x"},
        }})
        .to_string(),
    )
    .expect("valid");
    assert!(
        matches!(&c.servers[0].transport, Some(ServerTransport::Sse { url, .. }) if url.ends_with("/sse"))
    );
    assert!(matches!(
        &c.servers[1].transport,
        Some(ServerTransport::Http { .. })
    ));
    assert!(matches!(
        &c.servers[2].transport,
        Some(ServerTransport::Http { .. })
    ));
    assert!(matches!(
        &c.servers[3].transport,
        Some(ServerTransport::Stdio { .. })
    ));
    let js = serde_json::to_value(&c).expect("serialises");
    assert_eq!(js["servers"][0]["kind"], "sse");
    for (config, why) in [
        (
            json!({"a": {"type": "websocket", "url": "ws://h/"}}),
            "unknown server type",
        ),
        (
            json!({"a": {"type": 1, "url": "http://h/"}}),
            "unknown server type",
        ),
        (
            json!({"a": {"type": "sse", "command": "x"}}),
            "needs \"url\"",
        ),
        (
            json!({"a": {"type": "stdio", "url": "http://h/"}}),
            "needs \"command\"",
        ),
    ] {
        let e = bad(json!({ "mcpServers": config }));
        assert_eq!(e.pointer.as_deref(), Some("/mcpServers/a/type"), "{e}");
        assert!(e.message.contains(why), "{e}");
    }
}

#[test]
fn http_settings_origins_and_the_token_variable() {
    let c = parse_gateway_config(
        "c.json",
        &json!({"mcpServers": {}, "holaryn": {
            "allowedOrigins": ["https://app.example", "http://localhost:5173"],
            "httpTokenEnv": "MY_TOKEN",
        }})
        .to_string(),
    )
    .expect("valid");
    assert_eq!(c.holaryn.allowed_origins.as_ref().map(Vec::len), Some(2));
    assert_eq!(c.holaryn.http_token_env.as_deref(), Some("MY_TOKEN"));
    assert!(c.positions.contains_key("/holaryn/httpTokenEnv"));
    for (settings, pointer) in [
        (
            json!({"allowedOrigins": ["https://a.example/path"]}),
            "/holaryn/allowedOrigins/0",
        ),
        (
            json!({"allowedOrigins": ["ok.example"]}),
            "/holaryn/allowedOrigins/0",
        ),
        (
            json!({"allowedOrigins": "https://a.example"}),
            "/holaryn/allowedOrigins",
        ),
        (json!({"httpTokenEnv": "1BAD"}), "/holaryn/httpTokenEnv"),
        (json!({"httpTokenEnv": "A-B"}), "/holaryn/httpTokenEnv"),
    ] {
        let e = bad(json!({"mcpServers": {}, "holaryn": settings}));
        assert_eq!(e.pointer.as_deref(), Some(pointer), "{e}");
    }
}
