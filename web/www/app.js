// The page: the board, the game's controls and the analysis. The rules and the game record
// are the engine's own (WebGame, compiled from the same Rust code); searches run in a Web
// Worker (EngineClient), so that the page never freezes.
import init, { WebGame } from "./emilia_web.js";

const $ = (id) => document.getElementById(id);
const COLUMNS = "abcdefghijkl";

// The engine's data files, fetched when first needed and each once: the 8x8 weights when
// the engine starts, another size's weights at its first search on that size, the book at
// the first search on 8x8. Served compressed (web/build.sh); the engine decodes them.
const files = new Map();

// The bytes of the gzip file at `url`, unpacked; `onFraction` is told how much has arrived.
async function download(url, onFraction = () => {}) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const total = Number(response.headers.get("content-length")) || 0;
  let received = 0;
  const counted = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (total) onFraction(received / total);
        controller.enqueue(chunk);
      },
    }),
  );
  return new Uint8Array(await new Response(counted.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
}

function fetchFile(name, onFraction) {
  if (!files.has(name)) {
    const loading = download(`${name}.gz`, onFraction);
    // A failed fetch is tried again at the next need.
    loading.catch(() => files.delete(name));
    files.set(name, loading);
  }
  return files.get(name);
}

// The files a search on boards of side `size` needs beyond the 8x8 weights.
function filesFor(size) {
  return size === 8 ? ["emilia.book"] : [`emilia-${size}.weights`];
}

// The engine in a worker, one request at a time. A running WebAssembly search cannot read
// messages, so stopping ends the worker: the request is answered at once with the last
// finished iteration's result, and a fresh worker (from the compiled module, with empty
// tables and the files fetched so far) takes the next request. A worker whose engine
// failed for good (a panic) is replaced the same way.
class EngineClient {
  constructor(module) {
    this.module = module;
    this.nextId = 1;
    this.pending = null;
    // Workers started again after a fatal error (for tests).
    this.restarts = 0;
    this.start();
  }

  start() {
    this.worker = new Worker("worker.js", { type: "module" });
    this.worker.onmessage = (event) => this.receive(event.data);
    // A worker that failed outside a request (a trap while loading): replaced.
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.fail(`the engine stopped: ${event.message ?? "an error in its worker"}`);
    };
    this.supplied = new Set();
    this.ready = new Promise((resolve, reject) => {
      this.readyWaiter = { resolve, reject };
    });
    this.ready.catch(() => {});
    const worker = this.worker;
    (async () => {
      const given = {};
      for (const [name, loading] of files) {
        try {
          given[name] = await loading;
        } catch {
          // fetched again when needed
        }
      }
      if (!given["emilia.weights"]) given["emilia.weights"] = await fetchFile("emilia.weights");
      if (worker !== this.worker) return;
      for (const name of Object.keys(given)) this.supplied.add(name);
      worker.postMessage({ kind: "init", id: 0, module: this.module, hash: 64, files: given });
    })().catch((error) => this.readyWaiter.reject(error));
  }

  // Hands the worker the files a search on `size` needs, fetching those not fetched yet.
  async prepare(size, id) {
    for (const name of filesFor(size)) {
      if (this.supplied.has(name)) continue;
      const bytes = await fetchFile(name);
      if (this.supplied.has(name)) continue;
      this.supplied.add(name);
      this.worker.postMessage({ kind: "supply", id, name, bytes });
    }
  }

  receive(message) {
    if (message.id === 0) {
      if (message.kind === "ready") this.readyWaiter.resolve();
      else this.readyWaiter.reject(new Error(message.data));
      return;
    }
    // A panic or a trap leaves the worker's engine unusable: a new one takes the next request.
    if (message.kind === "fatal") {
      this.fail(`the engine failed and was started again: ${message.data}`);
      return;
    }
    const pending = this.pending;
    if (!pending || pending.id !== message.id) return;
    if (message.kind === "progress") {
      pending.last = message.data;
      pending.onProgress(message.data);
      return;
    }
    this.pending = null;
    if (message.kind === "done") pending.resolve({ ...message.data, stopped: false });
    else pending.reject(new Error(message.data));
  }

  // The worker failed: the request under way fails with `text`, and a new worker starts.
  fail(text) {
    const pending = this.pending;
    this.pending = null;
    this.restarts++;
    this.worker.terminate();
    // A worker that cannot even start is not started again and again.
    if (this.restarts <= 5) this.start();
    else this.readyWaiter.reject(new Error(text));
    pending?.reject(new Error(text));
  }

  get busy() {
    return this.pending !== null;
  }

  // Runs `kind` ("search" or "hint") on `board`; resolves with the result, or after a
  // stop with the last progress (null when no iteration had finished).
  async run(kind, board, { depth = 0, level = 0, millis = 0 }, onProgress = () => {}) {
    if (this.busy) this.cancel();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onProgress, last: null };
      const size = Math.round(Math.sqrt(board.split(" ")[0].length));
      (async () => {
        await this.ready;
        await this.prepare(size, id);
        // Cancelled or stopped while the files arrived: nothing to send.
        if (this.pending?.id !== id) return;
        this.worker.postMessage({ kind, id, board, depth, level, millis });
      })().catch((error) => {
        if (this.pending?.id !== id) return;
        this.pending = null;
        reject(error);
      });
    });
  }

  // Ends the request under way and answers it with its last progress.
  stop() {
    const pending = this.pending;
    if (!pending) return;
    this.restart();
    pending.resolve(pending.last && { ...pending.last, stopped: true });
  }

  // Ends the request under way without an answer.
  cancel() {
    const pending = this.pending;
    if (!pending) return;
    this.restart();
    pending.resolve(null);
  }

  restart() {
    this.pending = null;
    this.worker.terminate();
    this.start();
  }
}

