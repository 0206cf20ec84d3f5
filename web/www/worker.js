// The engine's Web Worker: one WebAssembly engine that searches while the page stays
// responsive. Messages in: {kind: "init", module, hash, files}, {kind: "supply", name,
// bytes} (a data file: the weights of a size, the book), {kind: "search" or "hint", id,
// board, depth, level, millis}; out: {id, kind: "ready" | "progress" | "done" | "error" |
// "fatal", data}; {kind: "panic", id} makes the module panic, for tests. The engine plays from the book once the page has supplied it. "fatal" (a panic or a trap of the module) means this worker's
// engine is not to be used again: the page starts a new worker. A search cannot read
// messages while it runs: the page stops one by ending this worker (EngineClient in app.js).
import init, { WebEngine, panicPrefix, panicForTests, supplyFile } from "./emilia_web.js";

let engine = null;
let hash = 64;

// Whether `error` leaves the module's memory untrustworthy: a panic (thrown by the module's
// panic hook) or a WebAssembly trap.
function isFatal(error) {
  return error instanceof WebAssembly.RuntimeError || String(error?.message ?? "").startsWith(panicPrefix());
}

self.onmessage = async (event) => {
  const { id, kind } = event.data;
  try {
    if (kind === "init") {
      await init({ module_or_path: event.data.module });
      hash = event.data.hash;
      for (const [name, bytes] of Object.entries(event.data.files)) supplyFile(name, bytes);
      engine = new WebEngine(hash, "emilia.book" in event.data.files);
      self.postMessage({ id, kind: "ready" });
      return;
    }
    if (kind === "supply") {
      supplyFile(event.data.name, event.data.bytes);
      // The book: an engine that plays from it replaces the one without.
      if (event.data.name === "emilia.book") {
        engine.free();
        engine = new WebEngine(hash, true);
      }
      return;
    }
    const { board, depth, level, millis } = event.data;
    const progress = (text) => self.postMessage({ id, kind: "progress", data: JSON.parse(text) });
    let result;
    if (kind === "search") {
      result = engine.search(board, depth, millis, progress, level);
    } else if (kind === "hint") {
      result = engine.hint(board, depth, millis, progress, level);
    } else if (kind === "panic") {
      // For tests: what a panic of the engine does to the page.
      panicForTests();
    } else {
      throw new Error(`unknown request ${kind}`);
    }
    self.postMessage({ id, kind: "done", data: JSON.parse(result) });
  } catch (error) {
    let fatal = false;
    try {
      fatal = isFatal(error);
    } catch {
      fatal = true;
    }
    self.postMessage({ id, kind: fatal ? "fatal" : "error", data: String(error?.message ?? error) });
  }
};
