// Holaryn demo extension — MV3 service worker (ES module).
//
// Loads the vendored Holaryn wasm runtime, registers three browser tools that
// execute through the extension APIs (tabs_list, page_text, tab_screenshot)
// and opens one dynamic-discovery session. Every call goes through the
// runtime's gate; tools that ask first wait until the popup answers (the
// action badge shows how many requests are waiting).
//
// Message API (chrome.runtime.sendMessage from the popup or another extension
// page; replies are {ok: true, value} or {ok: false, error: {name, code, message}}):
//   {type: "search", query, limit?}    → SearchOutput
//   {type: "inspect", name}            → InspectOutput (loads the tool's schema)
//   {type: "table"}                    → CapabilityRow[]
//   {type: "call", tool, args}         → CallOutcome (inspect the tool first)
//   {type: "pending"}                  → PendingApproval[]
//   {type: "answer", callId, approve}  → {answered: true}
//   {type: "activity", since?}         → ActivityRecord[]
//   {type: "screenshot"}               → {dataUrl} of the last tab_screenshot, or null
//   {type: "startup"}                  → how the runtime started: {restored, refused?}
// The same functions are on `self.holaryn` (for tests and the worker console).
//
// MV3 forbids top-level await in service workers: the wasm loads lazily in
// `ready()`, which every entry point awaits. Chrome stops the worker after
// about 30 s idle; each wake restores the registry from the snapshot kept in
// IndexedDB (rt.snapshot()) instead of registering the tools again, and
// registers (and keeps a new snapshot) when there is none, it was kept by
// another version of the extension, or the runtime refuses it (SnapshotError:
// another Holaryn build, a changed byte).
import { HolarynRuntime, init, SnapshotError } from "./vendor/holaryn/js/browser.mjs";

const PROVIDER = { id: "browser", kind: "extension", displayName: "This browser" };
const MAX_TEXT_CHARS = 20_000;
const APPROVAL_TIMEOUT_MS = 120_000;

/** @type {import("./vendor/holaryn/js/index.d.ts").ToolSpec[]} */
const TOOLS = [
  {
    name: "tabs_list",
    title: "List tabs",
    description: "List the open browser tabs (id, window, title, URL, active).",
    source: "browser",
    provider: PROVIDER,
    trust: "trusted",
    permissions: ["tabs.read"],
    approval: "auto",
    annotations: { readOnlyHint: true },
    inputSchema: {
      type: "object",
      additionalProperties: false,
      properties: { currentWindow: { type: "boolean", description: "Only tabs of the focused window" } },
    },
  },
  {
    name: "page_text",
    title: "Read page text",
    description:
      "Read the visible text of a tab's page (document.body.innerText, truncated). Asks first: it reads page content.",
    source: "browser",
    provider: PROVIDER,
    trust: "trusted",
    permissions: ["page.read"],
    approval: "ask",
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: "object",
      additionalProperties: false,
      properties: {
        tabId: { type: "integer", description: "Tab id from tabs_list (default: the active tab)" },
        maxChars: {
          type: "integer",
          minimum: 1,
          maximum: MAX_TEXT_CHARS,
          description: "Truncate the text to this many characters",
        },
      },
    },
  },
  {
    name: "tab_screenshot",
    title: "Screenshot the visible tab",
    description:
      "Capture the visible area of a window's active tab; returns the image's type, size and data URL prefix. Asks first: it captures page content.",
    source: "browser",
    provider: PROVIDER,
    trust: "trusted",
    permissions: ["page.capture"],
    approval: "ask",
    annotations: { readOnlyHint: true, openWorldHint: true },
    inputSchema: {
      type: "object",
      additionalProperties: false,
      properties: {
        windowId: { type: "integer", description: "Window id from tabs_list (default: the focused window)" },
        format: { type: "string", enum: ["png", "jpeg"], description: "Image format (default png)" },
      },
    },
  },
];

let lastScreenshot = null;

/** A tab whose page scripts may read (not chrome://, the Web Store or our own pages). */
const scriptable = (t) => /^(https?|file):/.test(t.url ?? "");

/**
 * The tools' default target: the active tab of the last focused window, or —
 * when that is not a web page (the popup opened as a tab, chrome://…) — the
 * web page the person looked at last.
 */
async function activeTab() {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab && scriptable(tab)) return tab;
  const pages = (await chrome.tabs.query({})).filter(scriptable);
  pages.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0));
  if (pages[0]) return pages[0];
  throw new Error(
    tab ? "the active tab is not a web page and no web page is open: pass tabId from tabs_list" : "no active tab",
  );
}

