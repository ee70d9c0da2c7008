// What the browser tests share: their flags, steps that print ok/FAIL, Debian's chromium headless
// and a `naqala serve` of their own on a fresh database (docs/server.md, "Tests and checks").
import { spawn } from "node:child_process";

export const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

export const results = { passed: 0, failed: 0 };
export const step = async (name, f) => {
  const t0 = Date.now();
  try {
    await f();
    results.passed++;
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (e) {
    results.failed++;
    console.log(`FAIL ${name}: ${e.message.split("\n")[0]}`);
    throw e;
  }
};
export const expect = (cond, what) => { if (!cond) throw new Error(what); };

// Every wait ends on what it waits for; this limit only stops a hang, far beyond what a slow or
// loaded machine needs.
export const HANG_GUARD_MS = 5 * 60 * 1000;
// Headless as root in a container: no sandbox, no GPU, nothing fetched in the background.
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

// `naqala serve` on `port` (0: it picks a free one and says which); `ready()` resolves to the
// port once it prints its address. Started again with the same port and database, it is the
// same server after a restart.
export function startServer(naqala, web, db, port = 0) {
  let log = "";
  const proc = spawn(naqala, ["serve", "--port", String(port), "--db", db, "--web", web, "--http-rate", "1000"],
    { stdio: ["ignore", "pipe", "pipe"] });
  let seen = "";
  const ready = new Promise((resolve, reject) => {
    proc.stdout.on("data", (d) => {
      log += d;
      seen += d;
      const m = /naqala serve: http:\/\/[^:]+:(\d+)\//.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    proc.once("exit", (code) => reject(new Error(`the server exited (${code}): ${log}`)));
  });
  proc.stderr.on("data", (d) => (log += d));
  return {
    ready: () => ready,
    log: () => log,
    stop: () => new Promise((resolve) => { if (proc.exitCode !== null) return resolve(); proc.once("exit", resolve); proc.kill("SIGTERM"); }),
  };
}
