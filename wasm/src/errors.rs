//! Core errors → JavaScript `Error`s with `name`, `code` and location data.
//!
//! The `name` is the error family (`PolicyError`, `HandleError`, …) so hosts
//! can branch on it; the JS entry re-parents these objects onto exported
//! `HolarynError` subclasses so `instanceof` works too.

use holaryn_core::{Error, ErrorCode};
use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;

/// A `HolarynError` subclass the JS entry exports: its name, the code
/// families it stands for (a code's part before the first dot) and its doc.
struct ErrorClass {
    name: &'static str,
    families: &'static [&'static str],
    doc: &'static str,
}

/// The base class: every code of no family in [`CLASSES`].
const BASE: &str = "HolarynError";

/// The error classes, in the order the JS entry declares them. The one list:
/// `js/core.mjs` and `js/index.d.ts` declare them from it ([`javascript`],
/// [`typescript`]; a test fails when they drift, `HOLARYN_BLESS=1 cargo test
/// -p holaryn-wasm errors` rewrites their generated part).
const CLASSES: [ErrorClass; 10] = [
    ErrorClass {
        name: "DescriptorError",
        families: &["descriptor"],
        doc: "Bad tool descriptor (name, alias, schema, source).",
    },
    ErrorClass {
        name: "CatalogError",
        families: &["catalog"],
        doc: "Bad catalog file or value.",
    },
    ErrorClass {
        name: "ToolError",
        families: &["tool", "provider"],
        doc: "Unknown tool or provider.",
    },
    ErrorClass {
        name: "HandleError",
        families: &["handle"],
        doc: "Forged or stale opaque handle.",
    },
    ErrorClass {
        name: "SessionError",
        families: &["session"],
        doc: "Unknown session or invalid session options.",
    },
    ErrorClass {
        name: "PolicyError",
        families: &["policy"],
        doc: "Malformed project policy or rules.",
    },
    ErrorClass {
        name: "InputError",
        families: &["input"],
        doc: "Invalid model-tool input (query, limit, cursor, call shape).",
    },
    ErrorClass {
        name: "ConfigError",
        families: &["config"],
        doc: "Invalid configuration (e.g. an environment switch).",
    },
    ErrorClass {
        name: "CodeError",
        families: &["code"],
        doc: "Bounded-code syntax, forbidden construct or limit.",
    },
    ErrorClass {
        name: "SnapshotError",
        families: &["snapshot"],
        doc: "A snapshot refused by `HolarynRuntime.restore` (not one, another build, bytes changed): register instead.",
    },
];

/// The JS class name for an error code.
pub fn family(code: ErrorCode) -> &'static str {
    let family = code.as_str().split('.').next().unwrap_or("");
    CLASSES
        .iter()
        .find(|c| c.families.contains(&family))
        .map_or(BASE, |c| c.name)
}

/// The first and last lines of the generated part of `js/core.mjs` and `js/index.d.ts`.
#[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generators: native tests
const GENERATED: [&str; 2] = [
    "// Generated from wasm/src/errors.rs CLASSES, do not edit: HOLARYN_BLESS=1 cargo test -p holaryn-wasm errors\n",
    "// End of the generated error classes.\n",
];

/// The classes' declarations, the same in JS and in TypeScript.
#[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generators: native tests
fn declarations() -> String {
    let class = |c: &ErrorClass| {
        format!(
            "/** {} */\nexport class {} extends {BASE} {{}}\n",
            c.doc, c.name
        )
    };
    CLASSES.iter().map(class).collect()
}

/// The generated part of `js/core.mjs`: the classes and `FAMILIES`, each class
/// by the `name` [`to_js`] gives its errors (what `typed` re-parents them by).
#[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generators: native tests
fn javascript() -> String {
    let names = std::iter::once(BASE).chain(CLASSES.iter().map(|c| c.name));
    let families: String = names.map(|name| format!("  {name},\n")).collect();
    format!(
        "{}{}\n/** Each class by the `name` the wasm gives the errors it throws. */\nconst FAMILIES = {{\n{families}}};\n{}",
        GENERATED[0],
        declarations(),
        GENERATED[1]
    )
}

