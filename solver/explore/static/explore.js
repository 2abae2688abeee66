// stich explore: play through a deal with every card's value shown.
//
// The page keeps the deal before any card (its start, a deal file), the line of moves from
// there and the ply shown; all three (and the options) live in the address, so a link or a
// reload reopens the same position.  The server checks every move and does every search:
// /api/position draws a position, /api/analysis is `stich analyze --json` of it, /api/view
// runs `stich suggest` as a job with progress.  Nothing here computes a value.
"use strict";

const state = {
  start: null, line: [], ply: 0, fileLine: [], name: "", tree: newTree(),
  objective: "score", view: "dd", samples: null, seed: 0, exact: false,
  position: null, analysis: null, job: null, announce: null,
  positionAt: null,      // the moves (joined) of the position shown, once it has come
  bottom: 1, colours: null, suits: "symbols", peek: false,   // how the table is drawn
  training: false,       // values hidden until a card is picked
  seatOf: new Map(),     // "move,move,..." -> the seat that played the last of them
  analyses: new Map(),   // "objective|moves" -> the analysis JSON (the server keeps them too)
  token: 0,              // bumped on every navigation: late answers for old positions are dropped
};

// --- small helpers ---------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `${response.status} ${response.statusText}` }; }
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function percent(share) {
  // a share as `stich suggest` prints it (stich.report.common.share_text): a whole percent,
  // rounded half to even as Python's format does (0.825 is "82%" there and here); only an
  // exact 0 or 1 reads "0%" or "100%" (0.998 is "99.8%", 0.99999 ">99.9%")
  if (share >= 1 - 1e-12) return "100%";
  if (share <= 1e-12) return "0%";
  const value = share * 100, floor = Math.floor(value);
  const whole = value - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(value);
  if (whole !== 0 && whole !== 100) return `${whole}%`;
  const tenth = value.toFixed(1);
  if (tenth !== "0.0" && tenth !== "100.0") return `${tenth}%`;
  return share < 0.5 ? "<0.1%" : ">99.9%";
}

function meanText(value) {
  // a mean as `stich suggest` prints it (stich.report.common.mean_text): two decimals, more
  // where two would make it read as a whole number it is not (3.998, not 4.00)
  let digits = 2, text = value.toFixed(2);
  while (Number(text) === Math.round(value) && Math.abs(value - Math.round(value)) > 1e-9 && digits < 4) {
    digits += 1;
    text = value.toFixed(digits);
  }
  return text;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
  if (message && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });   // also from the page's foot
}

function busy(on) {
  // the spinner, and for a test (or a curious user) whether the values shown are final
  $("spinner").hidden = !on;
  document.body.dataset.busy = on ? "yes" : "no";
}

// --- the address ------------------------------------------------------------------------------

function readAddress(hash = location.hash) {
  // the position an address's fragment names, taken whole or not at all (a fragment that
  // cannot be read throws before anything of the page changes)
  const params = new URLSearchParams(hash.slice(1));
  if (!params.has("start")) return false;
  const start = fromBase64Url(params.get("start"));
  const line = params.get("line") ? params.get("line").split(",").map(decodeURIComponent) : [];
  const tree = params.get("tree") ? unpackTree(JSON.parse(fromBase64Url(params.get("tree")))) : newTree();
  if (start !== state.start) {                   // another deal: nothing of the last one stays
    Object.assign(state, { analyses: new Map(), seatOf: new Map(), name: "" });
    $("table-text").hidden = true;
  }
  state.start = start;
  state.line = line;
  state.ply = Math.min(Math.max(parseInt(params.get("ply") ?? state.line.length, 10) || 0, 0), state.line.length);
  state.objective = params.get("objective") === "total" ? "total" : "score";
  state.view = params.get("view") === "player" ? "player" : "dd";
  state.samples = params.get("samples") ? parseInt(params.get("samples"), 10) : null;
  state.seed = params.get("seed") ? parseInt(params.get("seed"), 10) : 0;
  state.exact = params.get("exact") === "1";
  state.tree = tree;
  addLine(state.tree, state.line);
  state.bottom = parseInt(params.get("bottom") ?? "1", 10) || 1;
  state.colours = ["2", "4"].includes(params.get("colours")) ? params.get("colours") : null;
  state.suits = params.get("suits") === "letters" ? "letters" : "symbols";
  state.training = params.get("training") === "1";
  return true;
}

function writeAddress(push = false) {
  // push: a new position, so the browser's Back and Forward move through positions
  const parts = [`start=${toBase64Url(state.start)}`,
    `line=${state.line.map(encodeURIComponent).join(",")}`, `ply=${state.ply}`,
    `objective=${state.objective}`, `view=${state.view}`];
  if (state.samples) parts.push(`samples=${state.samples}`);
  if (state.seed) parts.push(`seed=${state.seed}`);
  if (state.exact) parts.push("exact=1");
  if (state.bottom !== 1) parts.push(`bottom=${state.bottom}`);
  if (state.colours) parts.push(`colours=${state.colours}`);
  if (state.suits !== "symbols") parts.push("suits=letters");
  if (state.training) parts.push("training=1");
  if (treeLines(state.tree).length > 1 || treeComments(state.tree).length) {
    parts.push(`tree=${toBase64Url(JSON.stringify(packTree(state.tree)))}`);
  }
  const address = `#${parts.join("&")}`;
  if (address === location.hash) return;
  if (push) history.pushState(null, "", address);
  else history.replaceState(null, "", address);
}

// --- moves and their values -------------------------------------------------------------------

const moves = (ply = state.ply) => state.line.slice(0, ply);
const lineKey = (ply = state.ply) => moves(ply).join(",");     // a position of the line, as a key
const analysisKey = (ply) => `${state.objective}|${lineKey(ply)}`;

function splitMove(move) {
  // "(marriage R) RA" -> the announcement, its suit letter and the card
  const m = /^(\(\s*\S+\s+([^()\s]+)\s*\))\s*(\S+)$/.exec(move);
  return m ? { announce: m[1], suit: m[2], card: m[3] } : { announce: null, suit: null, card: move };
}

function rowFor(analysis, card, suit) {
  // the analysis row of a card played with (or without) an announcement
  if (!analysis) return null;
  return analysis.seats[0].moves.find((row) => row.cards.includes(card) && (row.announce ?? null) === suit) ?? null;
}

