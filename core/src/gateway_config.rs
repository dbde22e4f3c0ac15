//! The `holaryn gateway` config file: the `{"mcpServers": {...}}` shape MCP
//! clients already use, plus holaryn's own settings under a `"holaryn"` key.
//!
//! Sans-IO like the rest of the core: the host reads the file and passes its
//! path (for messages) and text; paths in it come back as written (the host
//! resolves them against the file's directory). Every problem is
//! `config.invalid` with the file, the JSON pointer of the value it names and
//! the 1-based line:column (UTF-16) where that value starts (a missing value:
//! where its parent starts; a syntax error: where parsing stopped). The first
//! problem in document order is the one reported. The rules the core owns
//! elsewhere are applied here, not restated: a server name becomes a provider
//! id by the one rule for names from outside ([`holaryn_model::provider_slug`]:
//! `My Weather Server` is provider `My-Weather-Server`, shown as written), the
//! id must be a provider id ([`holaryn_model::check_provider_id`]) and two
//! names may not become one id; `rules` is a rule set
//! ([`crate::Rules::from_value`]) and `profileAllowedTools` a pattern list
//! ([`crate::parse_patterns`]).

use crate::json_text::{pointer_position, syntax_error};
use crate::policy::{parse_patterns, Rules};
use holaryn_model::provider_slug;
use holaryn_model::{check_provider_id, escape_token, Error, ErrorCode, Result};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// A checked gateway config.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayConfig {
    /// The servers, in file order.
    pub servers: Vec<GatewayServer>,
    /// The `"holaryn"` settings (all defaults when the key is absent).
    pub holaryn: GatewaySettings,
    /// Where the settings that name files or variables start
    /// (`/holaryn/policyFile`, `/holaryn/activityFile`,
    /// `/holaryn/httpTokenEnv`, when set), so a host that cannot read, write
    /// or find one reports it at its place in the config.
    pub positions: BTreeMap<String, TextPosition>,
}

/// A 1-based line and UTF-16 column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TextPosition {
    /// 1-based line.
    pub line: u32,
    /// 1-based column in UTF-16 code units.
    pub column: u32,
}

/// One entry of `mcpServers`; its tools belong to provider `id`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayServer {
    /// The key under `mcpServers`, as written: the provider's display name.
    pub name: String,
    /// The provider id of its tools: `name` by [`holaryn_model::provider_slug`]
    /// (`name` itself when it already is a slug).
    pub id: String,
    /// `"disabled": true`: listed but not started (nothing else is checked).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
    /// How to reach it (`None` when disabled).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub transport: Option<ServerTransport>,
}

/// How the gateway reaches a server.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ServerTransport {
    /// A child process speaking MCP over stdio.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to the gateway's default environment.
        env: BTreeMap<String, String>,
        /// Working directory as written (relative to the config file); an
        /// empty string is none.
        #[serde(skip_serializing_if = "Option::is_none")]
        cwd: Option<String>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// An `http:` or `https:` URL, as written.
        url: String,
        /// Headers sent with every request.
        headers: BTreeMap<String, String>,
    },
    /// A legacy HTTP+SSE endpoint (MCP 2024-11-05: `GET` an event stream,
    /// `POST` to the endpoint it names), chosen by `"type": "sse"`.
    Sse {
        /// An `http:` or `https:` URL, as written.
        url: String,
        /// Headers sent with every request.
        headers: BTreeMap<String, String>,
    },
}

/// The `"type"` values a server entry may carry (the names MCP clients'
/// configs use); absent, `command` means stdio and `url` Streamable HTTP.
pub const SERVER_TYPES: [&str; 4] = ["stdio", "http", "streamable-http", "sse"];

/// What the gateway does when a call asks first and the client cannot ask
/// the user (no elicitation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ApprovalFallback {
    /// Refuse the call (the default).
    #[default]
    Deny,
    /// Run it.
    Allow,
}

