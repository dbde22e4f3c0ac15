//! Ranking over real catalogs: the 54 MCP fixture servers plus a realistic
//! set of native file, memory and browser tools. Expectations and a golden
//! of full rankings live in tests/fixtures/search/.

mod common;

use common::{all_mcp_specs, dynamic_session, fixtures};
use holaryn_core::Update;
use holaryn_core::{Runtime, ToolSummary};
use serde_json::{json, Value};

fn native_tools() -> Vec<Value> {
    let text =
        std::fs::read_to_string(fixtures().join("search/native_tools.json")).expect("fixture");
    serde_json::from_str(&text).expect("json")
}

fn runtime(reverse: bool) -> (Runtime, String) {
    let mut rt = Runtime::new();
    let mut specs = all_mcp_specs();
    if reverse {
        specs.reverse();
    }
    rt.update(
        Update {
            upsert: specs,
            ..Update::default()
        },
        0,
    )
    .expect("mcp");
    rt.register_values(&native_tools(), 0).expect("native");
    let sid = dynamic_session(&mut rt, 1);
    (rt, sid)
}

/// A dynamic session over the host's tools, given as (name, description),
/// and a search in it: the first result's name, with all the results.
fn host_search(tools: &[(&str, &str)], seed: u8) -> impl FnMut(&str) -> (String, Vec<ToolSummary>) {
    let mut rt = Runtime::new();
    let values: Vec<Value> = tools
        .iter()
        .map(|(name, description)| json!({ "name": name, "description": description, "source": "native", "provider": { "id": "host" } }))
        .collect();
    rt.register_values(&values, 0).expect("tools");
    let sid = dynamic_session(&mut rt, seed);
    move |query| {
        let out = rt
            .tool_search(&sid, &json!({ "query": query }), 1)
            .expect("search");
        (out.results[0].name.clone(), out.results)
    }
}

fn ranked(rt: &mut Runtime, sid: &str, q: &str) -> Vec<String> {
    rt.tool_search(sid, &json!({ "query": q }), 1)
        .expect("search")
        .results
        .into_iter()
        .map(|r| r.name)
        .collect()
}

#[test]
fn fixture_queries_rank_as_expected_and_match_the_golden() {
    let (mut rt, sid) = runtime(false);
    let queries: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("search/queries.json")).expect("q"),
    )
    .expect("json");
    let mut failures = Vec::new();
    let mut golden = serde_json::Map::new();
    for q in &queries {
        let id = q["id"].as_str().unwrap_or_default();
        let r = ranked(&mut rt, &sid, q["query"].as_str().unwrap_or_default());
        if let Some(top) = q.get("expectTop1").and_then(Value::as_str) {
            if r.first().map(String::as_str) != Some(top) {
                failures.push(format!("{id}: expected {top} first, got {r:?}"));
            }
        }
        if let Some(t3) = q.get("expectInTop3").and_then(Value::as_str) {
            if !r.iter().take(3).any(|n| n == t3) {
                failures.push(format!("{id}: expected {t3} in top 3, got {r:?}"));
            }
        }
        if let Some(t8) = q.get("expectInTop8").and_then(Value::as_str) {
            if !r.iter().any(|n| n == t8) {
                failures.push(format!("{id}: expected {t8} in the results, got {r:?}"));
            }
        }
        if let Some(t5) = q.get("expectInTop5").and_then(Value::as_str) {
            if !r.iter().take(5).any(|n| n == t5) {
                failures.push(format!("{id}: expected {t5} in top 5, got {r:?}"));
            }
        }
        golden.insert(id.to_string(), json!(r));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let path = fixtures().join("search/rankings.golden.json");
    let actual = Value::Object(golden);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&actual).expect("json") + "\n",
        )
        .expect("write");
    }
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("golden (UPDATE_GOLDEN=1)"))
            .expect("json");
    assert_eq!(actual, want, "rankings changed; review and UPDATE_GOLDEN=1");
}

