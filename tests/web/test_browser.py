"""The page in a real headless Chromium (Debian's package) driven by Playwright: a person plays Catan's setup
and rolls against agents, plays Connect 4 to the end, and replays it. Screenshots go to
``$BOARDZERO_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("BOARDZERO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; .ci/run installs it)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
pytest.importorskip("uvicorn", reason="the web extra (fastapi, uvicorn) is not installed")

from tests.web.live_server import LiveServer, call  # noqa: E402

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 60_000


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
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 1000})
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


def _new_game(page, server, game, players=None, opponent=None):
    page.goto(server.url + "/")
    page.wait_for_selector("#start", timeout=WAIT_MS)
    page.select_option("#game", game)
    if players is not None:
        page.fill('[data-option="players"]', str(players))
        page.dispatch_event('[data-option="players"]', "change")
    if opponent is not None:
        for spec in page.query_selector_all("[data-seat-spec]:not([disabled])"):
            spec.fill(opponent)
    page.fill("#delay", "0")
    page.click("#start")


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
    page.wait_for_function(f"[...document.querySelectorAll('#log > div')].slice({before})"
                           ".some((d) => /dice \\d+/.test(d.textContent))", timeout=WAIT_MS)
    lines = _log_lines(page)
    assert len(lines) > before and any(line.startswith("You: roll dice") for line in lines[before:])
    assert page.inner_text("[data-dice]").strip().isdigit()
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
            hold_next[0] = True  # the page's next snapshot request is the move's own refresh: hold it
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


def _play_turns(page, turns: int) -> None:
    """Play a few of the person's turns through the page: whatever is asked (robber, victim, discard), then
    build whatever is highlighted (city, settlement, road), and end the turn."""
    done = 0
    while done < turns:
        page.wait_for_selector("#status.yours, #game-summary", timeout=WAIT_MS)
        if page.locator("#game-summary").count():
            return
        for selector in ('button[data-kind="roll"]:not([disabled])', "g.legal[data-hex]", 'button[data-kind="rob"]',
                         'button[data-kind="discard"]', 'button[data-kind="take"]', "circle.spot.legal",
                         "rect.path-hit.legal",
                         'button[data-kind="end_turn"]:not([disabled])'):
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