/// The settings under `"holaryn"`; absent ones stay `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewaySettings {
    /// Offer `run_tool_code`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounded_code_mode: Option<bool>,
    /// The project policy file, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_file: Option<String>,
    /// Session rules `{allow?, deny?}`, checked as [`Rules`] and kept as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Value>,
    /// The agent profile's `allowed_tools`, each entry checked as a pattern.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile_allowed_tools: Option<Vec<String>>,
    /// Providers hidden from every session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_providers: Option<Vec<String>>,
    /// See [`ApprovalFallback`].
    pub approval_fallback: ApprovalFallback,
    /// Where activity records are appended, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_file: Option<String>,
    /// Qualify tool names as `server/tool` (the gateway's default: yes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualify_names: Option<bool>,
    /// Per-call timeout for tools that set none, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_timeout_ms: Option<u64>,
    /// How long a hook or approval may wait, in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callback_timeout_ms: Option<u64>,
    /// `--http`: browser origins served besides loopback ones
    /// (`scheme://host[:port]`, as a browser sends them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_origins: Option<Vec<String>>,
    /// `--http`: the environment variable holding the bearer token every
    /// request must carry (the host reads it; the default variable is
    /// `HOLARYN_GATEWAY_TOKEN`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http_token_env: Option<String>,
}

/// The settings under `"holaryn"`, in the order `holaryn gateway --help` lists them.
pub const GATEWAY_SETTINGS: [&str; 12] = [
    "boundedCodeMode",
    "policyFile",
    "rules",
    "profileAllowedTools",
    "hiddenProviders",
    "approvalFallback",
    "activityFile",
    "qualifyNames",
    "callTimeoutMs",
    "callbackTimeoutMs",
    "allowedOrigins",
    "httpTokenEnv",
];

/// The largest integer a JavaScript number holds exactly (a timeout above it
/// cannot round-trip through the host).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Parse and check a gateway config (`file` for messages, `text` as read;
/// a leading byte-order mark is ignored).
pub fn parse_gateway_config(file: &str, text: &str) -> Result<GatewayConfig> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let (what, line, column) = syntax_error(text, &e);
        Error::new(ErrorCode::ConfigInvalid, format!("not valid JSON ({what})"))
            .with_file(file)
            .with_pointer("")
            .with_position(line, column)
    })?;
    let cx = Cx { file, text };
    let Some(root) = value.as_object() else {
        return Err(cx.fail(
            "",
            "the config must be a JSON object with an \"mcpServers\" object",
        ));
    };
    if let Some(key) = root
        .keys()
        .find(|k| k.as_str() != "mcpServers" && k.as_str() != "holaryn")
    {
        return Err(cx.fail(
            &format!("/{}", escape_token(key)),
            "unknown key (expected \"mcpServers\" and optionally \"holaryn\")",
        ));
    }
    let Some(servers) = root.get("mcpServers").and_then(Value::as_object) else {
        return Err(cx.fail(
            "/mcpServers",
            "\"mcpServers\" must be an object of named servers",
        ));
    };
    let mut ids: BTreeMap<String, &str> = BTreeMap::new();
    let mut checked = Vec::with_capacity(servers.len());
    for (name, s) in servers {
        let server = cx.server(name, s)?;
        if let Some(first) = ids.insert(server.id.clone(), name) {
            return Err(cx.fail(
                &format!("/mcpServers/{}", escape_token(name)),
                format!(
                    "servers `{first}` and `{name}` would both be provider `{}` (a server name becomes its provider id with spaces and other characters as '-'); rename one",
                    server.id
                ),
            ));
        }
        checked.push(server);
    }
    let servers = checked;
    let holaryn = match root.get("holaryn") {
        None | Some(Value::Null) => GatewaySettings::default(),
        Some(Value::Object(h)) => cx.settings(h)?,
        Some(_) => return Err(cx.fail("/holaryn", "must be an object")),
    };
    let mut positions = BTreeMap::new();
    for (set, key) in [
        (holaryn.policy_file.is_some(), "policyFile"),
        (holaryn.activity_file.is_some(), "activityFile"),
        (holaryn.http_token_env.is_some(), "httpTokenEnv"),
    ] {
        if set {
            let pointer = format!("/holaryn/{key}");
            let (line, column) = pointer_position(text, &pointer);
            positions.insert(pointer, TextPosition { line, column });
        }
    }
    Ok(GatewayConfig {
        servers,
        holaryn,
        positions,
    })
}

