// Parses every mermaid block of a markdown file (stdin) with mermaid's own parser, under
// jsdom (mermaid needs a DOM to load). Prints "ok N" or the parse error; exit 1 on error.
import { JSDOM } from "jsdom";

const dom = new JSDOM("<!DOCTYPE html><body></body>", { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const k of ["Element", "HTMLElement", "SVGElement", "Node", "DOMParser", "navigator"]) {
  if (!(k in globalThis)) {
    try { globalThis[k] = dom.window[k]; } catch { /* read-only in this Node */ }
  }
}

const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false });

let input = "";
for await (const chunk of process.stdin) input += chunk;
const blocks = [...input.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]);
if (blocks.length === 0) {
  console.error("no mermaid block");
  process.exit(1);
}
for (const b of blocks) {
  try {
    const res = await mermaid.parse(b);
    if (!res || res.diagramType !== "xychart") {
      console.error(`parsed as ${res && res.diagramType}; want xychart`);
      process.exit(1);
    }
  } catch (e) {
    console.error(String(e && e.message ? e.message : e));
    process.exit(1);
  }
}
console.log(`ok ${blocks.length} ${(await import("mermaid/package.json", { with: { type: "json" } })).default.version}`);
