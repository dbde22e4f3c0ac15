// Capability Center: the operator's page over one HolarynRuntime (the
// browser build of the npm package). It wires controls to the runtime and
// redraws from what the runtime reports; all state lives in the runtime
// except the operator's pending answers and the last good policy text.
import { init, HolarynRuntime } from "../js/browser.mjs";
import { loadCatalogs, demoExecutor } from "./catalog.mjs";
import { runAgent, Stopped } from "./agent.mjs";
import * as view from "./view.mjs";

/** Where the project policy lives, as reported in errors and activity. */
export const POLICY_PATH = ".holaryn/tool-policy.json";
const DEFAULT_POLICY = `{
  "$schema": "../schemas/tool-policy.schema.json",
  "deny": ["stripe/*", "heroku/*", "slash_command:deploy"]
}
`;

const $ = (sel) => document.querySelector(sel);
const app = {
  rt: null,
  session: null,
  /** Policy text in force (applied without error); new sessions start with it. */
  goodPolicy: DEFAULT_POLICY,
  /** callId → {req, resolve, signal} for approvals waiting on the operator. */
  pending: new Map(),
  /** The running agent flow's and the single manual call's AbortControllers. */
  agentRun: null,
  manualCall: null,
  execute: demoExecutor(),
};
window.capabilityCenter = app; // for the console and the Playwright tests

function setStatus(text, ready = false) {
  $("#status").textContent = text;
  if (ready) document.body.dataset.ready = "true";
}

// ── approvals ─────────────────────────────────────────────────────────────

function answer(callId, approve) {
  const p = app.pending.get(callId);
  if (!p) return;
  app.pending.delete(callId);
  p.resolve(approve ? { decision: "approve" } : { decision: "deny", reason: "denied by the operator" });
  view.transcript(approve ? "ok" : "refused", `operator ${approve ? "approved" : "denied"} ${p.req.tool}`);
  view.renderApprovals(app.pending, answer);
  const next = $("#approvals button.approve");
  if (next) next.focus();
}

/** Host callbacks for one call or run; Stop/Cancel abort `signal`, which also withdraws its approvals. */
function hostFor(signal) {
  return {
    signal,
    execute: app.execute,
    approve: (req) =>
      new Promise((resolve) => {
        app.pending.set(req.callId, { req, resolve });
        signal.addEventListener(
          "abort",
          () => {
            if (app.pending.delete(req.callId)) view.renderApprovals(app.pending, answer);
          },
          { once: true },
        );
        view.renderApprovals(app.pending, answer);
      }),
  };
}

// ── session ───────────────────────────────────────────────────────────────

function newSession() {
  const options = {
    dynamicDiscovery: $("#opt-discovery").checked,
    boundedCodeMode: $("#opt-code").checked,
    projectPolicy: { path: POLICY_PATH, text: app.goodPolicy },
  };
  const next = app.rt.createSession(options);
  app.agentRun?.abort();
  app.manualCall?.abort();
  app.session?.close();
  app.session = next;
  $("#session-id").textContent = next.id;
  $("#session-mode").textContent =
    `${next.dynamicDiscovery ? "dynamic discovery" : "static (discovery off)"}, bounded code ${next.boundedCodeMode ? "on" : "off"}`;
  refresh();
}

let queued = false;
/** Redraw everything derived from the session, at most once per frame. */
function refresh() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => {
    queued = false;
    const s = app.session;
    if (!s) return;
    const rows = s.capabilityTable();
    view.fillFilter(
      $("#filter-state"),
      rows.map((r) => r.availability.state),
      "all states",
    );
    view.fillFilter(
      $("#filter-source"),
      rows.map((r) => r.source),
      "all sources",
    );
    view.renderTable(rows, {
      state: $("#filter-state").value,
      source: $("#filter-source").value,
      text: $("#filter-text").value,
    });
    const fp = s.footprint();
    $("#footprint").textContent =
      `${s.modelTools().length} tools, ${(fp.now / 1024).toFixed(1)} KiB (static would be ${(fp.staticEquivalent / 1024).toFixed(1)} KiB)`;
    view.renderWarnings($("#policy-warnings"), s.policyWarnings());
    $("#registry-version").textContent = view.short(s.version);
    $("#registry-version").title = s.version;
  });
}

// ── policy ────────────────────────────────────────────────────────────────

function applyPolicy() {
  const text = $("#policy-text").value;
  const box = $("#policy-error");
  try {
    app.session.setProjectPolicy({ path: POLICY_PATH, text });
  } catch (err) {
    view.showError(box, err);
    if (err.line) selectAt($("#policy-text"), err.line, err.column);
    $("#policy-state").textContent = "Refused: the last good policy stays in force.";
    return;
  }
  app.goodPolicy = text;
  view.showError(box, null);
  $("#policy-state").textContent = `Applied at ${new Date().toLocaleTimeString()}.`;
  refresh();
}

