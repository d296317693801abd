"""The live page in a real browser: Debian's headless Chromium driven through Selenium.

``companion web`` runs as a process over a store with a Campanile game in progress and the
example games; the browser opens the URL of its first line at a phone's size (390×844), sees
the standings, sees the page change without a reload when a move is entered on the console
(``companion run --headless``, a process of its own), and is refused with a wrong or no
token. Every page of every example, in both languages, is saved as a screenshot for a person
to look at (``$UI_SCREENSHOTS``). The driver is Debian's (``/usr/bin/chromedriver``, given
explicitly, so Selenium Manager downloads nothing); without it, or without Selenium, the
tests are skipped with the reason. Waiting is on what the page shows, with a generous time-out.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.service.app import Companion
from tests.child_output import ChildOutput

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
EXAMPLES = Path(__file__).parent / "data" / "examples"
ROOT = Path(__file__).resolve().parent.parent
PHONE = (390, 844)
#: Seconds to wait for what a page shows (generous: a loaded machine; the lag is the benchmark's).
PATIENCE = 60

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # the dev extra brings it; a bare checkout may not have it
    webdriver = None

pytestmark = pytest.mark.skipif(
    webdriver is None or not CHROMIUM.exists() or not CHROMEDRIVER.exists(),
    reason="needs Selenium (the dev extra) and Debian's chromium and chromium-driver "
           "(sudo apt-get install chromium chromium-driver)")


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, int]]:
    """``companion web`` over the examples and a Campanile game in progress: (URL, data, its id)."""
    data = tmp_path_factory.mktemp("browser") / "data"
    data.mkdir()
    with Companion.open(data / "companion.sqlite3") as app:
        for name in ("campanile-3p.json", "castelli.json", "san-gimignano.json"):
            app.import_record(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))
        playing = app.start("campanile", ["Albert", "Birgit", "Franziska"],
                            setup={"towers": ["red", "blue", "yellow", "brown", "grey"]}).id
    server = ChildOutput(subprocess.Popen(
        [sys.executable, "-m", "companion", "--data-dir", str(data), "web", "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_environment()))
    try:
        yield server.next_line(), data, playing
    finally:
        server.proc.send_signal(signal.SIGTERM)
        server.finish()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={PHONE[0]},{PHONE[1]}", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(PATIENCE)
    try:
        yield driver
    finally:
        driver.quit()


def _main_text(driver: Any) -> str:
    return str(driver.find_element(By.TAG_NAME, "main").text)


def test_a_phone_follows_the_game_without_a_reload(served: tuple[str, Path, int], browser: Any) -> None:
    url, data, playing = served
    base, token = url.split("/?t=")
    browser.get(url)
    browser.find_element(By.CSS_SELECTOR, f"a[href^='/game/{playing}?']").click()
    WebDriverWait(browser, PATIENCE).until(lambda d: f"/game/{playing}" in d.current_url)
    for name in ("Albert", "Birgit", "Franziska"):
        assert name in _main_text(browser)
    before = _main_text(browser)
    browser.execute_script("window.stillTheSamePage = true;")
    entered = subprocess.run(
        [sys.executable, "-m", "companion", "--data-dir", str(data), "run", "--headless",
         "--game", str(playing)],
        input="Albert: brown +3\n", capture_output=True, text=True, env=_environment(), timeout=PATIENCE)
    assert entered.returncode == 0, entered.stderr
    WebDriverWait(browser, PATIENCE).until(lambda d: _main_text(d) != before)
    assert browser.execute_script("return window.stillTheSamePage === true;")  # no reload
    assert browser.current_url.startswith(f"{base}/game/{playing}")

    for refused in (f"{base}/game/{playing}?t={'x' * len(token)}", f"{base}/game/{playing}", f"{base}/stats"):
        browser.get(refused)
        assert "Albert" not in browser.page_source and "Franziska" not in browser.page_source, refused
    browser.get(f"{base}/")  # no token: the landing page, which names nobody
    assert "Albert" not in browser.page_source


def test_every_page_at_a_phones_size_in_both_languages(served: tuple[str, Path, int], browser: Any,
                                                       shots: Path) -> None:
    url, _data, playing = served
    base, token = url.split("/?t=")
    shots.mkdir(parents=True, exist_ok=True)
    pages = {"index": "/", "stats": "/stats", **{f"game-{n}": f"/game/{n}" for n in range(1, playing + 1)}}
    for language in ("en", "hu"):
        for name, path in pages.items():
            browser.get(f"{base}{path}?t={token}&lang={language}")
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
            height = int(browser.execute_script("return document.documentElement.scrollHeight"))
            browser.set_window_size(PHONE[0], max(PHONE[1], min(height + 140, 6000)))
            browser.save_screenshot(str(shots / f"web-{language}-{name}.png"))
            browser.set_window_size(*PHONE)
            width = int(browser.execute_script("return document.documentElement.scrollWidth"))
            assert width <= PHONE[0], (language, name, width)  # nothing wider than the phone



def test_a_phone_refused_on_events_follows_again(served: tuple[str, Path, int], browser: Any) -> None:
    """Issue 34, item 13: a 503 on ``/events`` (here: the page switched off in Settings, then on again)
    makes a browser give up its EventSource for good; ``live.js`` makes a new one, after a pause that
    grows, and the page follows the game again without a reload."""
    from companion.service.web_link import WEB_SETTING

    url, data, playing = served
    base, token = url.split("/?t=")
    browser.get(f"{base}/game/{playing}?t={token}")
    WebDriverWait(browser, PATIENCE).until(lambda d: "Albert" in _main_text(d))
    browser.execute_script("window.stillTheSamePage = true;")
    with Companion.open(data / "companion.sqlite3") as app:
        app.change_setting(WEB_SETTING, False)
    # Refused at least twice in a row (the stream ended, then 503 on each new try).
    WebDriverWait(browser, PATIENCE).until(
        lambda d: d.execute_script("return (window.companionLive || {made: 0}).made >= 3;"))
    with Companion.open(data / "companion.sqlite3") as app:
        app.change_setting(WEB_SETTING, True)
    WebDriverWait(browser, PATIENCE).until(
        lambda d: not d.execute_script("return document.documentElement.classList.contains('stale');"))
    before = _main_text(browser)
    with Companion.open(data / "companion.sqlite3") as app:
        session = app.resume(playing).session
        session.propose(session.game.parse_move(session.game.legal_moves(session.state)[0]))
    WebDriverWait(browser, PATIENCE).until(lambda d: _main_text(d) != before)
    assert browser.execute_script("return window.stillTheSamePage === true;")  # no reload
