// The page in a real browser (the system's Chromium, driven by playwright-core): whole games
// on 8x8 and 10x10 played by clicking squares, the values shown for the legal moves against
// the native engine's at the same depth, undo, stop, and screenshots (into target/).
// Run by web/test.sh after web/build.sh; EMILIA names the native program.
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

const web = dirname(fileURLToPath(import.meta.url));
const root = dirname(web);
const emilia = process.env.EMILIA ?? join(root, "target/release/emilia");
const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const shots = join(root, "target/web-screenshots");
mkdirSync(shots, { recursive: true });

let passed = 0;
let failed = 0;

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function serve() {
  const port = await freePort();
  const server = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1"], {
    cwd: join(web, "dist"),
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return { server, url };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill();
  throw new Error("the local server did not start");
}

// The native engine's values of every legal move of `board` at `depth`: square -> text.
function nativeValues(board, depth) {
  const input = `setoption threads 1\nsetboard ${board}\nhint 99 depth ${depth}\nquit\n`;
  const out = execFileSync(emilia, [], { input, encoding: "utf8" });
  const answer = out.split("\n\n")[2];
  const values = {};
  for (const line of answer.replace(/^= /, "").split("\n").filter(Boolean)) {
    const [move, score, ...rest] = line.split(" ");
    const kind = rest.includes("book") ? "book" : rest.includes("exact") ? "exact" : "search";
    values[move] = `${Number(score).toFixed(2)} ${kind}`;
  }
  return values;
}

async function open(context, url, query) {
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${url}?${query}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
  return page;
}

const boardState = (page) =>
  page.$$eval("#board .square", (squares) => squares.map((s) => (s.dataset.disc || "-")[0]).join(""));

// Plays as the person on move, the engine answering, by clicking a legal square each turn,
// until the game is over; returns the number of clicks.
async function playWholeGame(page) {
  let clicks = 0;
  for (;;) {
    await page.waitForFunction(
      () => document.querySelector("#status").dataset.over === "true" || document.querySelector(".square.legal"),
      null,
      { timeout: 60000 },
    );
    if ((await page.$eval("#status", (s) => s.dataset.over)) === "true") return clicks;
    const squares = await page.$$eval(".square.legal", (list) => list.map((s) => s.dataset.square));
    const choice = squares[clicks % squares.length];
    await page.click(`[data-square="${choice}"]`);
    clicks++;
  }
}

