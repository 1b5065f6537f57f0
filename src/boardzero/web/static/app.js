// The page: choose a game and its seats, play or watch it, list stored games, replay records.
import * as catan from "./catan.js";
import * as connect4 from "./connect4.js";
import * as simple from "./simple.js";
import { api, ApiError, h, percent, saveTokens, seatLabel, SEAT_COLOURS, SEAT_NAMES, swatch, tokensFor } from "./ui.js";

const DRAWINGS = { catan, connect4 };
const drawing = (game) => DRAWINGS[game] || simple;
const DEFAULT_STYLE = { names: SEAT_NAMES, colours: SEAT_COLOURS };
const POLL_MS = 350;
const TITLE = "boardzero";
const YOUR_MOVE_TITLE = "● Your move — boardzero"; // the tab's title while the person is to move
const app = document.getElementById("app");
let generation = 0; // bumped on every navigation, so loops of the previous screen stop
let meta = null;

window.addEventListener("hashchange", route);
route();

async function route() {
  const gen = ++generation;
  document.title = TITLE;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  try {
    if (!meta) meta = await api("/api/meta");
    if (parts[0] === "game" && parts[1]) return await gameScreen(parts[1], parts[2] === "seat" ? Number(parts[3]) : undefined, gen);
    if (parts[0] === "replay" && parts[1]) return await replayScreen(`/api/games/${parts[1]}/replay`, gen);
    if (parts[0] === "record" && parts[1]) return await replayScreen(`/api/records/${parts[1]}/replay`, gen);
    if (parts[0] === "games") return await gamesScreen();
    return newGameScreen();
  } catch (error) {
    app.replaceChildren(h("div", { class: "card error" }, `Error: ${error.message}`));
  }
}

