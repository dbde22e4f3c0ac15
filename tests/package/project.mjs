// A fresh project with the packed package installed, as a user gets it:
// `npm pack` of the built repo, `npm install --offline` of that tarball (the
// package has no dependencies, so nothing is fetched), and, when a test needs
// them, links to devDependencies already installed in the repo (the MCP SDK,
// zod, server-memory, esbuild; their bins too) instead of a download.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const npm = (args, cwd) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });

/** Pack and install into a temp project; `links`: repo node_modules packages to link in. Returns {dir, tarball, files, run, bin}. */
export function packedProject({ links = [] } = {}) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "holaryn-pkg-")));
  const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", dir], root));
  const project = join(dir, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true, type: "module" }));
  npm(["install", "--offline", "--no-audit", "--no-fund", join(dir, packed.filename)], project);
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  for (const name of links) {
    const from = join(root, "node_modules", name);
    const to = join(project, "node_modules", name);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(from, to, "dir");
    const { bin } = JSON.parse(readFileSync(join(from, "package.json"), "utf8"));
    const bins = typeof bin === "string" ? { [name.split("/").pop()]: bin } : (bin ?? {});
    for (const [cmd, file] of Object.entries(bins))
      symlinkSync(join(from, file), join(project, "node_modules/.bin", cmd));
  }
  return {
    dir: project,
    tarball: join(dir, packed.filename),
    files: packed.files.map((f) => f.path),
    /** Run a command in the project; returns {status, stdout, stderr}. */
    run: (cmd, args, opts = {}) =>
      spawnSync(cmd, args, {
        cwd: project,
        encoding: "utf8",
        timeout: 120_000,
        ...opts,
        env: { ...process.env, npm_config_offline: "true", ...opts.env },
      }),
    bin: (name) => join(project, "node_modules/.bin", name),
  };
}