function outcomeText(outcome) {
  if (!outcome) return "";
  // a level no side wins in a player's words ("Ständer (10–10)"), as the text reports say it
  return outcome.winner ? `${state.position.sides[outcome.winner - 1]}: ${outcome.level}` : (outcome.words ?? outcome.level);
}

function valueText(row) {
  // what a card shows: its final totals, its loss against the best card, its outcome
  let text = `${row.totals[0]}–${row.totals[1]}`;
  if (row.loss) text += ` −${row.loss}`;
  const outcome = outcomeText(row.outcome);
  return outcome ? `${text} ${outcome}` : text;
}

function verdict(row, analysis) {
  // optimal, losing (gives away some of the total) or outcome-losing: under the score
  // objective a card that is not optimal gives away the outcome; under the total objective
  // one whose outcome differs from the best card's
  const best = analysis.seats[0].moves[0];
  const same = (a, b) => (!a && !b) || (a && b && a.level === b.level && a.winner === b.winner);
  if (state.objective === "score" ? !row.optimal : !same(row.outcome, best.outcome)) return "outcome-losing";
  return row.loss > 0 ? "losing" : "optimal";
}

function replayCost(row, analysis) {
  // what a played card cost its side, as stich replay counts it (see "cost_of")
  if (state.position.cost_of === "total") return row.loss;
  const seat = analysis.seats[0], sign = (seat.seat - 1) % 2 === 0 ? 1 : -1;
  const lead = (totals) => sign * (totals[0] - totals[1]);
  return Math.max(lead(seat.totals) - lead(row.totals), 0);
}

function selectedAnnouncement() {
  const options = state.position.announce;
  if (!options.length) return null;
  if (state.announce === "") return null;
  return options.find((o) => o.text === state.announce) ?? options[0];
}

function moveFor(card) {
  const announce = selectedAnnouncement();
  return announce ? `${announce.text} ${card}` : card;
}

// --- navigation -------------------------------------------------------------------------------

function go(ply) {
  state.ply = Math.min(Math.max(ply, 0), state.line.length);
  state.announce = null;
  writeAddress(true);
  load();
}

function goLine(path) {
  // to the position after ``path``, on the line that goes on from there along the main moves
  const node = nodeAt(state.tree, path);
  state.line = path.concat(node ? mainContinuation(node) : []);
  go(path.length);
}

function play(move) {
  // a card played: on along the line, or into a variation (the old line is kept)
  state.peek = false;
  if (state.line[state.ply] === move) { go(state.ply + 1); return; }
  addLine(state.tree, state.line.slice(0, state.ply).concat([move]));
  goLine(state.line.slice(0, state.ply).concat([move]));
}

function promote() { promoteLine(state.tree, state.line); writeAddress(); renderMoves(); }

function deleteHere() {
  // the card shown and everything after it go; the page goes one card back
  if (state.ply === 0) return;
  const path = state.line.slice(0, state.ply);
  deleteFrom(state.tree, path);
  goLine(path.slice(0, -1));
}

function setComment(text) {
  const node = state.ply ? nodeAt(state.tree, state.line.slice(0, state.ply)) : null;
  if (!node) return;
  if (text.trim()) node.c = text.slice(0, 2000); else delete node.c;
  writeAddress();
  renderMoves();
}

async function load() {
  const token = ++state.token, here = lineKey();
  cancelJob();
  state.analysis = null;
  state.positionAt = null;                       // the position shown is not yet this one
  showError("");
  busy(true);
  let position = null;
  try {
    position = await api("/api/position", { start: state.start, moves: moves(), view: state.view === "player" });
    if (token !== state.token) return;
    state.position = position;
    state.positionAt = here;
    learnSeats(position);
    render();
    if (position.over) { busy(false); return; }
    if (state.view === "player") await runView(token);
    else await loadAnalysis(token);
  } catch (error) {
    if (token !== state.token) return;
    showError(error.message);
    busy(false);
    if (position) render();
    else forgetPosition();                       // no position: show none rather than the last one
  }
  if (token === state.token && state.view !== "player") fillMoveList(token);
}

function forgetPosition() {
  // the page after a position that could not be loaded: nothing of the last one is shown
  state.position = null;
  $("table").replaceChildren();
  for (const id of ["value-label", "dd-totals", "dd-outcome", "source"]) $(id).textContent = "";
  $("title").textContent = "stich explore";
}

async function analysisAt(ply) {
  const key = analysisKey(ply);
  if (!state.analyses.has(key)) {
    const answer = await api("/api/analysis", { start: state.start, moves: moves(ply), objective: state.objective });
    state.analyses.set(key, answer);
  }
  return state.analyses.get(key);
}

async function loadAnalysis(token) {
  busy(true);
  const analysis = await analysisAt(state.ply);
  if (token !== state.token) return;
  state.analysis = analysis;
  busy(false);
  render();
}

async function fillMoveList(token) {
  // the analysis before each card of the line, one at a time after the position shown
  for (let k = 0; k < state.line.length; k++) {
    if (token !== state.token) return;
    if (state.analyses.has(analysisKey(k))) continue;
    try { await analysisAt(k); } catch (error) { return; }
    if (token === state.token) renderMoves();
  }
}

function bestMove() {
  if (state.view === "player") {
    const result = state.job && state.job.result;
    return result ? moveFor(result.best) : null;
  }
  if (!state.analysis) return null;
  const row = state.analysis.seats[0].moves[0];
  const option = state.position.announce.find((o) => o.suit === row.announce);
  return option ? `${option.text} ${row.cards[0]}` : row.cards[0];
}

function learnSeats(p) {
  // who played each card of the line so far (the move list says it for every card seen)
  let k = 0;
  const mark = (seat) => { k += 1; state.seatOf.set(lineKey(k), seat); };
  for (const trick of p.tricks) trick.cards.forEach((_, j) => mark((trick.leader - 1 + j) % p.players + 1));
  for (const { seat } of p.trick) mark(seat);
}

// --- the player's view ------------------------------------------------------------------------