// ------------------------------------------------------------------ new game
function newGameScreen() {
  const gameSelect = h("select", { id: "game" }, meta.games.map((g) => h("option", { value: g.name }, g.name)));
  gameSelect.value = "catan";
  const form = h("div", { class: "form-grid" });
  const message = h("div", { class: "error", id: "form-error" });
  const seatsBox = h("div", { id: "seats" });
  const optionsBox = h("div", { class: "form-grid", id: "options" });
  const seed = h("input", { id: "seed", type: "number", min: 0, placeholder: "random" });
  const delay = h("input", { id: "delay", type: "number", min: 0, max: meta.max_delay, step: 0.1, value: meta.bot_delay });

  function info() { return meta.games.find((g) => g.name === gameSelect.value); }
  function players() {
    const input = optionsBox.querySelector('[data-option="players"]');
    return input ? Number(input.value) : info().players;
  }
  function drawOptions() {
    optionsBox.replaceChildren();
    for (const option of info().options) {
      const [label, explain] = OPTION_WORDS[option.name] || [sentence(option.name), option.doc];
      const input = optionInput(option);
      if (option.name === "players") input.addEventListener("change", drawSeats);
      if (option.name === "trading") {  // on by default where a person plays: people trade at the table
        input.checked = true;
        input.addEventListener("change", showTradeOffers);
      }
      const id = `option-${option.name}`;
      input.id = id;
      optionsBox.append(h("label", { for: id, title: option.doc }, label),
                        h("div", {}, input, explain ? h("div", { class: "muted small explain" }, explain) : null));
    }
    drawSeats();
    showTradeOffers();
  }
  // The proposed agent plays the game as set: a model trained without trading does not play with it.
  function tradingOn() {
    const trading = optionsBox.querySelector('[data-option="trading"]');
    return Boolean(trading && trading.checked);
  }
  function defaultOpponent() {
    return tradingOn() && info().default_opponent_trading ? info().default_opponent_trading : info().default_opponent;
  }
  // "Offers per turn" only matters with trading on; a seat still holding the other setting's proposal follows.
  function showTradeOffers() {
    const trading = optionsBox.querySelector('[data-option="trading"]');
    const offers = optionsBox.querySelector('[data-option="trade_offers"]');
    const other = tradingOn() ? info().default_opponent : info().default_opponent_trading;
    for (const spec of seatsBox.querySelectorAll("[data-seat-spec]")) if (spec.value === other) spec.value = defaultOpponent();
    if (!trading || !offers) return;
    for (const el of [offers.parentElement, optionsBox.querySelector('label[for="option-trade_offers"]')]) el.hidden = !trading.checked;
  }
  function drawSeats() {
    const n = players();
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, seat) => {
      const kind = h("select", { "data-seat-kind": seat }, h("option", { value: "human" }, "Person"), h("option", { value: "agent" }, "Agent"));
      const spec = h("input", { "data-seat-spec": seat, value: defaultOpponent(), size: 24 });
      kind.value = seat === 0 ? "human" : "agent";
      spec.disabled = kind.value === "human";
      kind.addEventListener("change", () => { spec.disabled = kind.value === "human"; });
      const style = drawing(gameSelect.value).seatStyle || DEFAULT_STYLE;
      return h("div", { class: "seat-row" }, swatch(seat, style.colours), `${style.names[seat] || "Seat " + seat}`, kind, spec);
    }));
  }
  gameSelect.addEventListener("change", drawOptions);

  async function start(watch) {
    message.textContent = "";
    const options = {};
    for (const input of optionsBox.querySelectorAll("[data-option]")) {
      const info_ = info().options.find((o) => o.name === input.dataset.option);
      const value = input.type === "checkbox" ? input.checked : input.value;
      if (value === "" || String(value) === String(info_.default)) continue;
      if (input.dataset.option === "trade_offers" && !options.trading) continue;
      options[input.dataset.option] = value;
    }
    const seats = [...seatsBox.querySelectorAll("[data-seat-kind]")].map((kind, seat) =>
      kind.value === "human" && !watch ? "human" : seatsBox.querySelector(`[data-seat-spec="${seat}"]`).value);
    const body = { game: gameSelect.value, options, seats, delay: Number(delay.value) };
    if (seed.value !== "") body.seed = Number(seed.value);
    try {
      const created = await api("/api/games", { method: "POST", body });
      saveTokens(created.id, created.tokens);
      const mine = Object.keys(created.tokens).filter((k) => k !== "host").map(Number);
      location.hash = mine.length ? `#/game/${created.id}/seat/${mine[0]}` : `#/game/${created.id}`;
    } catch (error) {
      message.textContent = error.message;
    }
  }

  form.append(h("label", { for: "game" }, "Game"), gameSelect);
  app.replaceChildren(h("div", { class: "card" }, h("h2", {}, "New game"), form, optionsBox,
    h("h3", {}, "Seats"), h("p", { class: "muted" }, "Each seat is a person or an agent spec (random, heuristic, mcts:sims=400, best, az:runs/c4, …)."),
    seatsBox,
    h("div", { class: "form-grid" }, h("label", { for: "seed" }, "Seed"), seed, h("label", { for: "delay" }, "Agent delay (s)"), delay),
    h("div", { class: "buttons" }, h("button", { class: "primary", id: "start", onclick: () => start(false) }, "Start"),
      h("button", { id: "watch", onclick: () => start(true) }, "Watch agents play every seat")),
    message));
  drawOptions();
}

