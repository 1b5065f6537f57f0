"""The page in a real headless Chromium (Debian's package) driven by Playwright: a person plays Catan's setup
and turns against agents by mouse and by keyboard (discarding several cards in one step, trading with the bank),
the table fits a laptop and a phone, Connect 4 names its columns one way, the page recovers from a server restart,
and a finished game replays. Screenshots go to ``$BOARDZERO_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("BOARDZERO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(
        f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)", allow_module_level=True
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

from tests.web.browser_seeds import CITIES_SEED, DISCARD_SEED, LAYOUT_SEED  # noqa: E402
from tests.web.live_server import LiveServer, call, free_port  # noqa: E402

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT_MS = 60_000
RESOURCES = ["wood", "brick", "sheep", "wheat", "ore"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser")
    with LiveServer(folder / "games.sqlite", "--delay", "0", "--hint-agent", "mcts:sims=30") as live:
        yield live


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def viewport():
    return {"width": 1360, "height": 1000}


@pytest.fixture
def page(browser, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == [], f"the page raised: {errors}"


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("BOARDZERO_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _new_game(page, server, game, players=None, opponent=None, seed=None, trading=False):
    page.goto(server.url + "/")
    page.wait_for_selector("#start", timeout=WAIT_MS)
    page.select_option("#game", game)
    if page.locator('[data-option="trading"]').count():  # the page ticks it; these games are set without
        page.set_checked('[data-option="trading"]', trading)
    if players is not None:
        page.select_option('select[data-option="players"]', str(players))
    if opponent is not None:
        for spec in page.query_selector_all("[data-seat-spec]:not([disabled])"):
            spec.fill(opponent)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.fill("#delay", "0")
    page.click("#start")
    page.wait_for_selector("#status", timeout=WAIT_MS)


def _log_lines(page) -> list[str]:
    return [line.strip() for line in page.locator("#log > div").all_inner_texts()]


def _place_setup_piece(page, selector: str, server=None) -> None:
    page.wait_for_selector(selector, timeout=WAIT_MS)
    before = len(_log_lines(page))
    target = page.locator(selector).first
    if server is not None:  # a settlement: the legal corner with the most pips
        target = page.locator(f'circle.spot.legal[data-node="{_richest_spot(page, server)}"]')
    target.click()
    page.wait_for_function(f"document.querySelectorAll('#log > div').length > {before}", timeout=WAIT_MS)


def _richest_spot(page, server) -> int:
    game_id = page.evaluate("location.hash").split("/")[2]
    view = call(f"{server.url}/api/games/{game_id}")["view"]
    pips = {}
    for hex_ in view["hexes"]:
        for node in hex_["nodes"]:
            pips[node] = pips.get(node, 0) + hex_["pips"]
    legal = [int(n) for n in page.eval_on_selector_all("circle.spot.legal", "els => els.map(e => e.dataset.node)")]
    return max(legal, key=lambda node: pips[node])


def test_catan_setup_by_clicking_then_roll(page, server, shots):
    page.goto(server.url + "/")
    page.wait_for_selector('select[data-option="players"]', timeout=WAIT_MS)
    assert page.locator('select[data-option="players"] option').all_inner_texts() == ["2", "3", "4"]
    assert page.inner_text('label[for="option-vp_to_win"]') == "Points to win" and "vp_to_win" not in page.inner_text(
        "#options"
    )
    _new_game(page, server, "catan", players=3)
    for _ in range(2):  # two settlements, each with its road, between the agents' placements
        _place_setup_piece(page, "circle.spot.legal.settlement", server)
        _place_setup_piece(page, "rect.path-hit.legal")
    assert page.locator('polygon.building[data-owner="0"]').count() == 2
    assert page.locator('line.road[data-owner="0"]').count() == 2
    assert page.locator("polygon.building").count() == 6 and page.locator("line.road").count() == 6
    assert len(page.locator("g.harbour").all()) == 9 and page.locator("g.robber").count() == 1
    assert page.locator("text.token-text").count() == 18
    roll = page.locator('button[data-kind="roll"]:not([disabled])')
    roll.wait_for(timeout=WAIT_MS)
    page.wait_for_selector("ol[data-hint] li", timeout=WAIT_MS)  # the hint for this move
    before = len(_log_lines(page))
    roll.click()
    page.wait_for_function(
        f"[...document.querySelectorAll('#log > div')].slice({before}).some((d) => /dice \\d+/.test(d.textContent))",
        timeout=WAIT_MS,
    )
    lines = _log_lines(page)
    assert len(lines) > before and any(line.startswith("You: roll dice") for line in lines[before:])
    assert page.inner_text("[data-dice]").strip().isdigit()
    assert page.title() == "● Your move — boardzero"
    page.wait_for_selector("[data-chances-label]", timeout=WAIT_MS)  # 3 seats: values, not chances to win
    assert page.inner_text("[data-chances-label]").startswith("Estimated value (expected finishing score")
    _play_turns(page, turns=8)
    page.wait_for_selector("#status.yours, #game-summary", timeout=WAIT_MS)
    page.wait_for_selector("ol[data-hint] li, #game-summary", timeout=WAIT_MS)
    page.screenshot(path=str(shots / "catan.png"))
    print(f"\nCatan: {len(_log_lines(page))} log lines; screenshot {shots / 'catan.png'}")


def test_a_click_on_the_new_position_goes_through_while_the_last_refresh_lags(page, server):
    """The page refreshes after each move and also polls; when the poll draws the next position first, a click
    on it must go through, not be dropped because the first move's own refresh is still on its way."""
    _new_game(page, server, "catan", players=2)
    page.wait_for_selector("circle.spot.legal.settlement", timeout=WAIT_MS)
    held, hold_next = [], [False]

    def lag_the_refresh_after_a_move(route):
        if route.request.method == "POST" and route.request.url.endswith("/actions"):
            route.fulfill(response=route.fetch())
            hold_next[0] = not held  # the page's next snapshot request is the move's own refresh: hold it (once)
        elif hold_next[0] and route.request.method == "GET" and "since=" in route.request.url:
            hold_next[0] = False
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/games/**", lag_the_refresh_after_a_move)
    page.locator("circle.spot.legal.settlement").first.click()
    page.wait_for_selector("rect.path-hit.legal", timeout=WAIT_MS)  # the poll drew the road's position
    assert len(held) == 1
    before = len(_log_lines(page))
    page.locator("rect.path-hit.legal").first.click()
    page.wait_for_function(f"document.querySelectorAll('#log > div').length > {before}", timeout=WAIT_MS)
    assert page.locator('line.road[data-owner="0"]').count() == 1
    for route in held:
        route.continue_()
    page.unroute("**/api/games/**")


def test_a_move_on_its_way_says_sending_until_the_server_answers(page, server):
    """A busy server may take seconds to answer a move; meanwhile the status line says the click was taken."""
    _new_game(page, server, "catan", players=2, opponent="random")
    page.wait_for_selector("circle.spot.legal.settlement", timeout=WAIT_MS)
    assert not page.locator("#status.sending").count()
    held = []

    def hold(route):  # the move waits here until let through
        held.append(route)

    page.route("**/api/games/*/actions", hold)
    page.locator("circle.spot.legal.settlement").first.click()
    page.wait_for_selector("#status.sending", timeout=WAIT_MS)
    after = page.evaluate("getComputedStyle(document.querySelector('#status'), '::after').content")
    assert after == '" · sending…"' and len(held) == 1
    held[0].continue_()
    page.wait_for_selector("rect.path-hit.legal", timeout=WAIT_MS)  # the settlement is placed: its road next
    page.wait_for_function("!document.querySelector('#status').classList.contains('sending')", timeout=WAIT_MS)
    page.unroute("**/api/games/*/actions", hold)


def _play_turns(page, turns: int) -> None:
    """Play a few of the person's turns through the page: whatever is asked (robber, victim, discard), then
    build whatever is highlighted (city, settlement, road), and end the turn."""
    done = 0
    while done < turns:
        page.wait_for_selector("#status.yours, #game-summary", timeout=WAIT_MS)
        if page.locator("#game-summary").count():
            return
        if page.locator("#discard").count():
            _discard(page)
            continue
        for selector in (
            'button[data-kind="roll"]:not([disabled])',
            "g.legal[data-hex]",
            'button[data-kind="rob"]',
            'button[data-kind="take"]',
            "circle.spot.legal",
            "rect.path-hit.legal",
            'button[data-kind="end_turn"]:not([disabled])',
        ):
            target = page.locator(selector).first
            if target.count():
                version = page.locator("#log > div").count()
                target.click()
                page.wait_for_function(f"document.querySelectorAll('#log > div').length > {version}", timeout=WAIT_MS)
                done += selector.startswith('button[data-kind="end_turn"]')
                break


def test_connect4_to_the_end_then_replay(page, server, shots):
    _new_game(page, server, "connect4", opponent="greedy")
    for turn in range(30):
        page.wait_for_selector("rect.c4-col.legal, #game-summary", timeout=WAIT_MS)
        if page.locator("#game-summary").count():
            break
        moves = page.locator("#log > div").count()
        columns = page.locator("rect.c4-col.legal")
        columns.nth((3 + 2 * turn) % columns.count()).click()  # spread the discs over the board
        page.wait_for_function(f"document.querySelectorAll('#log > div').length > {moves}", timeout=WAIT_MS)
    summary = page.inner_text("#game-summary")
    assert "Game over" in summary and ("wins with four in a row" in summary or "draw" in summary)
    assert page.inner_text("#hint") == "The game is over: no more hints." and page.title() == "boardzero"
    discs = page.locator('circle[data-cell]:not([data-owner=""])').count()
    assert discs == len(_log_lines(page)) >= 7
    page.screenshot(path=str(shots / "connect4.png"))
    print(f"\nConnect 4: {discs} discs, {summary.splitlines()[-1]}; screenshot {shots / 'connect4.png'}")

    page.click('a[href^="#/replay/"]')
    page.wait_for_selector("#position", timeout=WAIT_MS)
    page.click("#forward")
    page.wait_for_function("document.querySelector('#position').textContent.startsWith('move 1 of')")
    assert page.locator('circle[data-cell]:not([data-owner=""])').count() == 1
    page.fill("#ply", "0")
    page.click("button[title=end]")
    page.wait_for_selector("#summary .summary", timeout=WAIT_MS)
    assert page.locator('circle[data-cell]:not([data-owner=""])').count() == discs


def test_agents_only_game_can_be_watched(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#start", timeout=WAIT_MS)
    page.select_option("#game", "tictactoe")
    page.click("#watch")
    page.wait_for_selector("#game-summary", timeout=WAIT_MS)
    assert page.locator("#actions-card").count() == 0 and len(_log_lines(page)) >= 5
    page.click("text=Games & replays")
    page.wait_for_selector("#games", timeout=WAIT_MS)
    assert page.locator("#games tr").count() >= 2


def test_a_person_resigns_from_the_action_area(page, server):
    _new_game(page, server, "connect4", opponent="random")
    page.wait_for_selector("rect.c4-col.legal", timeout=WAIT_MS)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#game-summary", timeout=WAIT_MS)
    assert "the last person resigned" in page.inner_text("#game-summary")
    assert page.locator("#resign").is_disabled() and page.locator("rect.c4-col.legal").count() == 0
    game_id = page.evaluate("location.hash").split("/")[2]
    assert call(f"{server.url}/api/games/{game_id}")["status"] == "resigned"


# ------------------------------------------------------------------ Catan by keyboard; discards; trades; layout
def _hand(page) -> dict[str, int]:
    return {r: int(page.inner_text(f'[data-hand] [data-resource="{r}"] b')) for r in RESOURCES}


def _after(page, step) -> None:
    """Do ``step`` (a click or a key) and wait until the log has grown."""
    before = page.locator("#log > div").count()
    step()
    page.wait_for_function(f"document.querySelectorAll('#log > div').length > {before}", timeout=WAIT_MS)


def _discard(page) -> dict[str, int]:
    """Choose the cards to discard (in resource order, as many of each as held) and send them in one step."""
    text = page.inner_text("#discard")
    need = int(re.search(r"discard (\d+) cards?", text).group(1))
    hand, chosen = _hand(page), {}
    for resource in RESOURCES:
        chosen[resource] = min(hand[resource], need - sum(chosen.values()))
        for _ in range(chosen[resource]):
            page.click(f'button[data-discard="{resource}"]')
    _after(page, lambda: page.click("#discard-send:not([disabled])"))
    return chosen


def _setup_then_my_first_roll(page) -> None:
    """Place the first legal settlement and road twice (mouse), then roll with the r key."""
    for _ in range(2):
        _place_setup_piece(page, "circle.spot.legal.settlement")
        _place_setup_piece(page, "rect.path-hit.legal")
    page.wait_for_selector('button[data-kind="roll"]:not([disabled])', timeout=WAIT_MS)
    _after(page, lambda: page.keyboard.press("r"))


def _box(page, selector: str) -> dict:
    """The element's box; asked again when a redraw (a hint arriving) replaced the element meanwhile."""
    for _ in range(50):
        box = page.locator(selector).bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} has no box")


def test_catan_by_keyboard_discards_several_cards_at_once_and_trades_with_the_bank(page, server):
    page.add_init_script("localStorage.setItem('boardzero.hints', 'off')")  # no hint searches: a quicker game
    _new_game(page, server, "catan", players=2, opponent="random", seed=DISCARD_SEED)
    _setup_then_my_first_roll(page)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/actions") else None)
    traded = discarded = None
    for _ in range(400):
        page.wait_for_selector("#status.yours", timeout=WAIT_MS)
        assert page.title() == "● Your move — boardzero"
        if page.locator("#discard").count():
            hand, need = (
                _hand(page),
                int(page.inner_text("#players [data-seat='0'] .badge:has-text('discards')").split()[1]),
            )
            assert sum(hand.values()) > 7 and need == sum(hand.values()) // 2
            page.click(f'button[data-discard="{next(r for r in RESOURCES if hand[r])}"]')
            assert page.is_disabled("#discard-send") and "0 of" not in page.inner_text("#discard-send")
            page.keyboard.press("Escape")  # undo the choice
            assert page.inner_text("#discard-send") == f"Discard 0 of {need}"
            posts.clear()
            chosen = _discard(page)
            page.wait_for_selector("#discard", state="detached", timeout=WAIT_MS)
            assert len(posts) == need  # one choice, sent as the engine's one-card discards
            assert _hand(page) == {r: hand[r] - chosen[r] for r in RESOURCES}
            mine = [line for line in _log_lines(page) if line.startswith("You: discard")]
            assert len(mine) >= need
            discarded = chosen
        elif page.locator("g.legal[data-hex]").count():
            _after(page, lambda: page.locator("g.legal[data-hex]").first.click())
        elif page.locator('button[data-kind="rob"]').count():
            label = page.inner_text('button[data-kind="rob"] >> nth=0')
            assert re.fullmatch(r"Rob (Red|Blue) \(\d+ cards?\)", label), label
            _after(page, lambda: page.locator('button[data-kind="rob"]').first.click())
        elif page.locator('button[data-kind="roll"]:not([disabled])').count():
            _after(page, lambda: page.keyboard.press("r"))
        elif page.locator("#trade").count() and traded is None:
            give = page.eval_on_selector("#trade-give", "s => s.options[0].value")
            page.select_option("#trade-give", give)
            get = page.eval_on_selector("#trade-get", "s => s.options[0].value")
            page.select_option("#trade-get", get)
            rate = int(page.eval_on_selector("#trade-give", "s => s.selectedOptions[0].textContent").split()[0])
            assert get != give and page.locator("#trade-get option").count() == 4
            hand = _hand(page)
            _after(page, lambda: page.click("#trade-send"))
            page.wait_for_function(
                f"document.querySelector('[data-hand] [data-resource=\"{give}\"] b').textContent"
                f" === '{hand[give] - rate}'",
                timeout=WAIT_MS,
            )
            assert _hand(page)[get] == hand[get] + 1
            assert _log_lines(page)[-1] == f"You: trade {rate} {give} for 1 {get}"
            traded = (give, get)
        else:
            page.wait_for_selector('button[data-kind="end_turn"]:not([disabled])', timeout=WAIT_MS)
            _after(page, lambda: page.keyboard.press("e"))
        if traded and discarded:
            break
    assert traded and discarded, (traded, discarded)
    assert not [line for line in _log_lines(page) if re.search(r"\bseats? \d", line)]  # colours, not seat numbers


@pytest.mark.parametrize(
    "viewport", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}], ids=["1366x768", "390x844"]
)
def test_the_table_fits_a_laptop_and_a_phone(page, server, shots, viewport):
    width, height = viewport["width"], viewport["height"]
    phone = width < 500
    if phone:  # and one that asks for less motion: the dice do not spin
        page.emulate_media(reduced_motion="reduce")
    _new_game(page, server, "catan", players=2, opponent="random", seed=LAYOUT_SEED)
    _setup_then_my_first_roll(page)
    page.wait_for_selector('button[data-kind="end_turn"]:not([disabled])', timeout=WAIT_MS)
    spin = page.eval_on_selector(".die", "d => [d.classList.contains('rolling'), getComputedStyle(d).animationName]")
    assert spin == [True, "none" if phone else "roll"]
    page.wait_for_timeout(800)  # the spin is over before the screenshot
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    def inside(box: dict) -> bool:
        return (
            box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
        )

    for selector in ("#actions-card", "[data-hand]", "#action-buttons", "#key-help"):
        assert inside(_box(page, selector)), (selector, _box(page, selector))
    if width > 1000:  # beside the board: the last lines of the log too
        assert inside(_box(page, "#board svg"))
        log = _box(page, "#log")
        assert inside(log) and log["height"] > 60, log
    page.screenshot(path=str(shots / f"web_{width}x{height}.png"))


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}], ids=["390x844"])
def test_on_a_phone_the_actions_card_holds_the_bank_trade_within_the_screen(page, server, viewport):
    """The discard seed's game brings a bank trade; its picker makes the card taller: it must still fit."""
    page.add_init_script("localStorage.setItem('boardzero.hints', 'off')")
    _new_game(page, server, "catan", players=2, opponent="random", seed=DISCARD_SEED)
    _setup_then_my_first_roll(page)
    _play_my_turns_until(page, lambda: page.locator("#trade").count(), lambda: False, moves=100, what="a bank trade")
    page.wait_for_timeout(800)  # the dice's spin is over
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    card = _box(page, "#actions-card")
    assert card["x"] >= 0 and card["x"] + card["width"] <= 390 and card["y"] + card["height"] <= 844, card
    assert page.locator('#action-buttons button[data-kind="end_turn"]').is_visible()
    assert not page.locator("#action-buttons button:disabled").first.is_visible()  # the moves one cannot make


# ------------------------------------------------------------------ Connect 4's columns; a server restart
def test_connect4_counts_columns_one_way_and_the_keys_drop_discs(page, server):
    _new_game(page, server, "connect4", opponent="random")
    page.wait_for_selector("#actions button.legal", timeout=WAIT_MS)
    labels = page.locator("#actions button.legal").all_inner_texts()
    assert [re.match(r"Column (\d)", label).group(1) for label in labels] == [str(c) for c in range(7)]
    assert page.locator("[data-column-label]").all_text_contents() == [str(c) for c in range(7)]
    _after(page, lambda: page.locator("#actions button.legal", has_text="Column 5").click())
    assert _log_lines(page)[0] == "You: column 5"
    page.wait_for_selector("#status.yours", timeout=WAIT_MS)
    _after(page, lambda: page.keyboard.press("2"))
    assert _log_lines(page)[2] == "You: column 2"
    page.wait_for_selector("#status.yours", timeout=WAIT_MS)
    first = page.inner_text("ol[data-hint] li >> nth=0", timeout=WAIT_MS)
    column = int(re.match(r"column (\d)", first).group(1))
    assert page.inner_text("[data-chances-label]").startswith("Estimated chance to win")  # two seats
    ring = float(page.get_attribute("circle.hinted", "cx"))
    assert ring == float(page.get_attribute(f'[data-column-label="{column}"]', "x"))


def test_a_lost_connection_shows_until_the_next_answer(page, server):
    """The quick stand-in for a restart (the slow test below restarts a real server): requests fail for a while."""
    _new_game(page, server, "tictactoe", opponent="random")
    page.wait_for_selector("#status.yours", timeout=WAIT_MS)
    page.route("**/api/games/**", lambda route: route.abort())
    page.wait_for_function("document.querySelector('#connection').textContent.includes('No answer')", timeout=WAIT_MS)
    page.unroute("**/api/games/**")
    page.wait_for_function("document.querySelector('#connection').textContent === ''", timeout=WAIT_MS)


@pytest.mark.slow
def test_the_page_recovers_from_a_server_restart_and_clears_the_error(page, tmp_path):
    live = LiveServer(tmp_path / "restart.sqlite", "--delay", "0", "--hint-agent", "off", port=free_port())
    live.start()
    try:
        _new_game(page, live, "connect4", opponent="random")
        page.wait_for_selector("#status.yours", timeout=WAIT_MS)
        live.kill()
        page.wait_for_function(
            "document.querySelector('#connection').textContent.includes('No answer')", timeout=WAIT_MS
        )
        live.start()
        page.wait_for_function("document.querySelector('#connection').textContent === ''", timeout=WAIT_MS)
        assert page.inner_text("#error") == ""
        _after(page, lambda: page.locator("rect.c4-col.legal").first.click())
    finally:
        live.stop()


def test_the_catan_summary_counts_cities(page, server):
    """Agents play a short game (5 points win; with CITIES_SEED Red ends with 2 cities); the summary's Cities
    column shows how many cities each seat built, as the board does."""
    created = call(
        f"{server.url}/api/games",
        "POST",
        {
            "game": "catan",
            "options": {"players": 2, "vp_to_win": 5},
            "seats": ["heuristic", "heuristic"],
            "seed": CITIES_SEED,
            "delay": 0,
        },
    )
    page.goto(f"{server.url}/#/game/{created['id']}")
    page.wait_for_selector("#game-summary", timeout=WAIT_MS)
    for seat in (0, 1):
        built = page.locator(f'polygon.building[data-building="city"][data-owner="{seat}"]').count()
        assert page.inner_text(f'[data-summary="vp"] tr[data-seat="{seat}"] [data-cities]') == str(built)
    assert page.locator('polygon.building[data-building="city"][data-owner="0"]').count() == 2


def _play_my_turns_until(page, done, act_on_trade, *, moves: int = 600, what: str = "the trade") -> None:
    """Play the person's moves (robber, victim, discard, roll, end turn) until ``done()``; ``act_on_trade()`` is
    asked first at each of the person's moves and returns True when it made a trading move."""
    for _ in range(moves):
        if done():
            return
        page.wait_for_selector("#status.yours", timeout=WAIT_MS)
        if done():  # before any move of this turn: the bank trade's picker shows as the turn comes
            return
        if act_on_trade():
            continue
        if page.locator("#discard").count():
            _discard(page)
            page.wait_for_selector("#discard", state="detached", timeout=WAIT_MS)
        elif page.locator("g.legal[data-hex]").count():
            _after(page, lambda: page.locator("g.legal[data-hex]").first.click())
        elif page.locator('button[data-kind="rob"]').count():
            _after(page, lambda: page.locator('button[data-kind="rob"]').first.click())
        elif page.locator('button[data-kind="roll"]:not([disabled])').count():
            _after(page, lambda: page.keyboard.press("r"))
        else:
            page.wait_for_selector('button[data-kind="end_turn"]:not([disabled])', timeout=WAIT_MS)
            _after(page, lambda: page.keyboard.press("e"))
    assert done(), f"{what} did not happen within {moves} of the person's moves"


def test_a_person_offers_a_trade_and_trades_with_the_seat_that_accepts(page, server, shots):
    page.add_init_script("localStorage.setItem('boardzero.hints', 'off')")
    page.goto(server.url + "/")
    page.wait_for_selector("#start", timeout=WAIT_MS)
    assert page.is_checked('[data-option="trading"]')  # on by default where a person plays
    catan = next(g for g in call(f"{server.url}/api/meta")["games"] if g["name"] == "catan")
    spec = '[data-seat-spec="1"]'
    assert page.input_value(spec) == catan["default_opponent_trading"]  # one that plays with trading
    page.uncheck('[data-option="trading"]')
    assert page.input_value(spec) == catan["default_opponent"] and page.is_hidden('[data-option="trade_offers"]')
    page.check('[data-option="trading"]')
    assert page.input_value(spec) == catan["default_opponent_trading"]
    assert page.is_visible('[data-option="trade_offers"]')
    _new_game(page, server, "catan", players=2, opponent="accept_all", seed=3, trading=True)
    _setup_then_my_first_roll(page)
    traded, offered = [], []

    def offer_and_trade() -> bool:
        if page.locator('button[data-kind="trade_with"]').count():
            assert page.inner_text("#trade-answers").strip() == "Blue (seat 1, accept_all): accepts"
            assert page.inner_text('button[data-kind="trade_with"]') == "Trade with Blue"
            hand = _hand(page)
            _after(page, lambda: page.click('button[data-kind="trade_with"]'))
            page.wait_for_selector('button[data-kind="trade_with"]', state="detached", timeout=WAIT_MS)
            give, get = re.fullmatch(r"Offer (.+) for (.+)", offered[-1]).groups()
            expected = dict(hand)
            for part in give.split(" + "):
                expected[part.split()[1]] -= int(part.split()[0])
            for part in get.split(" + "):
                expected[part.split()[1]] += int(part.split()[0])
            page.wait_for_function(
                '([r, n]) => document.querySelector(`[data-hand] [data-resource="${r}"] b`).textContent === String(n)',
                arg=[get.split(" + ")[0].split()[1], expected[get.split(" + ")[0].split()[1]]],
                timeout=WAIT_MS,
            )
            assert _hand(page) == expected
            traded.append(_log_lines(page)[-1])
            return True
        if traded or not page.locator("#offer").count():
            return False
        hand = _hand(page)
        for resource in RESOURCES:  # a card the person does not hold cannot be given: greyed
            given = page.locator(f'#offer button[data-offer-side="give"][data-resource="{resource}"]')
            assert given.is_disabled() == (hand[resource] == 0), resource
        page.locator('#offer button[data-offer-side="give"]:not([disabled])').first.click()
        page.locator('#offer button[data-offer-side="get"]:not([disabled])').first.click()
        assert not page.is_disabled("#offer-send")
        offered.append(page.inner_text("#offer-send"))
        page.locator("#trade-panel").screenshot(path=str(shots / "catan_trade_panel.png"))
        _after(page, lambda: page.click("#offer-send"))
        assert any(line.startswith("You: offers") for line in _log_lines(page)), offered
        return True

    _play_my_turns_until(page, lambda: bool(traded), offer_and_trade)
    give, get = re.fullmatch(r"Offer (.+) for (.+)", offered[-1]).groups()
    assert traded[0] == f"You: trades with Blue: gives {give.replace(' + ', ', ')}, gets {get.replace(' + ', ', ')}"
    assert any(line == "Blue: accepts" for line in _log_lines(page)), _log_lines(page)[-8:]


def test_a_bot_offers_and_the_person_answers_with_the_hint_in_view(page, server):
    _new_game(page, server, "catan", players=2, opponent="offer_all", seed=4, trading=True)
    _setup_then_my_first_roll(page)
    answered = []

    def answer() -> bool:
        if not page.locator('#trade-buttons button[data-kind="decline"]').count():
            return False
        assert re.match(r"Blue \(seat 1, offer_all\) offers .+ for .+", page.inner_text("#trade-offer").strip())
        page.wait_for_function(
            "/would play/.test(document.querySelector('#hint').textContent)", timeout=WAIT_MS
        )  # the hint agent's answer
        assert re.search(r"accept|decline", page.inner_text("#hint"), re.IGNORECASE)
        kind = "accept" if page.locator('#trade-buttons button[data-kind="accept"]').count() else "decline"
        asked = re.fullmatch(r".+ offers .+ for (.+)", page.inner_text("#trade-offer").strip()).group(1)
        if kind == "decline":  # the page says why Decline is the only answer
            hand = _hand(page)
            short = [
                f"{hand[r]} {r}"
                for r in RESOURCES
                if re.search(rf"(\d+) {r}", asked) and hand[r] < int(re.search(rf"(\d+) {r}", asked).group(1))
            ]
            assert short and page.inner_text("#trade-cannot") == (
                f"You hold {' and '.join(short)}, and the offer asks for {asked}: you can only decline."
            )
        else:
            assert not page.locator("#trade-cannot").count()
        _after(page, lambda: page.keyboard.press(kind[0]))  # a: accept, d: decline
        answered.append(kind)
        return True

    both = {"accept", "decline"}
    _play_my_turns_until(page, lambda: both <= set(answered), answer)
    lines = _log_lines(page)
    assert sum(line.startswith("Blue: offers") for line in lines) >= len(answered)
    for kind in both:
        assert sum(line.startswith(f"You: {kind}s") for line in lines) == answered.count(kind), (kind, answered)


def test_an_offer_everyone_declined_is_shown_and_cannot_be_made_again_that_turn(page, server):
    page.add_init_script("localStorage.setItem('boardzero.hints', 'off')")
    _new_game(page, server, "catan", players=2, opponent="offer_all", seed=4, trading=True)  # it declines every offer
    page.wait_for_selector("circle.spot.legal.settlement", timeout=WAIT_MS)
    assert page.locator("#key-help").count() and not page.locator("#trade-panel").count()  # no trading in the setup
    _setup_then_my_first_roll(page)
    declined = []

    def offer_or_decline() -> bool:
        if page.locator('#trade-buttons button[data-kind="decline"]').count():  # the bot's own offers
            _after(page, lambda: page.keyboard.press("d"))
            return True
        if declined or not page.locator("#offer").count():
            return False
        assert not page.locator("#trade-declined").count()  # none yet this turn
        give = page.locator('#offer button[data-offer-side="give"]:not([disabled])').first.get_attribute(
            "data-resource"
        )
        page.click(f'#offer button[data-offer-side="give"][data-resource="{give}"]')
        get = page.locator('#offer button[data-offer-side="get"]:not([disabled])').first.get_attribute("data-resource")
        page.click(f'#offer button[data-offer-side="get"][data-resource="{get}"]')
        offer = page.inner_text("#offer-send").removeprefix("Offer ")
        _after(page, lambda: page.click("#offer-send"))
        page.wait_for_selector("#trade-declined", timeout=WAIT_MS)
        assert page.inner_text("#trade-declined") == f"Declined by everyone this turn, so not offered again: {offer}"
        assert _log_lines(page)[-1] == "Blue: declines; nobody accepted, the offer is off"
        for side, resource in (("give", give), ("get", get)):  # the same cards again: no such offer left
            again = page.locator(f'#offer button[data-offer-side="{side}"][data-resource="{resource}"]')
            if again.is_enabled():  # it may still fit a larger offer
                again.click()
        assert page.is_disabled("#offer-send") and page.inner_text("#offer-send") == "Offer"
        declined.append(offer)
        return True

    _play_my_turns_until(page, lambda: bool(declined), offer_or_decline)


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}], ids=["390x844"])
def test_on_a_phone_the_trade_panel_fits_and_an_offer_made_again_says_so(page, server, viewport):
    """The offer picker is folded on a phone, so the actions card with the trade panel fits the screen; an offer
    withdrawn and made again in the same turn is numbered and marked as made again."""
    page.add_init_script("localStorage.setItem('boardzero.hints', 'off')")
    _new_game(page, server, "catan", players=2, opponent="accept_all", seed=3, trading=True)
    _setup_then_my_first_roll(page)
    made = []

    def fold_open_offer_withdraw_again() -> bool:
        if made and page.locator('#trade-buttons button[data-kind="withdraw"]').count():
            if len(made) == 1:
                assert page.inner_text("#trade-offer-number") == "Offer 1 of 3 this turn"
                _after(page, lambda: page.click('#trade-buttons button[data-kind="withdraw"]'))
                return True
            assert page.inner_text("#trade-offer-number") == (
                "Offer 2 of 3 this turn: the same offer again, after it was withdrawn"
            )
            assert "again" in page.get_attribute("#trade-offer", "class")
            made.append("seen")
            _after(page, lambda: page.click('#trade-buttons button[data-kind="withdraw"]'))
            return True
        if len(made) > 2 or not page.locator("#offer").count():
            return False
        if not made:  # folded: the card with the panel fits the screen, the picker opens on a tap
            assert not page.locator("#offer").get_attribute("open") and not page.is_visible("#offer-send")
            card = _box(page, "#actions-card")
            assert card["y"] >= 0 and card["y"] + card["height"] <= 844, card
            page.click("#offer-open")
            give = page.locator('#offer button[data-offer-side="give"]:not([disabled])').first.get_attribute(
                "data-resource"
            )
            page.click(f'#offer button[data-offer-side="give"][data-resource="{give}"]')
            get = page.locator('#offer button[data-offer-side="get"]:not([disabled])').first.get_attribute(
                "data-resource"
            )
            page.click(f'#offer button[data-offer-side="get"][data-resource="{get}"]')
            made.append((give, get))
        else:  # the picker stays open once opened; the same cards again
            assert page.locator("#offer").get_attribute("open") is not None
            give, get = made[0]
            page.click(f'#offer button[data-offer-side="give"][data-resource="{give}"]')
            page.click(f'#offer button[data-offer-side="get"][data-resource="{get}"]')
            made.append((give, get))
        _after(page, lambda: page.click("#offer-send"))
        return True

    _play_my_turns_until(page, lambda: len(made) > 2, fold_open_offer_withdraw_again)
