// Rendering for the Capability Center: plain DOM, no framework. Every
// function takes data and writes one region of the page; none of them calls
// the runtime.

/** `h("td", {class: "x"}, "text", child)` → element (attributes set as given; `null` skipped). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

const $ = (sel) => document.querySelector(sel);

/** Shorten a `sha256:…` version for display (full value in the title). */
export function short(version = "") {
  const [algo, hex = ""] = version.split(":");
  return hex ? `${algo}:${hex.slice(0, 10)}…` : version;
}

const stateBadge = (state) => h("span", { class: `state state-${state}` }, state);

/** The catalog table: rows filtered by state, source and a name substring. */
export function renderTable(rows, { state = "", source = "", text = "" } = {}) {
  const needle = text.trim().toLowerCase();
  const shown = rows.filter(
    (r) =>
      (!state || r.availability.state === state) &&
      (!source || r.source === source) &&
      (!needle || r.name.toLowerCase().includes(needle)),
  );
  const body = $("#catalog-table tbody");
  body.replaceChildren(
    ...shown.map((r) =>
      h(
        "tr",
        { "data-tool": r.name, "data-state": r.availability.state },
        h(
          "th",
          { scope: "row" },
          h("code", {}, r.name),
          r.title && r.title !== r.name ? h("div", { class: "sub" }, r.title) : null,
          r.schemaMissing ? h("div", { class: "sub schema-missing" }, "no input schema: takes any object") : null,
          r.dialect
            ? h("div", { class: "sub schema-dialect", title: r.dialect.reason }, `schema read as ${r.dialect.draft}`)
            : null,
        ),
        h("td", {}, r.source),
        h("td", { title: r.providerName || r.provider }, r.provider),
        h("td", { class: "state-cell" }, stateBadge(r.availability.state)),
        h(
          "td",
          { class: "reason", title: r.availability.code },
          r.availability.reason,
          r.availability.rule
            ? h("div", { class: "sub" }, `rule ${r.availability.rule} (${r.availability.scope} scope)`)
            : null,
        ),
        h("td", { class: "next" }, r.availability.nextAction),
        h("td", {}, r.permissions.length ? r.permissions.map((p) => h("span", { class: "perm" }, p)) : "—"),
        h("td", {}, r.trust, r.asksFirst ? h("div", { class: "sub" }, "asks first") : null),
        h("td", { class: "prov" }, r.provenance),
      ),
    ),
  );
  // Of the tools a client can find: hidden rows (e.g. run_tool_code with bounded code mode off) are not counted.
  const findable = (list) => list.filter((r) => r.availability.state !== "hidden").length;
  const hidden = rows.length - findable(rows);
  $("#catalog-count").textContent =
    `${findable(shown)} of ${findable(rows)} tools${hidden ? ` (${hidden} hidden, not counted)` : ""}`;
}

/** Fill a filter <select> with the distinct values seen, keeping the current choice. */
export function fillFilter(select, values, allLabel) {
  const current = select.value;
  select.replaceChildren(
    h("option", { value: "" }, allLabel),
    ...[...new Set(values)].sort().map((v) => h("option", { value: v }, v)),
  );
  select.value = [...select.options].some((o) => o.value === current) ? current : "";
}

/** `tool_search` results with their `why`. */
export function renderSearch(out) {
  const list = $("#search-results");
  if (!out) return list.replaceChildren();
  if (out.error) return list.replaceChildren(h("li", { class: "error" }, out.error));
  // When no tool clears the bar, tool_search says so (nothingFits) with a hint
  // on where to browse instead; the few weak guesses it keeps follow it.
  const note = out.nothingFits
    ? [h("li", { class: "nothing-fits", role: "note" }, h("strong", {}, "Nothing fits. "), out.hint ?? "")]
    : [];
  if (!out.results.length && !note.length)
    return list.replaceChildren(h("li", { class: "hint" }, "No matching tools."));
  list.replaceChildren(
    ...note,
    ...out.results.map((r) =>
      h(
        "li",
        { "data-tool": r.name },
        h("code", {}, r.name),
        " ",
        stateBadge(r.state),
        " ",
        h("span", { class: "sub" }, r.summary),
        h("div", { class: "why" }, "why: ", (r.why ?? []).join("; ") || "—"),
      ),
    ),
  );
}

