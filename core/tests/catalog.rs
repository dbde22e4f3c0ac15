//! Catalog parsing's one naming rule (`CatalogOptions::qualify_refused_names`):
//! a tool whose name the registry refuses is kept under its provider-qualified
//! name when the registry accepts that, with a note; a name the qualified form
//! does not fix is left alone and refused as without the option.

use holaryn_core::{parse_catalog, parse_provider_list, CatalogOptions, ParsedCatalog};
use holaryn_core::{Code, Error, Runtime, ToolSpec, Update};
use serde_json::json;

fn catalog(server: Option<&str>, names: &[&str]) -> String {
    let tools: Vec<_> = names
        .iter()
        .map(|n| json!({"name": n, "description": format!("{n} things"), "inputSchema": {"type": "object"}}))
        .collect();
    match server {
        Some(s) => json!({"server": s, "tools": tools}),
        None => json!({"tools": tools}),
    }
    .to_string()
}

fn qualifying() -> CatalogOptions {
    CatalogOptions {
        qualify_refused_names: true,
        ..CatalogOptions::default()
    }
}

fn register(specs: Vec<ToolSpec>) -> Result<Runtime, Error> {
    let mut rt = Runtime::new();
    let provider = specs.first().map(|s| s.provider.id.clone());
    rt.update(
        Update {
            upsert: specs,
            sync_provider: provider,
            ..Update::default()
        },
        0,
    )?;
    Ok(rt)
}

fn refused(specs: Vec<ToolSpec>) -> Error {
    match register(specs) {
        Ok(_) => panic!("registered"),
        Err(e) => e,
    }
}

fn names(c: &ParsedCatalog) -> Vec<&str> {
    c.specs.iter().map(|s| s.name.as_str()).collect()
}

#[test]
fn a_reserved_name_is_kept_under_its_provider_with_a_note() {
    let text = catalog(None, &["tool_search", "send_invoice"]);
    let c = parse_catalog("dir/bench-tools.json", &text, &qualifying()).expect("parses");
    assert_eq!(names(&c), ["bench-tools/tool_search", "send_invoice"]);
    assert_eq!(c.specs[0].local_name.as_deref(), Some("tool_search"));
    assert_eq!(c.renamed.len(), 1);
    let r = &c.renamed[0];
    assert_eq!(
        (r.from.as_str(), r.to.as_str()),
        ("tool_search", "bench-tools/tool_search")
    );
    assert_eq!(r.code, Code::DescriptorReservedName);
    assert!(r.message.contains("reserved"), "{}", r.message);
    let rt = register(c.specs).expect("registers in one go");
    assert_eq!(rt.registry().len(), 2);
    // The note serialises as the hosts read it.
    assert_eq!(
        serde_json::to_value(r).expect("json"),
        json!({"from": "tool_search", "to": "bench-tools/tool_search", "code": "descriptor.reserved_name", "message": r.message})
    );
}

#[test]
fn the_provider_is_the_server_field_when_there_is_one() {
    let c = parse_catalog(
        "tools-list.json",
        &catalog(Some("vendor"), &["tool_search"]),
        &qualifying(),
    )
    .expect("parses");
    assert_eq!(names(&c), ["vendor/tool_search"]);
}

#[test]
fn every_name_the_qualified_form_fixes_is_renamed() {
    let text = catalog(
        Some("p"),
        &["toolh_x", "other/x", "Tool-List", "fine", "run_tool_script"],
    );
    let c = parse_catalog("p.json", &text, &qualifying()).expect("parses");
    assert_eq!(
        names(&c),
        [
            "p/toolh_x",
            "p/other/x",
            "p/Tool-List",
            "fine",
            "run_tool_script"
        ]
    );
    let codes: Vec<(&str, Code)> = c
        .renamed
        .iter()
        .map(|r| (r.from.as_str(), r.code))
        .collect();
    assert_eq!(
        codes,
        [
            ("toolh_x", Code::DescriptorInvalidName),
            ("other/x", Code::DescriptorReservedName),
            ("Tool-List", Code::DescriptorReservedName),
        ]
    );
    register(c.specs).expect("registers");
}

#[test]
fn a_name_the_qualified_form_does_not_fix_is_refused_as_before() {
    let text = catalog(Some("p"), &["a b", "ok"]);
    let with = parse_catalog("p.json", &text, &qualifying()).expect("parses");
    assert_eq!(names(&with), ["a b", "ok"]);
    assert!(with.renamed.is_empty());
    let without = parse_catalog("p.json", &text, &CatalogOptions::default()).expect("parses");
    assert_eq!(with.specs, without.specs);
    let a = refused(with.specs);
    let b = refused(without.specs);
    assert_eq!(a, b);
    assert_eq!(
        (a.code, a.field.as_deref()),
        (Code::DescriptorInvalidName, Some("name"))
    );
}

#[test]
fn without_the_option_nothing_is_renamed() {
    let text = catalog(None, &["tool_search"]);
    let c = parse_catalog("bench.json", &text, &CatalogOptions::default()).expect("parses");
    assert_eq!(names(&c), ["tool_search"]);
    assert!(c.renamed.is_empty());
    let e = refused(c.specs);
    assert_eq!(e.code, Code::DescriptorReservedName);
}

#[test]
fn qualified_names_need_no_renaming() {
    let opts = CatalogOptions {
        qualify_names: true,
        provider_id: Some("vendor".into()),
        ..qualifying()
    };
    let c = parse_catalog("vendor.json", &catalog(None, &["tool_search"]), &opts).expect("parses");
    assert_eq!(names(&c), ["vendor/tool_search"]);
    assert!(c.renamed.is_empty());
}

#[test]
fn a_provider_list_applies_the_rule_too() {
    let text = catalog(Some("p"), &["tool_search", "a b"]);
    let list = parse_provider_list("p.json", &text, &qualifying()).expect("parses");
    let got: Vec<&str> = list.specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(got, ["p/tool_search", "a b"]);
    let sync = Runtime::new().sync_provider_list(list, 0).expect("syncs");
    assert_eq!(sync.change.expect("change").added, ["p/tool_search"]);
    assert_eq!(sync.skipped.len(), 1);
}

/// Issue 33: the server's description (else its `instructions`) becomes the
/// provider's description, which search reads with the provider's name.
#[test]
fn the_servers_description_or_instructions_describe_the_provider() {
    let tools = json!([{ "name": "a", "description": "d" }]);
    let with = |meta: serde_json::Value| {
        let mut text = meta;
        text["tools"] = tools.clone();
        let c =
            parse_catalog("p.json", &text.to_string(), &CatalogOptions::default()).expect("parses");
        c.specs[0].provider.description.clone()
    };
    assert_eq!(
        with(
            json!({ "serverInfo": { "name": "p", "description": "Payments." }, "instructions": "Use me." })
        ),
        Some("Payments.".to_string())
    );
    assert_eq!(
        with(json!({ "serverInfo": { "name": "p" }, "instructions": "  Use me for payments. " })),
        Some("Use me for payments.".to_string())
    );
    assert_eq!(with(json!({ "serverInfo": { "name": "p" } })), None);
}