#[test]
fn multi_step_requests_rank_the_first_step_first_among_native_tools() {
    let mut rt = Runtime::new();
    rt.register_values(&native_tools(), 0).expect("native");
    let sid = dynamic_session(&mut rt, 3);
    for q in [
        "find and read project release notes",
        "find the project release notes and summarize them",
        "locate the changelog then open it",
    ] {
        assert_eq!(
            ranked(&mut rt, &sid, q).first().map(String::as_str),
            Some("glob_files"),
            "{q}"
        );
    }
    for (q, top) in [
        ("read the file then find its tests", "read_file"),
        ("search file contents then edit them", "grep_files"),
        ("remove a file", "delete_file"),
    ] {
        assert_eq!(
            ranked(&mut rt, &sid, q).first().map(String::as_str),
            Some(top),
            "{q}"
        );
    }
}

#[test]
fn ranking_is_deterministic_and_independent_of_registration_order() {
    let (mut a, sa) = runtime(false);
    let (mut b, sb) = runtime(true);
    for q in ["read a file", "create an issue", "list", "search", "zzz"] {
        let first = ranked(&mut a, &sa, q);
        assert_eq!(first, ranked(&mut a, &sa, q), "{q}: same query twice");
        assert_eq!(first, ranked(&mut b, &sb, q), "{q}: shuffled registration");
    }
}

#[test]
fn why_explains_matches_without_schemas() {
    let (mut rt, sid) = runtime(false);
    let out = rt
        .tool_search(&sid, &json!({"query": "cat"}), 1)
        .expect("search");
    assert_eq!(out.results[0].why[0], "alias");
    let out = rt
        .tool_search(&sid, &json!({"query": "old_string replacement"}), 1)
        .expect("search");
    assert!(
        out.results[0]
            .why
            .iter()
            .any(|w| w.starts_with("schema field")),
        "{:?}",
        out.results[0].why
    );
}

#[test]
fn odd_queries_never_panic() {
    let (mut rt, sid) = runtime(false);
    let long = "🦀".repeat(512);
    for q in [
        "*",
        "()",
        "\u{0}\u{1}x",
        "ÉÉÉ",
        long.as_str(),
        "a b c d e f g h i j k l m n o p",
        "_",
        "/",
        "toolh_x",
    ] {
        let _ = rt.tool_search(&sid, &json!({ "query": q }), 1);
    }
}

#[test]
fn ties_break_by_canonical_name() {
    let mut rt = Runtime::new();
    let same = |n: &str| common::native(n, "Identical description");
    rt.register_values(&[same("zeta"), same("alpha"), same("mid")], 0)
        .expect("tools");
    let sid = dynamic_session(&mut rt, 2);
    assert_eq!(
        ranked(&mut rt, &sid, "identical description"),
        ["alpha", "mid", "zeta"]
    );
}

#[test]
fn signals_explain_themselves_in_why() {
    let (mut rt, sid) = runtime(false);
    let why = |rt: &mut Runtime, q: &str| -> Vec<Vec<String>> {
        rt.tool_search(&sid, &json!({ "query": q }), 1)
            .expect("search")
            .results
            .into_iter()
            .map(|r| r.why)
            .collect()
    };
    // Argument fit: a URL in the request, tools that take one.
    let w = why(&mut rt, "open https://example.com/pricing");
    assert!(
        w.iter().any(|w| w.iter().any(|x| x == "takes a URL")),
        "{w:?}"
    );
    // Lexicon: an everyday phrase adds the tools' own words.
    let w = why(&mut rt, "put a thumbs-up on that message");
    assert!(
        w[0].iter().any(|x| x.contains("(lexicon: thumbs up)")),
        "{w:?}"
    );
    // Every result says why it is there.
    for q in [
        "send this customer a bill for $40",
        "go back to the page I was just on",
    ] {
        assert!(why(&mut rt, q).iter().all(|w| !w.is_empty()), "{q}");
    }
}

#[test]
fn negation_does_not_attract_the_excluded_tool() {
    let (mut rt, sid) = runtime(false);
    let plain = ranked(&mut rt, &sid, "delete the file");
    assert!(plain[0].contains("delete"), "{plain:?}");
    let negated = ranked(
        &mut rt,
        &sid,
        "don't delete the file, move it to the archive folder",
    );
    assert!(!negated[0].contains("delete"), "{negated:?}");
}