/** Tool implementations: (args, signal) → JSON output. A throw becomes a "failed" outcome. */
const EXECUTORS = {
  async tabs_list({ currentWindow = false }) {
    const tabs = await chrome.tabs.query(currentWindow ? { currentWindow: true } : {});
    return tabs.map((t) => ({
      id: t.id,
      windowId: t.windowId,
      title: t.title ?? "",
      url: t.url ?? "",
      active: t.active,
    }));
  },
  async page_text({ tabId, maxChars = MAX_TEXT_CHARS }) {
    const tab = tabId === undefined ? await activeTab() : await chrome.tabs.get(tabId);
    const [injected] = await chrome.scripting.executeScript({
      target: { tabId: tab.id },
      // biome-ignore lint/performance/useDomNodeTextContent: the text a user sees (rendered, no hidden nodes) is the point
      func: () => document.body?.innerText ?? "",
    });
    const text = typeof injected?.result === "string" ? injected.result : "";
    return {
      tabId: tab.id,
      url: tab.url ?? "",
      title: tab.title ?? "",
      text: text.slice(0, maxChars),
      chars: text.length,
      truncated: text.length > maxChars,
    };
  },
  async tab_screenshot({ windowId, format = "png" }) {
    const dataUrl = await chrome.tabs.captureVisibleTab(windowId ?? chrome.windows.WINDOW_ID_CURRENT, { format });
    lastScreenshot = dataUrl;
    return { mimeType: `image/${format}`, dataUrlLength: dataUrl.length, prefix: dataUrl.slice(0, 48) };
  },
};

/** callId → {entry shown in the popup, settle(decision)}. */
const waiting = new Map();

/**
 * While approvals wait, touch an extension API every 20 s: Chrome stops a
 * worker after 30 s without extension events, which would drop the pending
 * calls (and their 2-minute auto-deny) with it.
 */
let keepAlive = null;

/** The set of waiting approvals changed: update the badge and the keep-alive. */
function waitingChanged() {
  const n = waiting.size;
  if (n > 0 && keepAlive === null) {
    keepAlive = setInterval(() => chrome.runtime.getPlatformInfo().catch(() => {}), 20_000);
  } else if (n === 0 && keepAlive !== null) {
    clearInterval(keepAlive);
    keepAlive = null;
  }
  chrome.action.setBadgeText({ text: n > 0 ? String(n) : "" }).catch(() => {});
  if (n > 0) chrome.action.setBadgeBackgroundColor({ color: "#b45309" }).catch(() => {});
}

/** Host callbacks of the session: the gate calls these. */
const host = {
  async execute(req) {
    const run = EXECUTORS[req.localName];
    if (!run) throw new Error(`no executor for ${req.tool}`);
    if (req.signal.aborted) throw new Error("cancelled before it started");
    return run(req.args ?? {}, req.signal);
  },
  approve(req) {
    return new Promise((resolve) => {
      const settle = (decision) => {
        if (!waiting.delete(req.callId)) return;
        clearTimeout(timer);
        waitingChanged();
        resolve(decision);
      };
      const timer = setTimeout(
        () => settle({ decision: "deny", reason: `no answer in the popup within ${APPROVAL_TIMEOUT_MS / 1000} s` }),
        APPROVAL_TIMEOUT_MS,
      );
      waiting.set(req.callId, {
        entry: {
          callId: req.callId,
          tool: req.tool,
          title: req.title,
          reason: req.reason,
          why: req.why,
          description: req.description,
          args: req.args,
          since: Date.now(),
        },
        settle,
      });
      waitingChanged();
    });
  },
};

// ---- The registry's snapshot in IndexedDB: {version (the extension's), bytes}.
const DB_NAME = "holaryn";
const DB_STORE = "snapshot";
const DB_KEY = "registry";

/** Run `fn(store)` in one IndexedDB transaction; resolves to its request's result. */
function stored(mode, fn) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(DB_STORE);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const req = fn(db.transaction(DB_STORE, mode).objectStore(DB_STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
      req.transaction.oncomplete = () => db.close();
    };
  });
}
const readSnapshot = () => stored("readonly", (s) => s.get(DB_KEY));
const keepSnapshot = (entry) => stored("readwrite", (s) => s.put(entry, DB_KEY));

/**
 * The runtime: restored from the kept snapshot when it is this extension version's and the runtime
 * accepts it, else registered (and its snapshot kept). `startup` says which.
 */