const state = {
  game: null,
  engine: null,
  // Bumped whenever the game changes under a running request: its answer is then ignored.
  epoch: 0,
  // After Stop, engine-against-engine play waits for "Engine move".
  held: false,
  // The ply being reviewed (the position before it), or null for the game as it stands.
  view: null,
  // What the engine said of positions, by board string: {moves (every legal move's value,
  // from Move values or the analysis), report (the search that chose a move)}.
  known: new Map(),
  // The strength in use: the last value of the field that could be played.
  bounds: { level: 12 },
  xot: null,
};

// The strength scale: level N searches N plies ahead in the midgame and plays perfectly once
// N + LEVEL_EXACT_EXTRA squares or fewer are empty (the engine's LEVEL_EXACT_EXTRA).
const LEVEL_EXACT_EXTRA = 6;
const STRENGTH = {
  level: { min: 1, max: 20, value: 12, read: (v) => ({ level: v }), whole: true, unit: "a level from 1 to 20" },
  time: { min: 0.1, max: 10, value: 1, read: (v) => ({ millis: Math.round(v * 1000) }), whole: false, unit: "0.1 to 10 seconds a move" },
  depth: { min: 1, max: 60, value: 8, read: (v) => ({ depth: v }), whole: true, unit: "1 to 60 plies" },
};

function players() {
  return { black: $("black").value, white: $("white").value };
}

// The players' names for records: "You", or the engine with its strength.
function playerName(side) {
  if (players()[side] === "human") return "You";
  const b = state.bounds;
  const strength = b.level ? `level ${b.level}` : b.depth ? `depth ${b.depth}` : `${b.millis / 1000} s a move`;
  return `Emilia (${strength})`;
}

// The strength field's value as limits, or an error naming it.
function readStrength() {
  const mode = STRENGTH[$("mode").value];
  const text = $("strength").value.trim();
  const value = Number(text);
  if (text === "" || !Number.isFinite(value) || value < mode.min || value > mode.max || (mode.whole && !Number.isInteger(value))) {
    throw new Error(`strength "${text}" cannot be played: give ${mode.unit}`);
  }
  return mode.read(value);
}