// How the form names a game's options: a label and a short explanation (the code's name and doc as the tooltip).
const OPTION_WORDS = {
  players: ["Players", "how many seats the table has"],
  vp_to_win: ["Points to win", "victory points a player needs, on their own turn, to win"],
  turn_limit: ["Turn limit", "turns after the setup before the game stops and ranks by points (0: no limit)"],
  board: ["Board", "the starter map, or one drawn from the seed"],
  returns: ["Agents play for", "what the agents try to get out of a game"],
  trading: ["Trading with players", "on your turn offer cards to the others (1 for 1, 2 for 1, 1 for 2); they accept or decline"],
  trade_offers: ["Offers per turn", "offers a player may make each turn when trading"],
};
const CHOICE_WORDS = {
  board: { beginner: "beginner (the starter map)", random: "random (from the seed)" },
  returns: { win: "winning (1 to the winner, 0 to the rest)", rank: "a good place (1 first … 0 last)",
             vp: "points (points ÷ points to win)", win_vp: "winning, and points (¾ winning + ¼ points)" },
};
const sentence = (name) => name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());

function optionInput(option) {
  const range = option.name === "players" && /(\d+) to (\d+)/.exec(option.doc || "");
  const choices = option.type.includes("|") ? option.type.split("|")
    : option.name === "board" ? ["random", "beginner"]
    : range ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => String(Number(range[1]) + i))
    : null;
  let input;
  if (choices) {
    input = h("select", { "data-option": option.name }, choices.map((v) => h("option", { value: v }, (CHOICE_WORDS[option.name] || {})[v] || v)));
    input.value = choices.includes(String(option.default)) ? String(option.default) : choices[0];
  } else if (option.type === "bool") {
    input = h("input", { type: "checkbox", "data-option": option.name });
    input.checked = option.default;
  } else {
    input = h("input", { "data-option": option.name, value: option.default ?? "", size: 8 });
  }
  return input;
}

