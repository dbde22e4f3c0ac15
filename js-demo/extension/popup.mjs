// Holaryn demo extension — popup script: lists the calls waiting for
// approval (Approve / Deny), the session's capability table and the last
// screenshot, polling the service worker while the popup is open. Errors from
// the worker or the runtime are shown with their code and message.

const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);

/** A failed worker reply, keeping the runtime's error code. */
class WorkerError extends Error {
  constructor({ name = "Error", code = "extension.error", message = "unknown error", nextAction } = {}) {
    super(message);
    this.name = name;
    this.code = code;
    this.nextAction = nextAction;
  }
}

/** Send one message to the service worker; resolves to its value or throws WorkerError. */
async function ask(message) {
  const reply = await chrome.runtime.sendMessage(message);
  if (!reply) throw new WorkerError({ code: "extension.no_reply", message: "the service worker did not reply" });
  if (!reply.ok) throw new WorkerError(reply.error);
  return reply.value;
}

/** Show (or with null, clear) an error; `source` says which action raised it. */
function showError(err, source = "action") {
  const box = $("error");
  box.dataset.source = source;
  if (!err) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  const code = typeof err.code === "string" ? err.code : "extension.error";
  box.textContent = `${code}: ${err.message ?? String(err)}${err.nextAction ? ` — ${err.nextAction}` : ""}`;
  box.hidden = false;
}

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

/** One pending approval as a list item with labelled Approve / Deny buttons. */
function pendingItem(p) {
  const li = el("li", { id: `call-${p.callId}` });
  const answer = async (approve) => {
    for (const b of li.querySelectorAll("button")) b.disabled = true;
    try {
      await ask({ type: "answer", callId: p.callId, approve });
      showError(null);
    } catch (e) {
      showError(e);
    }
    await refresh();
  };
  const approve = el("button", { type: "button", className: "approve", textContent: "Approve" });
  approve.setAttribute("aria-label", `Approve ${p.tool} (call ${p.callId})`);
  approve.addEventListener("click", () => answer(true));
  const deny = el("button", { type: "button", className: "deny", textContent: "Deny" });
  deny.setAttribute("aria-label", `Deny ${p.tool} (call ${p.callId})`);
  deny.addEventListener("click", () => answer(false));
  li.append(
    el("div", {}, el("strong", { textContent: p.title || p.tool }), " ", el("code", { textContent: p.tool })),
    el("div", { textContent: p.description ?? "" }),
    el("div", { className: "why", textContent: `Asks because ${p.why}.` }),
    el("div", {}, "Arguments: ", el("code", { textContent: JSON.stringify(p.args ?? {}) })),
    el("div", { className: "actions" }, approve, deny),
  );
  return li;
}

/** Update the list in place (keyed by callId) so focus on a button survives polling. */
function renderPending(items) {
  const list = $("pending");
  const ids = new Set(items.map((p) => `call-${p.callId}`));
  for (const li of [...list.children]) if (!ids.has(li.id)) li.remove();
  for (const p of items) if (!document.getElementById(`call-${p.callId}`)) list.append(pendingItem(p));
  $("pending-empty").hidden = items.length > 0;
}

let lastTable = "";
function renderTable(rows) {
  const key = JSON.stringify(rows);
  if (key === lastTable) return;
  lastTable = key;
  $("table").replaceChildren(
    ...rows.map((r) =>
      el(
        "tr",
        {},
        el("td", {}, el("code", { textContent: r.name }), r.asksFirst ? " (asks first)" : ""),
        el("td", { className: "state", textContent: r.availability.state }),
        el("td", { textContent: r.availability.reason }),
      ),
    ),
  );
}

let lastShot = "";
function renderShot(shot) {
  if (!shot || shot.dataUrl === lastShot) return;
  lastShot = shot.dataUrl;
  $("shot").src = shot.dataUrl;
  $("shot-section").hidden = false;
}

let refreshing = null;
/** Fetch pending approvals, the table and the last screenshot (one refresh at a time). */
function refresh() {
  refreshing ??= Promise.all([ask({ type: "pending" }), ask({ type: "table" }), ask({ type: "screenshot" })])
    .then(([pending, table, shot]) => {
      renderPending(pending);
      renderTable(table);
      renderShot(shot);
      if ($("error").dataset.source === "refresh") showError(null);
    })
    .catch((e) => showError(e, "refresh"))
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

$("refresh").addEventListener("click", () => refresh());
refresh();
setInterval(refresh, POLL_MS);