// Checks the strength as it is typed: a value that can be played is used from then on; one
// that cannot is refused there (the field marked, the last good value kept in use).
function strengthChanged() {
  const field = $("strength");
  try {
    state.bounds = readStrength();
    field.classList.remove("invalid");
    field.removeAttribute("aria-invalid");
    if ($("message").dataset.kind === "error" && $("message").dataset.from === "strength") say("");
  } catch (error) {
    field.classList.add("invalid");
    field.setAttribute("aria-invalid", "true");
    say(`${error.message}; still playing at ${describeBounds(state.bounds)}`, "error", "strength");
  }
  $("strength-help").textContent = describeBounds(state.bounds);
}

function describeBounds(b) {
  if (b.level) return `level ${b.level}: depth ${b.level}, exact from ${b.level + LEVEL_EXACT_EXTRA} empties`;
  if (b.depth) return `depth ${b.depth} plies`;
  return `${b.millis / 1000} s a move`;
}

// A message: "info" or "error", each replacing the one before.
function say(text, kind = "info", from = "") {
  const message = $("message");
  message.textContent = text;
  message.dataset.kind = text ? kind : "";
  message.dataset.from = from;
}

function squareName(index, size) {
  return COLUMNS[index % size] + String(Math.floor(index / size) + 1);
}

// The board: squares (buttons, named by their coordinate) with the columns' letters above
// and the rows' numbers beside.
function buildBoard(size) {
  const board = $("board");
  board.replaceChildren();
  board.style.gridTemplateColumns = `1.1rem repeat(${size}, 1fr)`;
  board.style.gridTemplateRows = `1.1rem repeat(${size}, 1fr)`;
  board.dataset.size = String(size);
  const label = (text, cls) => {
    const cell = document.createElement("span");
    cell.className = `coord ${cls}`;
    cell.textContent = text;
    cell.setAttribute("aria-hidden", "true");
    return cell;
  };
  board.append(label("", "corner"));
  for (let c = 0; c < size; c++) board.append(label(COLUMNS[c], "column"));
  for (let i = 0; i < size * size; i++) {
    if (i % size === 0) board.append(label(String(i / size + 1), "row"));
    const square = document.createElement("button");
    square.type = "button";
    square.className = "square";
    square.dataset.square = squareName(i, size);
    square.setAttribute("aria-label", square.dataset.square);
    square.addEventListener("click", () => humanMove(square.dataset.square));
    board.append(square);
  }
}

function pliesOf(game) {
  return game.plies().split(",").filter(Boolean).map((p) => {
    const [color, move] = p.split(" ");
    return { color, move };
  });
}

// The ply shown: the one under review, or the end of the game.
function shownPly() {
  return state.view ?? state.game.plyCount();
}

// The value of the move `move` played in the position `board`, from what is known of it:
// {value (for the mover), best, bestValue, kind}, or null.
function playedValue(board, move) {
  const known = state.known.get(board);
  if (!known) return null;
  const moves = known.moves ?? [];
  const top = bestOf(moves);
  const played = moves.find((m) => m.move === move);
  if (played) {
    return { value: played.score, best: top.move, bestValue: top.score, kind: kindOf(played) };
  }
  const r = known.report;
  if (r && r.best === move) return { value: r.score, best: r.best, bestValue: r.score, kind: kindOf(r) };
  return null;
}

function kindOf(v) {
  return v.book ? "book" : v.exact ? "exact" : "searched";
}

// The move with the highest value (the first of equals), or null.
function bestOf(moves) {
  return moves.reduce((top, m) => (top === null || m.score > top.score ? m : top), null);
}

