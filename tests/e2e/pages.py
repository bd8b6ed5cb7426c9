"""Driving the pages in the browser: logging in, and tapping on the recording page."""

from __future__ import annotations

from typing import Any

from tests.factories import PASSWORD


def log_in(page: Any, base_url: str, username: str, next_url: str = "/") -> None:
    """Log in through the login form, as a member would."""
    page.goto(f"{base_url}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    # A form's post loads a new page: wait for that navigation itself (the page's
    # load state is already reached before the click, so waiting for it alone may
    # return before the navigation has begun, and the next step then acts on the old
    # page). The tests' other posts and links do the same.
    with page.expect_navigation():
        page.click("main form button[type=submit]")


class RecordingPage:
    """The recording page: each tap waits for the answer to be drawn."""

    def __init__(self, page: Any, players: dict[str, Any]) -> None:
        self.page = page
        self.ids = {name: str(p.pk) for name, p in players.items()}

    def seq(self) -> int:
        return int(self.page.get_attribute("#record", "data-seq") or 0)

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.page.evaluate("window.Stichbuch.state()")
        return state

    def wait_ready(self) -> None:
        self.page.wait_for_selector("#record[data-seq]")

    def tap(self, selector: str) -> None:
        """Tap something that records an event; fail with the page's error if it is refused."""
        before = self.seq()
        self.page.click(selector)
        self.page.wait_for_function(
            "seq => { const r = document.getElementById('record');"
            " return r.getAttribute('aria-busy') === 'false' && (r.dataset.seq !== String(seq)"
            " || r.querySelector('.engine-error')); }",
            arg=before,
        )
        error = self.page.query_selector("#record .engine-error")
        assert error is None, error.inner_text()

    def play(self, card: str) -> None:
        self.tap(f'#record button[data-act="play"][data-card="{card}"]')

    def raise_(self, name: str, level: str) -> None:
        who = self.ids[name]
        self.tap(f'#record button[data-act="raise"][data-level="{level}"][data-player="{who}"]')

    def card_enabled(self, card: str) -> bool:
        """Is the card offered to play? (A refused one stays tappable: it says why.)"""
        return bool(
            self.page.eval_on_selector(
                f'#record .panel.play button.pc[data-card="{card}"]',
                "b => !b.disabled && b.dataset.act === 'play'",
            )
        )

    def refusal_of(self, card: str) -> str:
        """Tap a refused card and read the reason the page shows next to the grid."""
        # aria-disabled, which Playwright will not click unless forced; a finger does.
        self.page.click(f'#record button[data-act="refused"][data-card="{card}"]', force=True)
        line = self.page.wait_for_selector(f'#record .refusal[data-card="{card}"]')
        text: str = line.inner_text()
        return text

    def grid_in_view(self) -> bool:
        """Is the whole card grid (and so every card) inside the viewport?"""
        return bool(
            self.page.evaluate(
                "() => { const h = document.querySelector('#record .hand');"
                " if (!h) return true; const r = h.getBoundingClientRect();"
                " return r.top >= 0 && r.bottom <= window.innerHeight; }"
            )
        )

    def to_act(self) -> str | None:
        state = self.state()
        reverse = {v: k for k, v in self.ids.items()}
        return reverse.get(state.get("to_act") or "")
