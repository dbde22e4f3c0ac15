// Static file server for the Capability Center (`npm run demo`) and the
// browser tests: the repo root over loopback only, no caching, no network.
//
//   node js-demo/serve.mjs [--port 8787]   → http://127.0.0.1:8787/js-demo/
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root (what the server exposes by default). */
export const root = fileURLToPath(new URL("..", import.meta.url));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".md": "text/markdown; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
};

/**
 * Serve `dir` on 127.0.0.1 (`port` 0 = any free port); resolves to `{url, port, close}`.
 * @example const { url, close } = await serveStatic(root, 0); // url = "http://127.0.0.1:41234"
 */
export function serveStatic(dir = root, port = 0) {
  const base = normalize(dir.endsWith(sep) ? dir : dir + sep);
  const server = createServer(async (req, res) => {
    let path;
    try {
      path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname));
    } catch {
      return res.writeHead(400).end("bad request");
    }
    let file = join(base, path);
    if (!file.startsWith(base) && file + sep !== base) return res.writeHead(403).end("forbidden");
    try {
      if ((await stat(file)).isDirectory()) {
        if (!req.url.split("?")[0].endsWith("/"))
          return res.writeHead(301, { location: `${req.url.split("?")[0]}/` }).end();
        file = join(file, "index.html");
      }
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store",
      });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: p } = server.address();
      resolve({ url: `http://127.0.0.1:${p}`, port: p, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const i = process.argv.indexOf("--port");
  const port = Number(i > 0 ? process.argv[i + 1] : (process.env.PORT ?? 8787));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port must be an integer 0..65535, got ${process.argv[i + 1]}`);
    process.exit(2);
  }
  try {
    const { url } = await serveStatic(root, port);
    console.log(`Capability Center: ${url}/js-demo/   (Ctrl-C stops; serves ${root} on loopback only)`);
  } catch (e) {
    console.error(`serve: cannot listen on 127.0.0.1:${port}: ${e.code ?? e.message} (try --port 0)`);
    process.exit(2);
  }
}
