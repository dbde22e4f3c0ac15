//! Registering from JSON texts (issue 32: a re-list costs what changed):
//! `register_texts` and `sync_provider_texts`, which skip reading a tool
//! listed again in the very text it came from, answer and leave the registry
//! exactly as `register_values` and `sync_provider_values` do, refusals and
//! skipped tools included.

use holaryn_core::Runtime;
use serde_json::{json, Value};

fn tool(name: &str, description: &str) -> Value {
    json!({
        "name": name, "description": description, "source": "mcp",
        "provider": {"id": "p", "kind": "mcp"},
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}
    })
}

fn texts(values: &[Value]) -> Vec<String> {
    values.iter().map(Value::to_string).collect()
}

/// The same re-lists through values and through texts: equal answers, versions and descriptors.
fn same_relists(lists: &[Vec<Value>], require_schema_after: Option<usize>) {
    let (mut by_value, mut by_text) = (Runtime::new(), Runtime::new());
    by_text.set_listing_key([7; 16]);
    for (i, list) in lists.iter().enumerate() {
        if require_schema_after == Some(i) {
            by_value.set_require_input_schema(true);
            by_text.set_require_input_schema(true);
        }
        let a = by_value.sync_provider_values("p", list.clone(), i as u64);
        let t = texts(list);
        let refs: Vec<&str> = t.iter().map(String::as_str).collect();
        let b = by_text.sync_provider_texts("p", &refs, i as u64);
        let show = |r: &holaryn_core::Result<holaryn_core::ProviderSync>| {
            serde_json::to_string(&r.as_ref().map_err(|e| e.code)).unwrap_or_default()
        };
        assert_eq!(show(&a), show(&b), "re-list {i}");
        assert_eq!(
            by_value.registry().version(),
            by_text.registry().version(),
            "re-list {i}"
        );
        let descriptors = |rt: &Runtime| -> Vec<String> {
            rt.registry()
                .entries()
                .map(|e| serde_json::to_string(&*e.descriptor).unwrap_or_default())
                .collect()
        };
        assert_eq!(descriptors(&by_value), descriptors(&by_text), "re-list {i}");
        let indexed = |rt: &Runtime| rt.search_index().len();
        assert_eq!(indexed(&by_value), indexed(&by_text), "re-list {i}");
    }
}

#[test]
fn a_relist_from_texts_answers_as_one_from_values() {
    let (a, b, c) = (
        tool("p/a", "alpha"),
        tool("p/b", "beta"),
        tool("p/c", "gamma"),
    );
    let b2 = tool("p/b", "beta, revised");
    let no_schema =
        json!({"name": "p/n", "description": "none", "source": "mcp", "provider": {"id": "p"}});
    let bad = json!({"name": "p/bad", "description": "x", "source": "mcp", "provider": {"id": "p"},
                     "inputSchema": {"type": "string"}});
    same_relists(
        &[
            vec![a.clone(), b.clone(), c.clone()],
            vec![a.clone(), b.clone(), c.clone()], // unchanged: no change
            vec![a.clone(), b2.clone(), c.clone()], // one changed
            vec![a.clone(), b2.clone()],           // one gone
            vec![a.clone(), a.clone(), b2.clone()], // listed twice, same text: the second skipped
            vec![a.clone(), tool("p/a", "other"), b2.clone()], // unchanged, then the same name changed
            vec![tool("p/a", "other"), a.clone(), b2.clone()], // changed, then the old text
            vec![a.clone(), json!(5), bad.clone(), b2.clone()], // no spec, a refused schema
            vec![a.clone(), bad, b2.clone(), no_schema.clone()],
            vec![a.clone(), b2.clone(), no_schema.clone()], // unchanged, but now a schema is required
            vec![a, b, c, no_schema],
        ],
        Some(9),
    );
}