/** Put the textarea's selection at a 1-based line and UTF-16 column. */
function selectAt(area, line, column) {
  const lines = area.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, (column ?? 1) - 1);
  area.setSelectionRange(offset, offset + 1);
}

// ── calls ─────────────────────────────────────────────────────────────────

async function runFlow() {
  const ctl = new AbortController();
  app.agentRun = ctl;
  $("#agent-run").disabled = true;
  $("#agent-stop").disabled = false;
  try {
    await runAgent(app.session, hostFor(ctl.signal), view.transcript);
  } catch (e) {
    if (e instanceof Stopped) view.transcript("refused", "stopped by the operator");
    else view.transcript("refused", `${e.name} ${e.code ?? ""}: ${e.message}`);
  } finally {
    if (app.agentRun === ctl) app.agentRun = null;
    $("#agent-run").disabled = false;
    $("#agent-stop").disabled = true;
    refresh();
  }
}

async function manualCall(ev) {
  ev.preventDefault();
  const target = $("#call-tool").value.trim();
  let args;
  try {
    args = JSON.parse($("#call-args").value || "{}");
  } catch (e) {
    return view.transcript("refused", `arguments are not JSON: ${e.message}`);
  }
  const ctl = new AbortController();
  app.manualCall = ctl;
  $("#call-run").disabled = true;
  $("#call-cancel").disabled = false;
  view.transcript("step", `call ${target} ${JSON.stringify(args)}`);
  try {
    if ($("#call-inspect").checked) {
      const seen = app.session.inspect({ name: target });
      if (!seen.loaded)
        view.transcript("info", `tool_inspect ${target}: ${seen.availability.state} — ${seen.availability.reason}`);
    }
    const o = await app.session.call(target, args, hostFor(ctl.signal));
    const detail =
      o.status === "ok"
        ? JSON.stringify(o.output)
        : `${o.code}: ${o.message}${o.nextAction ? ` — next: ${o.nextAction}` : ""}`;
    view.transcript(
      o.status === "ok" ? "ok" : "refused",
      `${o.tool ?? target} → ${o.status} (${o.stage}) ${detail}`.slice(0, 400),
    );
  } catch (e) {
    view.transcript("refused", `${e.name} ${e.code ?? ""}: ${e.message}`);
  } finally {
    if (app.manualCall === ctl) app.manualCall = null;
    $("#call-run").disabled = false;
    $("#call-cancel").disabled = true;
    refresh();
  }
}

// ── search ────────────────────────────────────────────────────────────────

let searchTimer;
function search() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    const query = $("#search").value.trim();
    if (!query) return view.renderSearch(null);
    try {
      view.renderSearch(app.session.search({ query }));
    } catch (e) {
      view.renderSearch({ error: `${e.code ?? e.name}: ${e.message}` });
    }
  }, 120);
}

// ── boot ──────────────────────────────────────────────────────────────────

function wire() {
  $("#new-session").addEventListener("click", newSession);
  $("#policy-apply").addEventListener("click", applyPolicy);
  $("#policy-revert").addEventListener("click", () => {
    $("#policy-text").value = app.goodPolicy;
    view.showError($("#policy-error"), null);
    $("#policy-state").textContent = "Showing the policy in force.";
  });
  $("#policy-text").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) applyPolicy();
  });
  $("#agent-run").addEventListener("click", runFlow);
  $("#agent-stop").addEventListener("click", () => app.agentRun?.abort());
  $("#call-form").addEventListener("submit", manualCall);
  $("#call-cancel").addEventListener("click", () => app.manualCall?.abort());
  $("#search").addEventListener("input", search);
  for (const id of ["#filter-state", "#filter-source", "#filter-text"]) $(id).addEventListener("input", refresh);
  $("#provider-apply").addEventListener("click", () => {
    try {
      app.rt.setProviderStatus($("#provider-pick").value, $("#provider-status").value);
    } catch (e) {
      view.transcript("refused", `${e.code ?? e.name}: ${e.message}`);
    }
  });
}

async function boot() {
  try {
    await init();
    app.rt = new HolarynRuntime();
    app.rt.addEventListener((ev) => {
      view.activity(ev);
      refresh();
    });
    await loadCatalogs(app.rt);
  } catch (e) {
    setStatus(
      `Could not start the runtime: ${e.code ?? e.name}: ${e.message}. Build the package first (npm run build), then reload.`,
    );
    throw e;
  }
  $("#policy-text").value = app.goodPolicy;
  const providers = [...new Map(app.rt.tools().map((t) => [t.provider.id, t.provider.displayName])).entries()];
  $("#provider-pick").replaceChildren(
    ...providers.sort().map(([id, name]) => view.h("option", { value: id }, `${name} (${id})`)),
  );
  wire();
  newSession();
  view.renderApprovals(app.pending, answer);
  setStatus(
    `Ready: ${app.rt.size} tools from ${providers.length} providers. Everything runs in this page; nothing goes over the network.`,
    true,
  );
}

boot();