#[test]
fn alternative_phrasings_fuse_into_one_ranking() {
    let (mut rt, sid) = runtime(false);
    let one = rt
        .tool_search(&sid, &json!({"query": "give report.txt a new name"}), 1)
        .expect("one");
    let fused = rt
        .tool_search(
            &sid,
            &json!({"query": "give report.txt a new name", "alternatives": ["rename a file", "move file"]}),
            1,
        )
        .expect("fused");
    assert!(fused.results.len() <= 8 && !fused.results.is_empty());
    assert!(
        fused
            .results
            .iter()
            .take(3)
            .any(|r| r.name.ends_with("move_file")),
        "{:?}",
        fused.results.iter().map(|r| &r.name).collect::<Vec<_>>()
    );
    assert!(fused.results[0]
        .why
        .iter()
        .any(|w| w.starts_with("phrasing ")));
    assert!(one.results[0]
        .why
        .iter()
        .all(|w| !w.starts_with("phrasing ")));
    for bad in [
        json!({"query": "x", "alternatives": ["a", "b", "c"]}),
        json!({"query": "x", "alternatives": [""]}),
        json!({"query": "x", "alternatives": ["y".repeat(513)]}),
        json!({"query": "x", "alternatives": "y"}),
    ] {
        let err = rt.tool_search(&sid, &bad, 1).expect_err("refused");
        assert_eq!(err.code, holaryn_core::ErrorCode::InputInvalid, "{bad}");
    }
}

#[test]
fn nothing_fits_is_flagged_with_a_hint_and_few_results() {
    let (mut rt, sid) = runtime(false);
    let out = rt
        .tool_search(&sid, &json!({"query": "qwzx vbnm plokij"}), 1)
        .expect("search");
    let v = serde_json::to_value(&out).expect("json");
    assert_eq!(v["nothingFits"], json!(true), "{v}");
    assert!(
        v["hint"].as_str().is_some_and(|h| h.contains("tool_list")),
        "{v}"
    );
    assert!(out.results.len() <= 3);
    let out = rt
        .tool_search(&sid, &json!({"query": "create a github issue"}), 1)
        .expect("search");
    let v = serde_json::to_value(&out).expect("json");
    assert!(
        v.get("nothingFits").is_none() && v.get("hint").is_none(),
        "{v}"
    );
}

#[test]
fn a_field_written_as_code_points_at_the_tools_that_have_it() {
    let (mut rt, sid) = runtime(false);
    let out = rt
        .tool_search(
            &sid,
            &json!({"query": "maintainer_can_modify true, base main"}),
            1,
        )
        .expect("search");
    let first = &out.results[0];
    assert_eq!(
        first.name, "github/create_pull_request",
        "{:?}",
        out.results
    );
    assert!(
        first
            .why
            .iter()
            .any(|w| w == "has field maintainer_can_modify"),
        "{:?}",
        first.why
    );
    // Plain words are not field names: no "has field" for "base".
    let out = rt
        .tool_search(&sid, &json!({"query": "base main"}), 1)
        .expect("search");
    assert!(out
        .results
        .iter()
        .all(|r| r.why.iter().all(|w| !w.starts_with("has field"))));
}

#[test]
fn a_request_in_words_no_tool_uses_fits_nothing() {
    let (mut rt, sid) = runtime(false);
    for q in QUERY_NOTHING {
        let out = rt.tool_search(&sid, &json!({ "query": q }), 1).expect("q");
        assert!(out.nothing_fits, "{q}: {:?}", out.results);
        assert!(out.results.len() <= 3, "{q}");
    }
}

#[test]
fn a_named_provider_ranks_its_tools_and_says_so() {
    let (mut rt, sid) = runtime(false);
    let out = rt
        .tool_search(&sid, &json!({"query": "open an issue on gitlab"}), 1)
        .expect("search");
    let first = &out.results[0];
    assert!(first.name.starts_with("gitlab"), "{:?}", out.results);
    assert!(
        first.why.iter().any(|w| w == "named provider gitlab"),
        "{:?}",
        first.why
    );
    // A provider named by a common word counts only when phrased as a name.
    let named = |rt: &mut Runtime, q: &str| {
        rt.tool_search(&sid, &json!({ "query": q }), 1)
            .expect("search")
            .results
            .iter()
            .any(|r| r.why.iter().any(|w| w == "named provider memory"))
    };
    assert!(named(&mut rt, "keep this note in memory"));
    assert!(named(&mut rt, "ask the memory server what it knows"));
    assert!(!named(&mut rt, "how much memory does the pod use"));
    // Initials name a provider: "google drive" is `gdrive`.
    let out = rt
        .tool_search(
            &sid,
            &json!({"query": "search google drive for the budget"}),
            1,
        )
        .expect("search");
    assert_eq!(out.results[0].name, "gdrive/search", "{:?}", out.results);
}