async function runView(token) {
  busy(true);
  let job = await api("/api/view", { start: state.start, moves: moves(), objective: state.objective,
    samples: state.samples, seed: state.seed, exact: state.exact });
  while (token === state.token) {
    state.job = job;
    renderView();
    if (!["queued", "running"].includes(job.state)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (token !== state.token) return;
    job = await api(`/api/view/${job.job}`);
  }
  if (token !== state.token) return;
  busy(false);
  if (job.state === "error") showError(job.error);
  render();
}

function cancelJob() {
  const job = state.job;
  state.job = null;
  if (job && ["queued", "running"].includes(job.state)) {   // keepalive: also as the tab closes
    fetch(`/api/view/${job.job}/cancel`, { method: "POST", keepalive: true,
      headers: { "Content-Type": "application/json" }, body: "{}" }).catch(() => {});
  }
}

async function cancelView() {
  const job = state.job;
  if (!job || !["queued", "running"].includes(job.state)) return;
  state.token++;                                   // stop polling
  state.job = await api(`/api/view/${job.job}/cancel`, {});
  busy(false);
  render();                                        // the cards' badges too: no more "…"
}

// --- drawing ----------------------------------------------------------------------------------

function render() {
  const p = state.position;
  if (!p) return;
  $("title").textContent = p.title;
  $("source").textContent = state.name;
  renderSummary();
  renderTable();
  renderFacts();
  renderMoves();
  renderTricks();
  renderView();
  $("file").textContent = p.file;
  document.body.dataset.ply = state.ply;
  $("undo").disabled = state.ply === 0;
  $("to-start").disabled = state.ply === 0;
  $("redo").disabled = state.ply >= state.line.length;
  $("to-end").disabled = state.ply >= state.line.length;
  $("best").disabled = p.over || state.training;
  $("training-on").checked = state.training;
  $("objective").value = state.objective;
  renderChoices();
  document.querySelector(`input[name=view][value=${state.view}]`).checked = true;
}

function renderChoices() {
  // the seat at the bottom, the colours and the suit signs (German packs: four colours)
  const p = state.position, select = $("bottom");
  if (select.options.length !== p.players) {
    select.replaceChildren(...Array.from({ length: p.players }, (_, i) => el("option", { value: i + 1, text: `seat ${i + 1}` })));
  }
  select.value = String(bottomSeat());
  const colours = state.colours ?? (p.notation === "german" ? "4" : "2");
  $("colours").value = colours;
  $("suits").value = state.suits;
  document.body.dataset.colours = colours;
  document.body.dataset.notation = p.notation;
  $("last-trick").disabled = !p.tricks.length;
  $("last-trick").setAttribute("aria-pressed", state.peek ? "true" : "false");
}

function totalsText(totals) {
  // as stich.report.common.totals_text: "1 trick", "2 tricks"
  const p = state.position, amount = (n) => `${n} ${n === 1 ? p.unit_one : p.unit}`;
  return `${p.sides[0]}: ${amount(totals[0])}, ${p.sides[1]}: ${amount(totals[1])}`;
}

function renderSummary() {
  const p = state.position;
  const label = $("value-label"), totals = $("dd-totals"), outcome = $("dd-outcome");
  if (p.over) {
    label.textContent = "The deal is over:";
    totals.textContent = totalsText(p.points);
    outcome.textContent = p.final ? p.final.text : "";
  } else if (state.view === "player") {
    label.textContent = `Player's view of seat ${p.to_move}:`;
    totals.textContent = "double-dummy values hidden";
    outcome.textContent = "";
  } else if (state.training) {
    label.textContent = "Training:";
    totals.textContent = "pick the card you would play";
    outcome.textContent = "";
  } else {
    const seat = state.analysis && state.analysis.seats[0];
    label.textContent = "Double dummy:";
    totals.textContent = seat ? totalsText(seat.totals) : "solving…";
    outcome.textContent = seat ? seat.outcome.text : "";
  }
}

// German suits drawn by hand (acorns, leaves, hearts, bells): no font has them all
const GERMAN_SUITS = [
  '<path d="M2.5 7.2 Q8 0.5 13.5 7.2 Z"/><ellipse cx="8" cy="10.6" rx="3.7" ry="4.6"/><rect x="7.3" y="0.6" width="1.4" height="3"/>',
  '<path d="M8 0.8 C13.5 4 14.2 10 8 15.2 C1.8 10 2.5 4 8 0.8 Z"/><path d="M8 3 V14" stroke="var(--card)" stroke-width="0.9"/>',
  '<path d="M8 14.6 C-1.5 7.6 2.6 0.4 8 4.6 C13.4 0.4 17.5 7.6 8 14.6 Z"/>',
  '<circle cx="8" cy="8.6" r="6"/><rect x="2.4" y="8.1" width="11.2" height="1.3" fill="var(--card)"/><circle cx="8" cy="12" r="1.2" fill="var(--card)"/>',
];
const FRENCH_LETTERS = ["C", "S", "H", "D"];

function suitSymbol(suit) {
  // the suit as the page draws it: a symbol (German ones in SVG) or, if chosen, a letter
  const p = state.position;
  if (state.suits === "letters") return document.createTextNode(p.notation === "german" ? "EGRS"[suit] : FRENCH_LETTERS[suit]);
  if (p.notation !== "german") return document.createTextNode("♣♠♥♦"[suit]);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", "suit-icon");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = GERMAN_SUITS[suit];
  return svg;
}

function faceOf(card) {
  // the face: suit symbol and rank; the card's text (its notation) stays in data-card
  const face = el("span", { class: "face", title: card.text });
  face.append(suitSymbol(card.suit), card.text.slice(1));
  return face;
}

function cardFace(card, extra = "") {
  if (card.hidden) return el("span", { class: `card back ${extra}`, title: "hidden from this seat" });
  return el("span", { class: `card s${card.suit}${card.trump ? " trump" : ""} ${extra}`, "data-card": card.text },
    faceOf(card));
}

function playableCard(card, seatNo) {
  // a card of the seat to move: a button if legal, with its value under it
  const p = state.position;
  if (card.hidden || seatNo !== p.to_move || !p.legal.includes(card.text)) return cardFace(card, "up");
  const button = el("button", { class: `card legal s${card.suit}${card.trump ? " trump" : ""} up`,
    "data-card": card.text, title: `play ${moveFor(card.text)}`, onclick: () => play(moveFor(card.text)) },
  faceOf(card));
  button.append(valueBadge(button, card.text));
  return button;
}

function valueBadge(button, card) {
  if (state.view === "player") return viewBadge(button, card);
  if (state.training) return el("span", { class: "value pending", text: "?", title: "training: pick a card, then see its cost" });
  const announce = selectedAnnouncement();
  if (!state.analysis) return el("span", { class: "value pending", text: "…" });
  const row = rowFor(state.analysis, card, announce ? announce.suit : null);
  if (!row) return el("span", { class: "value pending", text: "not searched", title: "leading without the announcement is never better, so it is not searched" });
  button.classList.add(verdict(row, state.analysis));
  button.dataset.value = valueText(row);
  const badge = el("span", { class: "value" }, el("span", { class: "totals", text: `${row.totals[0]}–${row.totals[1]}` }));
  if (row.loss) badge.append(" ", el("span", { class: "loss", text: `−${row.loss}` }));
  const outcome = outcomeText(row.outcome);
  if (outcome) badge.append(el("br"), el("span", { class: "level", text: outcome, title: outcome }));
  return badge;
}

function viewBadge(button, card) {
  const result = state.job && state.job.result;
  const view = result && result.cards.find((c) => c.card === card);
  if (!view) {                                     // not yet, or no longer coming (cancelled)
    const stopped = state.job && ["cancelled", "error"].includes(state.job.state);
    return el("span", { class: "value pending", text: stopped ? "—" : "…" });
  }
  if (result.best === card) button.classList.add("best-guess");
  button.dataset.expected = String(view.expected_total);
  const expected = view.expected_total === null ? "—" : view.expected_total.toFixed(2);
  const best = result.p_best_by === "rung" ? "best rung" : "best";
  return el("span", { class: "value" }, el("span", { text: expected, title: view.expected_total_note || "" }), el("br"),
    el("span", { class: "level", text: `${best} ${percent(view.p_best)}` }));
}

function renderSeat(seat) {
  const p = state.position;
  const box = el("div", { class: `seat${seat.seat === p.to_move ? " to-move" : ""}`, "data-seat": seat.seat },
    el("div", { class: "seat-label", text: seatLabel(seat) }));
  const cards = el("div", { class: "cards" });
  if (seat.piles) {
    for (const pile of seat.piles) {
      if (!pile) { cards.append(el("span", { class: "pile gone" })); continue; }
      const stack = el("span", { class: "pile" });
      if (pile.down) stack.append(cardFace(pile.down, "down"));
      stack.append(playableCard(pile.up, seat.seat));
      cards.append(stack);
    }
  } else {
    for (const card of seat.hand) cards.append(playableCard(card, seat.seat));
  }
  box.append(cards);
  return box;
}

function seatLabel(seat) {
  const p = state.position, side = p.sides[seat.side];
  const partners = side === `seat ${seat.seat}` ? "" : ` (${side})`;
  return `Seat ${seat.seat}${partners}${seat.seat === p.to_move ? " · to move" : ""}`;
}

// Where each seat sits: places clockwise from the bottom (the seat the table is turned to),
// as [grid row, grid column] of a 4-row, 3-column table: row 4 holds the bottom seat (alone
// up to five seats, between its neighbours with more), and the trick lies in rows 2-3 of
// the middle column, each card in the cell facing its player.
const PLACES = {
  2: [[4, "1 / -1"], [1, "1 / -1"]],
  3: [[4, "1 / -1"], [1, 1], [1, 3]],
  4: [[4, "1 / -1"], ["2 / 4", 1], [1, 2], ["2 / 4", 3]],
  5: [[4, "1 / -1"], ["2 / 4", 1], [1, 1], [1, 3], ["2 / 4", 3]],
  6: [[4, 2], [4, 1], ["2 / 4", 1], [1, 2], ["2 / 4", 3], [4, 3]],
  7: [[4, 2], [4, 1], ["2 / 4", 1], [1, 1], [1, 3], ["2 / 4", 3], [4, 3]],
  8: [[4, 2], [4, 1], ["2 / 4", 1], [1, 1], [1, 2], [1, 3], ["2 / 4", 3], [4, 3]],
};

function bottomSeat() {
  const n = state.position.players;
  return state.bottom >= 1 && state.bottom <= n ? state.bottom : 1;
}

function placeOf(seatNo) {
  // the seat's place on the table and the cell of the trick in front of it
  const n = state.position.players, places = PLACES[n] ?? PLACES[8];
  const [row, column] = places[(seatNo - bottomSeat() + n) % n % places.length];
  const spotRow = row === 4 ? 3 : row === "2 / 4" ? 2 : row;
  const spotColumn = column === "1 / -1" ? 2 : column;
  return { cell: [row, column], spot: [spotRow, spotColumn] };
}

function placed(node, [row, column]) {
  node.style.gridRow = String(row);
  node.style.gridColumn = String(column);
  return node;
}

function renderTable() {
  const p = state.position, table = $("table");
  table.replaceChildren();
  table.dataset.players = p.players;
  table.dataset.bottom = bottomSeat();
  p.seats.forEach((seat) => table.append(placed(renderSeat(seat), placeOf(seat.seat).cell)));
  table.append(placed(renderTrick(), ["2 / 4", 2]));
  if (p.layout === "stock") table.append(placed(renderStock(p.stock), ["2 / 4", 1]));
}

function lastTrick() {
  // the last trick taken, each card with its seat (the leader's first, then clockwise)
  const p = state.position, trick = p.tricks[p.tricks.length - 1];
  if (!trick) return null;
  return { winner: trick.winner, cards: trick.cards.map((card, k) => ({ seat: (trick.leader - 1 + k) % p.players + 1, card })) };
}

function renderTrick() {
  // the trick in progress, each card in front of its player; with none (or on request),
  // the last trick taken, faded, and who won it
  const p = state.position, centre = el("div", { class: "centre" });
  const last = lastTrick();
  const peek = last && (state.peek || !p.trick.length);
  const cards = peek ? last.cards : p.trick;
  centre.classList.toggle("last", Boolean(peek));
  for (const { seat, card } of cards) {
    const spot = el("div", { class: "played", "data-seat": seat }, cardFace(card), el("span", { class: "who", text: `seat ${seat}` }));
    centre.append(placed(spot, placeOf(seat).spot));
  }
  const note = p.over && !peek ? "the deal is over" : peek ? `last trick: seat ${last.winner} won it` : "";
  if (note) centre.append(placed(el("div", { class: "trick-note", text: note }), [2, 2]));
  return centre;
}

function renderStock(stock) {
  const box = el("div", { class: "stock" }, el("div", { text: `Stock: ${stock.length} (top first)` }));
  const cards = el("div", { class: "cards" });
  for (const card of stock) cards.append(cardFace(card));
  box.append(cards);
  return box;
}

function renderFacts() {
  const p = state.position;
  $("trump").textContent = p.trump ? p.trump[0].toUpperCase() + p.trump.slice(1) : "none";
  $("to-move").textContent = p.over ? "nobody: the deal is over" : `seat ${p.to_move}`;
  let soFar = totalsText(p.points);
  if (p.bonus[0] || p.bonus[1]) soFar += `; strokes ${p.bonus[0]} – ${p.bonus[1]}`;
  $("so-far").textContent = soFar;
  $("announced").textContent = p.announced.length ? p.announced.join(", ") : "—";
  renderAnnounceChoice();
}

function renderAnnounceChoice() {
  const p = state.position, box = $("announce-choice");
  box.replaceChildren();
  box.hidden = !p.announce.length;
  if (!p.announce.length) return;
  const chosen = selectedAnnouncement();
  box.append(el("div", { text: `Seat ${p.to_move} may announce with its lead:` }));
  for (const option of [...p.announce, { text: "" }]) {
    const input = el("input", { type: "radio", name: "announce", value: option.text,
      checked: chosen ? chosen.text === option.text : option.text === "",
      onchange: () => { state.announce = option.text; render(); } });
    box.append(el("label", {}, input, ` ${option.text || "no announcement"} `));
  }
}

function renderMoves() {
  // the tree: the main line, each variation in brackets after the move it replaces; the
  // moves of the line shown carry their ply (data-ply), the others only their path
  const list = $("moves"), p = state.position;
  if (!p) return;
  list.replaceChildren(el("li", { class: state.ply === 0 ? "current" : "", "data-ply": 0, onclick: () => go(0), text: "start" }));
  renderBranch(list, state.tree, [], p.players);
  renderEval();
  renderTraining();
  const node = state.ply ? nodeAt(state.tree, state.line.slice(0, state.ply)) : null;
  const box = $("comment");
  if (document.activeElement !== box) box.value = node && node.c ? node.c : "";
  box.disabled = !node;
  $("promote").disabled = !state.line.length;
  $("delete").disabled = !node;
}

// --- the evaluation over the play --------------------------------------------------------------

function evalPoints() {
  // the double-dummy totals at each ply of the line shown (where solved), and whether the
  // card that led there was a mistake as stich replay counts it
  const points = [];
  for (let k = 0; k <= state.line.length; k++) {
    const analysis = state.analyses.get(analysisKey(k));
    let mistake = false, row = null;
    if (k > 0) {
      const before = state.analyses.get(analysisKey(k - 1));
      const { card, suit } = splitMove(state.line[k - 1]);
      row = rowFor(before, card, suit);
      mistake = Boolean(row && (replayCost(row, before) > 0 || verdict(row, before) === "outcome-losing"));
    }
    // the end of the line (no position left to analyse after the deal's last card): the
    // totals that last card led to
    const totals = analysis ? analysis.seats[0].totals : k === state.line.length && row ? row.totals : null;
    if (totals) points.push({ ply: k, totals, mistake });
  }
  return points;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// --- training ----------------------------------------------------------------------------------

function renderTraining() {
  // the card just picked and its cost, and the points given away by each side so far on the
  // line shown (as stich replay counts a card's cost), once the cards' values are solved
  const box = $("training");
  box.hidden = !state.training || state.view === "player" || !state.position;
  if (box.hidden) return;
  const given = [0, 0];
  let last = "", missing = 0;
  for (let k = 0; k < state.ply; k++) {
    const analysis = state.analyses.get(analysisKey(k));
    const { card, suit } = splitMove(state.line[k]);
    const row = rowFor(analysis, card, suit);
    if (!row) { missing++; continue; }
    const cost = replayCost(row, analysis), seat = analysis.seats[0].seat;
    given[state.position.seats[seat - 1].side] += cost;
    if (k === state.ply - 1) {
      const best = analysis.seats[0].moves[0];
      // every card as good as the first: the optimal ones with its totals
      const equal = analysis.seats[0].moves.filter((r) => r.optimal === best.optimal
        && r.totals[0] === best.totals[0] && r.totals[1] === best.totals[1]).flatMap((r) => r.cards);
      const named = equal.slice(0, 3).join(" or ") + (equal.length > 3 ? ` or ${equal.length - 3} more` : "");
      last = `${state.line[k]} by seat ${seat}: ${cost ? `cost ${cost}` : "no cost"}` +
        `${verdict(row, analysis) === "outcome-losing" ? ", gave away the outcome" : ""}` +
        ` (best ${named}: ${best.totals[0]}–${best.totals[1]}; yours ${valueText(row)}).`;
    }
  }
  const sides = state.position.sides;
  $("training-last").textContent = last;
  $("training-score").textContent = `Given away so far: ${sides[0]} ${given[0]}, ${sides[1]} ${given[1]}` +
    (missing ? ` (${missing} card${missing > 1 ? "s" : ""} still being solved)` : "");
  $("training-score").dataset.given = given.join(",");
  $("training-score").dataset.missing = missing;
}

function setTraining(on) { state.training = on; writeAddress(); render(); }

function renderEval() {
  // a graph (SVG by hand) and a column of the first side's double-dummy total after each
  // ply; a mistake is a red point; a click goes there.  Hidden in the player's view.
  const panel = $("eval-panel"), p = state.position;
  panel.hidden = state.view === "player" || state.training || !p;
  if (panel.hidden) return;
  const points = evalPoints(), graph = $("eval-graph"), body = $("eval-table").querySelector("tbody");
  graph.replaceChildren();
  body.replaceChildren();
  // as wide as the panel (a fixed width would be drawn at 600 px in the middle of a wide one)
  const n = Math.max(state.line.length, 1), W = Math.max(graph.clientWidth || 600, 200), H = 120, pad = 10;
  const values = points.flatMap((q) => q.totals);
  const low = Math.min(0, ...values), high = Math.max(1, ...values);
  const x = (ply) => pad + ((W - 2 * pad) * ply) / n, y = (v) => H - pad - ((H - 2 * pad) * (v - low)) / (high - low || 1);
  graph.setAttribute("viewBox", `0 0 ${W} ${H}`);
  graph.append(svg("line", { x1: x(state.ply), x2: x(state.ply), y1: 0, y2: H, class: "now" }));
  graph.append(svg("polyline", { points: points.map((q) => `${x(q.ply)},${y(q.totals[0])}`).join(" "), class: "trace" }));
  for (const q of points) {
    const dot = svg("circle", { cx: x(q.ply), cy: y(q.totals[0]), r: q.mistake ? 5 : 3.5, class: q.mistake ? "mistake" : "",
      "data-ply": q.ply, "data-totals": q.totals.join("–") });
    const title = svg("title");
    title.textContent = `after ${q.ply} cards: ${totalsText(q.totals)}${q.mistake ? " (after a mistake)" : ""}`;
    dot.append(title);
    dot.addEventListener("click", () => go(q.ply));
    graph.append(dot);
    const seat = q.ply ? state.seatOf.get(lineKey(q.ply)) : null;
    body.append(el("tr", { "data-ply": q.ply, class: `${q.mistake ? "mistake" : ""}${q.ply === state.ply ? " current" : ""}`,
      onclick: () => go(q.ply) },
    el("td", { text: q.ply }), el("td", { text: q.ply ? `${seat ? `${seat}·` : ""}${state.line[q.ply - 1]}` : "start" }),
    el("td", { text: `${q.totals[0]}–${q.totals[1]}` }), el("td", { text: q.mistake ? "mistake" : "" })));
  }
}

function renderBranch(list, node, path, players) {
  // node's main continuation, with the other continuations of each move as variations
  while (node.k.length) {
    const [main, ...others] = node.k;
    list.append(moveItem(main, path.concat([main.m]), players));
    for (const other of others) {
      list.append(el("li", { class: "paren", text: "(" }));
      list.append(moveItem(other, path.concat([other.m]), players, true));
      renderBranch(list, other, path.concat([other.m]), players);
      list.append(el("li", { class: "paren", text: ")" }));
    }
    node = main;
    path = path.concat([main.m]);
  }
}

function onLine(path) {
  // whether ``path`` is a beginning of the line shown
  return path.length <= state.line.length && path.every((m, i) => state.line[i] === m);
}

function moveItem(node, path, players, first = false) {
  const k = path.length - 1, move = node.m, here = onLine(path);
  const item = el("li", { "data-move": move, "data-path": path.join(","), onclick: () => goLine(path) });
  if (here) item.dataset.ply = k + 1;
  else item.classList.add("variation");
  if (k % players === 0 || first) {
    item.classList.add("trick-start");
    item.append(el("span", { class: "no", text: `${Math.floor(k / players) + 1}.${k % players ? "…" : ""}` }));
  }
  // the player's view shows no card the seat cannot see: not the line's later cards either
  const blind = state.view === "player" && !(here && k < state.ply);
  if (blind) delete item.dataset.move;
  const seat = state.seatOf.get(path.join(","));
  if (seat) item.append(el("span", { class: "by", text: `${seat}`, title: `seat ${seat}` }));
  item.append(blind ? "?" : move);
  if (here && k + 1 === state.ply) item.classList.add("current");
  if (here && k + 1 > state.ply) item.classList.add("future");
  if (node.c && !blind) item.append(el("span", { class: "comment", text: ` ${node.c}` }));
  const analysis = state.analyses.get(`${state.objective}|${path.slice(0, -1).join(",")}`);
  const { card, suit } = splitMove(move);
  // no marks in the player's view; in training, only on the cards already picked
  const hide = state.view === "player" || (state.training && !(here && k < state.ply));
  const row = hide ? null : rowFor(analysis, card, suit);
  // the mark's place is kept before its analysis arrives: the list fills in one card at a
  // time, and moves that shifted as it did would take a click meant for another move
  const mark = hide ? null : el("span", { class: "cost" });
  if (mark) item.append(mark);
  if (row) {
    const cost = replayCost(row, analysis), lost = verdict(row, analysis) === "outcome-losing";
    item.dataset.cost = cost;
    item.dataset.mistake = cost > 0 || lost ? "yes" : "no";
    mark.textContent = cost ? `−${cost}` : "✓";
    if (cost > 0) item.classList.add("mistake");
    if (lost) item.classList.add("lost-outcome");
    item.title = lost ? "this card gave away the outcome" : cost ? `this card cost ${cost}` : "optimal";
  }
  return item;
}

function renderTricks() {
  const body = $("tricks").querySelector("tbody"), p = state.position;
  body.replaceChildren();
  p.tricks.forEach((trick, i) => {
    const cards = trick.cards.map((c) => c.text).join(" ");
    const bonus = trick.pair_bonus ? ` (+${trick.pair_bonus} ${trick.announce})` : "";
    body.append(el("tr", {}, el("td", { text: i + 1 }), el("td", { text: `seat ${trick.leader}` }),
      el("td", { text: (trick.announce ? `${trick.announce} ` : "") + cards }),
      el("td", { text: `seat ${trick.winner}` }), el("td", { text: `${trick.points}${bonus}` })));
  });
}

function renderView() {
  const panel = $("view-panel"), p = state.position;
  panel.hidden = state.view !== "player" || !p || p.over;
  if (panel.hidden) return;
  const view = p.view || {};
  $("view-what").textContent = view.seat ? `of seat ${view.seat}: ${view.hidden_cards} cards hidden, ${view.consistent_layouts_text} consistent layouts` : "";
  const job = state.job, running = job && ["queued", "running"].includes(job.state);
  $("view-cancel").disabled = !running;
  $("view-progress").max = job && job.total ? job.total : 1;
  $("view-progress").value = job ? job.done : 0;
  $("view-status").textContent = !job ? "" : running ? `${job.done} of ${job.total ?? "?"} layouts solved`
    : job.state === "done" ? viewSummary(job.result) : job.state;
  renderViewCards(job && job.state === "done" ? job.result : null);
}

function fillSampling() {
  // the sampling boxes show the address's choice; they are filled when it changes, never
  // while a job runs (the user may be typing in them)
  $("samples").value = state.samples ?? "";
  $("seed").value = state.seed;
  $("exact").checked = state.exact;
}

function viewSummary(result) {
  const how = result.mode === "exact" ? `all ${result.layouts} consistent layouts (exact)`
    : `${result.layouts} layouts drawn uniformly (seed ${result.seed})`;
  return `${how}; ${result.seconds.toFixed(1)} s`;
}

function renderViewCards(result) {
  const body = $("view-cards").querySelector("tbody");
  body.replaceChildren();
  $("view-advice").textContent = result ? `Play ${result.best}: ${result.sure}.` : "";
  // the table's notes as stich suggest prints them under its table; no totals' columns where
  // no card has a total (the rungs decided alone, or --no-totals)
  $("view-notes").textContent = result ? (result.notes || []).join("\n") : "";
  $("view-cards").classList.toggle("no-totals", !!result && result.cards.every(c => c.expected_total === null));
  if (!result) return;
  const heads = $("view-cards").querySelectorAll("th");
  heads[3].textContent = result.p_best_by === "rung" ? "P(best rung)" : "P(dd best)";
  // the rungs as stich suggest's legend says them: numbered from the seat's side, in a player's words
  const words = Object.fromEntries((result.rungs || []).map(r => [r.level, r.words || r.level]));
  heads[4].title = result.rungs && result.rungs.length ? "the mean rung of the outcome's ladder, higher is better for the seat: "
    + result.rungs.map(r => `${r.rung} ${words[r.level]}`).join(", ") : "";
  for (const c of result.cards) {
    const interval = result.mode === "exact" ? "exact" : c.interval ? `${c.interval[0].toFixed(2)}–${c.interval[1].toFixed(2)}` : "-";
    const levels = Object.entries(c.levels).sort((a, b) => b[1] - a[1]).map(([name, share]) => `${words[name] || name} ${percent(share)}`).join(", ");
    body.append(el("tr", { class: c.card === result.best ? "best" : "", "data-card": c.card,
      "data-expected": String(c.expected_total), "data-p-best": String(c.p_best) },
    el("td", { text: c.card }), el("td", { text: c.expected_total === null ? "not needed" : meanText(c.expected_total) }),
    el("td", { text: c.expected_total === null ? "" : interval }),
    el("td", { text: percent(c.p_best) }), el("td", { text: c.expected_rung === null ? "" : meanText(c.expected_rung) }),
    el("td", { text: levels })));
  }
}

// --- actions ----------------------------------------------------------------------------------

async function playBest() {
  // the best card of the position shown, once it is the page's position: a press while the
  // page is still on its way to one (a key held down) plays nothing, so that a card is never
  // chosen for one position and played in another
  const p = state.position, here = lineKey();
  if (!p || p.over || state.training || state.positionAt !== here) return;
  if (state.view === "dd" && !state.analysis) {
    let analysis;
    try { analysis = await analysisAt(state.ply); } catch (error) { showError(error.message); return; }
    if (lineKey() !== here || state.positionAt !== here) return;    // the page moved on
    state.analysis = analysis;
  }
  const move = bestMove();
  if (move) play(move);
}

function variationLines() {
  // the tree's other lines and the comments, as comment lines a deal reader skips
  const lines = treeLines(state.tree), comments = treeComments(state.tree);
  if (lines.length < 2 && !comments.length) return "";
  const out = ["", "# stich explore: the variations from the start (the first is the main line)"];
  lines.forEach((line, i) => out.push(`# line ${i + 1}: ${line.join(" ")}`));
  for (const [path, text] of comments) out.push(`# comment on ${path.join(" ")}: ${text.replace(/\s+/g, " ")}`);
  return out.join("\n") + "\n";
}

async function copyPosition() {
  const blind = state.view === "player";     // the player's view copies only what the seat sees
  const text = state.position ? state.position.file + (blind ? "" : variationLines()) : "";
  try {
    await navigator.clipboard.writeText(text);
    $("copied").hidden = false;
    setTimeout(() => { $("copied").hidden = true; }, 1500);
  } catch (error) {
    $("file-details").open = true;                  // no clipboard: show it to select by hand
    showError(`could not copy (${error.message}): the position is shown below`);
  }
}

function setDrawing(key, value) {
  // a choice of how the table is drawn: no new position, no search
  state[key] = value;
  writeAddress();
  render();
}

function togglePeek() { setDrawing("peek", !state.peek); }

function turnTable() {
  // the next seat to the bottom (t), as a player walks round the table
  const n = state.position ? state.position.players : 1;
  setDrawing("bottom", bottomSeat() % n + 1);
}

// --- another deal ------------------------------------------------------------------------------

function openDeal(answer, name) {
  // a new start from the server (pasted or dealt): its file's play is the line; ``name`` says
  // where it came from (the title says the game)
  Object.assign(state, { start: answer.start, line: answer.line.slice(), ply: answer.line.length,
    fileLine: answer.line.slice(), tree: newTree(), seatOf: new Map(), analyses: new Map() });
  addLine(state.tree, state.line);
  state.name = name;
  $("table-text").hidden = true;
  go(state.ply);
}

async function pasteOpen() {
  // a link of any stich explore (its fragment), or a deal file the server checks
  const text = $("paste").value.trim();
  showError("");
  const hash = text.indexOf("#start=");
  if (hash >= 0) {
    try { readAddress(text.slice(hash)); } catch (error) {
      showError("the link: its position cannot be read (copy the whole address again)");
      return;
    }
    state.fileLine = [];
    writeAddress(true);                            // the address only once the link was read
    fillSampling();
    load();
    return;
  }
  if (!text) { showError("the box is empty: paste a deal file's text or an explorer link"); return; }
  busy(true);                                      // the server checks the file: values shown are not its
  try { openDeal(await api("/api/deal/paste", { text }), "a pasted deal"); } catch (error) { showError(error.message); busy(false); }
}

async function randomDeal() {
  showError("");
  const where = $("random-where").value.split("\n").map((w) => w.trim()).filter(Boolean);
  busy(true);                                      // dealing with --where may take a while
  try {
    const seed = parseInt($("random-seed").value, 10) || 0;
    openDeal(await api("/api/deal/random", { game: $("random-game").value, players: parseInt($("random-players").value, 10),
      seed, where }), `dealt at random, seed ${seed}`);
  } catch (error) { showError(error.message); busy(false); }
}

function fillGames(games) {
  const select = $("random-game");
  select.replaceChildren(...Object.keys(games).map((name) => el("option", { value: name, text: name })));
  const players = () => $("random-players").replaceChildren(
    ...games[select.value].map((n) => el("option", { value: n, text: n })));
  select.onchange = players;
  players();
}

async function wholeTable() {
  // stich table of the deal as dealt (every trump and leader: it may take a while)
  $("table-status").textContent = "solving…";
  try {
    const answer = await api("/api/deal/table", { start: state.start });
    $("table-text").textContent = answer.text;
    $("table-text").hidden = false;
    $("table-status").textContent = "";
  } catch (error) { $("table-status").textContent = error.message; }
}

async function share() {
  // the whole position is in the address's fragment: any stich explore opens it at /
  try {
    await navigator.clipboard.writeText(location.href);
    $("copied").hidden = false;
    setTimeout(() => { $("copied").hidden = true; }, 1500);
  } catch (error) { showError(`could not copy the link (${error.message}): it is the page's address`); }
}

function setView(view) { state.view = view; writeAddress(); load(); }
function setObjective(objective) { state.objective = objective; writeAddress(); load(); }

function setSampling() {
  const samples = $("samples").value.trim(), most = Number($("samples").max);
  if (samples && !(Number.isInteger(Number(samples)) && Number(samples) >= 1 && Number(samples) <= most)) {
    showError(`samples: a whole number from 1 to ${most}, or empty for the default`);
    return;
  }
  state.samples = samples ? Number(samples) : null;
  state.seed = parseInt($("seed").value, 10) || 0;
  state.exact = $("exact").checked;
  writeAddress();
  load();
}

function trickStart(ply) {
  // the first ply of the trick holding ``ply`` (one trick is a card from every seat)
  const n = state.position ? state.position.players : 1;
  return Math.max(ply, 0) - (Math.max(ply, 0) % n);
}

const KEYS = {
  ArrowLeft: () => go(state.ply - 1), ArrowRight: () => go(state.ply + 1),
  Home: () => go(0), End: () => go(state.line.length), b: playBest, " ": playBest,
  PageUp: () => go(trickStart(state.ply - 1)), PageDown: () => go(trickStart(state.ply) + (state.position ? state.position.players : 1)),
  f: () => { addLine(state.tree, state.fileLine); state.line = state.fileLine.slice(); go(state.line.length); },
  v: () => setView(state.view === "dd" ? "player" : "dd"),
  o: () => setObjective(state.objective === "score" ? "total" : "score"),
  c: copyPosition, s: share, Escape: cancelView, l: togglePeek, t: turnTable, "?": () => $("help").showModal(),
};

function typing(target) {
  // a box the user types in keeps its keys; a radio button or a checkbox does not
  if (["SELECT", "TEXTAREA"].includes(target.tagName)) return true;
  return target.tagName === "INPUT" && !["radio", "checkbox", "button"].includes(target.type);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const dialog = document.querySelector("dialog[open]");
  if (dialog) {                                     // nothing acts behind an open dialog
    if (event.key === "Escape") { event.preventDefault(); dialog.close(); }
    return;
  }
  if (typing(event.target)) return;
  const action = KEYS[event.key];
  if (!action) return;
  event.preventDefault();
  action();
}

function wire() {
  $("to-start").onclick = KEYS.Home;
  $("undo").onclick = KEYS.ArrowLeft;
  $("redo").onclick = KEYS.ArrowRight;
  $("to-end").onclick = KEYS.End;
  $("best").onclick = playBest;
  $("file-line").onclick = KEYS.f;
  $("copy").onclick = copyPosition;
  $("help-button").onclick = KEYS["?"];
  $("objective").onchange = (e) => setObjective(e.target.value);
  for (const radio of document.querySelectorAll("input[name=view]")) radio.onchange = (e) => { e.target.blur(); setView(e.target.value); };
  $("view-run").onclick = setSampling;
  $("bottom").onchange = (e) => { e.target.blur(); setDrawing("bottom", parseInt(e.target.value, 10)); };
  $("colours").onchange = (e) => { e.target.blur(); setDrawing("colours", e.target.value); };
  $("suits").onchange = (e) => { e.target.blur(); setDrawing("suits", e.target.value); };
  $("last-trick").onclick = togglePeek;
  $("view-cancel").onclick = cancelView;
  document.addEventListener("keydown", onKey);
  $("exact").onchange = (e) => e.target.blur();
  window.addEventListener("pagehide", cancelJob);         // a closed tab stops its own job
  $("promote").onclick = promote;
  $("training-on").onchange = (e) => { e.target.blur(); setTraining(e.target.checked); };
  $("share").onclick = share;
  $("paste-open").onclick = pasteOpen;
  $("random-deal").onclick = randomDeal;
  $("whole-table").onclick = wholeTable;
  $("delete").onclick = deleteHere;
  $("comment").oninput = (e) => setComment(e.target.value);
  window.addEventListener("popstate", () => {            // Back, Forward, an address edited by hand
    try { if (readAddress()) { fillSampling(); load(); } } catch (error) { showError(`the address: ${error.message}`); }
  });
}

async function init() {
  wire();
  try {
    const session = await api("/api/session");
    state.name = session.name;
    state.fileLine = session.line;
    fillGames(session.games);
    $("samples").max = session.samples_most;
    if (readAddress()) {
      if (state.start !== session.start) state.fileLine = [];   // a link to another deal
    } else {
      Object.assign(state, { start: session.start, line: session.line.slice(), ply: session.ply,
        objective: session.objective, samples: session.samples, seed: session.seed });
      addLine(state.tree, state.line);
      writeAddress();
    }
  } catch (error) {
    showError(error.message);
    return;
  }
  fillSampling();
  load();
}

document.addEventListener("DOMContentLoaded", init);
