"""Headless Chromium (Debian's, which ``.ci/setup`` installs) for looking at a mail as a reader's screen would:
measurements taken by a script in the page, and screenshots."""

from __future__ import annotations

import email
import json
import os
import re
import shutil
import subprocess
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from PIL import Image

from tests.servers.processes import patience

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
         "--force-device-scale-factor=1")

#: a page of the test's own: the mail in a frame of the screen's width, measured once it (pictures too) has
#: loaded. (A headless window is at least 500 px wide, so a phone's screen is a frame in it.)
PROBE = """<!DOCTYPE html>
<html><body style="margin:0">
<iframe id="page" src="{url}" width="{width}" height="{height}" style="border:0;display:block"></iframe>
<pre id="measured"></pre>
<script>
document.getElementById("page").addEventListener("load", function () {{
  var win = this.contentWindow, doc = this.contentDocument;
  function box(el) {{ var r = el.getBoundingClientRect();
    return {{left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}}; }}
  function shown(el) {{ return el.getBoundingClientRect().width > 0; }}
  var stages = Array.from(doc.querySelectorAll(".stage")).map(function (s) {{
    var board = Array.from(s.querySelectorAll(".board img")).find(shown) || s.querySelector(".board img");
    return {{board: box(board), table: box(s.querySelector(".table table"))}}; }});
  // boxes whose content is wider than they are (they scroll sideways inside the page)
  var scrollers = Array.from(doc.querySelectorAll("body *")).filter(function (el) {{
    return el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(win.getComputedStyle(el).overflowX); }})
    .map(function (el) {{ return {{tag: el.tagName, cls: el.className, scrollWidth: el.scrollWidth,
                                   clientWidth: el.clientWidth}}; }});
  var images = Array.from(doc.images).map(function (img) {{
    return {{src: img.getAttribute("src"), complete: img.complete, natural: img.naturalWidth, box: box(img),
             crop: !!img.closest(".crop"), full: !!img.closest(".full")}}; }});
  var hand = doc.querySelector(".private p"), story = doc.querySelector(".story");
  document.getElementById("measured").textContent = JSON.stringify({{
    viewport: win.innerWidth, scrollWidth: doc.documentElement.scrollWidth,
    scrollingWidth: doc.scrollingElement.scrollWidth, scrollers: scrollers,
    stages: stages, images: images, hand: hand ? box(hand) : null,
    story: story ? box(story) : null}});
}});
</script>
</body></html>
"""


def chromium_path() -> str:
    if os.environ.get("REFEREE_TEST_NO_CHROMIUM") == "1":
        pytest.skip("REFEREE_TEST_NO_CHROMIUM=1: browser tests skipped")
    found = shutil.which("chromium")
    if found is None:
        pytest.fail("chromium not found: run 'bash .ci/setup' as root (it installs Debian's chromium), "
                    "or set REFEREE_TEST_NO_CHROMIUM=1", pytrace=False)
    return found


def run(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                          timeout=patience(120), check=True, stdin=subprocess.DEVNULL)


def _probe(page: Path, width: int, height: int) -> Path:
    probe = page.with_name(f"probe-{width}x{height}.html")
    probe.write_text(PROBE.format(url=page.name, width=width, height=height))
    return probe


def measure(chromium: str, page: Path, width: int, work: Path) -> dict:
    """The page's layout on a screen ``width`` pixels wide."""
    probe = _probe(page, width, 1000)
    done = run(chromium, work / f"profile-measure-{width}", "--allow-file-access-from-files",
               f"--window-size={max(width, 500)},1100", "--virtual-time-budget=10000", "--dump-dom", probe.as_uri())
    found = re.search(r'<pre id="measured">(.*?)</pre>', done.stdout, re.S)
    assert found and found.group(1), done.stdout[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def screenshot(chromium: str, page: Path, width: int, height: int, out: Path, work: Path) -> Image.Image:
    """What a screen ``width`` x ``height`` shows of the page (saved to ``out`` too)."""
    probe = _probe(page, width, height)
    raw = work / f"raw-{out.name}"
    run(chromium, work / f"profile-shot-{width}", "--allow-file-access-from-files",
        f"--window-size={max(width, 500)},{height}", "--virtual-time-budget=10000", f"--screenshot={raw}",
        probe.as_uri())
    with Image.open(raw) as img:
        shot = img.convert("RGB").crop((0, 0, width, height))
    shot.save(out)
    return shot


def mail_page(msg: EmailMessage, out: Path) -> Path:
    """The mail's HTML as a file in ``out``, its cid: pictures written beside it (what a mail client does)."""
    parsed = email.message_from_bytes(bytes(msg), policy=policy.default)
    html = parsed.get_body(("html",)).get_content()  # type: ignore[union-attr]
    for part in parsed.walk():
        if part.get_content_maintype() == "image":
            (out / part.get_filename()).write_bytes(part.get_content())
            html = html.replace(f'cid:{part["Content-ID"].strip("<>")}', part.get_filename())
    assert "cid:" not in html
    page = out / "mail.html"
    page.write_text(html)
    return page