// ------------------------------------------------------------------ playing and watching
async function gameScreen(id, seatWanted, gen) {
  const tokens = tokensFor(id);
  const seat = seatWanted !== undefined && tokens[String(seatWanted)] ? seatWanted : null;
  const token = seat === null ? null : tokens[String(seat)];
  const hostToken = tokens.host || token;
  const el = {
    board: h("div", { class: "board-wrap", id: "board" }),
    status: h("div", { class: "status", id: "status" }),
    dice: h("div", { id: "dice" }),
    actions: h("div", { id: "actions" }),
    seatTools: h("div", { class: "seat-tools", id: "seat-tools" }), // game-level buttons (resign)
    hint: h("div", { id: "hint" }),
    players: h("div", { class: "players", id: "players" }),
    log: h("div", { class: "log", id: "log" }),
    costs: h("div", { id: "costs" }),
    summary: h("div", { id: "summary" }),
    error: h("div", { class: "error", id: "error" }),
    connection: h("div", { class: "error", id: "connection" }),
  };
  const hintToggle = h("input", { type: "checkbox", id: "hint-toggle" });
  hintToggle.checked = localStorage.getItem("boardzero.hints") !== "off";
  hintToggle.addEventListener("change", () => {
    localStorage.setItem("boardzero.hints", hintToggle.checked ? "on" : "off");
    hint = null;
    render();
  });
  const soundToggle = h("input", { type: "checkbox", id: "sound-toggle" });
  soundToggle.checked = localStorage.getItem("boardzero.sound") === "on";
  soundToggle.addEventListener("change", () => {
    localStorage.setItem("boardzero.sound", soundToggle.checked ? "on" : "off");
    if (soundToggle.checked) chime(); // a sample, and browsers allow sound only after a click like this one
  });
  const delay = h("input", { type: "range", id: "delay", min: 0, max: Math.min(3, meta.max_delay), step: 0.1 });
  const delayText = h("span", { id: "delay-text" });
  delay.addEventListener("change", async () => {
    try { await api(`/api/games/${id}/settings`, { method: "POST", body: { delay: Number(delay.value) }, token: hostToken }); }
    catch (error) { el.error.textContent = error.message; }
  });
  const draw = drawing((await api(`/api/games/${id}`)).game);
  if (draw.drawCosts) draw.drawCosts(el.costs);
  app.replaceChildren(h("div", { class: "game" }, el.board,
    h("div", { class: "side" },
      el.summary,
      h("div", { class: "card" }, el.status, el.dice, el.error, el.connection),
      seat === null ? null : h("div", { class: "card", id: "actions-card" },
        h("div", { class: "card-head" }, h("h3", {}, "You"), el.seatTools), el.actions),
      h("div", { class: "card", id: "log-card" }, h("h3", {}, "Log"), el.log),
      draw.drawCosts ? h("div", { class: "card", id: "costs-card" }, h("h3", {}, "Building costs"), el.costs) : null,
      seat === null ? null : h("div", { class: "card hint" }, h("label", {}, hintToggle, " Hints: what would the agent do?"), el.hint),
      h("div", { class: "card" }, h("h3", {}, "Players"), el.players),
      h("div", { class: "card controls" }, "Agent delay", delay, delayText,
        hostToken ? null : h("span", { class: "muted" }, "(only the game's players may change it)"),
        seat === null ? null : h("label", { title: "a short chime when it becomes your move" }, soundToggle, " Sound on your move"),
        h("a", { href: `#/replay/${id}` }, "replay"), h("a", { href: `/api/games/${id}/record`, target: "_blank" }, "record")))));
  if (!hostToken) delay.disabled = true;
  if (seat !== null) el.seatTools.replaceChildren(h("button", { id: "resign", onclick: resign }, "Resign"));

  // sentAt: the position (snapshot version) whose move is on its way. A second click on that same position is
  // dropped (no double moves); a click on a newer position goes through, even while the first request's own
  // refresh is still under way (the background poll may have drawn the new position first).
  let snap = null, log = [], hint = null, hintFor = null, sentAt = null, wasMine = false;

  // One move, or several chosen together (the cards of a discard): sent one after another, then one refresh.
  async function act(actions) {
    const at = snap.version;
    if (sentAt === at) return;
    sentAt = at;
    el.error.textContent = "";
    el.status.classList.add("sending");  // shows "sending…" until the answer (a busy server may take seconds)
    try {
      for (const action of [actions].flat()) {
        await api(`/api/games/${id}/actions`, { method: "POST", body: { seat, action }, token });
      }
      await poll(true);
    } catch (error) {
      if (error instanceof ApiError) el.error.textContent = error.message;
      else el.connection.textContent = offline(error);
      await poll(true);
    } finally {
      if (sentAt === at) sentAt = null;
      el.status.classList.remove("sending");
    }
  }

  // the seat goes to an agent while other people play on; the last person's resignation ends the game
  async function resign() {
    if (!confirm("Resign? An agent takes your seat, or the game ends if no other person plays.")) return;
    try {
      const ended = await api(`/api/games/${id}/resign`, { method: "POST", body: { seat }, token });
      location.hash = ended.status === "live" ? `#/game/${id}` : location.hash;  // watch on without a seat
      await poll(true);
    } catch (error) {
      el.error.textContent = error.message;
    }
  }

  function onKey(event) {
    if (gen !== generation) return document.removeEventListener("keydown", onKey);
    if (!snap || seat === null || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.key === "Escape") {
      if (draw.clearSelection) draw.clearSelection();
      render();
      return;
    }
    const mine = snap.pending.kind === "human" && snap.pending.seat === seat;
    const action = mine && draw.keyAction ? draw.keyAction(event.key, snap.legal) : null;
    if (action === null) return;
    event.preventDefault();
    act(action);
  }
  document.addEventListener("keydown", onKey);

  async function poll(once = false) {
    if (gen !== generation) return;
    try {
      const query = `?since=${log.length}` + (seat === null ? "" : `&seat=${seat}`);
      const next = await api(`/api/games/${id}${query}`, { token });
      el.connection.textContent = ""; // back in touch (after a restart of the server, say)
      // replies may cross (a move's own refresh and the background poll): keep the longest log either brings
      const grew = next.log_from <= log.length && next.log_from + next.log.length > log.length;
      if (grew) log = log.slice(0, next.log_from).concat(next.log);
      // a late reply never draws an older position over a newer one
      if (!snap || next.version > snap.version || (next.version === snap.version &&
          (next.error !== snap.error || next.status !== snap.status))) {
        snap = next;
        render();
      } else if (grew) {
        drawLog(el.log, snap, log, draw);
      }
    } catch (error) {
      el.connection.textContent = offline(error);
    }
    if (!once && gen === generation) setTimeout(() => poll(), POLL_MS);
  }

  function drawBoard(mine) {
    const hintMove = hint && hint.ply === snap.version && hint.moves.length ? snap.legal.find((m) => m.action === hint.moves[0].action) : null;
    draw.drawBoard(el.board, snap.view, { legal: mine ? snap.legal : [], onAct: act, hint: hintMove });
  }

  function render() {
    const mine = snap.pending.kind === "human" && snap.pending.seat === seat;
    drawBoard(mine);
    draw.drawPlayers(el.players, snap);
    draw.drawDice(el.dice, snap.view);
    if (seat !== null) draw.drawActions(el.actions, { ...snap, legal: mine ? snap.legal : [] }, act);
    el.status.className = "status" + (mine ? " yours" : "");
    el.status.textContent = snap.over ? statusLine(snap, mine) : statusLine(snap, mine) + " · " + draw.statusText(snap);
    if (snap.error) el.error.textContent = `This game stopped: ${snap.error}`;
    delay.value = snap.delay;
    delayText.textContent = `${snap.delay.toFixed(1)} s`;
    drawLog(el.log, snap, log, draw);
    if (seat !== null) updateHint(mine);
    el.summary.replaceChildren(snap.over ? h("div", { class: "card summary", id: "game-summary" }, h("h2", {}, "Game over"),
      snap.status === "finished" ? draw.summary(snap) : h("p", { class: "muted" }, ENDED[snap.status])) : "");
    const resignButton = el.seatTools.querySelector("#resign");
    if (resignButton) resignButton.disabled = snap.over;
    document.title = mine ? YOUR_MOVE_TITLE : TITLE;
    if (mine && !wasMine && soundToggle.checked) chime();
    wasMine = mine;
  }

  async function updateHint(mine) {
    if (snap.over) {
      el.hint.replaceChildren(h("span", { class: "muted" }, "The game is over: no more hints."));
      return;
    }
    if (!hintToggle.checked || !snap.hints) {
      el.hint.replaceChildren(h("span", { class: "muted" }, snap.hints ? "Hints are off." : "This server gives no hints."));
      return;
    }
    if (!mine) {
      el.hint.replaceChildren(h("span", { class: "muted" }, "Hints appear when it is your move."));
      return;
    }
    if (hint && hint.ply === snap.version) return drawHint(el.hint, hint, draw);
    if (hintFor === snap.version) return;
    hintFor = snap.version;
    el.hint.replaceChildren(h("span", { class: "muted" }, "The agent is thinking…"));
    try {
      const result = await api(`/api/games/${id}/hint?seat=${seat}`, { token });
      if (gen !== generation || !hintToggle.checked) return;
      hint = result;
      if (snap.version === result.ply) { // only the hint and its mark on the board: a choice in progress stays open
        drawBoard(snap.pending.kind === "human" && snap.pending.seat === seat);
        drawHint(el.hint, hint, draw);
      }
    } catch (error) {
      el.hint.replaceChildren(h("span", { class: "muted" }, error.message));
    }
  }

  await poll();
}

