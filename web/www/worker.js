// The engine's Web Worker: one WebAssembly engine that searches while the page stays
// responsive. Messages in: {kind: "init", module, hash, book}, then {kind: "search" or
// "hint", id, board, depth, millis}; out: {id, kind: "ready" | "progress" | "done" |
// "error", data}. A search cannot read messages while it runs: the page stops one by
// ending this worker (engine-client in app.js).
import init, { WebEngine } from "./emilia_web.js";

let engine = null;

self.onmessage = async (event) => {
  const { id, kind } = event.data;
  try {
    if (kind === "init") {
      await init({ module_or_path: event.data.module });
      engine = new WebEngine(event.data.hash, event.data.book);
      self.postMessage({ id, kind: "ready" });
      return;
    }
    const { board, depth, millis } = event.data;
    const progress = (text) => self.postMessage({ id, kind: "progress", data: JSON.parse(text) });
    let result;
    if (kind === "search") {
      result = engine.search(board, depth, millis, progress);
    } else if (kind === "hint") {
      result = engine.hint(board, depth, millis, progress);
    } else {
      throw new Error(`unknown request ${kind}`);
    }
    self.postMessage({ id, kind: "done", data: JSON.parse(result) });
  } catch (error) {
    self.postMessage({ id, kind: "error", data: String(error?.message ?? error) });
  }
};