/// The file being checked, for located errors.
struct Cx<'a> {
    file: &'a str,
    text: &'a str,
}

impl Cx<'_> {
    fn fail(&self, pointer: &str, message: impl Into<String>) -> Error {
        let (line, column) = pointer_position(self.text, pointer);
        Error::new(ErrorCode::ConfigInvalid, message)
            .with_file(self.file)
            .with_pointer(pointer)
            .with_position(line, column)
    }

    fn server(&self, name: &str, s: &Value) -> Result<GatewayServer> {
        let at = format!("/mcpServers/{}", escape_token(name));
        if name.trim_matches(is_js_space).is_empty() {
            return Err(self.fail(&at, "a server name must not be empty"));
        }
        let id = provider_slug(name);
        if let Err(e) = check_provider_id(&id) {
            return Err(self.fail(
                &at,
                format!("a server name becomes the provider id: {}", e.message),
            ));
        }
        let Some(s) = s.as_object() else {
            return Err(self.fail(
                &at,
                "a server must be an object with \"command\" (stdio) or \"url\" (Streamable HTTP)",
            ));
        };
        let server = |transport| GatewayServer {
            name: name.to_string(),
            id: id.clone(),
            disabled: false,
            transport: Some(transport),
        };
        if s.get("disabled") == Some(&Value::Bool(true)) {
            return Ok(GatewayServer {
                name: name.to_string(),
                id: id.clone(),
                disabled: true,
                transport: None,
            });
        }
        let field = |key: &str| format!("{at}/{key}");
        let kind = match s.get("type") {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) if SERVER_TYPES.contains(&t.as_str()) => Some(t.as_str()),
            Some(_) => {
                return Err(self.fail(
                    &field("type"),
                    format!(
                        "unknown server type (known: \"{}\")",
                        SERVER_TYPES.join("\", \"")
                    ),
                ))
            }
        };
        match (kind, s.get("command"), s.get("url")) {
            (Some("stdio"), None, Some(_)) => {
                return Err(self.fail(
                    &field("type"),
                    "\"type\": \"stdio\" needs \"command\", not \"url\"",
                ))
            }
            (Some(t), Some(_), None) if t != "stdio" => {
                return Err(self.fail(
                    &field("type"),
                    format!("\"type\": \"{t}\" needs \"url\", not \"command\""),
                ))
            }
            _ => {}
        }
        match (s.get("command"), s.get("url")) {
            (Some(Value::String(_)), Some(_)) => {
                Err(self.fail(&at, "give \"command\" or \"url\", not both"))
            }
            (Some(Value::String(command)), None) => {
                if command.trim_matches(is_js_space).is_empty() {
                    return Err(self.fail(&field("command"), "must not be empty"));
                }
                let args = match s.get("args") {
                    None | Some(Value::Null) => Vec::new(),
                    Some(v) => strings(v)
                        .ok_or_else(|| self.fail(&field("args"), "must be an array of strings"))?,
                };
                let env = self.string_map(s, &field("env"), "env")?;
                let cwd = match s.get("cwd") {
                    None => None,
                    Some(Value::String(c)) => Some(c.clone()).filter(|c| !c.is_empty()),
                    Some(_) => return Err(self.fail(&field("cwd"), "must be a string")),
                };
                Ok(server(ServerTransport::Stdio {
                    command: command.clone(),
                    args,
                    env,
                    cwd,
                }))
            }
            (_, Some(Value::String(url))) if s.get("command").is_none() => {
                if let Some(why) = url_problem(url) {
                    return Err(self.fail(&field("url"), why));
                }
                let headers = self.string_map(s, &field("headers"), "headers")?;
                let url = url.clone();
                Ok(server(if kind == Some("sse") {
                    ServerTransport::Sse { url, headers }
                } else {
                    ServerTransport::Http { url, headers }
                }))
            }
            (Some(_), _) => Err(self.fail(&field("command"), "must be a string")),
            (None, Some(_)) => Err(self.fail(&field("url"), "must be a string")),
            (None, None) => Err(self.fail(
                &at,
                "a server needs \"command\" (stdio) or \"url\" (Streamable HTTP)",
            )),
        }
    }

    /// `s[key]`: absent or null → empty; else an object of strings.
    fn string_map(
        &self,
        s: &Map<String, Value>,
        pointer: &str,
        key: &str,
    ) -> Result<BTreeMap<String, String>> {
        let bad = || self.fail(pointer, "must be an object of strings");
        match s.get(key) {
            None | Some(Value::Null) => Ok(BTreeMap::new()),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| Ok((k.clone(), v.as_str().ok_or_else(bad)?.to_string())))
                .collect(),
            Some(_) => Err(bad()),
        }
    }

    fn settings(&self, h: &Map<String, Value>) -> Result<GatewaySettings> {
        let mut out = GatewaySettings::default();
        for (key, v) in h {
            let at = format!("/holaryn/{}", escape_token(key));
            let fail = |m: &str| self.fail(&at, m);
            let boolean = || v.as_bool().ok_or_else(|| fail("must be true or false"));
            let path = || match v {
                Value::String(p) if !p.is_empty() => Ok(p.clone()),
                _ => Err(fail("must be a non-empty string")),
            };
            let list = || strings(v).ok_or_else(|| fail("must be an array of strings"));
            let millis = || {
                whole_positive(v)
                    .ok_or_else(|| fail("must be a positive whole number of milliseconds"))
            };
            match key.as_str() {
                "boundedCodeMode" => out.bounded_code_mode = Some(boolean()?),
                "qualifyNames" => out.qualify_names = Some(boolean()?),
                "policyFile" => out.policy_file = Some(path()?),
                "activityFile" => out.activity_file = Some(path()?),
                "hiddenProviders" => out.hidden_providers = Some(list()?),
                "callTimeoutMs" => out.call_timeout_ms = Some(millis()?),
                "callbackTimeoutMs" => out.callback_timeout_ms = Some(millis()?),
                "allowedOrigins" => {
                    let entries = list()?;
                    for (i, o) in entries.iter().enumerate() {
                        if let Some(why) = origin_problem(o) {
                            return Err(self.fail(&format!("{at}/{i}"), why));
                        }
                    }
                    out.allowed_origins = Some(entries);
                }
                "httpTokenEnv" => {
                    let name = path()?;
                    if !is_env_name(&name) {
                        return Err(fail(
                            "must be an environment variable name (letters, digits and '_', not starting with a digit)",
                        ));
                    }
                    out.http_token_env = Some(name);
                }
                "approvalFallback" => {
                    out.approval_fallback = match v.as_str() {
                        Some("deny") => ApprovalFallback::Deny,
                        Some("allow") => ApprovalFallback::Allow,
                        _ => return Err(fail("must be one of \"deny\", \"allow\"")),
                    }
                }
                "profileAllowedTools" => {
                    let entries = list()?;
                    parse_patterns(&entries).map_err(|e| self.nested(&at, e))?;
                    out.profile_allowed_tools = Some(entries);
                }
                "rules" => {
                    if !v.is_object() {
                        return Err(fail(
                            "must be an object like {\"allow\": [...], \"deny\": [...]}",
                        ));
                    }
                    Rules::from_value(v, None).map_err(|e| self.nested(&at, e))?;
                    out.rules = Some(v.clone());
                }
                _ => {
                    return Err(fail(&format!(
                        "unknown setting (known: {})",
                        GATEWAY_SETTINGS.join(", ")
                    )))
                }
            }
        }
        Ok(out)
    }

    /// An error about a value inside the setting at `at` (its pointer is
    /// relative to the setting), located in this file.
    fn nested(&self, at: &str, e: Error) -> Error {
        self.fail(
            &format!("{at}{}", e.pointer.as_deref().unwrap_or("")),
            e.message,
        )
    }
}