const ENDED = {
  resigned: "Ended: the last person resigned.",
  abandoned: "Ended: its creator abandoned it.",
  expired: "Ended: no move came for too long.",
};

// A short two-note chime made on the spot with WebAudio (no sound files); silent where audio is unavailable.
let audio = null;
function chime() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(now + i * 0.12);
      tone.stop(now + i * 0.12 + 0.3);
    }
  } catch (error) {
    // no audio output: the title still says whose move it is
  }
}

// A failed request: the server's refusal, or no answer at all (a restart, a lost connection); the next poll that
// gets an answer clears it.
function offline(error) {
  return error instanceof ApiError ? error.message : `No answer from the server (${error.message}); trying again…`;
}

function statusLine(snap, mine) {
  if (snap.over) return snap.status === "finished" ? "Game over" : ENDED[snap.status] || "Game over";
  if (mine) return "Your move";
  if (snap.pending.kind === "chance") return "Chance…";
  if (snap.pending.kind === "human") return `Waiting for ${seatLabel(snap, snap.pending.seat)}`;
  return `${seatLabel(snap, snap.pending.seat)} is thinking…`;
}

function drawLog(container, snap, log, draw) {
  const style = draw.seatStyle || DEFAULT_STYLE;
  const words = draw.describe || String;
  const atBottom = container.scrollTop + container.clientHeight >= container.scrollHeight - 4;
  container.replaceChildren(...log.map((entry) => logLine(snap, entry, style, words)));
  if (atBottom || container.scrollTop === 0) container.scrollTop = container.scrollHeight;
}

