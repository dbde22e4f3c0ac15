//! wasm-bindgen tests: the registry, discovery and the async gate through the
//! JavaScript classes, run under Node and in headless Chromium.

use crate::{HolarynRuntime, HolarynSession};
use js_sys::{Function, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

#[cfg(holaryn_browser_tests)]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn parse(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test JSON parses")
}

fn get(v: &JsValue, path: &str) -> JsValue {
    path.split('.').fold(v.clone(), |acc, k| {
        Reflect::get(&acc, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
    })
}

fn tools() -> JsValue {
    parse(
        r#"[
        {"name":"read_file","aliases":["cat"],"description":"Read a file","source":"native",
         "provider":{"id":"host"},"inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}},
        {"name":"delete_file","description":"Delete a file","source":"native","provider":{"id":"host"},
         "annotations":{"destructiveHint":true},
         "inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}
    ]"#,
    )
}

fn secret(seed: u8) -> Option<Uint8Array> {
    Some(Uint8Array::from(&[seed; 32][..]))
}

fn runtime() -> HolarynRuntime {
    let rt = HolarynRuntime::new(JsValue::UNDEFINED).expect("runtime");
    rt.register_tools(tools()).expect("tools register");
    rt
}

fn dynamic(rt: &HolarynRuntime, seed: u8) -> HolarynSession {
    rt.create_session(parse(r#"{"dynamicDiscovery":true}"#), secret(seed))
        .expect("session")
}

#[wasm_bindgen_test]
fn registry_refuses_bad_tools_with_typed_errors_and_changes_nothing() {
    let rt = runtime();
    let before = rt.version().ok();
    let err = rt
        .register_tools(parse(
            r#"[{"name":"x","source":"plugin","provider":{"id":"p"}}]"#,
        ))
        .expect_err("unknown source");
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("descriptor.unknown_source")
    );
    assert_eq!(
        get(&err, "name").as_string().as_deref(),
        Some("DescriptorError")
    );
    assert_eq!(get(&err, "field").as_string().as_deref(), Some("source"));
    assert_eq!(rt.version().ok(), before);
    assert_eq!(rt.size().ok(), Some(2));
}

#[wasm_bindgen_test]
fn change_events_reach_listeners_and_identical_content_is_a_no_op() {
    let rt = runtime();
    let seen = js_sys::Array::new();
    let push = Function::new_with_args("ev", "this.push(ev.type)").bind0(&seen);
    rt.add_event_listener(push).expect("listener added");
    let change = rt
        .register_tools(parse(
            r#"[{"name":"glob_files","source":"native","provider":{"id":"host"}}]"#,
        ))
        .expect("ok");
    assert_eq!(
        get(&change, "added.0").as_string().as_deref(),
        Some("glob_files")
    );
    assert!(rt.register_tools(tools()).expect("ok").is_null(), "no-op");
    let types: Vec<String> = seen.iter().filter_map(|v| v.as_string()).collect();
    assert!(types.contains(&"tool_registry_changed".to_string()));
}

#[wasm_bindgen_test]
fn alias_and_handle_resolve_to_one_tool_and_other_sessions_handles_are_forged() {
    let rt = runtime();
    let a = dynamic(&rt, 1);
    let b = dynamic(&rt, 2);
    let out = a.inspect(parse(r#"{"name":"cat"}"#)).expect("inspect");
    assert_eq!(get(&out, "name").as_string().as_deref(), Some("read_file"));
    let handle = get(&out, "handle").as_string().expect("handle");
    let input = js_sys::Object::new();
    Reflect::set(&input, &"name".into(), &handle.clone().into()).expect("set");
    let err = b.inspect(input.clone().into()).expect_err("forged");
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("handle.forged")
    );
    // Removing another tool leaves the handle valid; removing its tool makes it stale.
    rt.remove_tools(vec!["delete_file".into()])
        .expect("removed");
    assert!(a.inspect(input.clone().into()).is_ok());
    rt.remove_tools(vec!["read_file".into()]).expect("removed");
    let err = a.inspect(input.into()).expect_err("stale");
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("handle.stale")
    );
}

#[wasm_bindgen_test]
async fn gated_call_awaits_promise_callbacks() {
    let rt = runtime();
    let s = dynamic(&rt, 3);
    s.inspect(parse(r#"{"name":"read_file"}"#))
        .expect("inspect");
    let host = js_sys::Object::new();
    let exec = Function::new_with_args(
        "req",
        "return Promise.resolve({text: 'hello ' + req.args.path})",
    );
    Reflect::set(&host, &"execute".into(), &exec).expect("set");
    let p = s
        .call("cat".into(), parse(r#"{"path":"a.txt"}"#), host.into())
        .expect("promise");
    let outcome = JsFuture::from(p).await.expect("outcome");
    assert_eq!(get(&outcome, "status").as_string().as_deref(), Some("ok"));
    assert_eq!(get(&outcome, "path").as_string().as_deref(), Some("alias"));
    assert_eq!(
        get(&outcome, "output.text").as_string().as_deref(),
        Some("hello a.txt")
    );
}

#[wasm_bindgen_test]
async fn destructive_tools_ask_first_and_a_denial_never_executes() {
    let rt = runtime();
    let s = dynamic(&rt, 4);
    s.inspect(parse(r#"{"name":"delete_file"}"#))
        .expect("inspect");
    let host = js_sys::Object::new();
    let calls = js_sys::Array::new();
    let exec = Function::new_with_args("req", "this.push(req.tool); return {}").bind0(&calls);
    let approve = Function::new_with_args(
        "req",
        "return Promise.resolve({decision: 'deny', reason: 'no'})",
    );
    Reflect::set(&host, &"execute".into(), &exec).expect("set");
    Reflect::set(&host, &"approve".into(), &approve).expect("set");
    let p = s
        .call(
            "delete_file".into(),
            parse(r#"{"path":"a.txt"}"#),
            host.into(),
        )
        .expect("promise");
    let outcome = JsFuture::from(p).await.expect("outcome");
    assert_eq!(
        get(&outcome, "status").as_string().as_deref(),
        Some("approval_denied")
    );
    assert_eq!(calls.length(), 0, "execute never reached");
}

#[wasm_bindgen_test]
async fn every_model_format_round_trips_export_call_dispatch_result() {
    let rt = HolarynRuntime::new(JsValue::UNDEFINED).expect("runtime");
    rt.register_tools(parse(
        r#"[{"name":"gh/create_issue","description":"Create an issue","source":"mcp","provider":{"id":"gh"},
            "inputSchema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}]"#,
    ))
    .expect("tools");
    let s = dynamic(&rt, 5);
    s.inspect(parse(r#"{"name":"gh/create_issue"}"#))
        .expect("inspect");
    let host = js_sys::Object::new();
    let exec = Function::new_with_args("req", "return {created: req.args.title, tool: req.tool}");
    Reflect::set(&host, &"execute".into(), &exec).expect("set");
    s.set_host(host.into()).expect("host set");
    let cases = [
        (
            "anthropic",
            r#"{"type":"tool_use","id":"tu_1","name":"gh__create_issue","input":{"title":"Bug"}}"#,
            "content",
        ),
        (
            "openai_chat",
            r#"{"id":"call_1","type":"function","function":{"name":"gh__create_issue","arguments":"{\"title\":\"Bug\"}"}}"#,
            "content",
        ),
        (
            "openai_responses",
            r#"{"type":"function_call","call_id":"fc_1","name":"gh__create_issue","arguments":"{\"title\":\"Bug\"}"}"#,
            "output",
        ),
        (
            "mcp",
            r#"{"name":"gh/create_issue","arguments":{"title":"Bug"}}"#,
            "content.0.text",
        ),
    ];
    for (format, call, text_at) in cases {
        let export = s
            .export_tools(JsValue::from_str(format), JsValue::UNDEFINED)
            .expect("export");
        assert!(
            get(&export, "bytes").as_f64().unwrap_or(0.0) > 0.0,
            "{format}: bytes reported"
        );
        let p = s
            .dispatch_model_call(JsValue::from_str(format), parse(call), JsValue::UNDEFINED)
            .expect("dispatch");
        let result = JsFuture::from(p).await.expect("result");
        let text = get(&result, text_at).as_string().unwrap_or_default();
        assert!(text.contains("\"created\":\"Bug\""), "{format}: {text}");
        assert!(
            text.contains("gh/create_issue"),
            "{format}: canonical tool executed"
        );
    }
}

#[wasm_bindgen_test]
fn a_listener_that_re_enters_on_every_event_works_without_nesting() {
    use std::cell::Cell;
    use std::rc::Rc;
    let rt = runtime();
    let s = Rc::new(dynamic(&rt, 6));
    let (heard, depth, deepest) = (
        Rc::new(Cell::new(0u32)),
        Rc::new(Cell::new(0u32)),
        Rc::new(Cell::new(0u32)),
    );
    let listener = {
        let (s, heard, depth, deepest) = (s.clone(), heard.clone(), depth.clone(), deepest.clone());
        Closure::<dyn FnMut(JsValue)>::new(move |_event: JsValue| {
            heard.set(heard.get() + 1);
            depth.set(depth.get() + 1);
            deepest.set(deepest.get().max(depth.get()));
            // Records a search: one more event for every event heard.
            s.search(parse(r#"{"query":"file"}"#))
                .expect("a re-entrant search works");
            depth.set(depth.get() - 1);
        })
    };
    let f: Function = listener.as_ref().unchecked_ref::<Function>().clone();
    rt.add_event_listener(f.clone()).expect("listener added");
    s.search(parse(r#"{"query":"read"}"#)).expect("search");
    assert!(heard.get() > 1, "the feedback was delivered");
    assert_eq!(deepest.get(), 1, "delivery never nests");
    rt.remove_event_listener(f).expect("listener removed");
    assert!(s.search(parse(r#"{"query":"read"}"#)).is_ok());
    assert_eq!(rt.size().ok(), Some(2));
}
