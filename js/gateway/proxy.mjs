// The rest of MCP through the gateway: resources (list, templates, read,
// subscribe), prompts, completions, logging, progress, cancellation, and the
// sampling/elicitation requests downstream servers send, relayed to a client
// that declared support. Tools stay the session's (upstream.mjs: search-first,
// gated); this relays what is not a tool.
//
// Names: a prompt name or resource URI offered by one server passes through
// as is; one offered by several servers is listed once per server, qualified
// (prompts by the core's wire-name rule, `server__prompt`; resources as
// `holaryn://server/<uri>`), and the bare name is refused as ambiguous. The
// qualified forms always work. Collisions count every connected server, not
// one session's view, so a name never changes with policy.
// Policy: a session sees a server's resources and prompts only when the core
// says the provider is exposed to it (`session.providerExposed`: not hidden,
// not every tool hidden or denied).

import {
  CompleteRequestSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ReadResourceRequestSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { listsOf, matchesTemplate, qualifyUri, unqualifyUri } from "./proxy-names.mjs";

/** Log levels, least severe first (MCP logging). */
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** What the gateway asks for on the downstream side: it can relay these when a client can answer. */
export const DOWNSTREAM_CAPABILITIES = { sampling: {}, elicitation: { form: {}, url: {} } };

const invalid = (message) => new McpError(ErrorCode.InvalidParams, message);

/**
 * The relay between the downstream servers and every upstream session.
 * @param {{clients: () => {name: string, client: object}[], execute: (req: object) => Promise<unknown>, runtime?: object, log?: (line: string) => void}} deps
 *   `clients`: the connected downstream clients in config order; `execute`: the downstream `execute`;
 *   `runtime`: its registry changes (a deny saved, a provider hidden) re-check what each session sees.
 */
export function createRelay({ clients, execute, runtime, log = () => {} }) {
  /** Bound upstreams: upstream → {level, subs: Set of outward URIs}. */
  const bound = new Map();
  /** Calls running on a downstream server: name → [{u, requestId}] (who sampling is asked of). */
  const inflight = new Map();
  /** Downstream subscriptions held for upstream ones: `server\0uri` → count. */
  const held = new Map();
  const lists = listsOf(clients);

  const exposed = (u, name) => {
    try {
      return u.session.providerExposed(name);
    } catch {
      return false; // the session is closed
    }
  };

  /** Every bound upstream that sees `name`. */
  const audience = (name) => [...bound.entries()].filter(([u]) => exposed(u, name));

  /** Which servers `u` sees, as a key (a change means its resource and prompt lists changed). */
  const view = (u) =>
    clients()
      .map(({ name }) => (exposed(u, name) ? name : ""))
      .join("\0");

  // A policy change can show or hide a server's resources and prompts: tell the sessions it changed.
  runtime?.addEventListener((ev) => {
    if (ev.type !== "tool_registry_changed") return;
    setImmediate(() => {
      for (const [u, s] of bound) {
        const now = view(u);
        if (now === s.view) continue;
        s.view = now;
        u.server.sendResourceListChanged().catch(() => {});
        u.server.sendPromptListChanged().catch(() => {});
      }
    });
  });

  /** Wire up a downstream client once it connected (again): notifications and requests it sends. */
  function attach(name, client) {
    lists.invalidate();
    for (const [u] of bound) {
      u.server.sendResourceListChanged().catch(() => {});
      u.server.sendPromptListChanged().catch(() => {});
    }
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
      const outward = (await lists.uriCollides(n.params.uri)) ? qualifyUri(name, n.params.uri) : n.params.uri;
      for (const [u, s] of audience(name)) {
        if (s.subs.has(outward)) u.server.sendResourceUpdated({ ...n.params, uri: outward }).catch(() => {});
      }
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      lists.invalidate();
      for (const [u] of audience(name)) u.server.sendResourceListChanged().catch(() => {});
    });
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      lists.invalidate();
      for (const [u] of audience(name)) u.server.sendPromptListChanged().catch(() => {});
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const rank = LEVELS.indexOf(n.params.level);
      const params = { ...n.params, logger: n.params.logger ? `${name}/${n.params.logger}` : name };
      for (const [u, s] of audience(name)) {
        if (rank >= LEVELS.indexOf(s.level)) u.server.notification({ method: "notifications/message", params });
      }
    });
    client.setRequestHandler(CreateMessageRequestSchema, (req, extra) =>
      ask(name, "sampling", (u, opts) => u.server.createMessage(req.params, opts), extra),
    );
    client.setRequestHandler(ElicitRequestSchema, (req, extra) =>
      ask(name, "elicitation", (u, opts) => u.server.elicitInput(req.params, opts), extra),
    );
  }

  /**
   * Relay a request from downstream server `name` to a client that declared `cap`: the one whose
   * call to that server is running (newest first), else the newest client that sees the server.
   * The downstream server's cancellation aborts the relayed request (the client is told).
   */
  function ask(name, cap, send, extra) {
    const can = (u) => Boolean(u.server.getClientCapabilities()?.[cap]) && exposed(u, name);
    const running = (inflight.get(name) ?? []).findLast((c) => can(c.u));
    const u = running?.u ?? [...bound.keys()].findLast(can);
    if (!u) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `no client connected to the gateway supports ${cap} (the server "${name}" asked for it)`,
      );
    }
    return send(u, { signal: extra.signal, ...(running ? { relatedRequestId: running.requestId } : {}) });
  }

  /** The downstream client of a server a session may use, or a typed refusal. */
  function clientFor(u, name, what) {
    const c = clients().find((x) => x.name === name);
    if (!c || !exposed(u, name)) throw invalid(`${what}: no server "${name}" is available to this session`);
    return c.client;
  }

  /** Which server and downstream URI an outward URI means, for this session. */
  async function routeUri(u, uri) {
    const q = unqualifyUri(uri);
    if (q) return { name: q.name, uri: q.uri, client: clientFor(u, q.name, uri), qualified: true };
    const owners = (await lists.resources()).filter((r) => r.item.uri === uri).map((r) => r.name);
    if (owners.length > 1) {
      throw invalid(`${uri} is offered by several servers: read ${owners.map((n) => qualifyUri(n, uri)).join(" or ")}`);
    }
    let name = owners[0];
    if (!name) {
      const byTemplate = (await lists.templates()).filter((t) => matchesTemplate(t.item.uriTemplate, uri));
      name = byTemplate.find((t) => exposed(u, t.name))?.name;
    }
    if (!name) return null;
    return { name, uri, client: clientFor(u, name, uri), qualified: false };
  }

  /** Which server and downstream name an outward prompt name means, for this session. */
  async function routePrompt(u, outward) {
    const hit = (await lists.prompts(u.session)).find((p) => p.outward === outward);
    if (hit && exposed(u, hit.name))
      return { name: hit.name, prompt: hit.item.name, client: clientFor(u, hit.name, outward) };
    const several = (await lists.prompts(u.session)).filter((p) => p.item.name === outward && exposed(u, p.name));
    if (several.length > 1) {
      throw invalid(
        `the prompt "${outward}" is offered by several servers: use ${several.map((p) => p.outward).join(" or ")}`,
      );
    }
    throw invalid(`unknown prompt: ${outward}`);
  }

  /** Serve the relayed methods on an upstream (before it connects); returns the unbind function. */
  function bind(u) {
    const state = { level: "debug", subs: new Set(), view: view(u) };
    bound.set(u, state);
    const { server, session } = u;
    server.registerCapabilities({
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: (await lists.resources())
        .filter((r) => exposed(u, r.name))
        .map((r) => ({ ...r.item, uri: r.outward })),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: (await lists.templates())
        .filter((t) => exposed(u, t.name))
        .map((t) => ({ ...t.item, uriTemplate: t.outward })),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
      const { uri } = req.params;
      const candidates = (await routeUri(u, uri)) ?? null;
      if (candidates) {
        const r = await candidates.client.readResource(
          { ...req.params, uri: candidates.uri },
          { signal: extra.signal },
        );
        if (!candidates.qualified) return r;
        const back = (c) => (c.uri === candidates.uri ? { ...c, uri } : c);
        return { ...r, contents: r.contents.map(back) };
      }
      // Not listed and no template matches: ask each server the session sees, in config order.
      let last;
      for (const { name, client } of clients()) {
        if (!client.getServerCapabilities()?.resources || !exposed(u, name)) continue;
        try {
          return await client.readResource(req.params, { signal: extra.signal });
        } catch (e) {
          last = e;
        }
      }
      throw new McpError(ErrorCode.InvalidParams, `no server has the resource ${uri}`, { cause: last?.message });
    });
    server.setRequestHandler(SubscribeRequestSchema, async (req) => {
      const { uri } = req.params;
      if (state.subs.has(uri)) return {};
      state.subs.add(uri);
      const r = await routeUri(u, uri).catch(() => null);
      if (r?.client.getServerCapabilities()?.resources?.subscribe) {
        const key = `${r.name}\0${r.uri}`;
        const n = held.get(key) ?? 0;
        held.set(key, n + 1);
        if (n === 0)
          await r.client
            .subscribeResource({ uri: r.uri })
            .catch((e) => log(`[${r.name}] subscribe ${r.uri}: ${e.message}`));
      }
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
      await release(u, state, req.params.uri);
      return {};
    });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: (await lists.prompts(session))
        .filter((p) => exposed(u, p.name))
        .map((p) => ({ ...p.item, name: p.outward })),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
      const p = await routePrompt(u, req.params.name);
      return p.client.getPrompt({ ...req.params, name: p.prompt }, { signal: extra.signal });
    });
    server.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
      const { ref } = req.params;
      let target;
      if (ref.type === "ref/prompt") {
        const p = await routePrompt(u, ref.name);
        target = { client: p.client, ref: { ...ref, name: p.prompt } };
      } else {
        const q = unqualifyUri(ref.uri);
        const owner = q
          ? { name: q.name, uriTemplate: q.uri }
          : (await lists.templates()).find((t) => t.item.uriTemplate === ref.uri && exposed(u, t.name));
        if (!owner) throw invalid(`unknown resource template: ${ref.uri}`);
        const name = owner.name;
        target = { client: clientFor(u, name, ref.uri), ref: { ...ref, uri: q ? q.uri : ref.uri } };
      }
      if (!target.client.getServerCapabilities()?.completions) return { completion: { values: [] } };
      return target.client.complete({ ...req.params, ref: target.ref }, { signal: extra.signal });
    });
    server.setRequestHandler(SetLevelRequestSchema, async (req) => {
      state.level = req.params.level;
      // Downstream servers send what the least strict client wants; each client is filtered here.
      const least = LEVELS[Math.min(...[...bound.values()].map((s) => LEVELS.indexOf(s.level)))];
      for (const { name, client } of clients()) {
        if (client.getServerCapabilities()?.logging) {
          await client.setLoggingLevel(least).catch((e) => log(`[${name}] logging/setLevel: ${e.message}`));
        }
      }
      return {};
    });
    return async () => {
      for (const uri of [...state.subs]) await release(u, state, uri);
      bound.delete(u);
    };
  }

  /** Drop one upstream subscription; the downstream one goes with the last holder. */
  async function release(u, state, uri) {
    if (!state.subs.delete(uri)) return;
    const r = await routeUri(u, uri).catch(() => null);
    if (!r) return;
    const key = `${r.name}\0${r.uri}`;
    const n = held.get(key) ?? 0;
    if (n > 1) return void held.set(key, n - 1);
    if (n === 0) return;
    held.delete(key);
    await r.client.unsubscribeResource({ uri: r.uri }).catch(() => {});
  }

  /**
   * The host `execute` for one upstream call: progress the client asked for (a progressToken)
   * is relayed from the downstream server; the call is remembered so the server's sampling and
   * elicitation requests reach this client. Cancellation rides on `req.signal`.
   * @param {object} req the gate's ExecuteRequest
   * @param {{u: object, request: object, extra: object} | undefined} call the upstream tools/call
   */
  async function executeCall(req, call) {
    if (!call) return execute(req);
    const token = call.request.params?._meta?.progressToken;
    // The last progress is sent before the result (a client drops progress after the result).
    let sent = Promise.resolve();
    const onprogress =
      token === undefined
        ? undefined
        : (p) => {
            sent = call.extra
              .sendNotification({ method: "notifications/progress", params: { ...p, progressToken: token } })
              .catch(() => {});
          };
    const entry = { u: call.u, requestId: call.extra.requestId };
    const list = inflight.get(req.providerId) ?? [];
    list.push(entry);
    inflight.set(req.providerId, list);
    try {
      const out = await execute(onprogress ? { ...req, signal: req.signal, onprogress } : req);
      await sent;
      return out;
    } finally {
      list.splice(list.indexOf(entry), 1);
      if (!list.length) inflight.delete(req.providerId);
    }
  }

  return { attach, bind, execute: executeCall, capabilities: DOWNSTREAM_CAPABILITIES };
}