function logLine(snap, entry, style, words) {
  if (entry.actor === null) return h("div", { class: "chance", "data-ply": entry.ply }, `· ${words(entry.text)}`);
  const who = entry.actor === snap.viewer ? "You" : style.names[entry.actor] || `Seat ${entry.actor}`;
  return h("div", { "data-ply": entry.ply }, swatch(entry.actor, style.colours), " ", who, ": ", words(entry.text));
}

// The hint agent's estimates are expected returns per seat, each rated on its own. With two seats a return is
// winning (a draw or shared win counts half), so it reads as a chance to win; with three or four the models value
// finishing places, so the numbers are an expected finishing score and need not add up to 100 %.
function drawHint(container, hint, draw) {
  const style = draw.seatStyle || DEFAULT_STYLE;
  const words = draw.describe || String;
  const seats = hint.win_chances ? hint.win_chances.length : 0;
  const twoSeats = seats === 2;
  const label = twoSeats ? "Estimated chance to win" : "Estimated value (expected finishing score: 100 % first place, 0 % last)";
  const short = twoSeats ? "win" : "value";
  const chances = hint.win_chances
    ? h("div", { "data-chances": "" }, h("span", { "data-chances-label": "" }, `${label}: `), hint.win_chances.map((c, seat) =>
        h("span", { style: "margin-right:8px", title: style.names[seat] }, swatch(seat, style.colours), " ", percent(c))),
        twoSeats ? null : h("div", { class: "muted small" }, "Each seat is rated on its own, so these do not add up to 100 %."))
    : h("div", { class: "muted" }, "This agent gives no estimate of how the game will end.");
  container.replaceChildren(h("div", { class: "muted" }, `${hint.agent} would play (${hint.seconds} s):`),
    h("ol", { "data-hint": "" }, hint.moves.map((m) => h("li", {}, words(m.name), " ",
      h("span", { class: "bar", style: `width:${Math.round(60 * m.weight)}px` }), ` ${percent(m.weight)}`,
      m.win_chance === null ? "" : ` · ${short} ${percent(m.win_chance)}`))),
    chances);
}