#[test]
fn a_field_and_one_of_its_values_point_at_the_tool() {
    let (mut rt, sid) = runtime(false);
    let out = rt
        .tool_search(&sid, &json!({"query": "scrape it with proxy stealth"}), 1)
        .expect("search");
    let first = &out.results[0];
    assert!(
        first.why.iter().any(|w| w.contains("proxy = stealth")),
        "{:?}",
        out.results
    );
}

/// Requests whose content words are mostly in no tool of the fixtures.
const QUERY_NOTHING: [&str; 2] = [
    "vacuum the hallway carpet",
    "water the tomato plants in the greenhouse",
];

/// `cargo test -p holaryn-core --test search_ranking explain -- --ignored --nocapture` with QUERY=…
#[test]
#[ignore]
fn explain() {
    let (mut rt, sid) = runtime(false);
    let q = std::env::var("QUERY").unwrap_or_else(|_| "remove a file".into());
    for r in rt
        .tool_search(&sid, &json!({ "query": q }), 1)
        .expect("search")
        .results
    {
        println!("{:50} {:?}", r.name, r.why);
    }
}

/// Issue 33: a verb takes its sense from its object's class ("open an issue"
/// creates one, "open the file" reads it), and `why` names the sense. The
/// README's example with both issue tools registered.
#[test]
fn a_verb_takes_its_sense_from_its_object() {
    let mut rt = Runtime::new();
    let tool = |name: &str, description: &str, field: &str| {
        json!({
            "name": name,
            "description": description,
            "source": "native",
            "provider": { "id": "github" },
            "inputSchema": { "type": "object", "properties": { field: { "type": "string" } } }
        })
    };
    let tools = [
        tool(
            "create_issue",
            "Create a new issue in a GitHub repository",
            "title",
        ),
        tool("list_issues", "List issues in a GitHub repository", "state"),
        tool("read_file", "Read a file from disk", "path"),
    ];
    rt.register_values(&tools, 0).expect("tools");
    let sid = dynamic_session(&mut rt, 1);
    for q in [
        "open an issue",
        "open a bug report on github",
        "file a ticket",
    ] {
        let out = rt
            .tool_search(&sid, &json!({ "query": q }), 1)
            .expect("search");
        assert_eq!(out.results[0].name, "create_issue", "{q}");
        assert!(
            out.results[0].why.iter().any(|w| w.contains("(sense: ")),
            "{q}: {:?}",
            out.results[0].why
        );
    }
    // The same verb with a document reads it; as an adjective it is no action.
    assert_eq!(ranked(&mut rt, &sid, "open the file")[0], "read_file");
    assert_eq!(ranked(&mut rt, &sid, "list open issues")[0], "list_issues");
}