function render() {
  const game = state.game;
  const size = game.size();
  if ($("board").querySelectorAll(".square").length !== size * size) buildBoard(size);
  const ply = shownPly();
  const live = state.view === null;
  const board = game.boardAt(ply);
  const squares = board.split(" ")[0];
  const plies = pliesOf(game);
  const legal = new Set((live ? game.legal() : game.legalAt(ply)).split(" ").filter(Boolean));
  const mover = board.split(" ")[1] === "X" ? "black" : "white";
  const humanTurn = legal.size > 0 && (!live || players()[mover] === "human");
  // The last move before the position shown, and the move played from it.
  const before = plies.slice(0, ply).filter((p) => p.move !== "pass");
  const last = before.length ? before[before.length - 1].move : null;
  const played = plies[ply] && plies[ply].move !== "pass" ? plies[ply].move : null;
  renderStatus(ply, plies);
  const values = state.known.get(board)?.moves ?? [];
  const best = bestOf(values);
  const valueOf = new Map(values.map((v) => [v.move, v]));
  for (const square of $("board").querySelectorAll(".square")) {
    const name = square.dataset.square;
    const index = COLUMNS.indexOf(name[0]) + (Number(name.slice(1)) - 1) * size;
    const disc = squares[index];
    square.replaceChildren();
    square.classList.toggle("legal", legal.has(name) && humanTurn);
    square.classList.toggle("last", name === last);
    square.classList.toggle("played", name === played);
    square.dataset.disc = disc === "X" ? "black" : disc === "O" ? "white" : "";
    if (disc === "X" || disc === "O") {
      const piece = document.createElement("div");
      piece.className = `disc ${disc === "X" ? "black" : "white"}`;
      square.append(piece);
    }
    const value = valueOf.get(name);
    square.classList.toggle("valued", Boolean(value));
    delete square.dataset.value;
    delete square.dataset.kind;
    let label = name;
    if (value) {
      const span = document.createElement("span");
      const kind = kindOf(value) === "searched" ? "search" : kindOf(value);
      span.className = `value ${kind}${value === best ? " best" : ""}`;
      span.textContent = value.exact ? String(Math.round(value.score)) : value.text;
      span.setAttribute("aria-hidden", "true");
      square.dataset.value = value.text;
      square.dataset.kind = kind;
      square.append(span);
      label += ` ${value.text} ${kind}`;
    }
    if (disc === "X" || disc === "O") label += disc === "X" ? " black" : " white";
    square.setAttribute("aria-label", label);
  }
  // The board before each ply, read once for the list and the chart.
  const boards = plies.map((_, i) => game.boardAt(i));
  renderMoves(plies, ply, boards);
  renderChart(plies, boards);
  if (!state.engine?.busy) showInfo(board);
  $("undo").disabled = game.plyCount() === 0;
  $("redo").disabled = !game.canRedo();
}

function renderStatus(ply, plies) {
  const game = state.game;
  const board = game.boardAt(ply);
  let text;
  if (state.view !== null) {
    const mover = board.split(" ")[1] === "X" ? "Black" : "White";
    const played = plies[ply] ? `, where ${plies[ply].move} was played` : "";
    text = `Reviewing: before move ${ply + 1} of ${plies.length}, ${mover} to move${played}. Play a square to go on from here, End for the game as it stands.`;
  } else if (game.isOver()) {
    text = `Game over: ${game.result()} (Black ${game.black()}, White ${game.white()})`;
  } else {
    const passed = plies.length && plies[plies.length - 1].move === "pass";
    const mover = game.toMove() === "black" ? "Black" : "White";
    const other = mover === "Black" ? "White" : "Black";
    text = `${passed ? `${other} passes. ` : ""}${mover} to move (Black ${game.black()}, White ${game.white()})`;
  }
  $("status").textContent = text;
  $("status").dataset.over = String(state.view === null && game.isOver());
  $("status").dataset.review = String(state.view !== null);
}