/// An environment variable name as shells write one.
fn is_env_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && !b[0].is_ascii_digit()
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// Why `origin` is not an origin as a browser sends it in `Origin`
/// (`scheme://host[:port]`, nothing after), if it is not.
fn origin_problem(origin: &str) -> Option<&'static str> {
    const SHAPE: &str =
        "must be an origin like \"https://app.example\" or \"http://localhost:5173\" (scheme://host[:port], no path)";
    if url_problem(origin).is_some() {
        return Some(SHAPE);
    }
    let rest = origin.split_once("://").map_or("", |(_, r)| r);
    (rest.contains(['/', '?', '#', '@']) || rest.is_empty()).then_some(SHAPE)
}

/// What JavaScript's `String.prototype.trim` removes.
fn is_js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// An array of strings, copied.
fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|x| x.as_str().map(str::to_string))
        .collect()
}

/// A whole number of at least 1 that a JavaScript number holds exactly
/// (`1000`, `1e3` and `1000.0` alike).
fn whole_positive(v: &Value) -> Option<u64> {
    let n = v.as_number()?;
    let whole = match n.as_u64() {
        Some(u) => u,
        None => {
            let f = n.as_f64()?;
            if f.fract() != 0.0 || f < 1.0 || f > MAX_SAFE_INTEGER as f64 {
                return None;
            }
            f as u64
        }
    };
    (1..=MAX_SAFE_INTEGER).contains(&whole).then_some(whole)
}

