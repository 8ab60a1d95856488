"""`splendor replay --html`: the page is one self-contained file (checked as text), and a real
headless Chromium (Debian's, driven by Playwright) steps through it as a person does: the keys,
the buttons, the slider, a click on the log, a permalink; every table shown is the one the
game had after that event."""

from __future__ import annotations

import html.parser
import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, cli, require, require_program

from splendor_cli import store
from splendor_cli.presentation.replay import frames, replay_html

SAMPLE = ROOT / "games" / "sample-3p.toml"
DUEL = ROOT / "games" / "sample-duel.toml"
CHROMIUM = os.environ.get("SPLENDOR_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


class _Page(html.parser.HTMLParser):
    """The tags, ids and external references of a page, read by a real HTML parser."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.log: list[str] = []
        self.refs: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "li" and found.get("data-seq"):
            self.log.append(str(found["data-seq"]))
        if tag == "script":
            self.scripts += 1
            assert "src" not in found
        for name in ("src", "href"):
            value = found.get(name)
            if value is not None and not value.startswith("#"):
                self.refs.append(value)
        if tag == "link":
            self.refs.append(str(found))


def test_the_page_holds_every_event_and_fetches_nothing() -> None:
    """One log line and one picture per event; no external reference (only `#N` links), a CSP
    that forbids every request, and the pictures travel as JSON a `</script>` cannot close."""
    loaded = store.read(SAMPLE)
    page = replay_html(loaded.game, title="t", subtitle="s")
    parsed = _Page()
    parsed.feed(page)
    assert parsed.log == [str(n) for n in range(1, loaded.game.seq + 1)]
    assert {"table", "log", "slider", "first", "prev", "next", "last", "frames"} <= parsed.ids
    assert parsed.refs == [] and parsed.scripts == 2
    assert "default-src 'none'" in page
    opening = '<script id="frames" type="application/json">'
    start = page.index(opening) + len(opening)
    data = json.loads(page[start : page.index("</script>", start)])
    assert len(data) == loaded.game.seq
    assert all(frame["svg"].startswith("<svg") for frame in data)


def test_what_a_file_says_is_escaped_in_the_page() -> None:
    """The title and subtitle are text; JSON in the page never holds `</` (no early end of the script)."""
    loaded = store.read(DUEL)
    page = replay_html(loaded.game, title="</script><script>alert(1)</script>", subtitle="<b>&")
    assert "<script>alert(1)" not in page and "&lt;/script&gt;" in page and "&lt;b&gt;&amp;" in page
    body = page[page.index('type="application/json">') :]
    assert "</" not in body[: body.index("</script>")]


def test_frames_follow_the_game_event_by_event() -> None:
    """Frame N is the table after event N: its status line is what the game said then."""
    loaded = store.read(SAMPLE)
    for seq, frame in enumerate(frames(loaded.game), start=1):
        if seq in (1, 2, loaded.game.seq):
            moment = loaded.game.at(seq)
            assert frame["status"] == moment.variant.whose_turn(moment.state)


def test_the_command_writes_the_page_beside_the_game_or_where_told(tmp_path: Path) -> None:
    """`replay -o FILE` writes it whole; `-o -` prints it; a link or a .toml is never written over."""
    game = tmp_path / "g.toml"
    game.write_bytes(SAMPLE.read_bytes())
    code, _, err = cli("replay", "--html", "-g", game)
    assert code == 0, err
    assert (tmp_path / "g.html").read_text().startswith("<!doctype html>")
    code, out, _ = cli("replay", "-g", game, "-o", "-")
    assert code == 0 and out.startswith("<!doctype html>")
    (tmp_path / "link.html").symlink_to(tmp_path / "elsewhere.html")
    code, _, err = cli("replay", "-g", game, "-o", tmp_path / "link.html")
    assert code == 2 and "symbolic link" in err and not (tmp_path / "elsewhere.html").exists()
    code, _, err = cli("replay", "-g", game, "-o", tmp_path / "other.toml")
    assert code == 2 and ".toml" in err


# -- in a real browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    """Debian's Chromium, headless, driven by Playwright (no browser of Playwright's own)."""
    sync_api = require("playwright.sync_api")
    require_program("chromium", CHROMIUM)
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.mark.slow
def test_a_person_steps_through_the_whole_game_in_chromium(tmp_path: Path, browser) -> None:  # type: ignore[no-untyped-def]
    """Open the page from disk: it shows the last event; Home, the right arrow, End, the buttons,
    a click on a log line, the slider and a permalink each show the table after the right event
    (its status line, and the picture's own label); nothing but the file is requested."""
    loaded = store.read(SAMPLE)
    game, last = loaded.game, loaded.game.seq
    page_file = tmp_path / "sample.html"
    code, _, err = cli("replay", "--html", "-g", SAMPLE, "-o", page_file)
    assert code == 0, err
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_file.as_uri())

    def at() -> int:
        return int(page.get_attribute("body", "data-seq") or 0)

    def status_of(seq: int) -> str:
        moment = game.at(seq)
        return moment.variant.whose_turn(moment.state)

    def check(seq: int) -> None:
        # the page answers a key or a click in its own time: wait for it (one generous bound), never race it
        page.wait_for_selector(f"body[data-seq='{seq}']", timeout=600_000)  # a selector: the page's CSP allows no eval
        assert at() == seq
        assert page.inner_text("#status") == status_of(seq)
        assert page.inner_text("#where") == f"event {seq} of {last}"
        assert page.get_attribute("#log li.current", "data-seq") == str(seq)
        assert page.locator("#table svg").count() == 1
        assert page.input_value("#slider") == str(seq)

    check(last)
    page.screenshot(path=str(tmp_path / "last.png"))
    page.keyboard.press("Home")
    check(1)
    for seq in range(2, 6):
        page.keyboard.press("ArrowRight")
        check(seq)
        assert page.url.endswith(f"#{seq}")
    page.keyboard.press("ArrowLeft")
    check(4)
    page.click("#last")
    check(last)
    page.click("#prev")
    check(last - 1)
    page.click("#first")
    check(1)
    page.click("#log li[data-seq='12'] a")
    check(12)
    page.screenshot(path=str(tmp_path / "twelve.png"))
    page.fill("#slider", "30")
    check(30)
    page.keyboard.press("End")
    check(last)
    permalink = browser.new_page()
    permalink.goto(page_file.as_uri() + "#7")
    permalink.wait_for_selector("body[data-seq='7']", timeout=600_000)
    assert int(permalink.get_attribute("body", "data-seq") or 0) == 7
    assert permalink.inner_text("#status") == status_of(7)
    permalink.close()
    page.close()
    assert {url.split("#")[0] for url in requests} == {page_file.as_uri()}