// The moves, each a button that shows the position where it was played, with its value and
// loss where known.
function renderMoves(plies, ply, boards) {
  const list = $("moves");
  list.replaceChildren();
  plies.forEach((p, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "ply";
    button.dataset.ply = String(i);
    button.textContent = `${p.color === "black" ? "●" : "○"} ${p.move}`;
    button.title = `the position where move ${i + 1} was played`;
    if (i === ply) button.setAttribute("aria-current", "step");
    button.onclick = () => review(i);
    item.append(button);
    const v = p.move === "pass" ? null : playedValue(boards[i], p.move);
    if (v) {
      const loss = Math.max(0, v.bestValue - v.value);
      const mark = v.kind === "exact" ? "=" : v.kind === "book" ? "b" : "";
      const span = document.createElement("span");
      span.className = loss >= 2 ? "loss" : "";
      span.textContent = ` ${fmt(v.value)}${mark} loss ${loss.toFixed(2)}${loss > 0 ? ` (${v.best})` : ""}`;
      item.append(span);
      item.dataset.loss = loss.toFixed(2);
    }
    list.append(item);
  });
}

function fmt(discs) {
  return (discs < 0 ? "−" : "+") + Math.abs(discs).toFixed(2);
}

// What a report's depth means to a player: searched N plies ahead, solved to the end, or
// from the book.
function depthText(r, board) {
  if (r.book) return "book";
  const empties = (board.split(" ")[0].match(/-/g) ?? []).length;
  if (r.exact) return `exact, solved to the end (${empties} empties)`;
  return `searched ${r.depth} plies ahead`;
}

// The info line of the position `board`: the move the board marks as best (the highest value
// shown), its value and kind, and the line the search expects; or the engine's choice there.
function showInfo(board) {
  const known = state.known.get(board);
  let text = "";
  if (known?.moves?.length) {
    const top = bestOf(known.moves);
    const r = known.report;
    const line = r && r.best === top.move && r.pv.includes(" ") ? `, line ${r.pv}` : "";
    text = `best ${top.move} ${fmt(top.score)} (${depthText(top, board)}${line})`;
  } else if (known?.report) {
    const r = known.report;
    text = `Emilia chose ${r.best} ${fmt(r.score)} (${depthText(r, board)}${r.pv.includes(" ") ? `, line ${r.pv}` : ""})`;
  }
  $("thinking").textContent = text;
  $("thinking").dataset.best = known?.moves?.length ? bestOf(known.moves).move : known?.report?.best ?? "";
}

function showProgress(report, board) {
  if (!report) return;
  const r = report.report ?? report;
  $("thinking").textContent = `thinking: ${depthText(r, board)}, best so far ${r.best} ${fmt(r.score)}, ${(r.ms / 1000).toFixed(1)} s`;
}

function busy(on) {
  $("stop").disabled = !on;
  document.body.dataset.thinking = String(on);
}

function remember(board, what) {
  state.known.set(board, { ...state.known.get(board), ...what });
}

// The engine's move for the side to move, if an engine plays it.
async function engineTurn(force = false) {
  const game = state.game;
  if (!state.engine || game.isOver() || state.engine.busy || state.view !== null) return;
  if (!force && (players()[game.toMove()] !== "engine" || state.held)) return;
  const bounds = state.bounds;
  const epoch = state.epoch;
  const board = game.board();
  busy(true);
  let result;
  try {
    result = await state.engine.run("search", board, bounds, (r) => showProgress(r, board));
    // Stopped before its first iteration finished: the shortest search answers.
    if (result === null && epoch === state.epoch) {
      result = await state.engine.run("search", board, { depth: 1 }, (r) => showProgress(r, board));
    }
  } catch (error) {
    say(`engine: ${error.message}`, "error");
    return;
  } finally {
    busy(state.engine.busy);
  }
  if (!result || epoch !== state.epoch || game.board() !== board) return;
  remember(board, { report: result });
  game.play(result.best);
  state.epoch++;
  if (window.emiliaFirstMove === undefined) window.emiliaFirstMove = performance.now();
  render();
  showInfo(board);
  setTimeout(() => engineTurn(), 0);
}

function humanMove(name) {
  const game = state.game;
  const ply = shownPly();
  const live = state.view === null;
  if (live && (game.isOver() || players()[game.toMove()] !== "human")) return;
  if (!(live ? game.legal() : game.legalAt(ply)).split(" ").includes(name)) return;
  state.engine?.cancel();
  // From a position under review, a new branch replaces the rest of the game.
  if (!live) game.backTo(ply);
  state.view = null;
  game.play(name);
  state.epoch++;
  state.held = false;
  render();
  engineTurn();
}