async function openRuntime() {
  const version = chrome.runtime.getManifest().version;
  const kept = await readSnapshot().catch(() => undefined);
  let refused;
  if (kept?.version === version && kept.bytes instanceof Uint8Array) {
    try {
      const rt = HolarynRuntime.restore(kept.bytes);
      return { rt, startup: { restored: true, version: rt.version } };
    } catch (e) {
      if (!(e instanceof SnapshotError)) throw e;
      refused = e.code; // another Holaryn build or a changed byte: register instead
    }
  }
  const rt = new HolarynRuntime();
  rt.registerTools(TOOLS);
  await keepSnapshot({ version, bytes: rt.snapshot() }).catch((e) => console.warn("holaryn: snapshot not kept", e));
  return { rt, startup: { restored: false, version: rt.version, ...(refused ? { refused } : {}) } };
}

let state;
/** Load the wasm once and build the runtime and session (retried after a failure). */
function ready() {
  state ??= init(chrome.runtime.getURL("vendor/holaryn/dist/web/holaryn_wasm_bg.wasm"))
    .then(openRuntime)
    .then(({ rt, startup }) => {
      const session = rt.createSession({ dynamicDiscovery: true });
      session.setHost(host);
      return { rt, session, startup };
    })
    .catch((e) => {
      state = undefined;
      throw e;
    });
  return state;
}

/** tool_search over the session. */
async function search(query, limit) {
  const { session } = await ready();
  return session.search(limit === undefined ? { query } : { query, limit });
}
/** tool_inspect: loads the tool's schema so it can be called. */
async function inspect(name) {
  return (await ready()).session.inspect({ name });
}
/** The session's capability table (every tool with its availability). */
async function table() {
  return (await ready()).session.capabilityTable();
}
/** Call through the gate; resolves to a CallOutcome (tool failures are statuses, not throws). */
async function call(tool, args = {}) {
  return (await ready()).session.call(tool, args);
}
/** Content-free activity records (no arguments, no outputs). */
async function activity(since) {
  return (await ready()).rt.activity(since);
}
/** How this worker's runtime started: restored from the kept snapshot, or registered (and why). */
async function startup() {
  return (await ready()).startup;
}
/**
 * Start the runtime again as a wake does (tests and the console; Chrome's own wake runs this
 * module anew): the session and its handles go, the registry comes back from the snapshot.
 */
async function wake() {
  if (waiting.size > 0) throw new Error("approvals are waiting: answer them first");
  const old = await ready().catch(() => undefined);
  state = undefined;
  old?.rt.free?.();
  return startup();
}
/** The approvals waiting for an answer, oldest first. */
function pending() {
  return [...waiting.values()].map((w) => w.entry);
}
/** Raised by `answer` for a call that is not waiting (answered, timed out or unknown). */
class ApprovalError extends Error {
  constructor(message, code) {
    super(message);
    this.name = "ApprovalError";
    this.code = code;
  }
}

/** Resume a waiting call: approve (true) or deny. */
function answer(callId, approve) {
  const w = waiting.get(callId);
  if (!w)
    throw new ApprovalError(
      `no approval is waiting for call ${callId} (already answered or timed out)`,
      "approval.unknown_call",
    );
  w.settle(approve === true ? { decision: "approve" } : { decision: "deny", reason: "denied in the extension popup" });
  return { answered: true };
}

const HANDLERS = {
  search: (m) => search(m.query, m.limit),
  inspect: (m) => inspect(m.name),
  table: () => table(),
  call: (m) => call(m.tool, m.args),
  pending: () => pending(),
  answer: (m) => answer(m.callId, m.approve),
  activity: (m) => activity(m.since),
  screenshot: () => (lastScreenshot ? { dataUrl: lastScreenshot } : null),
  startup: () => startup(),
};

/** Errors as plain data for the popup: typed runtime errors keep name, code and nextAction. */
function errorInfo(e) {
  return {
    name: e?.name ?? "Error",
    code: typeof e?.code === "string" ? e.code : "extension.error",
    message: e?.message ?? String(e),
    ...(e?.nextAction ? { nextAction: e.nextAction } : {}),
  };
}

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id) return false; // only this extension's own pages
  const handler = HANDLERS[msg?.type];
  if (!handler) {
    sendResponse({
      ok: false,
      error: {
        name: "Error",
        code: "extension.unknown_message",
        message: `unknown message type ${JSON.stringify(msg?.type)}`,
      },
    });
    return false;
  }
  Promise.resolve()
    .then(() => handler(msg))
    .then(
      (value) => sendResponse({ ok: true, value: value ?? null }),
      (e) => sendResponse({ ok: false, error: errorInfo(e) }),
    );
  return true; // the reply is sent asynchronously
});

self.holaryn = {
  ready,
  search,
  inspect,
  table,
  call,
  pending,
  answer,
  activity,
  startup,
  wake,
  readSnapshot,
  keepSnapshot,
};
ready().catch((e) => console.error("holaryn: the runtime failed to load", e));