/// Issue 33: when the best tool needs an identifier the request does not
/// carry, the tool that produces it is lifted, and `why` says for which
/// input of which tool; a request that carries the value leaves it alone.
#[test]
fn a_producer_of_a_required_input_is_lifted_and_says_so() {
    let mut rt = Runtime::new();
    let tool = |name: &str, description: &str, required: &[&str]| {
        let props: serde_json::Map<String, Value> = ["page_id", "query", "text"]
            .iter()
            .map(|f| (f.to_string(), json!({ "type": "string" })))
            .collect();
        json!({
            "name": name,
            "description": description,
            "source": "native",
            "provider": { "id": "wiki" },
            "inputSchema": { "type": "object", "properties": props, "required": required }
        })
    };
    let tools = [
        tool(
            "append_to_page",
            "Append text to a wiki page.",
            &["page_id", "text"],
        ),
        tool("search_pages", "Search wiki pages by title.", &["query"]),
        tool("get_page", "Get a wiki page by id.", &["page_id"]),
    ];
    rt.register_values(&tools, 0).expect("tools");
    let sid = dynamic_session(&mut rt, 1);
    let out = rt
        .tool_search(
            &sid,
            &json!({ "query": "append the meeting notes to the onboarding page" }),
            1,
        )
        .expect("search");
    assert_eq!(out.results[0].name, "append_to_page");
    let producer = out
        .results
        .iter()
        .position(|r| r.name == "search_pages")
        .expect("search_pages is ranked");
    assert!(producer <= 2, "{:?}", out.results);
    assert!(
        out.results[producer]
            .why
            .iter()
            .any(|w| w == "first step: provides page_id for append_to_page"),
        "{:?}",
        out.results[producer].why
    );
    // With the page's id in the request, nothing is lifted.
    let out = rt
        .tool_search(
            &sid,
            &json!({ "query": "append notes to page 4f3a9c2e" }),
            1,
        )
        .expect("search");
    assert!(out
        .results
        .iter()
        .all(|r| r.why.iter().all(|w| !w.starts_with("first step"))));
}

/// Issue 33: a server's own description is searched with its provider, so a
/// request that describes the service without naming it finds its tools.
#[test]
fn a_providers_description_is_searched_as_its_domain() {
    let mut rt = Runtime::new();
    let tool = |name: &str, provider: Value| json!({ "name": name, "description": "List items.", "source": "mcp", "provider": provider });
    let tools = [
        tool(
            "list_items",
            json!({ "id": "acme", "description": "Invoices, subscriptions and payouts for online payments." }),
        ),
        tool("list_things", json!({ "id": "other" })),
    ];
    rt.register_values(&tools, 0).expect("tools");
    let sid = dynamic_session(&mut rt, 1);
    let out = rt
        .tool_search(&sid, &json!({ "query": "list my payouts" }), 1)
        .expect("search");
    assert_eq!(out.results[0].name, "list_items");
    assert!(
        out.results[0].why.iter().any(|w| w == "provider: payouts"),
        "{:?}",
        out.results[0].why
    );
}

/// Issue 33: a word no tool uses reaches the tools' own words through the
/// relatedness table built from WordNet, and `why` says so.
#[test]
fn a_word_no_tool_uses_reaches_related_tool_words() {
    let mut first = host_search(
        &[
            ("summarize_text", "Summarize a text."),
            ("translate_text", "Translate a text."),
        ],
        1,
    );
    let (top, results) = first("recapitulate this text");
    assert_eq!(top, "summarize_text");
    assert!(
        results[0]
            .why
            .iter()
            .any(|w| w.contains("summarize (related: recapitulate)")),
        "{:?}",
        results[0].why
    );
}

/// Issue 33 (entity requests): a question about one object does not rank the
/// tool that deletes or cancels it first (`why`: "not asked to: …"); a
/// request that asks for it, in any word of the family or the lexicon, does.
#[test]
fn a_destructive_tool_ranks_first_only_when_asked() {
    let mut first = host_search(
        &[
            ("delete_block", "Delete a block of a page by its block id"),
            ("retrieve_block", "Retrieve a block of a page by its id"),
            ("cancel_subscription", "Cancel a customer's subscription"),
            (
                "list_subscriptions",
                "List subscriptions, optionally for one customer",
            ),
        ],
        4,
    );
    let (top, results) = first("block 5c6d7e8f what does it say");
    assert_eq!(top, "retrieve_block", "{results:?}");
    let deleting = results.iter().find(|r| r.name == "delete_block");
    assert!(
        deleting.is_some_and(|r| r.why.iter().any(|w| w == "not asked to: delete")),
        "{deleting:?}"
    );
    assert_eq!(first("cus_Qx81bA2 subscriptions?").0, "list_subscriptions");
    assert_eq!(
        first("cancel the subscription of cus_Qx81bA2").0,
        "cancel_subscription"
    );
    assert_eq!(first("remove block 5c6d7e8f").0, "delete_block");
    assert_eq!(first("get rid of block 5c6d7e8f").0, "delete_block");
    assert_eq!(first("toss block 5c6d7e8f, it's empty").0, "delete_block");
}

