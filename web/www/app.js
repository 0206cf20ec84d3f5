// The page: the board, the game's controls and the analysis. The rules and the game record
// are the engine's own (WebGame, compiled from the same Rust code); searches run in a Web
// Worker (EngineClient), so that the page never freezes.
import init, { WebGame } from "./emilia_web.js";

const $ = (id) => document.getElementById(id);
const COLUMNS = "abcdefghijkl";

// The engine in a worker, one request at a time. A running WebAssembly search cannot read
// messages, so stopping ends the worker: the request is answered at once with the last
// finished iteration's result, and a fresh worker (from the compiled module, with empty
// tables) takes the next request.
class EngineClient {
  constructor(module) {
    this.module = module;
    this.nextId = 1;
    this.pending = null;
    this.start();
  }

  start() {
    this.worker = new Worker("worker.js", { type: "module" });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.ready = new Promise((resolve, reject) => {
      this.readyWaiter = { resolve, reject };
    });
    this.worker.postMessage({ kind: "init", id: 0, module: this.module, hash: 64, book: true });
  }

  receive(message) {
    if (message.id === 0) {
      if (message.kind === "ready") this.readyWaiter.resolve();
      else this.readyWaiter.reject(new Error(message.data));
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

  get busy() {
    return this.pending !== null;
  }

  // Runs `kind` ("search" or "hint") on `board`; resolves with the result, or after a
  // stop with the last progress (null when no iteration had finished).
  async run(kind, board, { depth = 0, millis = 0 }, onProgress = () => {}) {
    if (this.busy) this.cancel();
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject, onProgress, last: null };
      this.worker.postMessage({ kind, id, board, depth, millis });
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
  values: null, // move values shown on the board: {board, moves}
  analysis: null, // per ply: {best, bestValue, value, exact, book}
  xot: null,
};

function players() {
  return { black: $("black").value, white: $("white").value };
}

function limits() {
  const value = Number($("strength").value);
  if ($("mode").value === "depth") {
    const depth = Math.round(value);
    if (!(depth >= 1 && depth <= 60)) throw new Error("depth: give 1 to 60 plies");
    return { depth };
  }
  if (!(value >= 0.1 && value <= 10)) throw new Error("time: give 0.1 to 10 seconds a move");
  return { millis: value * 1000 };
}

function say(text) {
  $("message").textContent = text;
}

function squareName(index, size) {
  return COLUMNS[index % size] + String(Math.floor(index / size) + 1);
}

function buildBoard(size) {
  const board = $("board");
  board.replaceChildren();
  board.style.gridTemplateColumns = `repeat(${size}, 1fr)`;
  for (let i = 0; i < size * size; i++) {
    const square = document.createElement("div");
    square.className = "square";
    square.dataset.square = squareName(i, size);
    square.setAttribute("role", "gridcell");
    square.addEventListener("click", () => humanMove(square.dataset.square));
    board.append(square);
  }
}

function lastMove(game) {
  const plies = game.plies().split(",").filter((p) => p && !p.endsWith("pass"));
  return plies.length ? plies[plies.length - 1].split(" ")[1] : null;
}

function render() {
  const game = state.game;
  const size = game.size();
  if ($("board").children.length !== size * size) buildBoard(size);
  const squares = game.board().split(" ")[0];
  const legal = new Set(game.legal().split(" ").filter(Boolean));
  const humanTurn = !game.isOver() && players()[game.toMove()] === "human";
  const last = lastMove(game);
  const values = state.values && state.values.board === game.board() ? state.values.moves : [];
  const best = values.length ? Math.max(...values.map((v) => v.score)) : null;
  const valueOf = new Map(values.map((v) => [v.move, v]));
  for (const square of $("board").children) {
    const name = square.dataset.square;
    const index = COLUMNS.indexOf(name[0]) + (Number(name.slice(1)) - 1) * size;
    const disc = squares[index];
    square.replaceChildren();
    square.classList.toggle("legal", legal.has(name) && humanTurn);
    square.classList.toggle("last", name === last);
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
    if (value) {
      const label = document.createElement("span");
      const kind = value.exact ? "exact" : value.book ? "book" : "search";
      label.className = `value ${kind}${value.score === best ? " best" : ""}`;
      label.textContent = value.exact ? String(Math.round(value.score)) : value.text;
      label.title = `${value.text} ${kind === "search" ? `depth ${value.depth}` : kind}`;
      square.dataset.value = value.text;
      square.dataset.kind = kind;
      square.append(label);
    }
  }
  renderStatus();
  renderMoves();
  $("undo").disabled = game.plyCount() === 0;
}

function renderStatus() {
  const game = state.game;
  const counts = `Black ${game.black()}, White ${game.white()}`;
  let text;
  if (game.isOver()) {
    text = `Game over: ${game.result()} (${counts})`;
  } else {
    const plies = game.plies().split(",");
    const passed = plies.length && plies[plies.length - 1].endsWith("pass");
    const mover = game.toMove() === "black" ? "Black" : "White";
    const other = mover === "Black" ? "White" : "Black";
    text = `${passed ? `${other} passes. ` : ""}${mover} to move (${counts})`;
  }
  $("status").textContent = text;
  $("status").dataset.over = String(game.isOver());
}

function renderMoves() {
  const list = $("moves");
  list.replaceChildren();
  const plies = state.game.plies().split(",").filter(Boolean);
  plies.forEach((ply, i) => {
    const item = document.createElement("li");
    const [color, move] = ply.split(" ");
    item.textContent = `${color === "black" ? "●" : "○"} ${move}`;
    const a = state.analysis && state.analysis.board === state.game.boardAt(0) && state.analysis.plies[i];
    if (a && a.playedValue !== null) {
      const loss = a.bestValue - a.playedValue;
      const mark = a.exact ? "=" : a.book ? "b" : "";
      const span = document.createElement("span");
      span.className = loss >= 2 ? "loss" : "";
      span.textContent = ` ${fmt(a.playedValue)}${mark} loss ${loss.toFixed(2)}${loss > 0 ? ` (${a.best})` : ""}`;
      item.append(span);
      item.dataset.loss = loss.toFixed(2);
    }
    list.append(item);
  });
}

function fmt(discs) {
  return (discs < 0 ? "-" : "+") + Math.abs(discs).toFixed(2);
}

function showThinking(report) {
  if (!report) return;
  const r = report.report ?? report;
  const kind = r.book ? "book" : r.exact ? "exact" : `depth ${r.depth}`;
  $("thinking").textContent = `${kind}  value ${fmt(r.score)}  best ${r.best}  nodes ${r.nodes}  ${(r.ms / 1000).toFixed(1)} s`;
}

function busy(on) {
  $("stop").disabled = !on;
  document.body.dataset.thinking = String(on);
}

// The engine's move for the side to move, if an engine plays it.
async function engineTurn(force = false) {
  const game = state.game;
  if (game.isOver() || state.engine.busy) return;
  if (!force && (players()[game.toMove()] !== "engine" || state.held)) return;
  let bounds;
  try {
    bounds = limits();
  } catch (error) {
    say(error.message);
    return;
  }
  const epoch = state.epoch;
  const board = game.board();
  busy(true);
  let result;
  try {
    result = await state.engine.run("search", board, bounds, showThinking);
    // Stopped before its first iteration finished: the shortest search answers.
    if (result === null && epoch === state.epoch) {
      result = await state.engine.run("search", board, { depth: 1 }, showThinking);
    }
  } catch (error) {
    say(`engine: ${error.message}`);
    return;
  } finally {
    busy(state.engine.busy);
  }
  if (!result || epoch !== state.epoch || game.board() !== board) return;
  showThinking(result);
  game.play(result.best);
  state.epoch++;
  if (window.emiliaFirstMove === undefined) window.emiliaFirstMove = performance.now();
  render();
  setTimeout(() => engineTurn(), 0);
}

function humanMove(name) {
  const game = state.game;
  if (game.isOver() || players()[game.toMove()] !== "human") return;
  if (!game.legal().split(" ").includes(name)) return;
  state.engine.cancel();
  game.play(name);
  state.epoch++;
  state.held = false;
  say("");
  render();
  engineTurn();
}

function setGame(game) {
  state.engine?.cancel();
  state.game?.free();
  state.game = game;
  state.epoch++;
  state.held = false;
  state.values = null;
  state.analysis = null;
  $("size").value = String(game.size());
  $("chart").replaceChildren();
  busy(false);
  render();
  engineTurn();
}

function newGame() {
  setGame(new WebGame(Number($("size").value)));
}

async function xotGame() {
  if (!state.xot) {
    const text = await (await fetch("xot-openings.txt")).text();
    state.xot = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  }
  const line = state.xot[Math.floor(Math.random() * state.xot.length)];
  setGame(WebGame.fromText(line, 8));
  say(`XOT opening ${line}`);
}

function loadText() {
  try {
    setGame(WebGame.fromText($("text").value, Number($("size").value)));
    say("");
  } catch (error) {
    say(`cannot load: ${error.message}`);
  }
}

function undo() {
  const game = state.game;
  state.engine.cancel();
  busy(false);
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
  state.engine.cancel();
  busy(false);
  if (state.game.redo()) {
    state.epoch++;
    state.held = true;
    render();
  }
}

function stop() {
  state.held = true;
  state.engine.stop();
  busy(false);
}

async function moveValues() {
  const game = state.game;
  if (game.isOver()) return;
  let bounds;
  try {
    bounds = limits();
  } catch (error) {
    say(error.message);
    return;
  }
  state.held = true;
  const board = game.board();
  const show = (hint) => {
    if (!hint || game.board() !== board) return;
    state.values = { board, moves: hint.moves };
    showThinking(hint);
    render();
  };
  busy(true);
  try {
    show(await state.engine.run("hint", board, bounds, show));
  } catch (error) {
    say(`engine: ${error.message}`);
  } finally {
    busy(state.engine.busy);
  }
}

// Every move of the game valued at the analysis depth (the depth setting, or 8 with a time
// setting), with its loss against the best move, and the chart of Black's score.
async function analyzeGame() {
  const game = state.game;
  const depth = $("mode").value === "depth" ? Math.round(Number($("strength").value)) : 8;
  const epoch = state.epoch;
  state.held = true;
  const plies = game.plies().split(",").filter(Boolean);
  const analysis = { board: game.boardAt(0), plies: plies.map(() => null) };
  state.analysis = analysis;
  busy(true);
  try {
    for (let i = 0; i < plies.length; i++) {
      const [color, move] = plies[i].split(" ");
      if (move === "pass") continue;
      const hint = await state.engine.run("hint", game.boardAt(i), { depth }, () => {});
      if (!hint || epoch !== state.epoch) return;
      const played = hint.moves.find((m) => m.move === move);
      const top = hint.moves[0];
      analysis.plies[i] = {
        color,
        best: top.move,
        bestValue: top.score,
        playedValue: played ? played.score : top.score,
        exact: top.exact,
        book: top.book,
      };
      $("thinking").textContent = `analysed ${i + 1} of ${plies.length} plies`;
      renderMoves();
    }
    drawChart(analysis, plies.length);
  } catch (error) {
    say(`engine: ${error.message}`);
  } finally {
    busy(state.engine.busy);
  }
}

// The chart of `emilia analyze --svg`: Black's score after each move, exact values solid,
// searched ones dashed, moves losing 2 discs or more marked.
function drawChart(analysis, plyCount) {
  const WIDTH = 800, HEIGHT = 400, MARGIN = 50;
  const values = analysis.plies
    .map((a, i) => a && { ply: i + 1, ...a, black: a.color === "black" ? a.playedValue : -a.playedValue })
    .filter(Boolean);
  const plies = Math.max(plyCount, 1);
  const extreme = values.reduce((m, v) => Math.max(m, Math.abs(v.black)), 8);
  const range = Math.ceil(extreme / 8) * 8;
  const x = (ply) => MARGIN + (ply / plies) * (WIDTH - 2 * MARGIN);
  const y = (discs) => HEIGHT / 2 - (discs / range) * (HEIGHT / 2 - MARGIN);
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/>`;
  for (let d = -range; d <= range; d += 8) {
    svg += `<line x1="${MARGIN}" y1="${y(d).toFixed(1)}" x2="${WIDTH - MARGIN}" y2="${y(d).toFixed(1)}" stroke="${d === 0 ? "#888" : "#ddd"}"/>`;
    svg += `<text x="${MARGIN - 6}" y="${(y(d) + 4).toFixed(1)}" text-anchor="end">${d === 0 ? "0" : (d > 0 ? "+" : "") + d}</text>`;
  }
  for (let p = 0; p <= plies; p += 10) {
    svg += `<text x="${x(p).toFixed(1)}" y="${HEIGHT - MARGIN + 18}" text-anchor="middle">${p}</text>`;
  }
  svg += `<text x="${WIDTH / 2}" y="${HEIGHT - 12}" text-anchor="middle">move</text>`;
  svg += `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="14">Black's score (discs) after each move</text>`;
  svg += `<text x="${WIDTH / 2}" y="42" text-anchor="middle" fill="#555">solid: exact; dashed: searched; red: a move losing 2 discs or more</text>`;
  for (const exact of [false, true]) {
    const points = values.filter((v) => v.exact === exact).map((v) => `${x(v.ply).toFixed(1)},${y(v.black).toFixed(1)}`);
    if (points.length) {
      svg += `<polyline class="${exact ? "exact" : "searched"}" points="${points.join(" ")}" fill="none" stroke="#1f5fbf" stroke-width="2"${exact ? "" : ' stroke-dasharray="4 3"'}/>`;
    }
  }
  for (const v of values.filter((v) => v.bestValue - v.playedValue >= 2)) {
    svg += `<circle class="mistake" cx="${x(v.ply).toFixed(1)}" cy="${y(v.black).toFixed(1)}" r="4" fill="#d02020"><title>${v.ply}: loses ${(v.bestValue - v.playedValue).toFixed(2)} (best ${v.best})</title></circle>`;
  }
  $("chart").innerHTML = svg + "</svg>";
}

function exportText(kind) {
  let text;
  try {
    text = kind === "ggf" ? state.game.ggf() : state.game.transcript();
  } catch (error) {
    say(`cannot export: ${error.message}`);
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
  for (const id of ["size", "black", "white", "mode", "strength"]) {
    if (params.has(id)) $(id).value = params.get(id);
  }
}

async function main() {
  readAddress();
  const response = await fetch("emilia_web_bg.wasm.gz");
  if (!response.ok) throw new Error(`emilia_web_bg.wasm.gz: ${response.status}`);
  const bytes = await new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  const module = await WebAssembly.compile(bytes);
  await init({ module_or_path: module });
  state.engine = new EngineClient(module);
  $("new").onclick = newGame;
  $("xot").onclick = xotGame;
  $("load").onclick = loadText;
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("stop").onclick = stop;
  $("go").onclick = () => {
    state.held = false;
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
    const depth = $("mode").value === "depth";
    Object.assign($("strength"), depth ? { min: 1, max: 60, step: 1, value: 8 } : { min: 0.1, max: 10, step: 0.1, value: 1 });
  };
  // For tests and tools: the board string of the position shown.
  window.emiliaBoard = () => state.game.board();
  newGame();
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  $("status").textContent = `The engine could not start: ${error.message}`;
});