// Shows the position before ply `ply` (null: the game as it stands).
function review(ply) {
  const count = state.game.plyCount();
  state.view = ply === null || ply >= count ? null : Math.max(0, ply);
  if (state.view !== null) {
    state.engine?.cancel();
    busy(false);
  }
  render();
  if (state.view === null) engineTurn();
}

function step(key) {
  const count = state.game.plyCount();
  const ply = shownPly();
  const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: count }[key];
  if (to === undefined || count === 0) return false;
  review(Math.max(0, to));
  return true;
}

function setGame(game) {
  state.engine?.cancel();
  state.game?.free();
  state.game = game;
  state.epoch++;
  state.held = false;
  state.view = null;
  $("size").value = String(game.size());
  $("thinking").textContent = "";
  busy(false);
  render();
  engineTurn();
}

function newGame() {
  setGame(new WebGame(Number($("size").value)));
  say("");
}

async function xotGame() {
  try {
    if (!state.xot) {
      const response = await fetch("xot-openings.txt");
      if (!response.ok) throw new Error(`xot-openings.txt: ${response.status}`);
      const text = await response.text();
      state.xot = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
    }
    const line = state.xot[Math.floor(Math.random() * state.xot.length)];
    setGame(WebGame.fromText(line, 8));
    say(`XOT opening ${line}`);
  } catch (error) {
    say(`XOT openings: ${error.message}`, "error");
  }
}

function loadText() {
  try {
    setGame(WebGame.fromText($("text").value, Number($("size").value)));
    say("loaded");
  } catch (error) {
    say(`cannot load: ${error.message}`, "error");
  }
}

function undo() {
  const game = state.game;
  state.engine?.cancel();
  busy(false);
  state.view = null;
  if (!game.undo()) return;
  // Back to a position where a person is to move, unless engines play both sides.
  const p = players();
  const someHuman = p.black === "human" || p.white === "human";
  while (someHuman && p[game.toMove()] === "engine" && game.undo());
  state.epoch++;
  state.held = true;
  render();
}

function redo() {
  state.engine?.cancel();
  busy(false);
  state.view = null;
  if (state.game.redo()) {
    state.epoch++;
    state.held = true;
  }
  render();
}

function stop() {
  state.held = true;
  state.engine?.stop();
  busy(false);
}

// The value of every legal move of the position shown.
async function moveValues() {
  const game = state.game;
  const board = game.boardAt(shownPly());
  if (!state.engine || game.legalAt(shownPly()) === "") return;
  state.held = true;
  const show = (hint) => {
    if (!hint || game.boardAt(shownPly()) !== board) return;
    remember(board, { moves: hint.moves, report: hint.report });
    render();
  };
  busy(true);
  try {
    show(await state.engine.run("hint", board, state.bounds, (h) => show(h) || showProgress(h, board)));
    showInfo(board);
  } catch (error) {
    say(`engine: ${error.message}`, "error");
  } finally {
    busy(state.engine.busy);
  }
}

// Every position of the game valued (each move's loss against the best one), at the
// strength set (a depth of 8 plies for a time setting).
async function analyzeGame() {
  const game = state.game;
  const bounds = state.bounds.millis ? { depth: 8 } : state.bounds;
  const epoch = state.epoch;
  state.held = true;
  const plies = pliesOf(game);
  busy(true);
  try {
    for (let i = 0; i < plies.length; i++) {
      if (plies[i].move === "pass") continue;
      const board = game.boardAt(i);
      const hint = await state.engine.run("hint", board, bounds, () => {});
      if (!hint || epoch !== state.epoch) return;
      remember(board, { moves: hint.moves, report: hint.report });
      render();
      $("thinking").textContent = `analysed ${i + 1} of ${plies.length} plies`;
    }
    $("thinking").textContent = `analysed all ${plies.length} plies`;
  } catch (error) {
    say(`engine: ${error.message}`, "error");
  } finally {
    busy(state.engine.busy);
  }
}

