// The page in a real browser (the system's Chromium, driven by playwright-core): whole games
// on 8x8 and 10x10 played by clicking squares, the values shown for the legal moves against
// the native engine's at the same depth, undo, stop, review, the info line, the strength
// field, the phone layout, the keyboard, the cold load, and screenshots (into target/).
// First the module's own checks of what JavaScript hands it, under Node.
// Run by web/test.sh after web/build.sh; EMILIA names the native program.
import { chromium } from "playwright-core";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { initSync, WebEngine, WebGame, supplyFile, panicForTests } from "./dist/emilia_web.js";

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

// A new page at `query`, once its engine is ready.
async function open(context, url, query, ready = "body[data-engine=ready]") {
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${url}?${query}`);
  await page.waitForSelector(ready, { timeout: 60000 });
  return page;
}

// Waits until no search runs.
const idle = (page) => page.waitForFunction(() => document.body.dataset.thinking !== "true", null, { timeout: 120000 });

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

// The module under Node, as the page's worker uses it.
const fromDist = (name) => gunzipSync(readFileSync(join(web, "dist", name)));
initSync({ module: fromDist("emilia_web_bg.wasm.gz") });

// The board string after the first `plies` moves of `transcript` (the core's replay).
function replay(transcript, plies, size = 8) {
  const game = WebGame.fromText(transcript.slice(0, 2 * plies), size);
  const board = game.board();
  game.free();
  return board;
}

// What a JavaScript error thrown by `call` says ("" when nothing is thrown).
function thrown(call) {
  try {
    call();
    return "";
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
}

await check("values from JavaScript are checked where they enter, and the engine stays usable", async () => {
  // Before the weights are supplied, no engine.
  assert.match(thrown(() => new WebEngine(16, false)), /^Error: no 8x8 weights/);
  assert.match(thrown(() => supplyFile("passwords.txt", new Uint8Array(3))), /^Error: file: "passwords.txt" is not one of/);
  supplyFile("emilia.weights", fromDist("emilia.weights.gz"));
  assert.match(thrown(() => new WebEngine(16, true)), /^Error: no book/);
  const engine = new WebEngine(16, false);
  const start = new WebGame(8).board();
  const works = () => JSON.parse(engine.search(start, 2, 0, () => {})).depth === 2;
  const cases = [
    [() => engine.search(start, 2, Infinity, () => {}), /^Error: millis: inf is not a time/],
    [() => engine.search(start, -1, 0, () => {}), /^Error: depth: -1 is not a whole number from 0 to 144/],
    [() => engine.hint(start, 2.5, 0, () => {}), /^Error: depth: 2.5 /],
    [() => engine.search(start, 0, 0, () => {}, 21e9), /^Error: level: 21000000000 /],
    [() => engine.search(42, 2, 0, () => {}), /^Error: board: expected a string, got 42/],
    [() => engine.search(start, 2, 0, 5), /^Error: progress: expected a function, got 5/],
    [() => engine.search(start, 2, 0, () => { throw new Error("boom"); }), /^Error: the progress function threw: Error: boom/],
    [() => engine.search(start, 3, 0, () => engine.search(start, 1, 0, () => {})), /^Error: the progress function threw: Error: the engine is busy/],
    [() => new WebEngine(1e12, false), /^Error: hash: 1000000000000 is not a whole number/],
  ];
  for (const [call, expected] of cases) {
    assert.match(thrown(call), expected);
    assert.ok(works(), `the engine answers after ${expected}`);
  }
  const game = new WebGame(8);
  assert.match(thrown(() => game.play(5)), /^Error: move: expected a string, got 5/);
  assert.match(thrown(() => new WebGame(7)), /^Error: size: no 7x7 board: Emilia plays 6, 8, 10 and 12/);
  assert.match(thrown(() => new WebGame(8.5)), /^Error: size: 8.5 is not a whole number/);
  assert.match(thrown(() => WebGame.fromText(null, 8)), /^Error: text: expected a string, got null/);
  assert.equal(game.plyCount(), 0);
  game.play("f5");
  assert.equal(game.transcript(), "f5");
  // A panic says what it is (not "unreachable").
  assert.match(thrown(() => panicForTests()), /^Error: emilia: internal error, the engine must be restarted: [\s\S]*a panic asked for by a test/);
  engine.free();
  game.free();
});

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
      // The chart grew with the game: a point for each of the engine's moves.
      const engineMoves = await page.$$eval("#moves li button.ply", (l) => l.filter((b) => b.textContent.startsWith("○") && !b.textContent.endsWith("pass")).length);
      assert.equal(await page.locator("#chart circle.point").count(), engineMoves);
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
    { text: "e4f4g5h6g6g7", size: 10 },
  ];
  for (const { text, size } of positions) {
    await check(`the values of ${text} (${size}x${size}) are the native engine's at depth 6`, async () => {
      const page = await open(context, url, `size=${size}&black=human&white=human&mode=depth&strength=6`);
      await page.fill("#text", text);
      await page.click("#load");
      assert.equal(await page.textContent("#message"), "loaded");
      const board = await page.evaluate(() => window.emiliaBoard());
      assert.equal(board, replay(text, text.length / 2, size));
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
    await page.waitForFunction(() => document.querySelector("#thinking").textContent === "analysed all 60 plies", null, {
      timeout: 120000,
    });
    assert.equal(await page.locator("#chart circle.point").count(), 60);
    const losses = await page.$$eval("#moves li", (list) => list.map((li) => li.dataset.loss));
    assert.equal(losses.length, 60);
    assert.ok(losses.every((l) => l !== undefined && Number(l) >= 0), losses.join(" "));
    await page.screenshot({ path: join(shots, "analysis.png"), fullPage: true });
    await page.click("#ggf");
    const ggf = await page.inputValue("#text");
    assert.ok(ggf.startsWith("(;GM[Othello]"), ggf);
    assert.ok(ggf.includes("B[F5]") && ggf.includes("W[D6]"), ggf);
    assert.ok(ggf.includes("PB[You]PW[You]"), ggf);
    await page.selectOption("#white", "engine");
    await page.click("#ggf");
    assert.ok((await page.inputValue("#text")).includes("PB[You]PW[Emilia (depth 4)]"), await page.inputValue("#text"));
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
    assert.ok(await page.isDisabled("#redo"), "nothing to redo");
    const board2 = await page.evaluate(() => window.emiliaBoard());
    await page.click("#undo");
    assert.equal(await boardState(page), before);
    assert.ok(!(await page.isDisabled("#redo")));
    await page.click("#redo");
    assert.notEqual(await boardState(page), before);
    // Redo until there is nothing left: the position undo left.
    for (let i = 0; i < 4 && !(await page.isDisabled("#redo")); i++) await page.click("#redo");
    assert.ok(await page.isDisabled("#redo"), "nothing left to redo");
    assert.equal(await page.evaluate(() => window.emiliaBoard()), board2);
    await page.close();
  });

  await check("stop answers within 100 ms", async () => {
    // 10x10, which has no book: the engine searches.
    const page = await open(context, url, "size=10&black=human&white=engine&mode=time&strength=10");
    await page.click(".square.legal");
    // Thinking, and past its first iteration.
    await page.waitForFunction(
      () => document.body.dataset.thinking === "true" && document.querySelector("#thinking").textContent.startsWith("thinking:"),
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
  await check("coordinates around every board size", async () => {
    const page = await open(context, url, "black=human&white=human", "body[data-ready=true]");
    for (const size of [6, 8, 10, 12]) {
      await page.selectOption("#size", String(size));
      const columns = await page.$$eval("#board .coord.column", (l) => l.map((c) => c.textContent).join(""));
      const rows = await page.$$eval("#board .coord.row", (l) => l.map((c) => c.textContent).join(" "));
      assert.equal(columns, "abcdefghijkl".slice(0, size));
      assert.equal(rows, Array.from({ length: size }, (_, i) => i + 1).join(" "));
      // Each row's number on the row of its squares, each column's letter above its squares.
      const box = async (selector) => page.locator(selector).boundingBox();
      const [label, square] = [await box(`#board .coord.row >> nth=${size - 1}`), await box(`[data-square="a${size}"]`)];
      assert.ok(Math.abs(label.y + label.height / 2 - (square.y + square.height / 2)) < 2, `row ${size}`);
      const [letter, first] = [await box(`#board .coord.column >> nth=${size - 1}`), await box(`[data-square="${"abcdefghijkl"[size - 1]}1"]`)];
      assert.ok(Math.abs(letter.x + letter.width / 2 - (first.x + first.width / 2)) < 2, `column ${size}`);
    }
    await page.screenshot({ path: join(shots, "coordinates-12x12.png") });
    await page.close();
  });

  await check("every square is reached by Tab, named by its coordinate, and played by Enter", async () => {
    const page = await open(context, url, "black=human&white=human", "body[data-ready=true]");
    await page.focus("#board .square >> nth=0");
    const seen = [];
    for (let i = 0; i < 64; i++) {
      seen.push(await page.evaluate(() => [document.activeElement.dataset.square, document.activeElement.getAttribute("aria-label")]));
      await page.keyboard.press("Tab");
    }
    const names = seen.map(([square]) => square);
    assert.equal(new Set(names).size, 64, names.join(" "));
    assert.ok(seen.every(([square, label]) => label.split(" ")[0] === square), JSON.stringify(seen.slice(0, 5)));
    await page.focus('[data-square="f5"]');
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => window.emiliaBoard()), replay("f5", 1));
    await page.close();
  });

  await check("a finished game reviewed by the list, the chart and the keys; play goes on from there", async () => {
    const game = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5g4e2c8d8c5e3f2b4c2d2e1g3c1h6h5h4e8b8g7d1b5c6f1b3h2a4b2g2a5a2h1g1h3h8c7g8h7a6a3a1b1b6b7a8a7";
    const page = await open(context, url, "black=human&white=human&mode=depth&strength=2");
    await page.fill("#text", game);
    await page.click("#load");
    await page.click("#analyze");
    await page.waitForFunction(() => document.querySelector("#thinking").textContent === "analysed all 60 plies", null, { timeout: 120000 });
    await idle(page);
    const shows = async (ply, how) => {
      assert.equal(await page.evaluate(() => window.emiliaBoard()), replay(game, ply), `${how}: the position before move ${ply + 1}`);
      const squares = (await boardState(page)).replace(/b/g, "X").replace(/w/g, "O");
      assert.equal(squares, replay(game, ply).split(" ")[0], `${how}: the squares drawn`);
      if (ply < 60) {
        const played = game.slice(2 * ply, 2 * ply + 2);
        assert.deepEqual(await page.$$eval(".square.played", (l) => l.map((s) => s.dataset.square)), [played], `${how}: ${played} marked`);
        const valued = await page.$$eval(".square[data-value]", (l) => l.map((s) => s.dataset.square));
        assert.ok(valued.includes(played), `${how}: the values of the position shown`);
      }
    };
    for (const ply of [0, 17, 40, 59]) {
      await page.click(`#moves button.ply[data-ply="${ply}"]`);
      await shows(ply, `list ${ply}`);
    }
    for (const ply of [5, 33]) {
      await page.click(`#chart circle.point[data-ply="${ply}"]`);
      await shows(ply, `chart ${ply}`);
    }
    await page.keyboard.press("ArrowRight");
    await shows(34, "ArrowRight");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await shows(32, "ArrowLeft");
    await page.keyboard.press("Home");
    await shows(0, "Home");
    await page.keyboard.press("End");
    await shows(60, "End");
    assert.match(await page.textContent("#status"), /^Game over/);
    // From move 21's position, another move: a new branch replaces the rest.
    await page.click('#moves button.ply[data-ply="20"]');
    const legal = await page.$$eval(".square.legal", (l) => l.map((s) => s.dataset.square));
    const other = legal.find((m) => m !== game.slice(40, 42));
    await page.click(`[data-square="${other}"]`);
    assert.equal(await page.evaluate(() => window.emiliaBoard()), replay(game.slice(0, 40) + other, 21));
    assert.equal(await page.locator("#moves li").count(), 21);
    await page.screenshot({ path: join(shots, "review.png"), fullPage: true });
    await page.close();
  });

  await check("the info line names the move with the highest value shown, where the book and the search differ", async () => {
    const page = await open(context, url, "black=human&white=human&mode=depth&strength=6");
    // The book's moves here with searched ones beside them; the search's own best (g3) is
    // worse than the book's (e6).
    await page.fill("#text", "f5d6c3d3c4f4f6f3");
    await page.click("#load");
    await page.click("#values");
    await page.waitForFunction(() => [...document.querySelectorAll(".square.legal")].every((s) => s.dataset.value), null, { timeout: 60000 });
    await idle(page);
    const shown = await page.$$eval(".square[data-value]", (l) => l.map((s) => ({ square: s.dataset.square, value: Number(s.dataset.value), kind: s.dataset.kind })));
    const kinds = new Set(shown.map((v) => v.kind));
    assert.ok(kinds.has("book") && kinds.has("search"), JSON.stringify(shown));
    const top = shown.reduce((a, b) => (b.value > a.value ? b : a));
    const info = await page.textContent("#thinking");
    assert.ok(info.startsWith(`best ${top.square} `), `${info} vs ${JSON.stringify(top)}`);
    assert.ok(info.includes(top.kind === "book" ? "book" : "plies ahead"), info);
    assert.equal(await page.$eval(".value.best", (v) => v.parentElement.dataset.square), top.square);
    // A new game clears it.
    await page.click("#new");
    assert.equal(await page.textContent("#thinking"), "");
    await page.close();
  });

  await check("a strength that cannot be played is refused where typed, and the game goes on", async () => {
    const page = await open(context, url, "black=human&white=engine&mode=time&strength=0.2");
    for (const bad of ["0", "100", "abc"]) {
      await page.fill("#strength", bad);
      assert.equal(await page.getAttribute("#strength", "aria-invalid"), "true", bad);
      assert.equal(await page.getAttribute("#message", "data-kind"), "error");
      assert.match(await page.textContent("#message"), new RegExp(`strength "${bad}" cannot be played.*still playing at 0.2 s a move`));
    }
    await page.click('[data-square="f5"]');
    await page.waitForFunction(() => window.emiliaBoard().endsWith(" X"), null, { timeout: 30000 });
    assert.equal(await page.locator("#strength.invalid").count(), 1);
    await page.selectOption("#mode", "level");
    assert.equal(await page.getAttribute("#strength", "aria-invalid"), null);
    assert.equal(await page.textContent("#strength-help"), "level 12: depth 12, exact from 18 empties");
    assert.equal(await page.textContent("#message"), "", "the error replaced");
    await page.fill("#text", "e4f4g5h6g6g7");
    await page.click("#load");
    assert.equal(await page.getAttribute("#message", "data-kind"), "error");
    assert.match(await page.textContent("#message"), /one on 10x10/);
    const color = () => page.$eval("#message", (m) => getComputedStyle(m).color);
    const error = await color();
    await page.click("#xot");
    await page.waitForFunction(() => document.querySelector("#message").textContent.startsWith("XOT opening"));
    assert.equal(await page.getAttribute("#message", "data-kind"), "info");
    assert.notEqual(await color(), error, "information and errors look different");
    await page.close();
  });

  await check("a panic of the engine: an error saying so, a new worker, and play goes on", async () => {
    const page = await open(context, url, "black=human&white=engine&mode=depth&strength=2");
    const message = await page.evaluate(() => window.emiliaEngine().run("panic", window.emiliaBoard(), {}).then(() => "", (e) => e.message));
    assert.match(message, /internal error[\s\S]*a panic asked for by a test/);
    assert.equal(await page.evaluate(() => window.emiliaEngine().restarts), 1);
    await page.click('[data-square="f5"]');
    await page.waitForFunction(() => window.emiliaBoard().endsWith(" X") && document.body.dataset.thinking === "false", null, { timeout: 30000 });
    await page.close();
  });

  await check("on a phone (390x844): no sideways scroll, values of 12 px or more, large enough buttons", async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${url}?black=human&white=engine&mode=depth&strength=4`);
    await phone.waitForSelector("body[data-engine=ready]", { timeout: 60000 });
    await phone.click('[data-square="f5"]');
    await phone.waitForFunction(() => window.emiliaBoard().endsWith(" X") && document.body.dataset.thinking === "false", null, { timeout: 30000 });
    await phone.click("#values");
    await phone.waitForFunction(() => [...document.querySelectorAll(".square.legal")].every((s) => s.dataset.value), null, { timeout: 60000 });
    await idle(phone);
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `${width} px wide`);
    const sizes = await phone.$$eval(".value", (l) => l.map((v) => parseFloat(getComputedStyle(v).fontSize)));
    assert.ok(sizes.length > 0 && sizes.every((px) => px >= 12), sizes.join(" "));
    const small = await phone.$$eval("button:not(.square)", (l) => l.filter((b) => b.getBoundingClientRect().height < 32).map((b) => b.id));
    assert.deepEqual(small, []);
    await phone.screenshot({ path: join(shots, "phone.png"), fullPage: true });
    await phone.close();
  });

  // A page whose network is throttled to 20 Mbit/s and whose cache is off: the bytes of each
  // finished request and the files asked for.
  async function throttled() {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: 20e6 / 8,
      uploadThroughput: 20e6 / 8,
    });
    const seen = { page, bytes: 0, files: [], last: Date.now() };
    cdp.on("Network.requestWillBeSent", (e) => {
      seen.files.push(new URL(e.request.url).pathname.slice(1));
      seen.last = Date.now();
    });
    cdp.on("Network.loadingFinished", (e) => {
      seen.bytes += e.encodedDataLength;
      seen.last = Date.now();
    });
    seen.idle = async () => {
      while (Date.now() - seen.last < 1500) await page.waitForTimeout(250);
    };
    return seen;
  }

  await check("a cold load at 20 Mbit/s: at most 6 MB until idle, the board first, other files when needed", async () => {
    const load = await throttled();
    const page = load.page;
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60000 });
    const drawn = await page.evaluate(() => performance.now());
    assert.equal(await page.locator("#board .square").count(), 64);
    const early = await page.evaluate(() => document.body.dataset.engine !== "ready" && document.querySelector("#values").disabled);
    await page.waitForSelector("body[data-engine=ready]", { timeout: 60000 });
    const ready = await page.evaluate(() => performance.now());
    await load.idle();
    console.log(`cold load at 20 Mbit/s: board drawn at ${Math.round(drawn)} ms, engine ready at ${Math.round(ready)} ms, ${load.bytes} bytes until idle (${load.files.join(", ")})`);
    assert.ok(early, "the engine's controls wait for it while it loads");
    assert.ok(load.bytes <= 6e6, `${load.bytes} bytes`);
    assert.deepEqual(load.files.filter((f) => f.startsWith("emilia") && f.endsWith(".gz")).sort(), ["emilia.weights.gz", "emilia_web_bg.wasm.gz"]);
    // The book with the engine's first search on 8x8, another size's weights with its first
    // search there: each fetched once.
    await page.click('[data-square="f5"]');
    await page.waitForFunction(() => window.emiliaBoard().endsWith(" X") && document.body.dataset.thinking === "false", null, { timeout: 60000 });
    for (let i = 0; i < 2; i++) {
      if (i === 0) await page.selectOption("#size", "10");
      else await page.click("#new");
      await page.click(".square.legal");
      await page.waitForFunction(() => window.emiliaBoard().endsWith(" X") && document.body.dataset.thinking === "false", null, { timeout: 60000 });
    }
    const count = (name) => load.files.filter((f) => f === name).length;
    assert.deepEqual([count("emilia.book.gz"), count("emilia-10.weights.gz"), count("emilia.weights.gz")], [1, 1, 1]);
    await page.screenshot({ path: join(shots, "cold-load.png"), fullPage: true });
    await page.close();

    const engineFirst = await throttled();
    await engineFirst.page.goto(`${url}?black=engine&white=human&mode=level&strength=8`);
    const first = await engineFirst.page.waitForFunction(() => window.emiliaFirstMove, null, { timeout: 60000 });
    console.log(`cold load at 20 Mbit/s, the engine playing Black: its first move at ${Math.round(await first.jsonValue())} ms`);
    await engineFirst.page.close();
  });

} finally {
  await context.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}

console.log(`screenshots in ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