/// The generated part of `js/index.d.ts`: the classes' declarations.
#[cfg_attr(any(not(test), target_arch = "wasm32"), allow(dead_code))] // read by the generators: native tests
fn typescript() -> String {
    format!("{}{}{}", GENERATED[0], declarations(), GENERATED[1])
}

fn set(obj: &JsValue, key: &str, value: JsValue) {
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value);
}

/// Build the JS error for a core error.
pub fn to_js(err: &Error) -> JsValue {
    let e = js_sys::Error::new(&err.to_string());
    e.set_name(family(err.code));
    let v: JsValue = e.into();
    set(&v, "code", JsValue::from_str(err.code.as_str()));
    set(&v, "detail", JsValue::from_str(&err.message));
    let opt = |k: &str, val: &Option<String>| {
        if let Some(s) = val {
            set(&v, k, JsValue::from_str(s));
        }
    };
    opt("tool", &err.tool);
    opt("field", &err.field);
    opt("file", &err.file);
    opt("pointer", &err.pointer);
    opt("nextAction", &err.next_action);
    if let Some(l) = err.line {
        set(&v, "line", JsValue::from_f64(l as f64));
    }
    if let Some(c) = err.column {
        set(&v, "column", JsValue::from_f64(c as f64));
    }
    if !err.suggestions.is_empty() {
        let arr: Array = err
            .suggestions
            .iter()
            .map(|s| JsValue::from_str(s))
            .collect();
        set(&v, "suggestions", arr.into());
    }
    v
}

/// A JS error for a bad argument at the boundary (wrong shape from JS).
pub fn input(message: impl Into<String>) -> JsValue {
    to_js(&Error::new(ErrorCode::InputInvalid, message))
}

/// Shorthand: map a core result's error to JS.
pub fn js<T>(r: holaryn_core::Result<T>) -> Result<T, JsValue> {
    r.map_err(|e| to_js(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_maps_to_its_family_class_or_the_base() {
        for &code in ErrorCode::ALL {
            let prefix = code.as_str().split('.').next().unwrap_or("");
            let class = CLASSES.iter().find(|c| c.families.contains(&prefix));
            assert_eq!(family(code), class.map_or(BASE, |c| c.name), "{code}");
        }
        assert_eq!(family(ErrorCode::ProviderUnknown), "ToolError");
        assert_eq!(family(ErrorCode::RuntimeFailed), "HolarynError");
    }

    /// The generated part of `path` (from its first [`GENERATED`] line to its
    /// last) equals `want`; `HOLARYN_BLESS=1` rewrites it first.
    #[cfg(not(target_arch = "wasm32"))]
    fn check_generated(path: &str, want: &str) {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(path);
        let part = |text: &str| {
            let start = text.find(GENERATED[0])?;
            let end = start + text[start..].find(GENERATED[1])? + GENERATED[1].len();
            Some((start, end))
        };
        let mut text = std::fs::read_to_string(&file).expect("read");
        let Some((start, end)) = part(&text) else {
            panic!(
                "{path} has lost its generated part's first or last line:\n{}{}",
                GENERATED[0], GENERATED[1]
            );
        };
        if std::env::var_os("HOLARYN_BLESS").is_some() {
            text = format!("{}{want}{}", &text[..start], &text[end..]);
            std::fs::write(&file, &text).expect("write");
        }
        let have = part(&text).map(|(start, end)| &text[start..end]);
        assert!(
            have == Some(want),
            "{path}'s error classes drifted from wasm/src/errors.rs (CLASSES): regenerate them with \
             `HOLARYN_BLESS=1 cargo test -p holaryn-wasm errors` and commit the file.\n--- generated:\n{want}"
        );
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_js_error_classes_are_generated_from_classes() {
        check_generated("js/core.mjs", &javascript());
        check_generated("js/index.d.ts", &typescript());
    }
}