// The chart of `emilia analyze --svg`: Black's score after each move whose value is known,
// exact parts solid and searched ones dashed (each segment drawn in the kind of the move it
// ends at, so that the parts meet), moves losing 2 discs or more red. Every point shows its
// position when clicked. Hidden while no value is known.
function renderChart(plies, boards) {
  const WIDTH = 800, HEIGHT = 400, MARGIN = 50;
  const values = [];
  plies.forEach((p, i) => {
    if (p.move === "pass") return;
    const v = playedValue(boards[i], p.move);
    if (v) values.push({ ply: i, ...v, black: p.color === "black" ? v.value : -v.value });
  });
  const chart = $("chart");
  if (!values.length) {
    chart.replaceChildren();
    return;
  }
  // Across as many moves as the game can have, so that the line grows along the axis.
  const empties = (state.game.boardAt(0).split(" ")[0].match(/-/g) ?? []).length;
  const span = Math.max(plies.length, empties, 1);
  const extreme = values.reduce((m, v) => Math.max(m, Math.abs(v.black)), 8);
  const range = Math.ceil(extreme / 8) * 8;
  const x = (ply) => MARGIN + ((ply + 1) / span) * (WIDTH - 2 * MARGIN);
  const y = (discs) => HEIGHT / 2 - (discs / range) * (HEIGHT / 2 - MARGIN);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12" role="img" aria-label="Black's score after each move"><rect width="100%" height="100%" fill="white"/>`;
  for (let d = -range; d <= range; d += 8) {
    svg += `<line x1="${MARGIN}" y1="${y(d).toFixed(1)}" x2="${WIDTH - MARGIN}" y2="${y(d).toFixed(1)}" stroke="${d === 0 ? "#888" : "#ddd"}"/>`;
    svg += `<text x="${MARGIN - 6}" y="${(y(d) + 4).toFixed(1)}" text-anchor="end">${d === 0 ? "0" : (d > 0 ? "+" : "") + d}</text>`;
  }
  for (let p = 0; p <= span; p += 10) {
    svg += `<text x="${(MARGIN + (p / span) * (WIDTH - 2 * MARGIN)).toFixed(1)}" y="${HEIGHT - MARGIN + 18}" text-anchor="middle">${p}</text>`;
  }
  svg += `<text x="${WIDTH / 2}" y="${HEIGHT - 12}" text-anchor="middle">move</text>`;
  svg += `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="14">Black's score (discs) after each move</text>`;
  svg += `<text x="${WIDTH / 2}" y="42" text-anchor="middle" fill="#555">solid: exact; dashed: searched; red: a move losing 2 discs or more; click a point to see its position</text>`;
  for (let k = 1; k < values.length; k++) {
    const [a, b] = [values[k - 1], values[k]];
    const exact = b.kind === "exact";
    svg += `<line class="${exact ? "exact" : "searched"}" x1="${x(a.ply).toFixed(1)}" y1="${y(a.black).toFixed(1)}" x2="${x(b.ply).toFixed(1)}" y2="${y(b.black).toFixed(1)}" stroke="#1f5fbf" stroke-width="2"${exact ? "" : ' stroke-dasharray="4 3"'}/>`;
  }
  for (const v of values) {
    const loss = v.bestValue - v.value;
    const mistake = loss >= 2;
    const current = v.ply === state.view;
    svg += `<circle class="point${mistake ? " mistake" : ""}" data-ply="${v.ply}" cx="${x(v.ply).toFixed(1)}" cy="${y(v.black).toFixed(1)}" r="${current ? 7 : 5}" fill="${mistake ? "#d02020" : "#1f5fbf"}"${current ? ' stroke="#e7a000" stroke-width="3"' : ""}><title>move ${v.ply + 1}: ${fmt(v.black)} for Black${mistake ? `, loses ${loss.toFixed(2)} (best ${v.best})` : ""}</title></circle>`;
  }
  chart.innerHTML = svg + "</svg>";
  for (const point of chart.querySelectorAll("circle.point")) {
    point.addEventListener("click", () => review(Number(point.dataset.ply)));
  }
}