/// Why `url` is no `http:`/`https:` URL the gateway can connect to, if it is not.
///
/// The shape checked: a scheme, `//`, an authority with a non-empty host (a
/// name without the characters a host may not contain, or a bracketed IPv6
/// literal) and an optional port up to 65535; no whitespace or control
/// character anywhere.
fn url_problem(url: &str) -> Option<&'static str> {
    const INVALID: &str = "not a valid URL";
    let Some((scheme, rest)) = url.split_once(':') else {
        return Some(INVALID);
    };
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some(INVALID);
    }
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Some("must be an http: or https: URL");
    }
    let Some(rest) = rest.strip_prefix("//") else {
        return Some(INVALID);
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
    let (host, port) = if let Some(v6) = host_port.strip_prefix('[') {
        let Some((inner, after)) = v6.split_once(']') else {
            return Some(INVALID);
        };
        if inner.is_empty()
            || !inner
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
        {
            return Some(INVALID);
        }
        match after {
            "" => (inner, None),
            p => match p.strip_prefix(':') {
                Some(port) => (inner, Some(port)),
                None => return Some(INVALID),
            },
        }
    } else {
        match host_port.split_once(':') {
            Some((h, port)) => (h, Some(port)),
            None => (host_port, None),
        }
    };
    let forbidden = |c: char| "#%/:<>?@[\\]^|".contains(c);
    let bracketed = host_port.starts_with('[');
    if host.is_empty() || (!bracketed && host.chars().any(forbidden)) {
        return Some(INVALID);
    }
    let port_ok = port.is_none_or(|p| {
        p.is_empty()
            || (p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u32>().is_ok_and(|n| n <= 65535))
    });
    (!port_ok).then_some(INVALID)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_http_with_a_host() {
        for ok in [
            "http://127.0.0.1:9/mcp",
            "https://example.com",
            "HTTP://user:pw@h:8080/x?q#f",
            "http://[::1]:3000/mcp",
            "https://bücher.example/",
        ] {
            assert_eq!(url_problem(ok), None, "{ok}");
        }
        for (bad, why) in [
            ("file:///etc/passwd", "must be an http: or https: URL"),
            ("ws://h/", "must be an http: or https: URL"),
            ("localhost:8080", "must be an http: or https: URL"),
            ("not a url", "not a valid URL"),
            ("http://", "not a valid URL"),
            ("http:/h", "not a valid URL"),
            ("http://h:99999/", "not a valid URL"),
            ("http://h:x/", "not a valid URL"),
            ("http://[::1/", "not a valid URL"),
            ("http://h h/", "not a valid URL"),
            ("//h/", "not a valid URL"),
        ] {
            assert_eq!(url_problem(bad), Some(why), "{bad}");
        }
        assert_eq!(url_problem("nourl"), Some("not a valid URL"));
    }

    #[test]
    fn timeouts_are_whole_positive_and_exact_in_js() {
        let n = |s: &str| whole_positive(&serde_json::from_str(s).expect("json"));
        assert_eq!(n("1000"), Some(1000));
        assert_eq!(n("1e3"), Some(1000));
        assert_eq!(n("1000.0"), Some(1000));
        for bad in ["0", "-1", "1.5", "9007199254740992", "1e300", "\"5\""] {
            assert_eq!(n(bad), None, "{bad}");
        }
    }
}
