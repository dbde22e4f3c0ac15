// What the gateway's relay calls the downstream servers' resources and
// prompts (proxy.mjs): the merged lists, cached until a server says its list
// changed or (re)connects, and the outward name of each item. A URI or prompt
// name offered by one connected server is its own outward name; one offered
// by several is qualified per server: `holaryn://<server>/<uri>` for a
// resource (or template), the core's wire name of `<server>/<prompt>` for a
// prompt (`session.wireName`, the rule tool names follow).

/** The scheme of a qualified resource URI: `holaryn://<server>/<the server's own URI>`. */
export const QUALIFIED_PREFIX = "holaryn://";

/** `uri` of server `name`, qualified. */
export const qualifyUri = (name, uri) => `${QUALIFIED_PREFIX}${name}/${uri}`;

/** `{name, uri}` of a qualified URI, else null. */
export function unqualifyUri(uri) {
  if (typeof uri !== "string" || !uri.startsWith(QUALIFIED_PREFIX)) return null;
  const rest = uri.slice(QUALIFIED_PREFIX.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return null;
  return { name: rest.slice(0, slash), uri: rest.slice(slash + 1) };
}

/** True when `uri` is an expansion of the RFC 6570 `template` (simple, reserved and query forms). */
export function matchesTemplate(template, uri) {
  let re = "^";
  let last = 0;
  for (const m of template.matchAll(/\{([+#?&/.;]?)[^}]*\}/g)) {
    re += template.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const op = m[1];
    re += op === "+" || op === "#" ? ".*" : op === "?" || op === "&" ? "(?:[?&].*)?" : "[^/?#]*";
    last = m.index + m[0].length;
  }
  re += `${template.slice(last).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
  return new RegExp(re).test(uri);
}

/** Every page of a list method of an SDK client. */
async function all(client, method, key) {
  const out = [];
  let cursor;
  do {
    const page = await client[method](cursor ? { cursor } : {});
    out.push(...(page[key] ?? []));
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/**
 * The merged lists of the connected servers, in config order.
 * @param {() => {name: string, client: object}[]} clients
 */
export function listsOf(clients) {
  const cache = new Map();
  let connected = "";

  /** `[{name, item}]` of one kind, from every server that has the capability. */
  function merged(kind, method, key) {
    const now = clients()
      .map((c) => c.name)
      .join("\0");
    if (now !== connected) {
      cache.clear(); // a server went away or came back
      connected = now;
    }
    if (!cache.has(kind)) {
      const p = Promise.all(
        clients().map(async ({ name, client }) => {
          if (!client.getServerCapabilities()?.[kind === "prompts" ? "prompts" : "resources"]) return [];
          try {
            return (await all(client, method, key)).map((item) => ({ name, item }));
          } catch {
            return []; // a server that fails to list offers nothing until it says its list changed
          }
        }),
      ).then((parts) => parts.flat());
      cache.set(kind, p);
      p.catch(() => cache.delete(kind));
    }
    return cache.get(kind);
  }

  /** Items with `outward`: their own `field` when one server has it, else `qualify(name, value)`. */
  const named = (items, field, qualify) => {
    const count = new Map();
    for (const { item } of items) count.set(item[field], (count.get(item[field]) ?? 0) + 1);
    return items.map((r) => ({
      ...r,
      outward: count.get(r.item[field]) > 1 ? qualify(r.name, r.item[field]) : r.item[field],
    }));
  };

  return {
    /** Forget the lists (a server's list changed or it reconnected). */
    invalidate: () => cache.clear(),
    resources: async () => named(await merged("resources", "listResources", "resources"), "uri", qualifyUri),
    templates: async () =>
      named(await merged("templates", "listResourceTemplates", "resourceTemplates"), "uriTemplate", qualifyUri),
    /** Prompts, outward names by the core's wire-name rule (`session.wireName`). */
    prompts: async (session) =>
      named(await merged("prompts", "listPrompts", "prompts"), "name", (name, prompt) =>
        session.wireName(`${name}/${prompt}`),
      ),
    /** True when several connected servers list `uri`. */
    async uriCollides(uri) {
      return (await merged("resources", "listResources", "resources")).filter((r) => r.item.uri === uri).length > 1;
    },
  };
}