#[test]
fn registering_texts_answers_as_registering_values() {
    let (mut by_value, mut by_text) = (Runtime::new(), Runtime::new());
    let (a, b) = (tool("p/a", "alpha"), tool("p/b", "beta"));
    let batches = [
        vec![a.clone(), b.clone()],
        vec![a.clone(), b.clone()],
        vec![a.clone(), tool("p/b", "beta 2")],
        vec![a.clone(), a.clone()], // a duplicate refuses the batch
        vec![tool("p/a", "alpha 2"), a.clone()],
        vec![json!({"name": "p/x"}), a.clone()],
        vec![
            b,
            json!({"name": "p/y", "description": "y", "source": "nope", "provider": {"id": "p"}}),
        ],
        vec![a],
    ];
    for (i, batch) in batches.iter().enumerate() {
        let x = by_value.register_values(batch, 0);
        let t = texts(batch);
        let refs: Vec<&str> = t.iter().map(String::as_str).collect();
        let y = by_text.register_texts(&refs, 0);
        let show = |r: holaryn_core::Result<Option<holaryn_core::RegistryChange>>| {
            format!("{:?}", r.map_err(|e| (e.code, e.message, e.tool, e.field)))
        };
        assert_eq!(show(x), show(y), "batch {i}");
        assert_eq!(
            by_value.registry().version(),
            by_text.registry().version(),
            "batch {i}"
        );
    }
}

#[test]
fn a_tool_changed_by_spec_is_read_again_from_its_old_text() {
    // Registered from text, then replaced by a spec with no text: the old text is a change again.
    let mut rt = Runtime::new();
    let a = tool("p/a", "alpha").to_string();
    rt.register_texts(&[&a], 0).expect("registers");
    rt.register_values(&[tool("p/a", "alpha 2")], 0)
        .expect("replaced");
    let change = rt
        .register_texts(&[&a], 0)
        .expect("registers")
        .expect("a change");
    assert_eq!(change.changed, vec!["p/a".to_string()]);
    // A new key forgets every print: the same text is read again, and is the same tool.
    rt.set_listing_key([1; 16]);
    assert_eq!(rt.register_texts(&[&a], 0).expect("registers"), None);
}

#[test]
fn texts_read_straight_into_specs_refuse_as_values_do() {
    // Texts a value would read differently from a spec: duplicate keys (the
    // last wins in a value), unknown fields, numbers of the wrong kind.
    let raw = [
        r#"{"name":"p/d","name":"p/e","description":"d","source":"mcp","provider":{"id":"p"}}"#,
        r#"{"name":"p/f","description":"d","source":"mcp","provider":{"id":"p"},"extra":1}"#,
        r#"{"name":"p/g","description":"d","source":"mcp","provider":{"id":"p"},"timeoutMs":1e3}"#,
        r#"{"name":"p/h","description":"d","source":"nope","provider":{"id":"p"},"extra":1}"#,
        r#"{"name":"p/i","description":"d","source":"mcp","provider":{"id":"p"},"timeoutMs":5}"#,
    ];
    for text in raw {
        let value: Value = serde_json::from_str(text).expect("JSON");
        let (mut by_value, mut by_text) = (Runtime::new(), Runtime::new());
        let x = by_value.register_values(std::slice::from_ref(&value), 0);
        let y = by_text.register_texts(&[text], 0);
        let show = |r: holaryn_core::Result<Option<holaryn_core::RegistryChange>>| {
            format!("{:?}", r.map_err(|e| (e.code, e.message, e.tool, e.field)))
        };
        assert_eq!(show(x), show(y), "{text}");
        let a = by_value.sync_provider_values("p", vec![value], 1);
        let b = by_text.sync_provider_texts("p", &[text], 1);
        let show = |r: holaryn_core::Result<holaryn_core::ProviderSync>| {
            serde_json::to_string(&r.map_err(|e| e.code)).unwrap_or_default()
        };
        assert_eq!(show(a), show(b), "{text}");
        assert_eq!(by_value.registry().version(), by_text.registry().version());
    }
}
