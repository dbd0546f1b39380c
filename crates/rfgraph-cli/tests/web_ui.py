"""Drives the control port's web page in headless Chromium (Debian's,
through Playwright, which downloads no browser). Run by web_ui.rs:

    python web_ui.py tone URL OUT_DIR   # the steerable tone with its spectrum
    python web_ui.py big URL OUT_DIR    # a graph of 200 blocks

Every check raises on failure; the last line printed is a JSON report.
"""
import json
import sys

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"


def node(page, name):
    return page.locator(f'g.node[data-block="{name}"]')


def items(page, name):
    return int(node(page, name).get_attribute("data-items") or "0")


def peak(page):
    v = page.locator('.display[data-kind="freq"]').first.get_attribute("data-peak-hz")
    return float(v) if v is not None else None


def wait_peak(page, hz, tol):
    page.wait_for_function(
        """([hz, tol]) => {
             const d = document.querySelector('.display[data-kind="freq"]');
             return d && d.dataset.peakHz !== undefined && Math.abs(+d.dataset.peakHz - hz) < tol;
           }""",
        arg=[hz, tol],
        timeout=30000,
    )
    return peak(page)


def check_blocks_drawn(page, api):
    graph = page.request.get(api).json()
    names = [b["name"] for b in graph["blocks"]]
    page.wait_for_function("n => document.querySelectorAll('g.node').length >= n", arg=len(names), timeout=30000)
    for n in names:
        assert node(page, n).count() == 1, f"block {n} is not drawn"
    return graph


def tone(page, url, api, out):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    graph = check_blocks_drawn(page, api)
    # The counters rise.
    page.wait_for_function("() => +(document.body.dataset.updates || 0) >= 1", timeout=30000)
    first = items(page, "tone")
    page.wait_for_function(
        "n => +document.querySelector('g.node[data-block=\"tone\"]').dataset.items > n", arg=first, timeout=30000
    )
    rising = items(page, "tone")
    assert rising > first
    # The widgets sit where their gui_hint puts them: frequency at row 0,
    # columns 0-1, amplitude beside it in column 2.
    freq_box = page.locator('[data-widget="freq"]').bounding_box()
    amp_box = page.locator('[data-widget="amplitude"]').bounding_box()
    assert abs(freq_box["y"] - amp_box["y"]) < 2, (freq_box, amp_box)
    assert amp_box["x"] >= freq_box["x"] + freq_box["width"] - 1, (freq_box, amp_box)
    assert freq_box["width"] > 1.5 * amp_box["width"], (freq_box, amp_box)
    # The spectrum shows the tone at 1 kHz (a bin is 48 kHz / 1024 wide).
    p1 = wait_peak(page, 1000.0, 100.0)
    # Moving the frequency widget moves the peak.
    counter = page.locator('input[data-variable-counter="freq"]')
    counter.fill("6000")
    counter.press("Tab")
    p2 = wait_peak(page, 6000.0, 100.0)
    # So does setting the source's parameter in its block panel.
    node(page, "tone").click()
    page.wait_for_selector('#panel input[data-set-param="frequency"]', timeout=30000)
    field = page.locator('#panel input[data-set-param="frequency"]')
    field.fill("-9000")
    field.press("Enter")
    p3 = wait_peak(page, -9000.0, 100.0)
    # The panel shows the block's counters and its items-per-call histogram.
    page.wait_for_function("() => document.querySelectorAll('#panel-hist .hist div').length >= 2", timeout=30000)
    assert "work calls" in page.inner_text("#panel-stats")
    # A message to a handler, awaited, through the panel's form.
    page.select_option("#panel select", "amplitude")
    page.fill("#panel textarea", "0.25")
    page.click("text=Call (await reply)")
    page.wait_for_selector("#panel pre:not([hidden])", timeout=30000)
    reply = page.inner_text("#panel pre")
    assert "err" not in (page.get_attribute("#panel pre", "class") or ""), reply
    amp = page.request.get(api + "/blocks/tone/params/amplitude").json()["value"]["value"]
    assert abs(amp - 0.25) < 1e-9, amp
    page.screenshot(path=f"{out}/web_ui.png", full_page=True)
    assert not errors, errors
    return {"blocks": len(graph["blocks"]), "items_first": first, "items_later": rising,
            "peaks_hz": [p1, p2, p3], "reply": reply}


def big(page, url, api, out):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    graph = check_blocks_drawn(page, api)
    page.wait_for_function("() => RF.perf.updates >= 5", timeout=120000)
    perf = page.evaluate("() => RF.perf")
    # The update itself, apart from the machine's load: 50 updates of the
    # last message with every rate changed, so every label is rewritten.
    bench = page.evaluate(
        """() => {
             const times = [];
             for (let k = 0; k < 50; k++) {
               const m = JSON.parse(JSON.stringify(RF.lastStats));
               m.blocks.forEach((b, i) => { b.out_rate = (k + 1) * 1000 + i; b.work_share = ((k + i) % 10) / 10; });
               const t0 = performance.now();
               RF.graph.update(m);
               times.push(performance.now() - t0);
             }
             times.sort((a, b) => a - b);
             return { median: times[25], max: times[49] };
           }"""
    )
    page.screenshot(path=f"{out}/web_ui_200_blocks.png")
    assert not errors, errors
    return {"blocks": len(graph["blocks"]), "draw_ms": round(perf["draw_ms"], 1),
            "live_update_ms_mean": round(perf["update_ms_total"] / perf["updates"], 2),
            "live_update_ms_max": round(perf["update_ms_max"], 2),
            "full_update_ms_median": round(bench["median"], 2),
            "full_update_ms_max": round(bench["max"], 2)}


def main():
    mode, url, out = sys.argv[1:4]
    base = url.split("/?")[0]
    fg = url.split("fg=")[1].split("&")[0]
    api = f"{base}/api/flowgraphs/{fg}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            report = {"tone": tone, "big": big}[mode](page, url, api, out)
        finally:
            browser.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
