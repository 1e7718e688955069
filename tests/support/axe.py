"""axe-core over many pages, each loaded once: at 1280 and 390 px, in the light and the dark scheme.

A page is loaded once (at 1280 px, light) and axe runs on it once a pass, the tab resized and the
scheme switched with the page's own switch (Material's palette toggle) in between. The sweep of
every page (`EVERY_WAY`) runs four passes:

    1280 px light  every rule
    1280 px dark   the rules that read colours (`COLOUR_RULES`)
     390 px dark   the rules that read colours
     390 px light  every rule (what a phone lays out differently: a table that scrolls, a target's size)

What the scheme changes is colour and nothing else (the same elements, the same layout), so the
dark passes run only the rules that read colours; the width changes the layout, so each width
runs every rule once. The suite's sample runs two (`CROSSED`): every rule at 1280 px in the light
scheme and every rule at 390 px in the dark one, so that each rule sees both widths and both
schemes, and an element shown at both widths (the content: every table, list and card dipgen
draws) is read in both schemes; what it leaves to the sweep is the colours of what one width alone
shows (Material's sidebars at 1280, its drawer's header at 390) in the other scheme. The pages are
shared between several tabs of one chromium (`workers`), each running its pages one after
another: a renderer per tab, so they use as many cores as there are.

axe is added to each document by Playwright (an init script), not as a ``<script>`` of the page:
the site's CSP rightly refuses one."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
from collections.abc import Iterable

from support.browser import ARGS, AXE, CHROMIUM

#: the rules whose outcome depends on the colours the scheme gives (axe's tags "color")
COLOUR_RULES = ("color-contrast", "link-in-text-block")
#: (width, scheme, rules: None for every rule), in the order one tab runs them: each width and scheme
#: (the sweep of every page), and each rule at both widths and in both schemes (the suite's sample)
Passes = tuple[tuple[int, str, tuple[str, ...] | None], ...]
EVERY_WAY: Passes = ((1280, "light", None), (1280, "dark", COLOUR_RULES), (390, "dark", COLOUR_RULES),
                     (390, "light", None))
CROSSED: Passes = ((1280, "light", None), (390, "dark", None))
HEIGHT = 900
SCHEMES = {"light": "default", "dark": "slate"}  # Material's names, on <body data-md-color-scheme>

#: axe on the whole page: every <details> opened (axe skips what a closed one hides: the order sheet's
#: powers, a collapsed note), once the order sheet has been made from its JSON where the page has one,
#: and once every transition has ended (a dialog fading in, a scheme switching, is grey on grey
#: halfway); its serious and critical violations, each as [rule, impact, targets, summary]
RUN = """async rules => {
    const sheet = document.querySelector('section.dg-sheet[data-dg-sheet] .dg-sheet-app');
    for (let i = 0; sheet && sheet.hidden && i < 200; i++) await new Promise(done => setTimeout(done, 50));
    document.querySelectorAll('details:not([open])').forEach(d => { d.open = true; });
    await new Promise(done => setTimeout(done, 50));  // what a <details> makes when it opens (its toggle event)
    // two frames: what the theme does when the page's size changes (a code block that scrolls at the new
    // width made focusable, by a ResizeObserver: axe would otherwise find a moment a reader never sees)
    await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
    await new Promise(done => { const wait = () => document.getAnimations().every(a => a.playState !== 'running')
        ? done() : requestAnimationFrame(wait); wait(); });
    const options = {resultTypes: ['violations']};
    if (rules) options.runOnly = {type: 'rule', values: rules};
    const found = (await axe.run(document, options)).violations;
    return found.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => [v.id, v.impact, v.nodes.slice(0, 5).map(n => n.target), v.nodes[0].failureSummary]);
}"""

#: Material's palette toggle: the visible one of its labels, clicked as a reader does; false on a
#: page without one (a private page, which follows the system's scheme)
SWITCH = """want => {
    const labels = [...document.querySelectorAll("form[data-md-component='palette'] label")];
    if (!labels.length) return false;
    if (document.body.getAttribute('data-md-color-scheme') !== want) labels.find(l => !l.hidden).click();
    return true;
}"""


def workers() -> int:
    """Tabs at once: one per core this process may use, at most four."""
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))


async def _scheme(page, scheme: str) -> None:
    """The page in `scheme`: the system's (emulated), and the site's own switch where it has one."""
    await page.emulate_media(color_scheme=scheme)
    if await page.evaluate(SWITCH, SCHEMES[scheme]):
        await page.wait_for_function("want => document.body.getAttribute('data-md-color-scheme') === want",
                                     arg=SCHEMES[scheme])


async def _page(page, address: str, passes: Passes) -> list[str]:
    found: list[str] = []
    await page.set_viewport_size({"width": passes[0][0], "height": HEIGHT})
    await page.goto(address, wait_until="load")
    for width, scheme, rules in passes:
        if page.viewport_size["width"] != width:
            await page.set_viewport_size({"width": width, "height": HEIGHT})
        await _scheme(page, scheme)
        for rule, impact, targets, summary in await page.evaluate(RUN, list(rules) if rules else None):
            found.append(f"{width} px {scheme}: {rule} ({impact}): {json.dumps(targets)} {summary}")
    return found


async def _sweep(addresses: list[str], tabs: int, passes: Passes) -> dict[str, list[str]]:
    from playwright.async_api import async_playwright

    queue: asyncio.Queue[str] = asyncio.Queue()
    for address in addresses:
        queue.put_nowait(address)
    found: dict[str, list[str]] = {}
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        # every tab starts in the light scheme; a switch is remembered by the site (localStorage), and
        # the next page's first pass switches to its own scheme. The reader asks for reduced motion (as the
        # layout test's does): each pass waits for every transition to end, and a scheme's colours
        # then come at once instead of fading in (a quarter of the sample's time); the colours axe
        # reads are the same. Each tab is a window of its own (a context each): chromium draws only
        # the window in front, so a second tab of one window waited a second or two for each frame
        # a pass waits for (most of the sample's time, at two tabs)

        async def tab() -> None:
            context = await browser.new_context(viewport={"width": passes[0][0], "height": HEIGHT},
                                                color_scheme="light", reduced_motion="reduce")
            await context.add_init_script(path=str(AXE))
            page = await context.new_page()
            while not queue.empty():
                address = queue.get_nowait()
                found[address] = await _page(page, address, passes)

        await asyncio.gather(*(tab() for _ in range(tabs)))
        await browser.close()
    return found


def sweep(addresses: Iterable[str], passes: Passes = EVERY_WAY, tabs: int | None = None) -> dict[str, list[str]]:
    """axe's serious and critical findings on each page (its address), in each of `passes` (by
    default at both widths in both schemes); `tabs` pages at once (default: `workers()`). Its event
    loop runs in a thread of its own: the thread that calls it may hold Playwright's synchronous API
    (the browser fixture's), whose loop counts as running there."""
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, _sweep(list(addresses), tabs or workers(), passes)).result()