function exportText(kind) {
  let text;
  try {
    text = kind === "ggf" ? state.game.ggf(playerName("black"), playerName("white")) : state.game.transcript();
  } catch (error) {
    say(`cannot export: ${error.message}`, "error");
    return;
  }
  $("text").value = text;
  const link = $("download");
  URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = kind === "ggf" ? "emilia.ggf" : "emilia.txt";
  link.hidden = false;
}

// Settings from the address: ?size=10&black=engine&white=human&mode=depth&strength=6.
function readAddress() {
  const params = new URLSearchParams(location.search);
  if (params.has("mode") && STRENGTH[params.get("mode")]) setMode(params.get("mode"));
  for (const id of ["size", "black", "white", "strength"]) {
    if (params.has(id)) $(id).value = params.get(id);
  }
}

function setMode(mode) {
  $("mode").value = mode;
  $("strength").value = String(STRENGTH[mode].value);
}

// The module (the rules and the engine, without its data files): the board is drawn and a
// person can play as soon as it is compiled; the engine's worker starts from the same module.
async function loadModule() {
  const bytes = await download("emilia_web_bg.wasm.gz", (f) => {
    $("loading").value = f / 4;
  });
  return WebAssembly.compile(bytes);
}

// Every control works on the game at once except those that need the engine, which wait
// for it.
const ENGINE_CONTROLS = ["go", "values", "analyze"];

function wire() {
  $("new").onclick = newGame;
  $("xot").onclick = xotGame;
  $("load").onclick = loadText;
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("stop").onclick = stop;
  $("go").onclick = () => {
    state.held = false;
    review(null);
    engineTurn(true);
  };
  $("values").onclick = moveValues;
  $("analyze").onclick = analyzeGame;
  $("transcript").onclick = () => exportText("transcript");
  $("ggf").onclick = () => exportText("ggf");
  $("size").onchange = newGame;
  for (const id of ["black", "white"]) {
    $(id).onchange = () => {
      state.held = false;
      render();
      engineTurn();
    };
  }
  $("mode").onchange = () => {
    setMode($("mode").value);
    strengthChanged();
  };
  $("strength").oninput = strengthChanged;
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select")) return;
    if (state.game && step(event.key)) event.preventDefault();
  });
}

async function main() {
  for (const id of ENGINE_CONTROLS) $(id).disabled = true;
  readAddress();
  wire();
  strengthChanged();
  const module = await loadModule();
  await init({ module_or_path: module });
  newGame();
  // For tests and tools: the board string of the position shown, and the engine client.
  window.emiliaBoard = () => state.game.boardAt(shownPly());
  window.emiliaEngine = () => state.engine;
  document.body.dataset.ready = "true";
  $("status").dataset.engine = "loading";
  // The engine: its 8x8 weights fetched (the progress shown), then its worker started.
  $("loading-what").textContent = "Loading the engine…";
  // An engine that moves first on 8x8 plays from the book at once: fetched beside the weights.
  if (state.game.size() === 8 && players().black === "engine") fetchFile("emilia.book");
  await fetchFile("emilia.weights", (f) => {
    $("loading").value = 0.25 + (f * 3) / 4;
  });
  state.engine = new EngineClient(module);
  await state.engine.ready;
  $("loading-what").textContent = "";
  for (const id of ENGINE_CONTROLS) $(id).disabled = false;
  $("loading").hidden = true;
  $("status").dataset.engine = "ready";
  document.body.dataset.engine = "ready";
  engineTurn();
}

main().catch((error) => {
  $("loading").hidden = true;
  $("loading-what").textContent = "";
  say(`The engine could not start: ${error.message}`, "error");
});
