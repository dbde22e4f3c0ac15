// The demo's small in-memory project and an `execute` callback for its native
// tools (glob, read, grep, list, write, delete, memory). No Node imports: the
// browser Capability Center, `npm start` and the HolarynBench suite (which
// imports it from here) share it.

/** A small virtual project tree the native tools run against. */
export function virtualProject() {
  return new Map([
    ["README.md", "# Demo project\nSee docs/CHANGES.md for release notes.\n"],
    [
      "docs/CHANGES.md",
      "# Release notes\n\n## 0.3.0\n- Faster tool search\n- Bounded code mode\n\n## 0.2.0\n- Project policy file\n",
    ],
    ["src/main.rs", "fn main() {}\n"],
  ]);
}

function globToRegExp(glob) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      re += ".*";
      i++;
      if (glob[i + 1] === "/") i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

export function executor(files, memory) {
  return async (req) => {
    const a = req.args ?? {};
    switch (req.tool) {
      case "glob_files": {
        const re = globToRegExp(a.pattern);
        return { matches: [...files.keys()].filter((p) => re.test(p)).sort() };
      }
      case "read_file":
        if (!files.has(a.path)) throw new Error(`no such file: ${a.path}`);
        return { path: a.path, content: files.get(a.path) };
      case "grep_files": {
        const re = new RegExp(a.regex);
        return {
          matches: [...files].flatMap(([p, t]) =>
            t
              .split("\n")
              .filter((l) => re.test(l))
              .map((line) => ({ path: p, line })),
          ),
        };
      }
      case "list_directory":
        return { entries: [...files.keys()].filter((p) => p.startsWith(a.path === "." ? "" : a.path)) };
      case "write_file":
        files.set(a.path, a.content);
        return { written: a.path };
      case "delete_file":
        return { deleted: files.delete(a.path) };
      case "memory_store":
        memory.push(a.fact);
        return { stored: memory.length };
      default:
        return { ok: true, tool: req.tool };
    }
  };
}