// ------------------------------------------------------------------ stored games and records
async function gamesScreen() {
  const [{ games }, { records }] = await Promise.all([api("/api/games"), api("/api/records")]);
  const rows = games.map((g) => {
    const tokens = tokensFor(g.id);
    const mine = Object.keys(tokens).filter((k) => k !== "host").map(Number);
    const status = g.over ? `over, returns ${g.returns.join(" / ")}` : "in progress";
    return h("tr", {}, h("td", {}, g.id), h("td", {}, g.game), h("td", {}, g.seats.join(", ")), h("td", {}, g.moves),
             h("td", {}, status), h("td", {},
               h("a", { href: mine.length ? `#/game/${g.id}/seat/${mine[0]}` : `#/game/${g.id}` }, mine.length && !g.over ? "play" : "watch"),
               " · ", h("a", { href: `#/replay/${g.id}` }, "replay")));
  });
  const recordRows = records.map((r) => h("tr", {}, h("td", {}, r.source), h("td", {}, r.game), h("td", {}, (r.seats || []).join(", ")),
                                          h("td", {}, r.moves), h("td", {}, (r.returns || []).join(" / ")),
                                          h("td", {}, h("a", { href: `#/record/${r.index}` }, "replay"))));
  const header = (cols) => h("tr", {}, cols.map((c) => h("th", {}, c)));
  app.replaceChildren(
    h("div", { class: "card" }, h("h2", {}, "Games on this server"),
      games.length ? h("table", { class: "list", id: "games" }, header(["id", "game", "seats", "moves", "status", ""]), rows)
        : h("p", { class: "muted" }, "No games yet.")),
    h("div", { class: "card" }, h("h2", {}, "Records from files"),
      records.length ? h("table", { class: "list", id: "records" }, header(["record", "game", "seats", "moves", "returns", ""]), recordRows)
        : h("p", { class: "muted" }, "None: start the server with --records FILE.jsonl to replay saved games.")));
}

async function replayScreen(base, gen) {
  let ply = 0, playing = null;
  const boardEl = h("div", { class: "board-wrap", id: "board" });
  const logEl = h("div", { class: "log", id: "log" });
  const playersEl = h("div", { class: "players" });
  const diceEl = h("div", {});
  const position = h("span", { id: "position" });
  const slider = h("input", { type: "range", min: 0, value: 0, id: "ply" });
  const summaryEl = h("div", { id: "summary" });
  const first = await api(`${base}?ply=0`);
  const draw = drawing(first.game);
  slider.max = first.total;

  async function show(target) {
    if (gen !== generation) return;
    const data = await api(`${base}?ply=${Math.max(0, Math.min(target, first.total))}`);
    ply = data.ply;
    const snap = { seats: data.seats.map((x) => ({ ...x, human: x.player === "human" })), viewer: null, view: data.view,
                   pending: { seat: data.view.to_move }, legal: [], log: data.log, over: data.over };
    draw.drawBoard(boardEl, data.view, {});
    draw.drawPlayers(playersEl, snap);
    draw.drawDice(diceEl, data.view);
    drawLog(logEl, snap, data.log, draw);
    logEl.scrollTop = logEl.scrollHeight;
    slider.value = ply;
    position.textContent = `move ${ply} of ${data.total}`;
    summaryEl.replaceChildren(data.over ? h("div", { class: "card summary" }, h("h2", {}, "Game over"), draw.summary(snap)) : "");
  }
  function toggle() {
    if (playing) { clearInterval(playing); playing = null; return; }
    playing = setInterval(() => {
      if (gen !== generation || ply >= first.total) { clearInterval(playing); playing = null; return; }
      show(ply + 1);
    }, 300);
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  app.replaceChildren(h("div", { class: "game" }, boardEl,
    h("div", { class: "side" }, summaryEl,
      h("div", { class: "card controls" },
        h("button", { onclick: () => show(0), title: "start" }, "◀◀"), h("button", { id: "back", onclick: () => show(ply - 1) }, "◀"),
        h("button", { id: "play", onclick: toggle }, "play / pause"), h("button", { id: "forward", onclick: () => show(ply + 1) }, "▶"),
        h("button", { onclick: () => show(first.total), title: "end" }, "▶▶"), slider, position),
      h("div", { class: "card" }, diceEl),
      h("div", { class: "card" }, h("h3", {}, "Players"), playersEl),
      h("div", { class: "card" }, h("h3", {}, "Log"), logEl))));
  await show(0);
}