/** Pending approval requests, each with Approve / Deny buttons. */
export function renderApprovals(pending, answer) {
  const list = $("#approvals");
  list.replaceChildren(
    ...[...pending.values()].map(({ req }) =>
      h(
        "li",
        { "data-call": req.callId, "data-tool": req.tool, class: "approval" },
        h(
          "div",
          {},
          h("strong", {}, req.tool),
          ` wants to run (${req.reason.replaceAll("_", " ")})`,
          req.fromCode ? " from bounded code" : "",
        ),
        h("div", { class: "sub" }, req.description),
        h("pre", {}, JSON.stringify(req.args, null, 1)),
        h(
          "button",
          {
            type: "button",
            class: "approve",
            onclick: () => answer(req.callId, true),
            "aria-label": `Approve ${req.tool}`,
          },
          "Approve",
        ),
        " ",
        h(
          "button",
          { type: "button", class: "deny", onclick: () => answer(req.callId, false), "aria-label": `Deny ${req.tool}` },
          "Deny",
        ),
      ),
    ),
  );
  $("#approvals-empty").hidden = pending.size > 0;
}

/** Append one transcript line (`kind`: step, ok, refused, info). */
export function transcript(kind, text) {
  const list = $("#transcript");
  list.append(h("li", { class: `t-${kind}` }, text));
  while (list.children.length > 60) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight; // follow the newest line without scrolling the page
}

/** One activity record or registry-change event, newest first. */
export function activity(ev) {
  const list = $("#activity");
  let item;
  if (ev.type === "tool_registry_changed") {
    const delta = [
      ev.added.length && `+${ev.added.length}`,
      ev.removed.length && `−${ev.removed.length}`,
      ev.changed.length && `~${ev.changed.length}`,
    ]
      .filter(Boolean)
      .join(" ");
    item = h(
      "li",
      { class: "ev-registry" },
      h("strong", {}, "tool_registry_changed"),
      ` ${ev.sessionId ? `session ${ev.sessionId}` : "registry"} `,
      h("code", { title: ev.oldVersion }, short(ev.oldVersion)),
      " → ",
      h("code", { title: ev.newVersion }, short(ev.newVersion)),
      ` (${ev.cause}${delta ? `; ${delta}` : ""})`,
    );
  } else {
    item = h(
      "li",
      { class: `ev-${ev.kind}` },
      h("span", { class: "seq" }, `#${ev.seq}`),
      " ",
      h("strong", {}, ev.kind),
      ev.tool ? [" ", h("code", {}, ev.tool)] : null,
      ` ${ev.outcome}`,
      ev.path ? ` via ${ev.path}` : "",
      ev.reason ? h("span", { class: "sub" }, ` — ${ev.reason}`) : null,
      ev.provenance
        ? h("span", { class: "sub" }, ` [${ev.provenance.providerKind}:${ev.provenance.providerId}]`)
        : null,
    );
  }
  list.prepend(item);
  while (list.children.length > 200) list.lastElementChild.remove();
}

/** Policy entries worth a second look (not errors), or nothing. */
export function renderWarnings(box, warnings) {
  box.hidden = warnings.length === 0;
  box.replaceChildren(
    ...(warnings.length
      ? [
          h(
            "strong",
            {},
            `${warnings.length === 1 ? "1 entry" : `${warnings.length} entries`} worth a second look (not errors)`,
          ),
          h(
            "ul",
            {},
            ...warnings.map((w) =>
              h(
                "li",
                {},
                h("code", {}, w.entry),
                ` — ${w.message.replace(/^[^:]*: /, "")} `,
                h("span", { class: "where" }, `(${w.scope}${w.pointer ? ` ${w.pointer}` : ""})`),
              ),
            ),
          ),
        ]
      : []),
  );
}

/** Show a runtime error with its code and where it points (file, JSON pointer, line:column). */
export function showError(box, err) {
  if (!err) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const where = [
    err.file && `file ${err.file}`,
    err.pointer !== undefined && err.pointer !== null && `at ${err.pointer || "/"}`,
    err.line && `line ${err.line}, column ${err.column}`,
  ].filter(Boolean);
  box.replaceChildren(
    h("strong", {}, `${err.name ?? "Error"} ${err.code ?? ""}`.trim()),
    h("div", { class: "msg" }, err.message),
    where.length ? h("div", { class: "where" }, where.join(" · ")) : null,
  );
  box.hidden = false;
}