/// Issue 33, entity requests: a question about one object a value names (a
/// URL, an id) reads it (`why`: "asked about one: get"), not its list; a
/// question about its many things, or about several things with no value,
/// lists them ("asked for several: list"); an imperative keeps its verb.
#[test]
fn a_question_about_one_object_reads_it() {
    let mut first = host_search(
        &[
            (
                "list_dashboards",
                "List the dashboards of the account, with their titles and ids",
            ),
            (
                "get_dashboard",
                "Get one dashboard by its id: title, widgets and layout",
            ),
            ("create_invoice", "Create an invoice for a customer"),
            (
                "list_invoices",
                "List the invoices, optionally of one customer",
            ),
            ("get_customer", "Get a customer by its id"),
        ],
        5,
    );
    let (top, results) = first("https://app.example.com/dashboard/abc-123-xyz what's on this one");
    assert_eq!(top, "get_dashboard", "{results:?}");
    assert!(
        results[0].why.iter().any(|w| w == "asked about one: get"),
        "{results:?}"
    );
    let (top, results) = first("cus_NffrFeUfNV2Hib which invoices does this customer have");
    assert_eq!(top, "list_invoices", "{results:?}");
    assert_eq!(first("list the dashboards").0, "list_dashboards");
    assert_eq!(
        first("cus_NffrFeUfNV2Hib make an invoice for this customer").0,
        "create_invoice"
    );
    // No value naming one object: a question about several things lists them.
    let (top, results) = first("what dashboards are there");
    assert_eq!(top, "list_dashboards", "{results:?}");
    assert!(
        results[0]
            .why
            .iter()
            .any(|w| w == "asked for several: list"),
        "{results:?}"
    );
    assert!(
        results
            .iter()
            .all(|r| r.why.iter().all(|w| !w.starts_with("asked about one"))),
        "{results:?}"
    );
}

/// Issue 33, multi-step requests: a tool named by a later step's word is that
/// step's (`why`: "named for a later step: …"), and a first-step "find" before
/// a later step lifts the tools named to list what it finds.
#[test]
fn the_first_step_of_a_longer_request_ranks_first() {
    let mut rt = Runtime::new();
    let tool = |name: &str, description: &str| {
        json!({
            "name": name,
            "description": description,
            "source": "native",
            "provider": { "id": "work" },
            "inputSchema": { "type": "object", "properties": { "query": { "type": "string" } } }
        })
    };
    let tools = [
        tool("get_cost", "Get the cost of creating a new branch"),
        tool(
            "confirm_cost",
            "Confirm the cost of a new branch before creating it",
        ),
        tool("create_branch", "Create a new development branch"),
        tool(
            "list_contacts",
            "List the contacts of the address book with their email addresses",
        ),
        tool("search_files", "Search files by name pattern"),
        tool("send_mail", "Send an email message to a recipient"),
        tool("get_monitors", "Get the monitors and their alert states"),
        tool("list_dashboards", "List the dashboards"),
        tool("create_incident", "Create an incident"),
    ];
    rt.register_values(&tools, 0).expect("tools");
    let sid = dynamic_session(&mut rt, 6);
    // The first result for `query`, and the result named `with` whose why has `why`.
    let mut expect = |query: &str, first: &str, with: &str, why: &str| {
        let out = rt
            .tool_search(&sid, &json!({ "query": query }), 1)
            .expect("search");
        assert_eq!(out.results[0].name, first, "{query}: {:?}", out.results);
        let hit = out.results.iter().find(|r| r.name == with);
        assert!(
            hit.is_some_and(|r| r.why.iter().any(|w| w == why)),
            "{query}: {with} says {why:?}: {hit:?}"
        );
    };
    expect(
        "check the cost for a new branch, confirm it, then create the branch",
        "get_cost",
        "confirm_cost",
        "named for a later step: confirm",
    );
    expect(
        "find Bob's email in my contacts and then send him the deck",
        "list_contacts",
        "list_contacts",
        "looks up for a later step: list",
    );
    // "list" before a later step stands for get.
    expect(
        "list the monitors that are alerting and open an incident for each",
        "get_monitors",
        "get_monitors",
        "looks up for a later step: get",
    );
}