async function check(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok: ${name}`);
  } catch (error) {
    failed++;
    console.log(`FAILED: ${name}\n${error.stack ?? error}`);
  }
}

const { server, url } = await serve();
const profile = mkdtempSync(join(tmpdir(), "emilia-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: browserPath,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
  viewport: { width: 1280, height: 900 },
});

try {
  await check("the engine's first move, from the start of loading", async () => {
    const page = await open(context, url, "black=engine&white=human&mode=time&strength=0.1");
    const ms = await page.waitForFunction(() => window.emiliaFirstMove, null, { timeout: 30000 });
    console.log(`first engine move ${Math.round(await ms.jsonValue())} ms after the page started loading`);
    await page.close();
  });

  for (const size of [8, 10]) {
    await check(`a whole game on ${size}x${size}, by clicking squares`, async () => {
      const page = await open(context, url, `size=${size}&black=human&white=engine&mode=depth&strength=2`);
      const clicks = await playWholeGame(page);
      const status = await page.textContent("#status");
      assert.match(status, /^Game over: /);
      const discs = await boardState(page);
      assert.equal(discs.length, size * size);
      const black = [...discs].filter((d) => d === "b").length;
      const white = [...discs].filter((d) => d === "w").length;
      assert.ok(status.includes(`Black ${black}, White ${white}`), `${status} vs the board's ${black}-${white}`);
      assert.ok(clicks >= 10, `${clicks} clicks`);
      await page.screenshot({ path: join(shots, `game-${size}x${size}.png`), fullPage: true });
      console.log(`${size}x${size}: ${clicks} moves clicked; ${status}`);
      await page.close();
    });
  }

  const positions = [
    // In the book: its moves come first, marked.
    { text: "f5d6c3d3c4", size: 8 },
    // Out of the book, 8x8 midgame.
    { text: "f5f6e6f4g5e7f7h5e3d3g4h4h3g6g3c6c5f3e2d2", size: 8 },
    // 10x10, with no book.
    { text: "f6e7d6e5c5d4", size: 10 },
  ];
  for (const { text, size } of positions) {
    await check(`the values of ${text} (${size}x${size}) are the native engine's at depth 6`, async () => {
      const page = await open(context, url, `size=${size}&black=human&white=human&mode=depth&strength=6`);
      await page.fill("#text", text);
      await page.click("#load");
      const board = await page.evaluate(() => window.emiliaBoard());
      await page.click("#values");
      await page.waitForFunction(
        () =>
          document.body.dataset.thinking === "false" &&
          [...document.querySelectorAll(".square.legal")].every((s) => s.dataset.value),
        null,
        { timeout: 60000 },
      );
      const shown = await page.$$eval(".square[data-value]", (list) =>
        Object.fromEntries(list.map((s) => [s.dataset.square, `${Number(s.dataset.value).toFixed(2)} ${s.dataset.kind}`])),
      );
      const native = nativeValues(board, 6);
      assert.deepEqual(shown, native);
      console.log(`${text}: ${Object.keys(shown).length} moves as natively, e.g. ${Object.entries(shown)[0].join(" ")}`);
      await page.screenshot({ path: join(shots, `values-${size}x${size}-${text.length}.png`), fullPage: true });
      await page.close();
    });
  }

  await check("a game's analysis: every move's loss, the chart, and GGF export", async () => {
    const game = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5g4e2c8d8c5e3f2b4c2d2e1g3c1h6h5h4e8b8g7d1b5c6f1b3h2a4b2g2a5a2h1g1h3h8c7g8h7a6a3a1b1b6b7a8a7";
    const page = await open(context, url, "black=human&white=human&mode=depth&strength=4");
    await page.fill("#text", game);
    await page.click("#load");
    assert.match(await page.textContent("#status"), /^Game over: /);
    await page.click("#analyze");
    await page.waitForSelector("#chart svg polyline", { timeout: 120000 });
    const losses = await page.$$eval("#moves li", (list) => list.map((li) => li.dataset.loss));
    assert.equal(losses.length, 60);
    assert.ok(losses.every((l) => l !== undefined && Number(l) >= 0), losses.join(" "));
    await page.screenshot({ path: join(shots, "analysis.png"), fullPage: true });
    await page.click("#ggf");
    const ggf = await page.inputValue("#text");
    assert.ok(ggf.startsWith("(;GM[Othello]"), ggf);
    assert.ok(ggf.includes("B[F5]") && ggf.includes("W[D6]"), ggf);
    await page.click("#transcript");
    assert.equal(await page.inputValue("#text"), game);
    await page.close();
  });

  await check("undo restores the position", async () => {
    const page = await open(context, url, "black=human&white=engine&mode=depth&strength=3");
    await page.click('[data-square="f5"]');
    await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("Black to move"));
    const before = await boardState(page);
    const legal = await page.$$eval(".square.legal", (list) => list.map((s) => s.dataset.square));
    const board = await page.evaluate(() => window.emiliaBoard());
    await page.click(`[data-square="${legal[0]}"]`);
    await page.waitForFunction(
      (b) => document.querySelector("#status").textContent.startsWith("Black to move") && window.emiliaBoard() !== b,
      board,
    );
    assert.notEqual(await boardState(page), before);
    await page.click("#undo");
    assert.equal(await boardState(page), before);
    await page.click("#redo");
    assert.notEqual(await boardState(page), before);
    await page.close();
  });

  await check("stop answers within 100 ms", async () => {
    // 10x10, which has no book: the engine searches.
    const page = await open(context, url, "size=10&black=human&white=engine&mode=time&strength=10");
    await page.click(".square.legal");
    // Thinking, and past its first iteration.
    await page.waitForFunction(
      () => document.body.dataset.thinking === "true" && document.querySelector("#thinking").textContent.includes("depth"),
      null,
      { timeout: 20000 },
    );
    await page.waitForTimeout(500);
    const ms = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const start = performance.now();
          const status = document.querySelector("#status");
          const observer = new MutationObserver(() => {
            if (status.textContent.startsWith("Black to move")) {
              observer.disconnect();
              resolve(performance.now() - start);
            }
          });
          observer.observe(status, { childList: true, characterData: true, subtree: true });
          document.querySelector("#stop").click();
        }),
    );
    console.log(`stop answered in ${ms.toFixed(1)} ms`);
    assert.ok(ms <= 100, `${ms} ms`);
    assert.equal((await page.evaluate(() => window.emiliaBoard())).split(" ")[1], "X");
    await page.screenshot({ path: join(shots, "stopped.png"), fullPage: true });
    await page.close();
  });
} finally {
  await context.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}

console.log(`screenshots in ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
