// Copies web/static/* and the texts (src/i18n/*.json) next to the compiled scripts:
// node scripts/copy-static.mjs [OUT_DIR]
import { cpSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "..", "dist"));
mkdirSync(out, { recursive: true });
cpSync(join(here, "..", "static"), out, { recursive: true });
cpSync(join(here, "..", "src", "i18n"), join(out, "i18n"), { recursive: true });
