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

/// The same catalog re-lists read whole and entry by entry: equal answers,
/// versions and descriptors (errors included, with their positions).
fn same_catalogs(texts: &[String], opts: &holaryn_core::CatalogOptions) {
    let with: Vec<_> = texts.iter().map(|t| (t.clone(), opts.clone())).collect();
    same_catalogs_with(&with);
}

fn same_catalogs_with(texts: &[(String, holaryn_core::CatalogOptions)]) {
    let (mut whole, mut entries) = (Runtime::new(), Runtime::new());
    entries.set_listing_key([3; 16]);
    for (i, (text, opts)) in texts.iter().enumerate() {
        let a = holaryn_core::parse_provider_list("p.json", text, opts)
            .and_then(|list| whole.sync_provider_list(list, i as u64));
        let b = entries
            .read_catalog("p.json", text, opts)
            .and_then(|read| entries.sync_catalog_read(read, i as u64));
        let show = |r: &holaryn_core::Result<holaryn_core::ProviderSync>| match r {
            Ok(s) => serde_json::to_string(s).unwrap_or_default(),
            Err(e) => format!("{:?}", (e.code, &e.message, &e.pointer, e.line, e.column)),
        };
        assert_eq!(show(&a), show(&b), "catalog {i}: {text}");
        assert_eq!(
            whole.registry().version(),
            entries.registry().version(),
            "catalog {i}"
        );
        let descriptors = |rt: &Runtime| -> Vec<String> {
            rt.registry()
                .entries()
                .map(|e| serde_json::to_string(&*e.descriptor).unwrap_or_default())
                .collect()
        };
        assert_eq!(descriptors(&whole), descriptors(&entries), "catalog {i}");
    }
}

#[test]
fn a_catalog_read_entry_by_entry_answers_as_one_read_whole() {
    let t = |name: &str, d: &str| {
        json!({"name": name, "description": d,
               "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}})
    };
    let list = |info: Value, tools: Vec<Value>, pretty: bool| {
        let v = json!({"serverInfo": info, "tools": tools});
        if pretty {
            serde_json::to_string_pretty(&v).unwrap_or_default()
        } else {
            v.to_string()
        }
    };
    let v1 = json!({"name": "Srv", "version": "1"});
    let (a, b, c) = (t("a", "alpha"), t("b", "beta"), t("c", "gamma"));
    let texts = vec![
        list(v1.clone(), vec![a.clone(), b.clone(), c.clone()], false),
        list(v1.clone(), vec![a.clone(), b.clone(), c.clone()], false), // unchanged
        list(
            v1.clone(),
            vec![a.clone(), t("b", "beta 2"), c.clone()],
            true,
        ), // pretty, one changed
        list(
            v1.clone(),
            vec![a.clone(), t("b", "beta 2"), c.clone()],
            true,
        ),
        list(
            v1.clone(),
            vec![a.clone(), json!(7), json!({"name": 5}), c.clone()],
            false,
        ),
        list(v1.clone(), vec![a.clone(), a.clone(), c.clone()], false), // listed twice
        list(
            json!({"name": "Srv", "version": "2"}),
            vec![a.clone(), c.clone()],
            false,
        ), // new provider version
        json!([a.clone(), c.clone()]).to_string(),                      // the array form
        format!(" [ {a} ,\n {c} ] "),
        r#"{"serverInfo": {"name": "Srv"}, "tools": [{"name": "a",}]}"#.into(), // no JSON: the error at its place
        r#"{"tools": 5}"#.into(),
        r#"{"tools": [], "tools": [{"name": "z", "description": "last key wins"}]}"#.into(),
        format!(
            "{{\"tools\": [{}{{\"name\": \"deep\"}}{}]}}",
            "[".repeat(126),
            "]".repeat(126)
        ),
        "[]".into(),
    ];
    for qualify_names in [false, true] {
        let opts = holaryn_core::CatalogOptions {
            provider_id: Some("srv".into()),
            qualify_names,
            ..Default::default()
        };
        same_catalogs(&texts, &opts);
    }
    let renaming = holaryn_core::CatalogOptions {
        qualify_refused_names: true,
        ..Default::default()
    };
    let refused = json!([t("tool_search", "x")]).to_string();
    same_catalogs(&[refused.clone(), refused], &renaming);
    // The same text under other options or another provider is another spec: read again.
    let opts = |id: &str, qualify_names: bool, trust: Option<holaryn_model::Trust>| {
        holaryn_core::CatalogOptions {
            provider_id: Some(id.into()),
            qualify_names,
            trust,
            ..Default::default()
        }
    };
    let text = json!([a, c]).to_string();
    same_catalogs_with(&[
        (text.clone(), opts("srv", false, None)),
        (text.clone(), opts("srv", true, None)),
        (
            text.clone(),
            opts("srv", true, Some(holaryn_model::Trust::Trusted)),
        ),
        (
            text.clone(),
            opts("other", true, Some(holaryn_model::Trust::Trusted)),
        ),
        (
            text.clone(),
            opts("other", true, Some(holaryn_model::Trust::Trusted)),
        ),
    ]);
    // Unchanged entries are not read again; a changed one is.
    let mut rt = Runtime::new();
    let o = opts("srv", true, None);
    let first = rt.read_catalog("p.json", &text, &o).expect("reads");
    rt.sync_catalog_read(first, 0).expect("syncs");
    let again = rt.read_catalog("p.json", &text, &o).expect("reads");
    assert_eq!(
        again.unchanged(),
        ["srv/a".to_string(), "srv/c".to_string()]
    );
    let changed = json!([t("a", "alpha 2"), t("c", "gamma")]).to_string();
    let read = rt.read_catalog("p.json", &changed, &o).expect("reads");
    assert_eq!(read.unchanged(), ["srv/c".to_string()]);
}
